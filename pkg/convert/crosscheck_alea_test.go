package convert_test

// A simple model of swfclean --from alea, written from docs/swfclean.md
// ("alea") and ReadAlea's doc comment only, compared field by field with
// ReadAlea on MetaCentrum's log, slices of it and hand-made lines.
//
// Readings where the docs are silent: requested memory per processor is
// divided by field 5 (else field 8) and rounded to the nearest KB; the unit's
// median is taken over the jobs with a known memory and processors, the upper
// middle of an even count; jobid= is the id as written. A node run of one is
// written "ID", not "ID*1" (the page shows only ID*COUNT; the model first
// wrote ID*1 and the tool disagreed).

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/convert"
)

type aleaModelJob struct {
	f                [19]float64
	id, queue, props string
	nodes            string
	order, line      int
}

func modelAlea(text string) ([]aleaModelJob, int64) {
	var jobs []aleaModelJob
	for i, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Fields(line)
		j := aleaModelJob{id: cols[0], order: len(jobs), line: i + 1}
		for k := 0; k < 18; k++ {
			j.f[k+1], _ = strconv.ParseFloat(cols[k], 64)
		}
		// node list: run-length of consecutive equal ids
		var rl []string
		ids := strings.Split(strings.Trim(cols[18], "{}"), ",")
		for k := 0; k < len(ids); {
			n := 1
			for k+n < len(ids) && ids[k+n] == ids[k] {
				n++
			}
			if n == 1 {
				rl = append(rl, ids[k]) // "ID*1" is written "ID"
			} else {
				rl = append(rl, fmt.Sprintf("%s*%d", ids[k], n))
			}
			k += n
		}
		j.nodes = strings.Join(rl, ",")
		j.queue = cols[19]
		j.props = strings.Join(cols[20:], " ")
		jobs = append(jobs, j)
	}
	// unit of field 10
	var per []float64
	procs := func(j *aleaModelJob) float64 {
		if j.f[5] > 0 {
			return j.f[5]
		}
		return j.f[8]
	}
	for k := range jobs {
		if p := procs(&jobs[k]); jobs[k].f[10] > 0 && p > 0 {
			per = append(per, jobs[k].f[10]/p)
		}
	}
	sort.Float64s(per)
	bytesUnit := len(per) > 0 && per[len(per)/2] > 64*1024*1024
	// placeholders; a preceding job every line names, itself among them, is
	// one in any file
	selfNamed, sameAll := false, true
	for k := range jobs {
		sameAll = sameAll && jobs[k].f[17] == jobs[0].f[17]
		selfNamed = selfNamed || jobs[k].f[17] == jobs[k].f[1]
	}
	if sameAll && selfNamed && jobs[0].f[17] != -1 {
		for k := range jobs {
			jobs[k].f[17], jobs[k].f[18] = -1, -1
		}
	}
	if len(jobs) >= 100 {
		for _, f := range []int{6, 7, 14, 16, 17, 18} {
			same := true
			for k := range jobs {
				same = same && jobs[k].f[f] == jobs[0].f[f]
			}
			if same {
				for k := range jobs {
					jobs[k].f[f] = -1
				}
			}
		}
	}
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].f[2] < jobs[b].f[2] })
	unix := int64(jobs[0].f[2])
	newNum := map[float64]float64{}
	queues := map[string]float64{}
	for k := range jobs {
		j := &jobs[k]
		oldID := j.f[1]
		j.f[1] = float64(k + 1)
		j.f[2] -= float64(unix)
		if p := procs(j); j.f[10] > 0 && p > 0 {
			v := j.f[10]
			if bytesUnit {
				v /= 1024
			}
			j.f[10] = math.Round(v / p)
		}
		if j.f[17] != -1 {
			if n, ok := newNum[j.f[17]]; ok {
				j.f[17] = n
			} else {
				j.f[17], j.f[18] = -1, -1
			}
		}
		if _, ok := newNum[oldID]; !ok {
			newNum[oldID] = j.f[1]
		}
		if _, ok := queues[j.queue]; !ok {
			queues[j.queue] = float64(len(queues) + 1)
		}
		j.f[15] = queues[j.queue]
	}
	return jobs, unix
}

func compareAlea(t *testing.T, name, text string) bool {
	t.Helper()
	res, err := convert.ReadAlea(strings.NewReader(text), convert.Config{Name: name})
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return false
	}
	m, unix := modelAlea(text)
	if len(res.Jobs) != len(m) {
		t.Errorf("%s: %d jobs, model %d", name, len(res.Jobs), len(m))
		return false
	}
	bad := 0
	for i := range m {
		g, mj := &res.Jobs[i], &m[i]
		for f := 1; f <= 18; f++ {
			if gv, mv := g.Field(f), mj.f[f]; math.Abs(gv-mv) > 1e-9 && bad < 10 {
				t.Errorf("%s: job %d (line %d) field %d (%s): %v, model %v", name, i+1, mj.line, f, fieldName(f), gv, mv)
				bad++
			}
		}
		for key, want := range map[string]string{"jobid": mj.id, "nodes": mj.nodes, "props": mj.props} {
			if v, _ := g.ExtraValue(key); v != want && bad < 10 {
				t.Errorf("%s: job %d %s=%q, model %q", name, i+1, key, v, want)
				bad++
			}
		}
	}
	if v, _ := res.Header.Get("UnixStartTime"); v != fmt.Sprint(unix) {
		t.Errorf("%s: UnixStartTime %s, model %d", name, v, unix)
	}
	a := res.Accounting
	if !a.Balanced() || a.JobLines != len(m) {
		t.Errorf("%s: accounting %+v", name, a)
	}
	return bad == 0
}

func metaCentrum(t *testing.T) string {
	f, err := os.Open(testutil.NotSWF(t))
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := io.Copy(&b, z); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestCrossCheckAleaMetaCentrum(t *testing.T) {
	text := metaCentrum(t)
	lines := strings.SplitAfter(text, "\n")
	compareAlea(t, "MetaCentrum", text)
	for _, n := range []int{1, 2, 50, 99, 100, 101, 2000} {
		compareAlea(t, fmt.Sprintf("MetaCentrum first %d", n), strings.Join(lines[:n], ""))
	}
	compareAlea(t, "MetaCentrum 5000-5300", strings.Join(lines[5000:5300], ""))
}

func TestCrossCheckAleaEdgeCases(t *testing.T) {
	line := func(id, submit, prev, think int, nodes, queue string) string {
		return fmt.Sprintf("%d %d 5 100 2 3.5 2048 2 200 4096 1 %d 2 1 -1 1 %d %d %s %s 1:ppn=2:x\n",
			id, submit, 1+id%3, prev, think, nodes, queue)
	}
	text := line(0, 1000, -1, -1, "{7,7}", "q_long") +
		line(1, 1010, 0, 30, "{3,5}", "q_short") + // earlier job
		line(2, 1005, 3, 20, "{3,3}", "q_long") + // a later job (submitted after)
		line(3, 1020, 3, 10, "{5,5}", "q_x") + // itself
		line(4, 1020, 99, 10, "{1,2}", "q_short") + // not in the log
		line(5, 1030, 1, 0, "{4,4}", "q_long")
	compareAlea(t, "references", text)
}
