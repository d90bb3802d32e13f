package price

import (
	"slices"
	"strings"
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

func step(v, deadline float64) utility.Func {
	return utility.Func{Points: []utility.Point{{Time: 0, Value: v}, {Time: deadline, Value: v}, {Time: deadline + 1, Value: 0}}}
}

// TestVCGEqualPricesFromAStep: equal VCG prices are what a step utility
// function gives when either of two jobs alone pushes a third past its step
// (the session notes saw 24 jobs priced alike under easy on KTH). On 10
// processors under priority-FIFO (queue 0 first): A (0..100) fills the
// machine; C (queue 1, 10 s, worth 100 within 130 s of its submission at 1)
// waits behind B1 and B2 (queue 0, 20 s each, submitted at 2 and 3): B1
// 100..120, B2 120..140, C 140..150, turnaround 149: C earns 0.
//   - B1's window (thesis 3.4.3): the jobs waiting at its submission, C
//     only (B2 arrives while B1 waits); A is pinned until 100. Without B1, C
//     runs 100..110 (turnaround 109): AUalt - AUtrue = 100.
//   - B2's window: C and B1. Without B2, B1 runs 100..120 as before and C
//     120..130 (turnaround 129 <= 130): 100 again.
//   - A's window: every job arrives while A runs. Without A, C starts at 1
//     (turnaround 10, earns 100), B1 runs 11..31 and B2 31..51, each 89 s
//     sooner than with A, worth 10 x 89/1e6 each on lin(10, 1e6).
//   - C: nobody waits at 1, nobody arrives while C runs: 0.
func TestVCGEqualPricesFromAStep(t *testing.T) {
	input := []sim.Job{
		{Procs: 10, Submit: 0, Runtime: 100, Estimate: 100, Queue: 0}, // A
		{Procs: 10, Submit: 1, Runtime: 10, Estimate: 10, Queue: 1},   // C
		{Procs: 10, Submit: 2, Runtime: 20, Estimate: 20, Queue: 0},   // B1
		{Procs: 10, Submit: 3, Runtime: 20, Estimate: 20, Queue: 0},   // B2
	}
	util := []utility.Func{lin(10, 1e6), step(100, 130), lin(10, 1e6), lin(10, 1e6)}
	prio := func(int32, []int32, []utility.Func) (sim.Policy, error) { return policy.NewPrioFIFO(nil), nil }
	result := simulate(t, 10, input, policy.NewPrioFIFO(nil))
	if got := []int64{result[0].Start, result[1].Start, result[2].Start, result[3].Start}; !slices.Equal(got, []int64{0, 140, 100, 120}) {
		t.Fatalf("starts %v, want [0 140 100 120]", got)
	}
	if w := WindowOf(result, 2, false); !slices.Equal(w.Jobs, []int32{1}) || !slices.Equal(w.Running, []int32{0}) {
		t.Errorf("window of B1 %+v, want jobs [C], A running", w)
	}
	if w := WindowOf(result, 3, false); !slices.Equal(w.Jobs, []int32{1, 2}) || !slices.Equal(w.Running, []int32{0}) {
		t.Errorf("window of B2 %+v, want jobs [C B1], A running", w)
	}
	prices, err := VCG(input, result, util, VCGConfig{Procs: 10, NewPolicy: prio})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{100 + 2*10*89/1e6, 0, 100, 100}
	for k := range want {
		if d := prices[k] - want[k]; d > 1e-9 || d < -1e-9 {
			t.Errorf("VCG price of job %d = %v, want %v", k, prices[k], want[k])
		}
	}
}

// TestVCGPolicyThatCannotTakePinnedJobs: a policy that cannot take the jobs
// pinned before its first pass (conservative: its reservations miss them)
// makes VCG return an error naming the job, never a panic.
func TestVCGPolicyThatCannotTakePinnedJobs(t *testing.T) {
	input := []sim.Job{
		{Procs: 10, Submit: 0, Runtime: 100, Estimate: 100},
		{Procs: 10, Submit: 50, Runtime: 100, Estimate: 100},
		{Procs: 10, Submit: 60, Runtime: 50, Estimate: 50},
		{Procs: 10, Submit: 70, Runtime: 10, Estimate: 10},
	}
	util := []utility.Func{lin(10, 1000), lin(20, 1000), lin(1000, 200), lin(1, 1e6)}
	result := simulate(t, 10, input, &policy.EASY{})
	panicky := func(int32, []int32, []utility.Func) (sim.Policy, error) { return panicPolicy{}, nil }
	_, err := VCG(input, result, util, VCGConfig{Procs: 10, NewPolicy: panicky, Workers: 2})
	if err == nil || !strings.Contains(err.Error(), "the re-simulation without it failed: boom") {
		t.Errorf("err = %v, want the re-simulation's failure", err)
	}
}

type panicPolicy struct{}

func (panicPolicy) Arrived(*sim.Sim, *sim.Job)              {}
func (panicPolicy) Ended(*sim.Sim, *sim.Job, sim.EndReason) {}
func (panicPolicy) Timer(*sim.Sim, sim.TimerID, int64)      {}
func (panicPolicy) Schedule(*sim.Sim)                       { panic("boom") }

// TestRunIndex: a job's state at a time follows its runs. J0 (1000 s, requested
// 1000) ran 0-250, was interrupted keeping 200 s with 10 s of overhead, and
// ran again 460-1270 (810 s).
func TestRunIndex(t *testing.T) {
	input := []sim.Job{{Runtime: 1000, Estimate: 1000}}
	result := []sim.Job{{Runtime: 1000, Estimate: 810, FirstStart: 0, Start: 460, End: 1270}}
	ix := newRunIndex(input, result, VCGConfig{Interruptions: []Interruption{{ID: 0, At: 250, Ran: 250, Saved: 200, Overhead: 10}}})
	if _, _, waiting := ix.waitingAt(0, 100); waiting {
		t.Error("waiting at 100, inside its first run")
	}
	// At 250 it was still running when that second's arrivals came: the
	// bump came in the pass after them.
	if _, _, waiting := ix.waitingAt(0, 250); waiting {
		t.Error("waiting at 250, the second of the bump")
	}
	if rest, _, _ := ix.restAt(0, 250); rest != 750 {
		t.Errorf("rest at 250: %d, want 750", rest)
	}
	for _, at := range []int64{251, 300, 460} {
		if w, e, waiting := ix.waitingAt(0, at); !waiting || w != 810 || e != 810 {
			t.Errorf("at %d: waiting %v with %d s of work, %d requested; want 810, 810", at, waiting, w, e)
		}
	}
	// Inside the first run: it runs on as if not interrupted, to 1000.
	if rest, est, interrupted := ix.restAt(0, 100); rest != 900 || est != 900 || !interrupted {
		t.Errorf("rest at 100: %d, %d; want 900, 900", rest, est)
	}
	// Inside the last run: to its end, 1270, requested until 460 + 810.
	if rest, est, interrupted := ix.restAt(0, 500); rest != 770 || est != 770 || interrupted {
		t.Errorf("rest at 500: %d, %d; want 770, 770", rest, est)
	}
	// Killed at its estimate: a first run of 1000 s of work requested for
	// 600 would have ended at 600.
	input[0].Estimate = 600
	ix = newRunIndex(input, result, VCGConfig{Interruptions: ix.byJob[0]})
	if rest, _, _ := ix.restAt(0, 100); rest != 500 {
		t.Errorf("rest at 100 with kills at 600: %d, want 500", rest)
	}
	ix.noKill = true
	if rest, _, _ := ix.restAt(0, 100); rest != 900 {
		t.Errorf("rest at 100 without kills: %d, want 900", rest)
	}
}
