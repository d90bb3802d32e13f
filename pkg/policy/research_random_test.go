package policy

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// researchWorkload returns n jobs on a machine of procs processors: bursts of
// arrivals, widths from 1 to the machine, runtimes from 0 to an hour, estimates
// from exact to far too long and sometimes too short, a handful of users.
func researchWorkload(r *rand.Rand, n int, procs int64) []sim.Job {
	jobs := make([]sim.Job, n)
	var t int64
	for i := range jobs {
		if r.IntN(3) > 0 {
			t += int64(r.IntN(600))
		}
		run := int64(r.IntN(3600))
		if r.IntN(10) == 0 {
			run = int64(r.IntN(3)) // 0, 1 or 2 s: same-second completions
		}
		est := run + int64(r.IntN(2*3600))
		if r.IntN(8) == 0 {
			est = max(1, run/2) // underestimate: killed, or runs on with --no-kill
		}
		jobs[i] = sim.Job{Submit: t, Procs: int32(1 + r.Int64N(procs)), Runtime: run, Estimate: est,
			User: int32(r.IntN(5)), Queue: -1}
		if r.IntN(4) == 0 {
			jobs[i].Procs = int32(1 + r.Int64N(max(1, procs/8)))
		}
	}
	return jobs
}

// TestResearchRandomWorkloads runs every research policy on random workloads,
// with and without --no-kill, and checks what must hold whatever the policy:
// every job done, started no earlier than submitted, never more processors in
// use than the machine has, at most one restart (timed runs) and the
// degenerate cases job for job.
func TestResearchRandomWorkloads(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 2002))
	policies := []struct {
		name   string
		params ResearchParams
	}{
		{"selective", ResearchParams{}},
		{"selective", ResearchParams{Threshold: "2"}},
		{"selective", ResearchParams{Threshold: "adaptive"}},
		{"selective-d", ResearchParams{Threshold: "scaled-adaptive:1.5", NarrowMax: 4}},
		{"timed-fcfs", ResearchParams{}},
		{"timed-easy", ResearchParams{}},
		{"timed-easy", ResearchParams{Trial: 1}},
		{"easy-p", ResearchParams{}},
		{"easy-p", ResearchParams{Predictor: "exact"}},
		{"sjbf", ResearchParams{}},
		{"easy++", ResearchParams{Corrector: "ladder"}},
		{"easy++", ResearchParams{Corrector: "double", Predictor: "lastk:3"}},
	}
	for round := range 40 {
		procs := int64(1 + r.IntN(64))
		tr := &researchTrace{name: "random", procs: procs, jobs: researchWorkload(r, 60+r.IntN(120), procs)}
		noKill := round%2 == 1
		for _, p := range policies {
			jobs, _ := tr.simulate(t, p.name, p.params, noKill)
			checkSchedule(t, p.name, procs, jobs, noKill)
		}
		for d := range degenerate {
			checkDegenerate(t, tr, d, noKill, baseRuns{})
		}
		if t.Failed() {
			t.Fatalf("round %d (procs %d, no-kill %v) failed", round, procs, noKill)
		}
	}
}

// checkSchedule checks a finished schedule: all done, starts after submits,
// runs as long as the job (or its estimate when killed), at most two runs, and
// processors in use within the machine at every start.
func checkSchedule(t *testing.T, name string, procs int64, jobs []sim.Job, noKill bool) {
	t.Helper()
	type change struct{ at, delta int64 }
	var changes []change
	for i := range jobs {
		j := &jobs[i]
		run := j.Runtime
		if !noKill && run > j.Estimate {
			run = j.Estimate
		}
		switch {
		case j.State != sim.Done:
			t.Errorf("%s: job %d not done", name, i)
		case j.Start < j.Submit || j.FirstStart < j.Submit:
			t.Errorf("%s: job %d starts at %d before its submission %d", name, i, j.Start, j.Submit)
		case j.End-j.Start != run:
			t.Errorf("%s: job %d ran %d s, want %d", name, i, j.End-j.Start, run)
		case j.Runs > 2:
			t.Errorf("%s: job %d started %d times", name, i, j.Runs)
		}
		changes = append(changes, change{j.Start, int64(j.Procs)}, change{j.End, -int64(j.Procs)})
	}
	// Earlier (killed) runs are not in the final schedule; the engine itself
	// panics if a start exceeds the free processors, so this checks the final runs.
	sortChanges := func(a, b change) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		return int(a.delta - b.delta) // releases first at equal times
	}
	slices.SortFunc(changes, sortChanges)
	var used int64
	for _, c := range changes {
		used += c.delta
		if used > procs {
			t.Errorf("%s: %d processors in use at %d on a machine of %d", name, used, c.at, procs)
			return
		}
	}
}
