package policy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

// The conservative pruning (skip compressions that cannot move a job, skip
// jobs that cannot start before their reservation) must not change schedules.
func TestConservativePruningExact(t *testing.T) {
	traces := []struct {
		name string
		from int // first job of the slice
		jobs int // slice length in the default suite; with -long see below
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 0, 5000},
		{"HPC2N-2002-2-first3170.swf.gz", 0, 5000},
		{"lublin_256.swf.gz", 0, 5000},
		// A bag-of-tasks trace with queues of thousands of equal jobs: the
		// case the step-before-slot test and the proofs are made for.
		{"RICC-2010-2.swf.gz", 30000, 2500},
	}
	for _, tc := range traces {
		for _, noKill := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/nokill=%v", tc.name, noKill), func(t *testing.T) {
				tr := simtest.Load(t, testutil.Trace(t, tc.name), false)
				n := tc.jobs
				if *long {
					// Whole traces, but not whole RICC: the unpruned
					// compression would take hours there.
					n = len(tr.Jobs)
					if strings.HasPrefix(tc.name, "RICC") {
						n = 8 * tc.jobs
					}
				}
				tr.Jobs = tr.Jobs[min(tc.from, len(tr.Jobs)):min(tc.from+n, len(tr.Jobs))]
				run := func(naive bool) ([]sim.Job, *Conservative) {
					jobs := tr.Clone()
					s, err := sim.New(sim.Config{Procs: tr.Procs, NoKill: noKill}, jobs)
					if err != nil {
						t.Fatal(err)
					}
					c := NewConservative(len(jobs))
					c.naive = naive
					if err := s.Run(c); err != nil {
						t.Fatal(err)
					}
					return jobs, c
				}
				a, ca := run(true)
				b, cb := run(false)
				ra, rb := ca.Rebuilds, cb.Rebuilds
				for i := range a {
					if a[i].Start != b[i].Start {
						t.Fatalf("job %d: naive start %d, pruned start %d", i, a[i].Start, b[i].Start)
					}
				}
				if ra != rb {
					t.Errorf("rebuilds: naive %d, pruned %d", ra, rb)
				}
				// Every move reached the profile, alone or in a chain
				// (chain.go); the bag-of-tasks queues chain.
				cc := cb.Compressions
				if cc.Moves-cc.Chained != cc.Flushes {
					t.Errorf("%d moves, %d of them chained, but %d chains applied", cc.Moves, cc.Chained, cc.Flushes)
				}
				if strings.HasPrefix(tc.name, "RICC") && (cc.Chained == 0 || cc.Chained == cc.Moves) {
					t.Errorf("%d of %d moves chained", cc.Chained, cc.Moves)
				}
			})
		}
	}
}

// enqueue keeps the queue in arrival order (submit, then ID) whatever order
// reservations are given in, and reuses the left entry of a job that comes
// back.
func TestConservativeEnqueueOrder(t *testing.T) {
	c := NewConservative(5)
	c.trackResv()
	jobs := []sim.Job{
		{ID: 0, Submit: 10, Estimate: 5, Procs: 1},
		{ID: 1, Submit: 10, Estimate: 0, Procs: 2},
		{ID: 2, Submit: 20, Estimate: 7, Procs: 3},
		{ID: 3, Submit: 30, Estimate: 9, Procs: 4},
	}
	for _, i := range []int{2, 3, 0, 1} { // promotions out of order
		c.resv[i] = 100 + int64(i)
		c.rq.add(&jobs[i], c.resv[i])
	}
	c.leave(&jobs[2]) // job 2 started
	if c.rq.q[2].resv != -1 || c.resv[2] != -1 {
		t.Fatalf("left entry %+v, resv %d", c.rq.q[2], c.resv[2])
	}
	c.resv[2] = 200 // and came back
	c.rq.add(&jobs[2], c.resv[2])
	var got []int32
	for _, e := range c.rq.q {
		got = append(got, e.id)
	}
	if fmt.Sprint(got) != "[0 1 2 3]" {
		t.Fatalf("queue order %v, want [0 1 2 3]", got)
	}
	if e := c.rq.q[1]; e.dur != 1 || e.procs != 2 || e.submit != 10 || e.resv != 101 {
		t.Errorf("entry of job 1: %+v, want dur 1 (estimate 0 reserves 1 s), procs 2, submit 10, resv 101", e)
	}
	if e := c.rq.q[2]; e.resv != 200 {
		t.Errorf("entry of job 2 after it came back: %+v, want resv 200", e)
	}
}

