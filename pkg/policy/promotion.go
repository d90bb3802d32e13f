package policy

import (
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

// promotionHeap is a min-heap by (at, seq). It is typed, not
// container/heap, whose interface boxes every pushed and popped entry: one
// allocation per job, and garbage that showed in the maximum RSS.
type promotionHeap []promotion

func (h promotionHeap) less(i, k int) bool {
	return h[i].at < h[k].at || h[i].at == h[k].at && h[i].seq < h[k].seq
}

func (h *promotionHeap) push(p promotion) {
	*h = append(*h, p)
	q := *h
	for i := len(q) - 1; i > 0; {
		parent := (i - 1) / 2
		if !q.less(i, parent) {
			break
		}
		q[i], q[parent] = q[parent], q[i]
		i = parent
	}
}

func (h *promotionHeap) pop() promotion {
	q := *h
	top := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q = q[:n]
	q.down(0)
	*h = q
	return top
}

func (h promotionHeap) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if r := c + 1; r < len(h) && h.less(r, c) {
			c = r
		}
		if !h.less(c, i) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

func (h promotionHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
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
		sel.pending.push(promotion{at: at, seq: sel.arrivals, id: j.ID})
		sel.arrivals++
	}
	clear(sel.entry)
	sel.entry = sel.entry[:0]
	if len(sel.pending) > 2*s.NumWaiting()+1024 {
		sel.dropStarted(s)
	}
	due := sel.due[:0]
	for len(sel.pending) > 0 && sel.pending[0].at <= now {
		p := sel.pending.pop()
		if s.Job(p.id).State == sim.Waiting {
			due = append(due, p)
		}
	}
	slices.SortFunc(due, func(a, b promotion) int { return int(a.seq - b.seq) })
	for _, p := range due {
		sel.cons.reserve(s.Job(p.id), now)
		sel.ng.drop(s, s.Job(p.id))
		sel.Promotions++
	}
	sel.due = due
}

// dropStarted takes the jobs that are no longer waiting out of the heap once
// they are most of it (they would leave it only at their crossing second),
// so it holds O(waiting jobs) entries, not O(jobs): memory stays within
// the budget of bytes per job.
func (sel *Selective) dropStarted(s *sim.Sim) {
	kept := sel.pending[:0] // in place: no garbage, which would show in the RSS
	for _, p := range sel.pending {
		if s.Job(p.id).State == sim.Waiting {
			kept = append(kept, p)
		}
	}
	kept.init()
	sel.pending = kept
}
