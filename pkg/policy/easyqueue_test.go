package policy

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

// easyOverWaiting is EASY as it was before its queue copy: easyPass over
// s.Waiting(), the reference EASY's decisions are held to.
type easyOverWaiting struct{ sim.Base }

func (*easyOverWaiting) Schedule(s *sim.Sim) { easyPass(s, s.Waiting()) }

// meddler wraps a policy and, before some of its passes, starts waiting
// jobs itself, some as trial runs that come back to the queue (StartFor with
// a limit): what pkg/price's pinFirst and any wrapper may do behind EASY's
// back. Its choices depend only on the engine's state, so two runs that
// schedule alike meddle alike.
type meddler struct {
	sim.Policy
	passes int
}

func (m *meddler) Schedule(s *sim.Sim) {
	m.passes++
	if m.passes%3 == 0 {
		for _, j := range s.Waiting() {
			if j.State != sim.Waiting || int64(j.Procs) > s.FreeProcs() {
				continue
			}
			if j.ID%2 == 0 {
				s.StartFor(j, 1+int64(j.ID%5))
			} else {
				s.Start(j)
			}
			break
		}
	}
	m.Policy.Schedule(s)
}

func sameStarts(t *testing.T, what string, a, b []sim.Job) {
	t.Helper()
	for i := range a {
		if a[i].Start != b[i].Start || a[i].End != b[i].End || a[i].Runs != b[i].Runs {
			t.Fatalf("%s: job %d: reference start %d end %d runs %d, EASY start %d end %d runs %d",
				what, i, a[i].Start, a[i].End, a[i].Runs, b[i].Start, b[i].End, b[i].Runs)
		}
	}
}

// TestEASYQueueMatchesEasyPass runs EASY and the reference on random
// workloads, alone and behind a meddling wrapper, with and without --no-kill,
// and on real traces, and wants the same schedule job for job.
func TestEASYQueueMatchesEasyPass(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 3))
	run := func(procs int64, jobs []sim.Job, noKill bool, p sim.Policy) []sim.Job {
		jobs = append([]sim.Job(nil), jobs...)
		s, err := sim.New(sim.Config{Procs: procs, NoKill: noKill}, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(p); err != nil {
			t.Fatal(err)
		}
		return jobs
	}
	for round := range 200 {
		procs := int64(1 + r.IntN(64))
		// Long enough for queues of hundreds, so that blocks are skipped.
		jobs := researchWorkload(r, 100+r.IntN(900), procs)
		noKill := round%2 == 1
		what := fmt.Sprintf("round %d (procs %d, %d jobs, no-kill %v)", round, procs, len(jobs), noKill)
		sameStarts(t, what, run(procs, jobs, noKill, &easyOverWaiting{}), run(procs, jobs, noKill, &EASY{}))
		sameStarts(t, what+" meddled", run(procs, jobs, noKill, &meddler{Policy: &easyOverWaiting{}}),
			run(procs, jobs, noKill, &meddler{Policy: &EASY{}}))
	}
	for _, name := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "LANL-CM5-1994-4.1-cln.swf.gz"} {
		tr := simtest.Load(t, testutil.Trace(t, name), false)
		for _, noKill := range []bool{false, true} {
			what := fmt.Sprintf("%s no-kill %v", name, noKill)
			sameStarts(t, what, run(tr.Procs, tr.Jobs, noKill, &easyOverWaiting{}), run(tr.Procs, tr.Jobs, noKill, &EASY{}))
		}
	}
}

// TestEASYReused runs one EASY value in two simulations: its queue copy
// belongs to the run it was last given.
func TestEASYReused(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	e := &EASY{}
	for range 2 {
		jobs := researchWorkload(r, 300, 16)
		want := append([]sim.Job(nil), jobs...)
		s, _ := sim.New(sim.Config{Procs: 16}, jobs)
		if err := s.Run(e); err != nil {
			t.Fatal(err)
		}
		s, _ = sim.New(sim.Config{Procs: 16}, want)
		if err := s.Run(&easyOverWaiting{}); err != nil {
			t.Fatal(err)
		}
		sameStarts(t, "reused", want, jobs)
	}
}

// The largest machine swfkit accepts, and jobs as wide as it: every policy
// runs them one after the other (EASY once took a job of math.MaxInt32
// processors for a gone entry and left it waiting), and selective's width
// cache follows the widths, not the machine.
func TestWidestJobs(t *testing.T) {
	const m = 1<<31 - 1
	for _, name := range []string{"fcfs", "easy", "conservative", "selective", "selective-d", "sjf", "lxf", "priofifo", "timed-fcfs", "easy++"} {
		want := []int64{1, 11, 21}
		if name == "sjf" || name == "lxf" { // the shorter job goes first
			want = []int64{1, 16, 11}
		}
		for _, noKill := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/no-kill=%v", name, noKill), func(t *testing.T) {
				jobs := []sim.Job{
					{ID: 0, Submit: 1, Runtime: 10, Estimate: 10, Procs: m},
					{ID: 1, Submit: 2, Runtime: 10, Estimate: 10, Procs: m},
					{ID: 2, Submit: 3, Runtime: 5, Estimate: 5, Procs: 1_000_000_000},
				}
				runResearch(t, name, m, noKill, ResearchParams{}, jobs)
				for i, w := range want {
					if jobs[i].Start != w {
						t.Errorf("job %d starts at %d, want %d", i, jobs[i].Start, w)
					}
				}
			})
		}
	}
}