// boundedQueue records the longest reservation queue and waiting queue.
type boundedQueue struct {
	*Conservative
	maxQueue, maxWaiting int
}

func (b *boundedQueue) Schedule(s *sim.Sim) {
	b.maxWaiting = max(b.maxWaiting, s.NumWaiting())
	b.Conservative.Schedule(s)
	b.maxQueue = max(b.maxQueue, len(b.rq.q))
}

// With exact estimates no job ends early, so nothing compresses: the start
// pass must drop the left entries itself (it once did not, and the queue
// grew with every job ever queued).
func TestConservativeQueueStaysCompact(t *testing.T) {
	for _, exact := range []bool{true, false} {
		tr := simtest.Load(t, testutil.Trace(t, "KTH-SP2-1996-2.1-cln.swf.gz"), false)
		jobs := tr.Clone()
		if exact {
			for i := range jobs {
				jobs[i].Estimate = jobs[i].Runtime
			}
		}
		s, err := sim.New(sim.Config{Procs: tr.Procs}, jobs)
		if err != nil {
			t.Fatal(err)
		}
		b := &boundedQueue{Conservative: NewConservative(len(jobs))}
		if err := s.Run(b); err != nil {
			t.Fatal(err)
		}
		// Left entries are dropped once they are a quarter of the queue, and
		// one pass can start every waiting job.
		if b.maxWaiting == 0 || b.maxQueue > 2*b.maxWaiting+8 {
			t.Errorf("exact=%v: reservation queue up to %d entries, waiting queue up to %d jobs", exact, b.maxQueue, b.maxWaiting)
		}
	}
}

// Selective reservation promotes jobs out of arrival order into conservative's
// queue and starts jobs around it; its pruned compressions and reused rebuilds
// (--no-kill) must give the schedule of the unpruned ones too.
func TestSelectivePruningExact(t *testing.T) {
	for _, tc := range []struct {
		trace     string
		from, n   int
		threshold string
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 0, 5000, "2"},
		{"RICC-2010-2.swf.gz", 30000, 2500, "1.5"},
		{"LANL-CM5-1994-4.1-cln.swf.gz", 4000, 3000, "3"},
	} {
		t.Run(tc.trace+"/"+tc.threshold, func(t *testing.T) {
			tr := simtest.Load(t, testutil.Trace(t, tc.trace), false)
			tr.Jobs = tr.Jobs[tc.from:min(tc.from+tc.n, len(tr.Jobs))]
			run := func(naive bool) ([]sim.Job, *Selective) {
				jobs := tr.Clone()
				s, err := sim.New(sim.Config{Procs: tr.Procs, NoKill: true}, jobs)
				if err != nil {
					t.Fatal(err)
				}
				p, err := newSelective(ResearchParams{Threshold: tc.threshold}, false, len(jobs))
				if err != nil {
					t.Fatal(err)
				}
				sel := p.(*Selective)
				sel.cons.naive = naive
				if err := s.Run(sel); err != nil {
					t.Fatal(err)
				}
				return jobs, sel
			}
			a, _ := run(true)
			b, sel := run(false)
			for i := range a {
				if a[i].Start != b[i].Start {
					t.Fatalf("job %d: naive start %d, pruned start %d", i, a[i].Start, b[i].Start)
				}
			}
			if sel.Promotions == 0 || sel.cons.Reused == 0 {
				t.Errorf("the slice tests nothing: %d promotions, %d reused rebuilds", sel.Promotions, sel.cons.Reused)
			}
		})
	}
}

// TestConservativeWatch: the watcher BenchmarkRICCCascades counts with sees
// every move and every compression, and on a RICC slice with queues of
// serial bags it sees moves to starts the compression's earlier moves left.
func TestConservativeWatch(t *testing.T) {
	tr := simtest.Load(t, testutil.Trace(t, "RICC-2010-2.swf.gz"), false)
	w := watchedConservative(t, tr.Procs, tr.Clone()[30000:32500])
	sum := 0
	for _, m := range w.perCompression {
		sum += m
	}
	if sum != w.moves || w.vacated == 0 || w.vacated > w.moves || w.serial > w.moves || w.chained == 0 {
		t.Fatalf("per-compression moves sum to %d of %d; %d to vacated starts, %d serial, %d of the last move's shape, %d chained", sum, w.moves, w.vacated, w.serial, w.sameShape, w.chained)
	}
}
