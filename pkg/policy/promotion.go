package policy

import (
	"container/heap"
	"slices"

	"github.com/swfkit/swfkit/pkg/sim"
)

// With a threshold that no longer changes (fixed, or auto once computed),
// each no-guarantee job crosses it at a time known when it arrives: XFactor
// = (wait + estimate) / estimate, computed in float64 exactly as promote
// does, never decreases as the wait grows, so the passes that promote the
// job are exactly those at or after the first second at which it exceeds the
// threshold. Selective keeps the jobs in a heap by that second and, in each
// pass, takes the ones due instead of testing every waiting job; the due
// ones are promoted in arrival order, as the walk over the queue did. Jobs
// that started meanwhile stay in the heap until their second comes, and are
// dropped then.

// promotion is a no-guarantee job waiting for its threshold crossing.
type promotion struct {
	at  int64 // the first second at which its XFactor exceeds its threshold
	seq int32 // arrival order
	id  int32
}

type promotionHeap []promotion

func (h promotionHeap) Len() int { return len(h) }
func (h promotionHeap) Less(i, k int) bool {
	return h[i].at < h[k].at || h[i].at == h[k].at && h[i].seq < h[k].seq
}
func (h promotionHeap) Swap(i, k int) { h[i], h[k] = h[k], h[i] }
func (h *promotionHeap) Push(x any)   { *h = append(*h, x.(promotion)) }
func (h *promotionHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// crossing returns the first second t >= j.Submit at which j's XFactor
// exceeds thr ((float64(t-submit) + d) / d > thr, as promote tests it), or
// sim.Never if there is none: a binary search over a test that is false and
// then true (float64 conversion, addition and division by d > 0 are all
// monotone, so the test cannot turn false again).
func crossing(j *sim.Job, thr float64) int64 {
	d := float64(duration(j))
	exceeds := func(t int64) bool { return (float64(t-j.Submit)+d)/d > thr }
	lo, hi := j.Submit, sim.Never-1
	if exceeds(lo) {
		return lo
	}
	if !exceeds(hi) {
		return sim.Never
	}
	for hi-lo > 1 { // exceeds(hi), !exceeds(lo)
		mid := lo + (hi-lo)/2
		if exceeds(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// promoteDue is promote for thresholds that are fixed by now.
func (sel *Selective) promoteDue(s *sim.Sim) {
	now := s.Now()
	for _, j := range sel.entry { // the arrivals since the last pass
		at := crossing(j, sel.threshold(sel.category(j)))
		heap.Push(&sel.pending, promotion{at: at, seq: sel.arrivals, id: j.ID})
		sel.arrivals++
	}
	clear(sel.entry)
	sel.entry = sel.entry[:0]
	due := sel.due[:0]
	for len(sel.pending) > 0 && sel.pending[0].at <= now {
		p := heap.Pop(&sel.pending).(promotion)
		if s.Job(p.id).State == sim.Waiting {
			due = append(due, p)
		}
	}
	slices.SortFunc(due, func(a, b promotion) int { return int(a.seq - b.seq) })
	for _, p := range due {
		sel.cons.reserve(s.Job(p.id), now)
		sel.Promotions++
	}
	sel.due = due
}
