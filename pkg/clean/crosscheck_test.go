package clean_test

// Compares the model of crosscheck_model_test.go with the real swfclean: the
// Checker through pkg/clean's exported API, the cleaning through the
// command's Run in-process (stdout read back as SWF, --report JSON), on random
// small traces full of edge values and on the archive traces.

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	cleancli "github.com/swfkit/swfkit/internal/cli/clean"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/clean"
	"github.com/swfkit/swfkit/pkg/swf"
)

func xcRead(t testing.TB, text string) (*swf.Header, []swf.Job) {
	t.Helper()
	return testutil.ReadSWF(t, strings.NewReader(text))
}

// xcTrace reads an archive trace, the first limit records (0: all).
func xcTrace(t testing.TB, name string, limit int) string {
	t.Helper()
	f, err := os.Open(testutil.Trace(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	if limit == 0 {
		return string(data)
	}
	var b strings.Builder
	n := 0
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if s := strings.TrimSpace(line); s != "" && !strings.HasPrefix(s, ";") {
			if n == limit {
				break
			}
			n++
		}
		b.WriteString(line)
	}
	return b.String()
}

// --- random traces -------------------------------------------------------------

func pick(r *rand.Rand, vs ...int64) int64 { return vs[r.IntN(len(vs))] }

func xcRandomTrace(r *rand.Rand, n int) string {
	var b strings.Builder
	if r.IntN(4) > 0 {
		fmt.Fprintf(&b, "; MaxProcs: %d\n", pick(r, 8, 16, 32))
	}
	if r.IntN(3) == 0 {
		fmt.Fprintf(&b, "; MaxNodes: %d\n", pick(r, 4, 16))
	}
	switch r.IntN(4) {
	case 0:
		b.WriteString("; Preemption: No\n")
	case 1:
		b.WriteString("; Preemption: Yes\n")
	}
	if r.IntN(3) == 0 {
		fmt.Fprintf(&b, "; MaxRuntime: %d\n", pick(r, 50, 100))
	}
	if r.IntN(3) == 0 {
		fmt.Fprintf(&b, "; MaxJobs: %d\n", pick(r, int64(n), int64(n-1), 12))
	}
	if r.IntN(3) == 0 {
		fmt.Fprintf(&b, "; MaxRecords: %d\n", pick(r, int64(n), int64(n+1)))
	}
	if r.IntN(2) == 0 {
		b.WriteString("; UnixStartTime: 1000000\n")
	}
	if r.IntN(3) == 0 {
		zones := []string{"UTC", "Europe/Stockholm", "Local", "localtime", "Mars/Olympus", ""}
		fmt.Fprintf(&b, "; TimeZoneString: %s\n", zones[r.IntN(len(zones))])
	}
	job := int64(0)
	submit := int64(r.IntN(50))
	for i := 0; i < n; i++ {
		if r.IntN(6) > 0 || job == 0 {
			job += pick(r, 1, 1, 1, 2)
		} else {
			job -= int64(r.IntN(int(job)))
		}
		submit += pick(r, 0, 0, 1, 5, 30, -3)
		sub := submit
		if r.IntN(15) == 0 {
			sub = pick(r, -1, -5)
		}
		edge := func(vals ...int64) int64 {
			if r.IntN(3) == 0 {
				return pick(r, -1, 0, -2, -61, -4000)
			}
			return pick(r, vals...)
		}
		cpu := fmt.Sprint(edge(0, 3, 10, 50, 120))
		if r.IntN(4) == 0 {
			cpu = fmt.Sprintf("%.2f", float64(r.IntN(2000))/10)
		}
		fmt.Fprintf(&b, "%d %d %d %d %d %s %d %d %d %d %d %d %d %d %d %d %d %d\n",
			job, sub, edge(0, 5, 100), edge(0, 1, 10, 49, 60, 200),
			edge(1, 2, 4, 8, 9, 16, 40), cpu, edge(100, 500), edge(1, 2, 4, 8, 12, 40),
			edge(5, 10, 60, 100), edge(100, 400), pick(r, -1, 0, 1, 1, 1, 2, 3, 4, 5, 5, 6, -3),
			edge(1, 2, 3), edge(1, 2), edge(1, 7), pick(r, -1, 0, 1, 2), edge(1, 3),
			pick(r, -1, -1, job-1, job+1, 1), edge(0, 10))
	}
	return b.String()
}

// --- checks ------------------------------------------------------------------

func compareChecks(t *testing.T, name, text string) bool {
	t.Helper()
	h, jobs := xcRead(t, text)
	model := modelRunChecks(h, jobs)
	c := clean.NewChecker(h)
	for i := range jobs {
		c.Check(&jobs[i])
	}
	got := c.Result()
	ok := true
	bad := func(format string, args ...any) {
		ok = false
		t.Errorf("%s: "+format, append([]any{name}, args...)...)
	}
	gotFired := map[string]clean.Fired{}
	for _, f := range got.Fired {
		gotFired[f.Name] = f
	}
	for _, a := range clean.Anomalies {
		m, g := model.Fired[a.Name], gotFired[a.Name]
		mc := 0
		var ml []int
		if m != nil {
			mc, ml = m.Count, m.Lines
		}
		if mc != g.Count {
			bad("%s: count %d, model %d (model lines %v, tool lines %v)", a.Name, g.Count, mc, ml, g.Lines)
			continue
		}
		if a.Name == "header_label_twice" {
			continue // which lines it names is not documented
		}
		if mc > 0 && !reflect.DeepEqual(ml, g.Lines) {
			bad("%s: lines %v, model %v", a.Name, g.Lines, ml)
		}
	}
	if got.Records != model.Records || got.DistinctJobs != model.DistinctJobs ||
		got.MaxJob != model.MaxJob || got.LargestProcs != model.LargestProcs ||
		got.FirstSubmit != model.FirstSubmit || got.LastSubmit != model.LastSubmit ||
		got.Machine != model.Machine {
		bad("summary %+v, model %+v", *got, *model)
	}
	if len(jobs) > 0 && got.MinJob != model.MinJob {
		bad("MinJob %d, model %d", got.MinJob, model.MinJob)
	}
	if !reflect.DeepEqual(got.MissingLabels, model.Missing) && !(len(got.MissingLabels) == 0 && len(model.Missing) == 0) {
		bad("missing labels %v, model %v", got.MissingLabels, model.Missing)
	}
	return ok
}

func TestCrossCheckRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 400; i++ {
		text := xcRandomTrace(r, 1+r.IntN(30))
		if !compareChecks(t, fmt.Sprintf("trace %d", i), text) {
			t.Logf("input:\n%s", text)
			return
		}
	}
}

