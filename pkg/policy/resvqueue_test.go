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

// checkAlike fails unless every entry's alike hops only over entries of its
// own width and estimate, and stays in the queue.
func checkAlike(t *testing.T, when string, q []queued) {
	t.Helper()
	for i := range q {
		a := int(q[i].alike)
		if a < 1 || i+a > len(q) {
			t.Fatalf("%s: entry %d of %d hops %d", when, i, len(q), a)
		}
		for k := i + 1; k < i+a; k++ {
			if !sameShape(&q[i], &q[k]) {
				t.Fatalf("%s: entry %d (%d procs, %d s) hops %d over entry %d (%d procs, %d s)",
					when, i, q[i].procs, q[i].dur, a, k, q[k].procs, q[k].dur)
			}
		}
	}
}

// TestResvQueueAlike drives a queue through arrivals in bags of equal jobs
// (some out of order, some replacing their own left entry), leaves, starts,
// compacts and regroups, and checks after each step that the hops of alike
// never cross a change of shape, and that they cover long bags in few hops.
func TestResvQueueAlike(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rq := resvQueue{minProcs: sim.Never, lastLeft: -1}
	id := int32(0)
	submit := int64(100)
	longHops := 0
	for range 3000 {
		for i := range rq.q {
			if rq.q[i].resv >= 0 && r.IntN(10) == 0 {
				rq.q[i].resv = -1
				rq.started(i, 1)
			}
		}
		// A bag of equal jobs, as real logs queue them.
		procs, est := 1+r.Int32N(3), int64(10*(1+r.IntN(2)))
		for range r.IntN(120) {
			j := &sim.Job{ID: id, Submit: submit, Procs: procs, Estimate: est}
			switch r.IntN(40) {
			case 0: // back in the queue, before later jobs
				j.Submit = submit - 1 - r.Int64N(50)
			case 1: // its own left entry reused, perhaps with a new shape
				if len(rq.q) > 0 {
					e := rq.q[r.IntN(len(rq.q))]
					if e.resv < 0 {
						j = &sim.Job{ID: e.id, Submit: e.submit, Procs: 1 + r.Int32N(3), Estimate: est}
						id--
					}
				}
			}
			id++
			submit++
			if !rq.add(j, 100) {
				checkAlike(t, "after an add not at the end", rq.q)
			}
		}
		checkAlike(t, "after a bag", rq.q)
		switch r.IntN(3) {
		case 0:
			rq.compact()
			checkAlike(t, "after compact", rq.q)
		case 1:
			rq.regroup()
			checkAlike(t, "after regroup", rq.q)
		}
		for i := range rq.q {
			if rq.q[i].alike >= alikeWalk {
				longHops++
			}
		}
	}
	if longHops == 0 {
		t.Fatal("no entry ever hops alikeWalk entries or more")
	}
}
