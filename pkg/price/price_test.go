package price

import (
	"slices"
	"testing"

	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/utility"
)

func lin(v, deadline float64) utility.Func {
	return utility.Func{Points: []utility.Point{{Time: 0, Value: v}, {Time: deadline, Value: 0}}}
}

func TestShift(t *testing.T) {
	f := utility.Func{Points: []utility.Point{{Time: 0, Value: 100}, {Time: 10, Value: 80}, {Time: 50, Value: 20}, {Time: 60, Value: 0}}}
	for _, d := range []float64{0, 5, 10, 30, 59, 60, 100} {
		g := Shift(f, d)
		if err := g.Validate(); err != nil {
			t.Fatalf("shift %v: %v (%v)", d, err, g.Points)
		}
		for _, x := range []float64{0, 1, 4.5, 5, 20, 40, 55, 70, 1000} {
			if got, want := g.Value(x), f.Value(x+d); got != want {
				t.Errorf("shift %v: g(%v) = %v, want f(%v) = %v", d, x, got, x+d, want)
			}
		}
	}
}

func simulate(t *testing.T, procs int64, jobs []sim.Job, p sim.Policy) []sim.Job {
	t.Helper()
	out := slices.Clone(jobs)
	s, err := sim.New(sim.Config{Procs: procs}, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(p); err != nil {
		t.Fatal(err)
	}
	return out
}

func easyPolicy(int32, []int32, []utility.Func) (sim.Policy, error) { return &policy.EASY{}, nil }

func TestFirstAndVCG(t *testing.T) {
	// A fills the machine 0..100; C arrives at 50 (100 s); B, urgent,
	// arrives at 60 (50 s) and waits for both under EASY.
	input := []sim.Job{
		{Procs: 10, Submit: 0, Runtime: 100, Estimate: 100},
		{Procs: 10, Submit: 50, Runtime: 100, Estimate: 100},
		{Procs: 10, Submit: 60, Runtime: 50, Estimate: 50},
		{Procs: 10, Submit: 70, Runtime: 10, Estimate: 10},
	}
	util := []utility.Func{lin(10, 1000), lin(20, 1000), lin(1000, 200), lin(1, 1e6)}
	result := simulate(t, 10, input, &policy.EASY{})
	// A 0..100, C 100..200, B 200..250, D 250..260.
	if result[1].Start != 100 || result[2].Start != 200 || result[3].Start != 250 {
		t.Fatalf("schedule %v", result)
	}
	first := First(result, util)
	if want := []float64{10 - 0.01*100, 20 - 0.02*150, 1000 - 5*190, 1 - 190/1e6}; !slices.Equal(first, want) {
		t.Errorf("first prices %v, want %v", first, want)
	}
	if w := WindowOf(result, 0, false); !slices.Equal(w.Jobs, []int32{1, 2, 3}) || len(w.Running) != 0 {
		t.Errorf("window of A %+v, want jobs [1 2 3] (all arrive while A runs)", w)
	}
	// C's thesis window: nobody waits at 50, A runs; B and D arrive while
	// C waits (excluded), nothing arrives while C runs.
	if w := WindowOf(result, 1, false); len(w.Jobs) != 0 || !slices.Equal(w.Running, []int32{0}) {
		t.Errorf("window of C %+v, want no jobs, A running", w)
	}
	if w := WindowOf(result, 1, true); !slices.Equal(w.Jobs, []int32{2, 3}) {
		t.Errorf("whole-wait window of C %+v, want jobs [2 3]", w)
	}
	for _, workers := range []int{1, 3} {
		calls := 0
		prices, err := VCG(input, result, util, VCGConfig{Procs: 10, NewPolicy: easyPolicy, Workers: workers,
			Progress: func(done, total int) { calls++ }})
		if err != nil {
			t.Fatal(err)
		}
		// Without A: C 50..150, B 150..200 (turnaround 140), D 200..210.
		// With A: B turnaround 190, C 150, D 190.
		wantA := (20 - 0.02*100 + 1000 - 5*140 + 1 - 140/1e6) - (20 - 0.02*150 + 1000 - 5*190 + 1 - 190/1e6)
		want := []float64{wantA, 0, 0, 0}
		// B's window: nobody waits at 60 but C? C waits 50..100 and was
		// submitted before 60: C is in; A runs (pinned 60..100); D arrives
		// while B waits: out. Without B, C's schedule is unchanged: 0.
		for k := range want {
			if diff := prices[k] - want[k]; diff > 1e-9 || diff < -1e-9 {
				t.Errorf("workers %d: VCG price of job %d = %v, want %v", workers, k, prices[k], want[k])
			}
		}
		if calls != len(input) {
			t.Errorf("progress called %d times, want %d", calls, len(input))
		}
	}
	prices, err := VCG(input, result, util, VCGConfig{Procs: 10, NewPolicy: easyPolicy, WholeWait: true})
	if err != nil {
		t.Fatal(err)
	}
	// Whole-wait window of C: B and D; without C (A pinned until 100):
	// B 100..150 (turnaround 90), D 150..160 (90).
	wantC := (1000 - 5*90 + 1 - 90/1e6) - (1000 - 5*190 + 1 - 190/1e6)
	if d := prices[1] - wantC; d > 1e-9 || d < -1e-9 {
		t.Errorf("whole-wait VCG price of C = %v, want %v", prices[1], wantC)
	}
}
