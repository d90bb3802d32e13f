package policy

import (
	"math/rand/v2"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// TestResvQueueCompactKeepsOrder checks compact, which moves only the
// entries up to the last left one and starts the queue later in its array,
// against a plain filter of the queue, through many rounds of arrivals
// (some out of order), starts and leaves; and that a queue of steady
// length keeps its array (add takes back the room compact leaves in front,
// instead of a new array each time the end is reached).
func TestResvQueueCompactKeepsOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	rq := resvQueue{minProcs: sim.Never, lastLeft: -1}
	var want []int32 // the waiting jobs' IDs in arrival order
	id := int32(0)
	submit := int64(0)
	var arr *queued
	grew := 0
	for round := 0; round < 3000; round++ {
		// Some entries leave, as the start pass and selective's leave do.
		for i := range rq.q {
			if rq.q[i].resv >= 0 && r.IntN(8) == 0 {
				if r.IntN(2) == 0 {
					rq.q[i].resv = -1
					rq.started(i, 1)
				} else {
					rq.leave(&sim.Job{ID: rq.q[i].id, Submit: rq.q[i].submit})
				}
			}
		}
		// Then arrivals, some queued before entries that left.
		for range r.IntN(4) {
			j := &sim.Job{ID: id, Submit: submit, Procs: 1 + r.Int32N(3), Estimate: 10}
			if r.IntN(3) == 0 && submit > 5 {
				j.Submit = submit - 5 // back in the queue: not last
			}
			id++
			submit++
			rq.add(j, 100)
		}
		want = want[:0]
		for i := range rq.q {
			if rq.q[i].resv >= 0 {
				want = append(want, rq.q[i].id)
			}
		}
		rq.compact()
		if len(rq.q) != len(want) {
			t.Fatalf("round %d: %d entries after compact, want %d", round, len(rq.q), len(want))
		}
		for i := range want {
			if rq.q[i].id != want[i] {
				t.Fatalf("round %d: entry %d is job %d, want %d", round, i, rq.q[i].id, want[i])
			}
		}
		if len(rq.buf) > 0 && &rq.buf[0] != arr {
			arr = &rq.buf[0]
			if round >= 500 {
				grew++
			}
		}
	}
	if grew > 0 {
		t.Errorf("a queue of steady length (%d) got a new array %d times", len(rq.q), grew)
	}
}
