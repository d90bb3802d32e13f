package policy

import (
	"io"
	"math/rand"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
	"github.com/swfkit/swfkit/pkg/utility"
)

// gaTrace is a trace window read for the GA tests: simulation jobs with the
// default semantics (DESIGN.md) and their SWF records' extension tokens.
type gaTrace struct {
	procs int64
	jobs  []sim.Job
	extra [][]string
	wait  []int64 // the trace's own wait times (field 3)
}

// gaJob is the simulated job of an archive record (processors: requested,
// else allocated; estimate: requested time, else runtime), or false when the
// record cannot be simulated on procs processors.
func gaJob(j *swf.Job, procs int64) (sim.Job, bool) {
	p := j.RequestedProcs
	if p <= 0 {
		p = j.AllocatedProcs
	}
	if j.SubmitTime < 0 || j.RunTime < 0 || p < 1 || p > procs {
		return sim.Job{}, false
	}
	e := j.RequestedTime
	if e <= 0 {
		e = j.RunTime
	}
	return sim.Job{Procs: int32(p), Queue: int32(j.Queue), Submit: j.SubmitTime, Runtime: j.RunTime, Estimate: e}, true
}

// loadGATrace reads the first limit simulable jobs of an archive trace
// (limit <= 0: all), skipping the test when it is absent.
func loadGATrace(tb testing.TB, name string, limit int) *gaTrace {
	tb.Helper()
	path := testutil.Trace(tb, name)
	f, err := cmdio.Open(path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	r := swf.NewReader(f)
	r.Name = path
	h, err := r.Header()
	if err != nil {
		tb.Fatal(err)
	}
	procs, ok, err := h.MaxProcs()
	if err != nil || !ok {
		if procs, ok, err = h.MaxNodes(); err != nil || !ok {
			tb.Skipf("%s: no machine size", name)
		}
	}
	t := &gaTrace{procs: procs}
	for limit <= 0 || len(t.jobs) < limit {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		sj, ok := gaJob(&j, procs)
		if !ok {
			continue
		}
		t.jobs = append(t.jobs, sj)
		t.extra = append(t.extra, append([]string(nil), j.Extra...))
		t.wait = append(t.wait, j.WaitTime)
	}
	return t
}

// run simulates a fresh copy of the trace's jobs under p.
func (t *gaTrace) run(tb testing.TB, p sim.Policy) []sim.Job {
	tb.Helper()
	jobs := append([]sim.Job(nil), t.jobs...)
	s, err := sim.New(sim.Config{Procs: t.procs}, jobs)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Run(p); err != nil {
		tb.Fatal(err)
	}
	return jobs
}

// syntheticUtilities gives each job a linear-ish utility (three points) in
// the spirit of Lee 2.6: start value proportional to processor-minutes
// requested, deadline twice the trace's wait (at least 10 s).
func (t *gaTrace) syntheticUtilities(seed int64) []utility.Func {
	rng := rand.New(rand.NewSource(seed))
	fs := make([]utility.Func, len(t.jobs))
	for i, j := range t.jobs {
		v := float64(j.Procs) * float64(max(j.Estimate, 1)) / 60 * (0.2 + 1.6*rng.Float64())
		d := float64(max(2*t.wait[i], 10))
		mid := d * rng.Float64()
		fs[i].Points = []utility.Point{{Time: 0, Value: v}, {Time: mid, Value: v * rng.Float64()}, {Time: d, Value: 0}}
		if mid == 0 {
			fs[i].Points = fs[i].Points[1:]
			fs[i].Points[0].Time = 0
		}
	}
	return fs
}
