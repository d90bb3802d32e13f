package sim

import "container/heap"

// eventKind orders events at equal times: run ends (completions and kills) first,
// timers after them. Arrivals are not heap events: they come from a cursor over
// the jobs sorted by submit time and file order, between ends and timers.
type eventKind uint8

const (
	evEnd eventKind = iota
	evTimer
)

type event struct {
	at   int64
	seq  uint64 // push order: ties at equal time and kind keep it
	kind eventKind
	gen  uint32 // evEnd: the job's gen when pushed; stale if it differs now
	job  int32  // evEnd: job ID
	id   TimerID
	tag  int64
}

// eventHeap is a container/heap of events by (at, kind, seq).
type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(a, b int) bool {
	x, y := &h[a], &h[b]
	if x.at != y.at {
		return x.at < y.at
	}
	if x.kind != y.kind {
		return x.kind < y.kind
	}
	return x.seq < y.seq
}
func (h eventHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	n := len(old) - 1
	e := old[n]
	*h = old[:n]
	return e
}

var _ heap.Interface = (*eventHeap)(nil)

// push adds e without boxing it in an interface (heap.Push would allocate).
func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	heap.Fix(h, len(*h)-1)
}

// pop removes and returns the least event; the heap must not be empty.
func (h *eventHeap) pop() event {
	old := *h
	e := old[0]
	n := len(old) - 1
	old[0] = old[n]
	*h = old[:n]
	if n > 0 {
		heap.Fix(h, 0)
	}
	return e
}