var xcRealTraces = []struct {
	name  string
	limit int
}{
	{"KTH-SP2-1996-2.1-cln.swf.gz", 0},
	{"KTH-SP2-1996-2-unfiltered.swf.gz", 0},
	{"LANL-CM5-1994-4.1-cln.swf.gz", 40000},
	{"HPC2N-2002-2-first3170.swf.gz", 0},
	{"LLNL-Atlas-2006-2.1-cln.swf.gz", 0},
	{"CEA-Curie-2011-sample.swf.gz", 0},
}

func TestCrossCheckRealTraces(t *testing.T) {
	for _, tr := range xcRealTraces {
		t.Run(tr.name, func(t *testing.T) {
			compareChecks(t, tr.name, xcTrace(t, tr.name, tr.limit))
		})
	}
}

// --- cleaning through the command ---------------------------------------------

type xcReport struct {
	Read      int `json:"records_read"`
	Written   int `json:"records_written"`
	Dropped   int `json:"records_dropped"`
	Malformed int `json:"malformed_skipped"`
	Rules     []struct {
		Rule    string `json:"rule"`
		Dropped int    `json:"dropped"`
		Changed int    `json:"changed"`
	} `json:"rules"`
}

type xcRun struct {
	code           int
	stdout, stderr string
	report         xcReport
}

