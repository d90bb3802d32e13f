package policy

import (
	"fmt"
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

// runChecked is conservative backfilling that checks, after every rebuild,
// the runs the rebuild left in the queue: the start pass and the compression
// trust a grouped queue's runs to be jobs of one shape and one reservation.
// A tail the rebuild left unplaced (lazytail.go) is one run marked by
// sim.Never at its first entry; with place, the tail is placed at once and
// the whole queue checked, so that the schedule compared at the end is also
// that of rebuilds that place everything at once.
type runChecked struct {
	*Conservative
	t        *testing.T
	place    bool
	rebuilds int
	tails    int // rebuilds that left a tail
}

func (r *runChecked) Schedule(s *sim.Sim) {
	rebuilds, reused := r.Rebuilds, r.Reused
	r.Conservative.maintain(s) // Schedule's own maintain then finds nothing more to do
	// A reused rebuild keeps the queue as it was: only remade ones count.
	if r.Rebuilds > rebuilds && r.Reused == reused {
		r.rebuilds++
		rq := &r.rq
		if !rq.grouped {
			r.t.Fatalf("at %d: a rebuild left the queue ungrouped", s.Now())
		}
		q := rq.q
		if r.Conservative.lazy.on {
			r.tails++
			lt := &r.Conservative.lazy
			if h := &q[lt.next]; h.resv != sim.Never || int(h.run) != lt.end-lt.next || lt.end != len(q) {
				r.t.Fatalf("at %d: tail from %d to %d of %d starts with %+v", s.Now(), lt.next, lt.end, len(q), *h)
			}
			if r.place {
				r.placeTail()
			}
		}
		for h := 0; h < len(q); h += int(q[h].run) {
			if q[h].run < 1 || h+int(q[h].run) > len(q) {
				r.t.Fatalf("at %d: run of %d at entry %d of %d", s.Now(), q[h].run, h, len(q))
			}
			if q[h].resv == sim.Never {
				continue // the tail, not placed yet
			}
			for i := h + 1; i < h+int(q[h].run); i++ {
				if !same(&q[h], &q[i]) {
					r.t.Fatalf("at %d: entry %d (%+v) in the run of entry %d (%+v)", s.Now(), i, q[i], h, q[h])
				}
			}
		}
	}
	r.Conservative.Schedule(s)
}

func TestRebuildLeavesEqualRuns(t *testing.T) {
	for _, tc := range []struct {
		trace    string
		from, n  int
		rebuilds int // at least
		tails    int // rebuilds leaving a tail, at least (KTH's queues are short)
	}{
		{"RICC-2010-2.swf.gz", 30000, 2500, 100, 25},
		{"KTH-SP2-1996-2.1-cln.swf.gz", 0, 5000, 100, 0},
		{"LANL-CM5-1994-4.1-cln.swf.gz", 4000, 3000, 100, 25},
	} {
		for _, place := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/place=%v", tc.trace, place), func(t *testing.T) {
				tr := simtest.Load(t, testutil.Trace(t, tc.trace), false)
				tr.Jobs = tr.Jobs[tc.from:min(tc.from+tc.n, len(tr.Jobs))]
				jobs := tr.Clone()
				s, err := sim.New(sim.Config{Procs: tr.Procs, NoKill: true}, jobs)
				if err != nil {
					t.Fatal(err)
				}
				p := &runChecked{Conservative: NewConservative(len(jobs)), t: t, place: place}
				if err := s.Run(p); err != nil {
					t.Fatal(err)
				}
				if p.rebuilds < tc.rebuilds || p.tails < tc.tails {
					t.Errorf("only %d rebuilds checked, %d leaving a tail", p.rebuilds, p.tails)
				}
				// The check changed nothing.
				sameSchedule(t, "checked", jobs, runPolicy(t, "conservative", tr.Procs, true, tr.Clone()))
			})
		}
	}
}
