package policy

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// runOrdered runs lxf (w < 0) or lxfw(w) over a copy of jobs, keeping the
// order by estimate classes (estorder.go) or sorting it in every pass.
func runOrdered(tb testing.TB, jobs []sim.Job, procs int64, noKill bool, w float64, byEst bool, wrap func(*orderedEASY) sim.Policy) []sim.Job {
	tb.Helper()
	var o *orderedEASY
	if w < 0 {
		o = NewLXF().(*orderedEASY)
	} else {
		o = NewLXFW(w).(*orderedEASY)
	}
	if !o.byEst {
		tb.Fatal("lxf and lxfw keep their order by estimate classes")
	}
	o.byEst = byEst
	var p sim.Policy = o
	if wrap != nil {
		p = wrap(o)
	}
	return runCopy(tb, procs, noKill, jobs, p)
}

// runCopy runs p over a copy of jobs and returns the copy.
func runCopy(tb testing.TB, procs int64, noKill bool, jobs []sim.Job, p sim.Policy) []sim.Job {
	tb.Helper()
	cp := append([]sim.Job(nil), jobs...)
	s, err := sim.New(sim.Config{Procs: procs, NoKill: noKill}, cp)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Run(p); err != nil {
		tb.Fatal(err)
	}
	return cp
}

// randomOrderedJobs makes a queue that builds up: bursts of arrivals at equal
// times, estimates from a few values (classes of many jobs) and some of their
// own, runtimes mostly below the estimate and some above (--no-kill).
func randomOrderedJobs(rng *rand.Rand, n int, procs int64) []sim.Job {
	ests := []int64{0, 1, 60, 600, 3600, 7200, 86400}
	jobs := make([]sim.Job, n)
	submit := int64(0)
	for i := range jobs {
		if rng.IntN(3) > 0 {
			submit += rng.Int64N(400)
		}
		est := ests[rng.IntN(len(ests))]
		if rng.IntN(4) == 0 {
			est = 1 + rng.Int64N(20000)
		}
		run := rng.Int64N(est + 1)
		if rng.IntN(8) == 0 {
			run = est + rng.Int64N(3000)
		}
		jobs[i] = sim.Job{ID: int32(i), Submit: submit, Procs: int32(1 + rng.Int64N(procs)), Runtime: run, Estimate: est}
		if rng.IntN(2) == 0 {
			jobs[i].Procs = int32(1 + rng.Int64N(4))
		}
	}
	return jobs
}

// The order by estimate classes makes the decisions of the queue sorted in
// every pass: random queues, lxf and lxfw at several weights (0 is lxf's
// order with lxfw's exact comparisons), with and without kills; and the
// first 8,000 jobs of KTH-SP2 (-long: 400 queues and the whole trace).
func TestEstOrderMatchesSort(t *testing.T) {
	weights := []float64{-1, 0, 0.02, 5}
	seeds, kth := 80, 8000
	if *long {
		seeds, kth = 400, -1
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 77))
		procs := int64(8 + rng.IntN(120))
		jobs := randomOrderedJobs(rng, 300, procs)
		for _, w := range weights {
			for _, noKill := range []bool{false, true} {
				what := fmt.Sprintf("seed %d w %v no-kill %v", seed, w, noKill)
				sameSchedule(t, what, runOrdered(t, jobs, procs, noKill, w, true, nil), runOrdered(t, jobs, procs, noKill, w, false, nil))
			}
		}
	}
	tr := loadResearchTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	jobs := tr.jobs
	if kth >= 0 {
		jobs = jobs[:kth]
	}
	for _, w := range weights {
		for _, noKill := range []bool{false, true} {
			what := fmt.Sprintf("KTH w %v no-kill %v", w, noKill)
			sameSchedule(t, what, runOrdered(t, jobs, tr.procs, noKill, w, true, nil), runOrdered(t, jobs, tr.procs, noKill, w, false, nil))
		}
	}
}

// preemptEvery wraps an order and preempts, at a timer after each start of
// a job whose ID is a multiple of 7, the running job of the lowest ID, so
// that jobs come back to the queue out of arrival order (estOrder.add's
// insertion).
type preemptEvery struct {
	*orderedEASY
	armed map[int32]bool
}

func (p *preemptEvery) Schedule(s *sim.Sim) {
	p.orderedEASY.Schedule(s)
	for _, j := range s.Running() {
		if j.ID%7 == 0 && !p.armed[j.ID] {
			p.armed[j.ID] = true
			s.SetTimer(s.Now()+1, int64(j.ID))
		}
	}
}

func (p *preemptEvery) Timer(s *sim.Sim, _ sim.TimerID, _ int64) {
	var low *sim.Job
	for _, j := range s.Running() {
		if low == nil || j.ID < low.ID {
			low = j
		}
	}
	if low != nil && low.Runs < 3 {
		s.Preempt(p, low, 0)
	}
}

func TestEstOrderRequeued(t *testing.T) {
	wrap := func(o *orderedEASY) sim.Policy { return &preemptEvery{orderedEASY: o, armed: map[int32]bool{}} }
	requeued := 0
	for seed := range 40 {
		rng := rand.New(rand.NewPCG(uint64(seed), 78))
		procs := int64(8 + rng.IntN(40))
		jobs := randomOrderedJobs(rng, 200, procs)
		for _, w := range []float64{-1, 0.02} {
			got := runOrdered(t, jobs, procs, false, w, true, wrap)
			sameSchedule(t, fmt.Sprintf("seed %d w %v", seed, w), got, runOrdered(t, jobs, procs, false, w, false, wrap))
			for _, j := range got {
				if j.Runs > 1 {
					requeued++
				}
			}
		}
	}
	if requeued < 100 {
		t.Errorf("only %d jobs came back to the queue", requeued)
	}
}

// A static order (sjf, priofifo) keeps the jobs that left it until they are
// half of it; jobs that come back to the queue meanwhile (preempted here)
// are where an insertion would put them: the same schedules as dropping
// them in every pass.
func TestStaticOrderLazyDrop(t *testing.T) {
	requeued := 0
	for seed := range 40 {
		rng := rand.New(rand.NewPCG(uint64(seed), 79))
		procs := int64(8 + rng.IntN(40))
		jobs := randomOrderedJobs(rng, 200, procs)
		for i := range jobs {
			jobs[i].Queue = int32(rng.IntN(3))
		}
		for _, name := range []string{"sjf", "priofifo"} {
			run := func(eager bool) []sim.Job {
				var o *orderedEASY
				if name == "sjf" {
					o = NewSJF().(*orderedEASY)
				} else {
					o = NewPrioFIFO(nil).(*orderedEASY)
				}
				o.eager = eager
				return runCopy(t, procs, false, jobs, &preemptEvery{orderedEASY: o, armed: map[int32]bool{}})
			}
			got := run(false)
			sameSchedule(t, fmt.Sprintf("%s seed %d", name, seed), got, run(true))
			for _, j := range got {
				if j.Runs > 1 {
					requeued++
				}
			}
		}
	}
	if requeued < 100 {
		t.Errorf("only %d jobs came back to the queue", requeued)
	}
}