func xcSwfclean(t testing.TB, input string, args ...string) xcRun {
	t.Helper()
	rep := filepath.Join(t.TempDir(), "r.json")
	argv := append([]string{"swfclean", "-q", "--report", rep}, args...)
	argv = append(argv, "-")
	var out, errb bytes.Buffer
	code := cleancli.Run(argv, strings.NewReader(input), &out, &errb)
	res := xcRun{code: code, stdout: out.String(), stderr: errb.String()}
	if code == 0 {
		data, err := os.ReadFile(rep)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &res.report); err != nil {
			t.Fatalf("%v: %s", err, data)
		}
	}
	return res
}

type xcCleanCase struct {
	rules   []string // model rules
	args    []string // swfclean options
	machine int64
	flurry  [3]float64 // window, min jobs, share (0: default)
}

// headerMachine is MaxProcs, else MaxNodes (0 when neither).
func headerMachine(h *swf.Header) int64 {
	for _, label := range []string{"MaxProcs", "MaxNodes"} {
		if l, ok := headerLabel(h, label); ok {
			if v, ok := leadingInt(l.Value); ok {
				return v
			}
		}
	}
	return 0
}

// compareClean runs one rule set on one trace and compares records, tallies,
// header counts and raw lines; it returns false on the first disagreement.
func compareClean(t *testing.T, name, text string, c xcCleanCase) bool {
	t.Helper()
	h, jobs := xcRead(t, text)
	cfg := modelCleanConfig{Rules: c.rules, Machine: c.machine, HdrMach: headerMachine(h), Unix: -1}
	cfg.Flurry.Window, cfg.Flurry.MinJobs, cfg.Flurry.MinShare = int64(c.flurry[0]), int(c.flurry[1]), c.flurry[2]
	if v, ok := headerLabel(h, "UnixStartTime"); ok {
		cfg.Unix, _ = leadingInt(v.Value)
	}
	model := modelCleanRun(jobs, cfg)
	run := xcSwfclean(t, text, c.args...)
	fail := func(format string, args ...any) bool {
		t.Errorf("%s %v: "+format, append([]any{name, c.args}, args...)...)
		return false
	}
	if run.code != 0 {
		return fail("exit %d: %s", run.code, run.stderr)
	}
	oh, out := xcRead(t, run.stdout)
	rep := run.report
	if rep.Read != len(jobs) || rep.Read != rep.Written+rep.Dropped || rep.Written != len(out) {
		return fail("accounting read %d written %d dropped %d, %d records out of %d in", rep.Read, rep.Written, rep.Dropped, len(out), len(jobs))
	}
	if len(out) != len(model.Jobs) {
		return fail("%d records written, model %d", len(out), len(model.Jobs))
	}
	inByLine := map[int]*swf.Job{}
	for i := range jobs {
		inByLine[jobs[i].Line] = &jobs[i]
	}
	distinct := map[int64]bool{}
	for i := range out {
		g, m := &out[i], &model.Jobs[i]
		distinct[g.JobNumber] = true
		if !fieldsEqual(g, m) {
			return fail("record %d (input line %d):\n tool  %s\n model %s", i+1, m.Line, g.AppendCanonical(nil), m.AppendCanonical(nil))
		}
		if !reflect.DeepEqual(g.Extra, m.Extra) && !(len(g.Extra) == 0 && len(m.Extra) == 0) {
			return fail("record %d extra %q, model %q", i+1, g.Extra, m.Extra)
		}
		if in := inByLine[m.Line]; in != nil && fieldsEqual(in, m) && !bytes.Equal(g.Raw(), in.Raw()) {
			return fail("unchanged record %d not byte-identical: %q, input %q", i+1, g.Raw(), in.Raw())
		}
	}
	sum := 0
	for _, s := range rep.Rules {
		sum += s.Dropped
		mt := model.Tally[s.Rule]
		if mt == nil {
			return fail("report names step %q the model did not run", s.Rule)
		}
		if mt.Dropped != s.Dropped || mt.Changed != s.Changed {
			return fail("%s: dropped %d changed %d, model dropped %d changed %d", s.Rule, s.Dropped, s.Changed, mt.Dropped, mt.Changed)
		}
	}
	if sum+rep.Malformed != rep.Dropped {
		return fail("steps drop %d + malformed %d != dropped %d", sum, rep.Malformed, rep.Dropped)
	}
	if len(rep.Rules) != len(model.Order) {
		return fail("report has %d steps, model %d", len(rep.Rules), len(model.Order))
	}
	if v, _ := oh.Get("MaxRecords"); v != fmt.Sprint(len(out)) {
		return fail("MaxRecords %q, %d written", v, len(out))
	}
	if v, _ := oh.Get("MaxJobs"); v != fmt.Sprint(len(distinct)) {
		return fail("MaxJobs %q, %d distinct written", v, len(distinct))
	}
	note := fmt.Sprintf("cleaned by swfclean: %d records read, %d written, %d dropped (0 malformed)", rep.Read, rep.Written, rep.Dropped)
	if !strings.Contains(strings.Join(oh.GetAll("Note"), "\n"), note) {
		return fail("no Note %q in %q", note, oh.GetAll("Note"))
	}
	if model.Unix >= 0 && model.Shift > 0 {
		if v, _ := oh.Get("UnixStartTime"); v != fmt.Sprint(model.Unix) {
			return fail("UnixStartTime %q, model %d", v, model.Unix)
		}
	}
	return true
}

