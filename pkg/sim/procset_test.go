package sim

import (
	"math/rand/v2"
	"testing"
)

// On a machine of directProcSet processors or more procSet counts the ranks
// of the jobs' widths: it answers as the per-width set does, and its size
// follows the widths, not the machine.
func TestProcSetRanksMatchWidths(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	jobs := make([]Job, 200)
	for i := range jobs {
		jobs[i].Procs = 1 + r.Int32N(directProcSet-1)
	}
	jobs[0].Procs = directProcSet - 1
	direct := newProcSet(directProcSet-1, jobs)
	ranked := newProcSet(1<<31-1, jobs)
	if ranked.widths == nil || len(ranked.count) > len(jobs) {
		t.Fatalf("ranked set of %d counts for %d jobs", len(ranked.count), len(jobs))
	}
	var in []int32
	for step := range 5000 {
		if len(in) > 0 && r.IntN(2) == 0 {
			k := r.IntN(len(in))
			direct.remove(in[k])
			ranked.remove(in[k])
			in[k] = in[len(in)-1]
			in = in[:len(in)-1]
		} else {
			p := jobs[r.IntN(len(jobs))].Procs
			direct.add(p)
			ranked.add(p)
			in = append(in, p)
		}
		if got, want := ranked.min(), direct.min(); got != want {
			t.Fatalf("step %d: min %d, want %d", step, got, want)
		}
	}
}

// A simulation on the largest machine swfkit accepts allocates by the jobs.
func TestHugeMachineSmallMemory(t *testing.T) {
	jobs := []Job{{Procs: 1<<31 - 1, Runtime: 10, Estimate: 10}, {Submit: 1, Procs: 7, Runtime: 10, Estimate: 10}}
	s, err := New(Config{Procs: 1<<31 - 1}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.waitProcs.count) != 2 {
		t.Fatalf("%d counts for 2 widths", len(s.waitProcs.count))
	}
}
