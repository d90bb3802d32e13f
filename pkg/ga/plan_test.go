package ga

import (
	"math/rand"
	"slices"
	"testing"
)

// linear is a test utility: Start at turnaround 0, falling by Slope per
// second, 0 from Start/Slope on.
type linear struct{ Start, Slope float64 }

func (l linear) Value(t float64) float64 {
	v := l.Start - l.Slope*t
	if v < 0 {
		return 0
	}
	return v
}

// handPlan: 10 processors, 6 busy until 10; A needs 6 for 5 s, B 4 for
// 20 s, C 2 for 5 s, all submitted at 0.
func handPlan() *Plan {
	p := &Plan{
		Now:     0,
		Free:    4,
		Running: []Release{{End: 10, Procs: 6}},
		Jobs: []PlanJob{
			{Submit: 0, Procs: 6, Estimate: 5, Utility: linear{100, 1}},
			{Submit: 0, Procs: 4, Estimate: 20, Utility: linear{50, 1}},
			{Submit: 0, Procs: 2, Estimate: 5, Utility: linear{10, 0}},
		},
	}
	p.Prepare(1)
	return p
}

func TestPlanSchedules(t *testing.T) {
	tests := []struct {
		order     []int
		done      []int64
		startsNow []int
		fitness   float64
	}{
		// A blocks; B backfills on the 4 extra processors; A at 10; C at 15.
		{[]int{0, 1, 2}, []int64{15, 20, 20}, []int{1}, (100 - 15) + (50 - 20) + 10},
		// C first; A reserved at 10; B cannot fit at 0, backfills at 5 on
		// the extra processors; A at 10.
		{[]int{2, 0, 1}, []int64{15, 25, 5}, []int{2}, (100 - 15) + (50 - 25) + 10},
		// B first takes the 4 idle processors; A at 10; C ends by the
		// shadow time 10? No idle processor at 0, so C waits for A.
		{[]int{1, 0, 2}, []int64{15, 20, 20}, []int{1}, (100 - 15) + (50 - 20) + 10},
		{[]int{1, 2, 0}, []int64{20, 20, 15}, []int{1}, (100 - 20) + (50 - 20) + 10},
	}
	for _, tt := range tests {
		p := handPlan()
		done := make([]int64, 3)
		got := p.Completions(tt.order, done)
		if !slices.Equal(done, tt.done) {
			t.Errorf("order %v: completions %v, want %v", tt.order, done, tt.done)
		}
		if got != tt.fitness || p.Fitness(0, tt.order) != tt.fitness {
			t.Errorf("order %v: fitness %v, want %v", tt.order, got, tt.fitness)
		}
		if s := p.StartsNow(tt.order, nil); !slices.Equal(s, tt.startsNow) {
			t.Errorf("order %v: starts now %v, want %v", tt.order, s, tt.startsNow)
		}
	}
}

func TestPlanShadowCountsAllReleasesAtShadowTime(t *testing.T) {
	// 8 processors: two jobs of 2 end at 10, 4 idle. Head needs 6: shadow
	// 10 with 8 free then, so 2 extra; a 2-processor job running past the
	// shadow time may backfill.
	p := &Plan{
		Free:    4,
		Running: []Release{{End: 10, Procs: 2}, {End: 10, Procs: 2}},
		Jobs: []PlanJob{
			{Procs: 6, Estimate: 1},
			{Procs: 2, Estimate: 100},
			{Procs: 2, Estimate: 100},
		},
	}
	p.Prepare(1)
	if s := p.StartsNow([]int{0, 1, 2}, nil); !slices.Equal(s, []int{1}) {
		t.Errorf("starts now %v, want [1]: one long job on the 2 extra processors", s)
	}
}

func TestPlanRunningCandidates(t *testing.T) {
	// R runs on the whole machine until 100 (restart estimate 150); X
	// wants the machine for 10 s.
	p := &Plan{
		Now: 40,
		Jobs: []PlanJob{
			{Submit: -50, Procs: 10, Estimate: 150, Running: true, RunningEnd: 100, Bonus: 7, Utility: linear{1000, 1}},
			{Submit: 40, Procs: 10, Estimate: 10, Utility: linear{500, 1}},
		},
	}
	p.Prepare(1)
	done := make([]int64, 2)
	keep := p.Completions([]int{0, 1}, done)
	if !slices.Equal(done, []int64{100, 110}) {
		t.Errorf("R kept: completions %v, want [100 110]", done)
	}
	if want := 7 + (1000 - 150.0) + (500 - 70.0); keep != want {
		t.Errorf("R kept: fitness %v, want %v (bonus included)", keep, want)
	}
	bump := p.Completions([]int{1, 0}, done)
	if !slices.Equal(done, []int64{200, 50}) {
		t.Errorf("R bumped: completions %v, want [200 50]", done)
	}
	if want := (1000 - 250.0) + (500 - 10.0); bump != want {
		t.Errorf("R bumped: fitness %v, want %v (no bonus)", bump, want)
	}
}

func TestPlanFitnessDoesNotAllocate(t *testing.T) {
	p := randomPlan(rand.New(rand.NewSource(1)), 64, 128)
	order := make([]int, len(p.Jobs))
	RandomPermutation(rand.New(rand.NewSource(2)), order)
	if n := testing.AllocsPerRun(50, func() { p.Fitness(0, order) }); n != 0 {
		t.Errorf("Fitness allocates %v times per call", n)
	}
}

// randomPlan: a machine of procs processors, half busy, n queued jobs with
// linear utilities of varied urgency.
func randomPlan(rng *rand.Rand, n, procs int) *Plan {
	p := &Plan{Now: 1000, Free: procs / 2}
	busy := procs - p.Free
	for busy > 0 {
		k := 1 + rng.Intn(busy)
		p.Running = append(p.Running, Release{End: 1000 + 1 + int64(rng.Intn(3600)), Procs: k})
		busy -= k
	}
	for i := 0; i < n; i++ {
		est := int64(60 + rng.Intn(7200))
		p.Jobs = append(p.Jobs, PlanJob{
			Submit:   int64(rng.Intn(1000)),
			Procs:    1 + rng.Intn(procs),
			Estimate: est,
			Utility:  linear{Start: float64(1 + rng.Intn(1000)), Slope: rng.Float64() / 10},
		})
	}
	p.Prepare(4)
	return p
}
