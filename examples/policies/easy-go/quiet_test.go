package main

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// naiveShadowWithout is shadowWithout as a walk over the running jobs.
func naiveShadowWithout(running []run, skip int, free, need int64) (int64, int64) {
	avail := free + running[skip].procs
	for k := 0; k < len(running); k++ {
		if k == skip {
			continue
		}
		avail += running[k].procs
		if avail < need {
			continue
		}
		t := running[k].end
		for k+1 < len(running) && (k+1 == skip || running[k+1].end == t) {
			k++
			if k != skip {
				avail += running[k].procs
			}
		}
		return t, avail - need
	}
	panic("wider than the machine")
}

// The prefix-sum shadow equals the walk on random running sets with many
// equal ends, for every job taken out, whenever the head fits once all end.
func TestShadowWithoutMatchesWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 16))
	for range 2000 {
		n := 1 + rng.IntN(12)
		e := &easy{}
		var total int64
		for i := range n {
			r := run{end: int64(rng.IntN(6)), id: int32(i), procs: 1 + rng.Int64N(5)}
			total += r.procs
			e.running = append(e.running, r)
		}
		slices.SortFunc(e.running, cmpRun)
		e.prefix = e.prefix[:0]
		var sum int64
		for _, r := range e.running {
			sum += r.procs
			e.prefix = append(e.prefix, sum)
		}
		free := rng.Int64N(4)
		for skip := range e.running {
			f := free + e.running[skip].procs
			need := f + 1 + rng.Int64N(total-e.running[skip].procs+1)
			if need > free+total {
				continue
			}
			wt, wx := naiveShadowWithout(e.running, skip, free, need)
			gt, gx := e.shadowWithout(skip, free, need)
			if gt != wt || gx != wx {
				t.Fatalf("running %v, skip %d, free %d, need %d: shadow %d extra %d, want %d %d", e.running, skip, free, need, gt, gx, wt, wx)
			}
		}
	}
}
