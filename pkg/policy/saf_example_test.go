package policy

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/extpolicy"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

// The worked example of docs/adding-a-policy.md, kept here so that it
// compiles and is tested; registering it would be one line in registry.go:
//
//	{Name: "saf", Summary: "smallest area (processors x estimate) first, EASY backfilling",
//		New: func(Params, int) (sim.Policy, error) { return NewSAF(), nil }},

// NewSAF returns smallest-area-first with EASY backfilling: the waiting queue
// ordered by processors x requested time, smallest first, ties by submit
// time then file order, and EASY backfilling (see EASY) over that order.
func NewSAF() sim.Policy {
	return newOrderedEASY(true, func(_ int64, j *sim.Job) float64 {
		return float64(j.Procs) * float64(j.Estimate)
	})
}

// On 4 processors (runtime = estimate):
//
//	job 0: submit 0, 4 procs, 10 s   starts at 0
//	job 1: submit 1, 2 procs, 20 s   area 40
//	job 2: submit 2, 1 proc,  30 s   area 30
//	job 3: submit 3, 3 procs,  5 s   area 15
//
// At 10 job 0 ends: by area, job 3 starts (1 free), job 2 starts (0 free);
// job 1 waits for job 3's end at 15. FCFS would start 1 and 2 at 10 and
// job 3 at 30.
func TestSAFExample(t *testing.T) {
	jobs := []sim.Job{
		{Procs: 4, Submit: 0, Runtime: 10, Estimate: 10},
		{Procs: 2, Submit: 1, Runtime: 20, Estimate: 20},
		{Procs: 1, Submit: 2, Runtime: 30, Estimate: 30},
		{Procs: 3, Submit: 3, Runtime: 5, Estimate: 5},
	}
	s, err := sim.New(sim.Config{Procs: 4}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(NewSAF()); err != nil {
		t.Fatal(err)
	}
	want := []int64{0, 15, 10, 10}
	for i, w := range want {
		if jobs[i].Start != w {
			t.Errorf("job %d starts at %d, want %d", i, jobs[i].Start, w)
		}
	}
}

// The external-program version of the example, examples/policies/saf.py,
// makes the same schedule as NewSAF on the first 3,000 bundled KTH-SP2 jobs,
// with and without kills.
func TestIntegrationSAFProgram(t *testing.T) {
	python := testutil.Component(t, "python3", "python3")
	script := filepath.Join(testutil.RepoRoot(t), "examples", "policies", "saf.py")
	tr := simtest.Load(t, filepath.Join(testutil.RepoRoot(t), "testdata", "KTH-SP2-1996-2.1-cln.swf.gz"), false)
	jobs := tr.Jobs[:3000]
	for _, noKill := range []bool{false, true} {
		builtin := append([]sim.Job(nil), jobs...)
		s, _ := sim.New(sim.Config{Procs: tr.Procs, NoKill: noKill}, builtin)
		if err := s.Run(NewSAF()); err != nil {
			t.Fatal(err)
		}
		external := append([]sim.Job(nil), jobs...)
		recs := &extpolicy.Records{}
		for _, j := range external {
			recs.Add(&swf.Job{SubmitTime: j.Submit, RunTime: j.Runtime, RequestedProcs: int64(j.Procs), RequestedTime: j.Estimate})
		}
		p, err := extpolicy.NewExec([]string{python, script}, extpolicy.Options{Records: recs, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		s, _ = sim.New(sim.Config{Procs: tr.Procs, NoKill: noKill}, external)
		if err := p.Finish(s, s.Run(p)); err != nil {
			t.Fatal(err)
		}
		for i := range builtin {
			if builtin[i].Start != external[i].Start {
				t.Fatalf("no-kill=%v: job %d starts at %d under saf.py, %d under NewSAF", noKill, i, external[i].Start, builtin[i].Start)
			}
		}
	}
}
