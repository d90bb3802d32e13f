package policy

import (
	"fmt"
	"slices"
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

// startOrder records, after every pass, the engine's running jobs in its
// order, and the order of the ends.
type startOrder struct {
	*Selective
	order        []int32
	promotedLeft int // promoted jobs found in the no-guarantee queue after a pass
}

// Ended records the order of the ends, which follows that of the starts
// among jobs that end at one time (adaptive thresholds add up in it).
func (o *startOrder) Ended(s *sim.Sim, j *sim.Job, why sim.EndReason) {
	o.Selective.Ended(s, j, why)
	o.order = append(o.order, -2, j.ID)
}

func (o *startOrder) Schedule(s *sim.Sim) {
	o.Selective.Schedule(s)
	if !o.walkPass {
		// A promoted job leaves the no-guarantee queue at once, not
		// when a pass happens to meet it.
		for _, e := range o.ng.entries[o.ng.first:] {
			if !e.gone() && s.Job(e.id).State == sim.Waiting && o.cons.resv[e.id] >= 0 {
				o.promotedLeft++
			}
		}
	}
	for _, j := range s.Running() {
		o.order = append(o.order, j.ID)
	}
	o.order = append(o.order, -1)
}

// TestSelectivePassMatchesWalk: the pass over the no-guarantee queue
// (selpass.go) starts the jobs walk starts, at the same times; fixed, auto
// and adaptive thresholds, selective and selective-d, with and without
// --no-kill (where rebuilds leave tails the pass must respect).
func TestSelectivePassMatchesWalk(t *testing.T) {
	for _, tc := range []struct {
		trace     string
		from, n   int
		threshold string
		procs     int64 // 0: the trace's
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 0, 5000, "2", 0},
		{"KTH-SP2-1996-2.1-cln.swf.gz", 0, 5000, "auto", 64},
		{"RICC-2010-2.swf.gz", 30000, 2500, "1.5", 0},
		{"RICC-2010-2.swf.gz", 100000, 4000, "auto", 0},
		{"LANL-CM5-1994-4.1-cln.swf.gz", 4000, 3000, "adaptive", 0},
		{"HPC2N-2002-2-first3170.swf.gz", 0, 3170, "1.1", 64},
		{"lublin_256.swf.gz", 0, 3000, "0.5", 0},
	} {
		for _, diff := range []bool{false, true} {
			for _, noKill := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%d/%s/diff=%v/nokill=%v", tc.trace, tc.from, tc.threshold, diff, noKill), func(t *testing.T) {
					tr := simtest.Load(t, testutil.Trace(t, tc.trace), false)
					tr.Jobs = tr.Jobs[tc.from:min(tc.from+tc.n, len(tr.Jobs))]
					procs := tr.Procs
					if tc.procs > 0 {
						procs = tc.procs
						var kept []sim.Job
						for _, j := range tr.Jobs {
							if int64(j.Procs) <= procs {
								kept = append(kept, j)
							}
						}
						tr.Jobs = kept
					}
					run := func(walk bool) ([]sim.Job, *startOrder) {
						jobs := tr.Clone()
						s, err := sim.New(sim.Config{Procs: procs, NoKill: noKill}, jobs)
						if err != nil {
							t.Fatal(err)
						}
						p, err := newSelective(ResearchParams{Threshold: tc.threshold}, diff, len(jobs))
						if err != nil {
							t.Fatal(err)
						}
						o := &startOrder{Selective: p.(*Selective)}
						o.walkPass = walk
						if err := s.Run(o); err != nil {
							t.Fatal(err)
						}
						return jobs, o
					}
					a, oa := run(true)
					b, ob := run(false)
					for i := range a {
						if a[i].Start != b[i].Start || a[i].End != b[i].End {
							t.Fatalf("job %d: walk starts %d ends %d, pass starts %d ends %d", i, a[i].Start, a[i].End, b[i].Start, b[i].End)
						}
					}
					if !slices.Equal(oa.order, ob.order) {
						t.Errorf("the running jobs or the ends came in another order")
					}
					if ob.promotedLeft > 0 {
						t.Errorf("promoted jobs stayed in the no-guarantee queue %d times", ob.promotedLeft)
					}
				})
			}
		}
	}
}
