package augment_test

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/swfkit/swfkit/pkg/augment"
	"github.com/swfkit/swfkit/pkg/swf"
)

// refLoadInputs are the traces the load model is compared on.
func refLoadInputs(t *testing.T) map[string][]byte {
	ins := map[string][]byte{
		"KTH-SP2":      refSharedTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz", 0),
		"LANL-CM5":     refSharedTrace(t, "LANL-CM5-1994-4.1-cln.swf.gz", 20000),
		"RICC[:15000]": refSharedTrace(t, "RICC-2010-2.swf.gz", 15000),
	}
	for s := uint64(1); s <= 6; s++ {
		ins["random"+strconv.FormatUint(s, 10)] = refGenTrace(s, 300, s%2 == 0)
	}
	return ins
}

// TestReferenceLoad compares --load F and --target-load L with the documented
// map s -> first + round((s - first)/F): only field 2 changes, a job whose
// submit time stays is written back byte-identical, the header's MaxProcs
// is rewritten only with --procs, and LoadReport's loads and spans are the
// model's.
func TestReferenceLoad(t *testing.T) {
	for name, data := range refLoadInputs(t) {
		in := refRead(t, data)
		machine, _, _ := in.hdr.MaxProcs()
		before, spanBefore := refOfferedLoad(in.jobs, machine)
		cases := []struct {
			args   []string
			factor float64 // 0: from the target
			target float64
			procs  int64
		}{
			{args: []string{"--load", "2"}, factor: 2},
			{args: []string{"--load", "1.7"}, factor: 1.7},
			{args: []string{"--load", "0.5"}, factor: 0.5},
			{args: []string{"--load", "3"}, factor: 3},
			{args: []string{"--target-load", "0.9"}, target: 0.9},
			{args: []string{"--target-load", "1.2", "--procs", "50"}, target: 1.2, procs: 50},
		}
		for k, c := range cases {
			if !strings.HasPrefix(name, "random") && k != 0 && k != 4 {
				continue // real traces: --load 2 (many half-way ties) and a target
			}
			t.Run(name+" "+strings.Join(c.args, " "), func(t *testing.T) {
				m := machine
				if c.procs > 0 {
					m = c.procs
				}
				load, _ := refOfferedLoad(in.jobs, m)
				f := c.factor
				if c.target > 0 {
					f = c.target / load
				}
				// The library's report: factor, loads and spans.
				lib := refRead(t, data)
				rep, err := augment.ScaleLoad(lib.jobs, m, c.factor, c.target)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(rep.Factor-f) > 1e-12*f {
					t.Fatalf("factor %v, model %v", rep.Factor, f)
				}
				// The submit times are mapped with the tool's own factor: a
				// last-bit difference in F may move a half-way rounding.
				want := refScaledSubmits(in.jobs, rep.Factor)
				after, spanAfter := refOfferedLoad(withSubmits(in.jobs, want), m)
				if c.procs == 0 {
					if math.Abs(rep.Before-before) > 1e-12*before || rep.SpanBefore != spanBefore {
						t.Errorf("before %v span %d, model %v span %d", rep.Before, rep.SpanBefore, before, spanBefore)
					}
				}
				if math.Abs(rep.After-after) > 1e-12*after || rep.SpanAfter != spanAfter {
					t.Errorf("after %v span %d, model %v span %d", rep.After, rep.SpanAfter, after, spanAfter)
				}
				unknown := 0
				for i := range in.jobs {
					if in.jobs[i].SubmitTime < 0 {
						unknown++
					}
				}
				if rep.UnknownSubmit != unknown {
					t.Errorf("UnknownSubmit %d, model %d", rep.UnknownSubmit, unknown)
				}
				// The command, field by field.
				out := refRead(t, refRun(t, data, c.args...))
				refCompare(t, in.jobs, out.jobs, func(i int) refExpect {
					e := refExpectFrom(&in.jobs[i])
					e.fields[swf.FieldSubmitTime-1] = float64(want[i])
					e.changed = want[i] != in.jobs[i].SubmitTime
					return e
				})
				gotProcs, _, _ := out.hdr.MaxProcs()
				if wantProcs := m; gotProcs != wantProcs {
					t.Errorf("MaxProcs %d, want %d", gotProcs, wantProcs)
				}
				nodesIn, _ := in.hdr.Get("MaxNodes")
				nodesOut, _ := out.hdr.Get("MaxNodes")
				if nodesIn != nodesOut {
					t.Errorf("MaxNodes %q became %q (docs: left as it is)", nodesIn, nodesOut)
				}
			})
		}
	}
}

func withSubmits(jobs []swf.Job, submits []int64) []swf.Job {
	out := make([]swf.Job, len(jobs))
	copy(out, jobs)
	for i := range out {
		out[i].SubmitTime = submits[i]
	}
	return out
}

// TestReferenceLoadEndTime checks the documented header rewrite on KTH-SP2:
// EndTime's time since the first submit divided by F and written in the
// TimeZoneString's zone, padded as the input pads; docs' example: --load 1.7
// turns Fri Aug 29 1997 into Mon Apr 14 1997.
func TestReferenceLoadEndTime(t *testing.T) {
	data := refSharedTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz", 0)
	in := refRead(t, data)
	out := refRead(t, refRun(t, data, "--load", "1.7"))
	zone, _ := in.hdr.Get("TimeZoneString")
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Skip("zone not known here:", err)
	}
	unixStart, _, _ := in.hdr.UnixStartTime()
	endText, _ := in.hdr.Get("EndTime")
	end, exact, err := swf.ParseDate(endText, loc)
	if err != nil || !exact {
		t.Fatalf("EndTime %q: %v (exact %v)", endText, err, exact)
	}
	first := int64(math.MaxInt64)
	for i := range in.jobs {
		if s := in.jobs[i].SubmitTime; s >= 0 {
			first = min(first, s)
		}
	}
	e := end.Unix() - unixStart
	newEnd := time.Unix(unixStart+first+refRound(float64(e-first)/1.7), 0).In(loc)
	layout, ok := swf.DateLayoutOf(endText)
	if !ok {
		start, _ := in.hdr.Get("StartTime")
		if layout, ok = swf.DateLayoutOf(start); !ok {
			layout = swf.DateLayout
		}
	}
	want := newEnd.Format(layout)
	got, _ := out.hdr.Get("EndTime")
	if got != want {
		t.Errorf("EndTime %q, model %q", got, want)
	}
	if !strings.HasPrefix(want, "Mon Apr 14") || !strings.HasSuffix(want, "1997") {
		t.Errorf("model EndTime %q is not the docs' Mon Apr 14 1997", want)
	}
}
