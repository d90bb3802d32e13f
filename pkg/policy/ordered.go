package policy

import (
	"slices"

	"github.com/swfkit/swfkit/pkg/sim"
)

// orderedEASY runs EASY backfilling over the waiting queue sorted by a priority
// order (higher priority first); ties break by submit time, then file order, so
// the order is total and the schedule deterministic. The queue is re-sorted in
// every pass, since keys such as the expansion factor change with time.
type orderedEASY struct {
	sim.Base
	// before reports whether a has priority over b at time now; it returns
	// (false, false) when they tie.
	before func(now int64, a, b *sim.Job) (less, decided bool)
	order  []*sim.Job
}

func (o *orderedEASY) Schedule(s *sim.Sim) {
	if s.FreeProcs() == 0 {
		return // nothing can start, whatever the order
	}
	now := s.Now()
	o.order = append(o.order[:0], s.Waiting()...)
	slices.SortFunc(o.order, func(a, b *sim.Job) int {
		if less, ok := o.before(now, a, b); ok {
			if less {
				return -1
			}
			return 1
		}
		return arrivalCmp(a, b)
	})
	easyPass(s, o.order)
	clear(o.order)
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

// smallerFirst turns two keys into (a before b, decided) with smaller first.
func smallerFirst[T int64 | float64](ka, kb T) (bool, bool) {
	if ka == kb {
		return false, false
	}
	return ka < kb, true
}
