package policy

// A second, deliberately simple implementation of fair-start times, written
// from FairStarts' doc comment alone (Srinivasan et al., JSSPP 2002, section
// 5): at every arrival, the state of the conservative run (on small
// workloads reference_test.go's simple conservative) is read off its start
// times, and the strict-FCFS play of the waiting jobs up to the new one is
// made from scratch with plain slices.

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// refFairStarts returns every job's fair start, given the conservative run's
// start times cons (indexed like jobs).
func refFairStarts(jobs []sim.Job, cons []int64, procs int64, noKill bool) []int64 {
	n := len(jobs)
	dur := func(k int) int64 { // how long job k really runs
		d := jobs[k].Runtime
		if !noKill && d > jobs[k].Estimate {
			d = jobs[k].Estimate
		}
		return d
	}
	order := arrivalOrder(n, func(i int) int64 { return jobs[i].Submit })

	fair := make([]int64, n)
	type hold struct{ end, procs int64 }
	for pos, j := range order {
		t := jobs[j].Submit
		// At the arrival the round's ends are done (a job ending at t no
		// longer holds its processors) and its pass has not run (a job
		// starting at t still waits).
		var holds []hold
		for k := range n {
			if cons[k] < t && cons[k]+dur(k) > t {
				holds = append(holds, hold{cons[k] + dur(k), int64(jobs[k].Procs)})
			}
		}
		prev := t
		for _, k := range order[:pos+1] {
			if cons[k] < t {
				continue // started before t: not waiting
			}
			// Every hold started at or before prev, so from prev on the free
			// processors only grow, at the holds' ends.
			need := int64(jobs[k].Procs)
			at := prev
			for {
				used := int64(0)
				next := int64(-1)
				for _, h := range holds {
					if h.end > at {
						used += h.procs
						if next < 0 || h.end < next {
							next = h.end
						}
					}
				}
				if procs-used >= need {
					break
				}
				at = next
			}
			if k == j {
				fair[j] = at
			}
			prev = at
			holds = append(holds, hold{at + dur(k), need})
		}
	}
	return fair
}

// compareFairStarts checks FairStarts against refFairStarts on jobs.
func compareFairStarts(t *testing.T, procs int64, noKill bool, jobs []sim.Job) {
	t.Helper()
	cfg := sim.Config{Procs: procs, NoKill: noKill}
	got, err := FairStarts(cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	// On small workloads the conservative schedule comes from
	// reference_test.go's simple implementation, so that nothing of the
	// engine's is taken on trust; on the trace slices, where that one is
	// slow (cubic), from the engine, which TestReferenceTraces holds to it.
	var cons []int64
	if len(jobs) <= 100 {
		cons = refRun(toRef(jobs), procs, noKill, "conservative")
	} else {
		var err error
		if cons, err = ConservativeStarts(cfg, append([]sim.Job(nil), jobs...)); err != nil {
			t.Fatal(err)
		}
	}
	want := refFairStarts(jobs, cons, procs, noKill)
	bad := 0
	for i := range jobs {
		if got[i] != want[i] {
			if bad < 3 {
				t.Errorf("job %d (submit %d, run %d, est %d, procs %d, conservative start %d): fair start %d, reference %d",
					i, jobs[i].Submit, jobs[i].Runtime, jobs[i].Estimate, jobs[i].Procs, cons[i], got[i], want[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d fair starts differ from the reference", bad, len(jobs))
	}
}

func TestFairStartsReference(t *testing.T) {
	for _, noKill := range []bool{false, true} {
		for seed := range 20 {
			rng := rand.New(rand.NewSource(int64(seed)))
			procs := int64(1 + rng.Intn(16))
			jobs := randomWorkload(rng, 10+rng.Intn(50), procs)
			t.Run(fmt.Sprintf("random-%d-nokill=%v", seed, noKill), func(t *testing.T) {
				compareFairStarts(t, procs, noKill, jobs)
			})
		}
		for _, ts := range []traceSlice{
			{"KTH-SP2-1996-2.1-cln.swf.gz", 3000, 1000, 1},
			{"RICC-2010-2.swf.gz", 6000, 1000, 1},
		} {
			t.Run(fmt.Sprintf("%s-nokill=%v", ts.name, noKill), func(t *testing.T) {
				procs, jobs := ts.load(t)
				compareFairStarts(t, procs, noKill, jobs)
			})
		}
	}
}
