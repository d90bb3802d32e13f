package policy

import (
	"math"
	"slices"
	"sort"

	"github.com/swfkit/swfkit/pkg/sim"
)

// orderedEASY runs EASY backfilling (easyPass) over the waiting queue sorted by
// a priority key, smallest key first; ties break by submit time, then file
// order, so the order is total and the schedule deterministic.
//
// The order is kept between passes: with a static key (fixed at arrival, such
// as the requested time) arrivals are inserted by binary search; with a
// dynamic key (the expansion factor grows with the wait) keys are recomputed
// and the kept, nearly sorted order is re-sorted, in passes that can start a
// job at all (enough processors free for the narrowest waiting job). lxf and
// lxfw, whose keys order the jobs of one estimate by arrival at any time,
// keep their queue by estimate classes instead (byEst, estorder.go); their
// sorted order is the tests' oracle.
type orderedEASY struct {
	sim.Base
	key     func(now int64, j *sim.Job) float64
	static  bool
	order   []*sim.Job
	pending []*sim.Job // arrived (or back in the queue) since the last merge
	keyOf   []float64  // by job ID
	inOrder []bool     // by job ID: in order (a job started and put back
	// in the queue between two passes is still there and must not be added twice)
	// exact, when set, compares two jobs' priorities exactly at now (-1: a
	// first), for keys within keyNear of each other: a key summed from rounded
	// terms may part two equal priorities by an ulp, which must not decide
	// the order in place of the tie rule.
	exact func(now int64, a, b *sim.Job) int
	now   int64
	// byEst keeps a dynamic order by estimate classes (estorder.go) instead
	// of sorting it in every pass: for keys that order the jobs of one
	// estimate by arrival at any time (lxf, lxfw).
	byEst bool
	est   estOrder
	eager bool // tests: a static order drops the jobs that left it in every pass
}

// keyNear is the relative distance within which two float keys may stand for
// equal priorities: far above the few ulps of rounding in a key, far below
// any real difference between two priorities of whole-second times.
const keyNear = 1e-12

func near(a, b float64) bool {
	// max(|a|, |b|), without the built-in max's care for NaN and signed
	// zeros, which keys (finite, nonzero) do not need and which made near
	// a quarter of lxfw's time on RICC-2010-2.
	m, n := math.Abs(a), math.Abs(b)
	if n > m {
		m = n
	}
	return math.Abs(a-b) <= keyNear*m
}

func newOrderedEASY(static bool, key func(now int64, j *sim.Job) float64) *orderedEASY {
	return &orderedEASY{key: key, static: static}
}

func (o *orderedEASY) Arrived(s *sim.Sim, j *sim.Job) { o.pending = append(o.pending, j) }

func (o *orderedEASY) Ended(s *sim.Sim, j *sim.Job, _ sim.EndReason) {
	if j.State == sim.Waiting {
		o.pending = append(o.pending, j)
	}
}

func (o *orderedEASY) less(a, b *sim.Job) bool {
	return o.lessKeys(o.keyOf[a.ID], o.keyOf[b.ID], a, b)
}

// lessKeys is less given the two jobs' keys.
func (o *orderedEASY) lessKeys(ka, kb float64, a, b *sim.Job) bool {
	if o.exact != nil && near(ka, kb) {
		if c := o.exact(o.now, a, b); c != 0 {
			return c < 0
		}
		return arrivalCmp(a, b) < 0
	}
	if ka != kb {
		return ka < kb
	}
	return arrivalCmp(a, b) < 0
}

func (o *orderedEASY) Schedule(s *sim.Sim) {
	if o.keyOf == nil {
		o.keyOf = make([]float64, s.NumJobs())
		o.inOrder = make([]bool, s.NumJobs())
	}
	if s.NumWaiting() == 0 || s.FreeProcs() < s.MinWaitingProcs() {
		return // nothing can start, whatever the order
	}
	now := s.Now()
	o.now = now
	if o.byEst {
		for _, j := range o.pending {
			if j.State == sim.Waiting && !o.inOrder[j.ID] {
				o.inOrder[j.ID] = true
				o.est.add(j)
			}
		}
		clear(o.pending)
		o.pending = o.pending[:0]
		o.estPass(s)
		return
	}
	if o.static {
		for _, j := range o.pending {
			if j.State != sim.Waiting || o.inOrder[j.ID] {
				continue
			}
			o.inOrder[j.ID] = true
			o.keyOf[j.ID] = o.key(now, j)
			i := sort.Search(len(o.order), func(k int) bool { return o.less(j, o.order[k]) })
			o.order = slices.Insert(o.order, i, j)
		}
		// Every waiting job is in the order now, so the others are the
		// jobs that left it: they are dropped once they are half of it.
		// Till then they keep their places (easyPass passes over them),
		// and one that comes back to the queue is where an insertion
		// would put it, its key being fixed.
		if left := len(o.order) - s.NumWaiting(); 2*left > len(o.order) || o.eager {
			o.drop()
		}
	} else {
		o.drop()
		for _, j := range o.pending {
			if j.State == sim.Waiting && !o.inOrder[j.ID] {
				o.inOrder[j.ID] = true
				o.order = append(o.order, j)
			}
		}
		for _, j := range o.order {
			o.keyOf[j.ID] = o.key(now, j)
		}
		o.resort()
	}
	clear(o.pending)
	o.pending = o.pending[:0]
	easyPass(s, o.order)
}

// drop drops the jobs that left the queue from the order.
func (o *orderedEASY) drop() {
	w := o.order[:0]
	for _, j := range o.order {
		if j.State == sim.Waiting {
			w = append(w, j)
		} else {
			o.inOrder[j.ID] = false
		}
	}
	clear(o.order[len(w):])
	o.order = w
}

// arrivalCmp orders by submit time, then file order.
func arrivalCmp(a, b *sim.Job) int {
	switch {
	case a.Submit != b.Submit:
		if a.Submit < b.Submit {
			return -1
		}
		return 1
	case a.ID < b.ID:
		return -1
	case a.ID > b.ID:
		return 1
	}
	return 0
}

// resort sorts the kept order after its keys changed. The order is nearly
// sorted from the previous pass, so an insertion sort costs O(n + inversions);
// past a budget of moves it hands over to pdqsort.
func (o *orderedEASY) resort() {
	a := o.order
	budget := 8*len(a) + 64
	for i := 1; i < len(a); i++ {
		x := a[i]
		k := i
		for k > 0 && o.less(x, a[k-1]) {
			a[k] = a[k-1]
			k--
		}
		a[k] = x
		budget -= i - k
		if budget < 0 {
			slices.SortFunc(a, func(x, y *sim.Job) int {
				if o.less(x, y) {
					return -1
				}
				return 1 // never equal: IDs differ
			})
			return
		}
	}
}
