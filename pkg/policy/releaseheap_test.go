package policy

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestReleaseHeap: random pushes, pops and inits against a sorted list: every
// pop returns a release of the earliest time still held, and the releases
// popped are the ones pushed.
func TestReleaseHeap(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 7))
	for trial := range 300 {
		var h releaseHeap
		var ref []release
		for op := range 400 {
			switch k := r.IntN(10); {
			case k < 5 || len(ref) == 0:
				x := release{end: r.Int64N(50), procs: r.Int64N(4)}
				h.push(x)
				ref = append(ref, x)
			case k == 9:
				// init over an unordered slice, as a play's rebuild does not,
				// but the in-simulation test does.
				h = append(h[:0:0], ref...)
				r.Shuffle(len(h), func(i, j int) { h[i], h[j] = h[j], h[i] })
				h.init()
			default:
				got := h.pop()
				least := slices.MinFunc(ref, func(a, b release) int { return int(a.end - b.end) }).end
				i := slices.Index(ref, got)
				if got.end != least || i < 0 {
					t.Fatalf("trial %d op %d: popped %+v, the earliest held ends at %d (held: %v)", trial, op, got, least, ref)
				}
				ref = slices.Delete(ref, i, i+1)
			}
			if len(h) != len(ref) {
				t.Fatalf("trial %d op %d: heap of %d, %d held", trial, op, len(h), len(ref))
			}
		}
	}
}