func xcRuleCases() []xcCleanCase {
	cases := []xcCleanCase{
		{rules: clean.DefaultRules(), args: nil},
		{rules: clean.DefaultRules(), args: []string{"--procs", "12"}, machine: 12},
	}
	for _, r := range registryOrder {
		if r == "flurries" {
			continue // TestCrossCheckFlurries
		}
		cases = append(cases, xcCleanCase{rules: []string{r}, args: []string{"--rules", r}})
	}
	cases = append(cases,
		xcCleanCase{rules: []string{"clamp_too_big", "too_big"}, args: []string{"--rules", "clamp_too_big,too_big", "--procs", "6"}, machine: 6},
		xcCleanCase{rules: []string{"merge_partial", "zero_to_unknown", "negative_to_unknown", "cancelled_unstarted", "no_procs", "too_big", "unknown_runtime", "unknown_submit", "sort_submit", "shift_time", "renumber"},
			args: []string{"--rules", "renumber,default,shift_time,sort_submit,merge_partial"}},
		xcCleanCase{rules: []string{"zero_to_unknown", "negative_to_unknown", "runtime_from_cpu", "estimate_from_runtime", "renumber", "anonymize"},
			args: []string{"--rules", "all", "--skip", "flurries,merge_partial,clamp_too_big,cancelled_unstarted,no_procs,too_big,unknown_runtime,unknown_submit,sort_submit,shift_time"}},
	)
	return cases
}

func TestCrossCheckCleanRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cases := xcRuleCases()
	for i := 0; i < 30; i++ {
		text := xcRandomTrace(r, 1+r.IntN(25))
		for _, c := range cases {
			if !compareClean(t, fmt.Sprintf("trace %d", i), text, c) {
				t.Logf("input:\n%s", text)
				return
			}
		}
	}
}

func TestCrossCheckCleanRealTraces(t *testing.T) {
	for _, tr := range xcRealTraces {
		t.Run(tr.name, func(t *testing.T) {
			// the first 1,500 records: 20 rule sets through the command under
			// -race stay within a few seconds per trace
			text := xcTrace(t, tr.name, 1500)
			for _, c := range xcRuleCases() {
				if !compareClean(t, tr.name, text, c) {
					return
				}
			}
		})
	}
}
