package policy

import (
	"math/rand/v2"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// TestConservativePruningExactBags: the pruned compression (its proofs, the
// tight ones included) against the plain one on random workloads full of bags
// of equal serial and 2-processor jobs that end early, where cascades of moves
// and the proofs matter most; with and without kills.
func TestConservativePruningExactBags(t *testing.T) {
	for seed := uint64(0); seed < 12; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		procs := int64(8 + r.IntN(64))
		var jobs []sim.Job
		var submit int64
		durs := []int64{50, 100, 300, 1000}
		for len(jobs) < 1200 {
			submit += int64(r.IntN(20))
			if r.IntN(10) == 0 { // a bag of equal serial or narrow jobs
				n := 20 + r.IntN(200)
				d := durs[r.IntN(len(durs))]
				p := int32(1 + r.IntN(2))
				for k := 0; k < n; k++ {
					rt := d - int64(r.IntN(int(d)/2+1))
					if r.IntN(3) == 0 {
						rt = d
					}
					jobs = append(jobs, sim.Job{Submit: submit, Runtime: rt, Estimate: d, Procs: p, Queue: -1})
				}
				continue
			}
			d := durs[r.IntN(len(durs))] + int64(r.IntN(100))
			jobs = append(jobs, sim.Job{Submit: submit, Runtime: int64(r.IntN(int(d) + 50)), Estimate: d, Procs: int32(1 + r.Int64N(procs)), Queue: -1})
		}
		for _, noKill := range []bool{false, true} {
			run := func(naive bool) []sim.Job {
				js := append([]sim.Job(nil), jobs...)
				s, err := sim.New(sim.Config{Procs: procs, NoKill: noKill}, js)
				if err != nil {
					t.Fatal(err)
				}
				c := NewConservative(len(js))
				c.naive = naive
				if err := s.Run(c); err != nil {
					t.Fatal(err)
				}
				return js
			}
			a, b := run(true), run(false)
			for i := range a {
				if a[i].Start != b[i].Start {
					t.Fatalf("seed %d nokill %v job %d: naive %d pruned %d", seed, noKill, i, a[i].Start, b[i].Start)
				}
			}
		}
	}
}
