package ga

import (
	"math"
	"math/rand"
	"slices"
	"sync"
	"testing"
)

// recorder wraps a Fitness and keeps the largest value it returned.
type recorder struct {
	f   Fitness
	mu  sync.Mutex
	max float64
	n   int
}

func (r *recorder) Fitness(w int, order []int) float64 {
	v := r.f.Fitness(w, order)
	r.mu.Lock()
	if r.n == 0 || v > r.max {
		r.max = v
	}
	r.n++
	r.mu.Unlock()
	return v
}

func TestSearchBestSoFarNeverDecreases(t *testing.T) {
	plan := randomPlan(rand.New(rand.NewSource(7)), 30, 64)
	prev := math.Inf(-1)
	for g := 0; g <= 40; g++ {
		// The same seed draws the same numbers for the first g
		// generations, so one more generation can only add candidates.
		rec := &recorder{f: plan}
		s := NewSearcher(Config{Population: 10, Generations: g, Mutation: 0.1, Workers: 1})
		res := s.Search(rand.New(rand.NewSource(11)), len(plan.Jobs), nil, rec)
		if res.Fitness < prev {
			t.Fatalf("generations %d: best %v fell below %v", g, res.Fitness, prev)
		}
		prev = res.Fitness
		if res.Fitness != rec.max {
			t.Errorf("generations %d: returned %v, but the best evaluated was %v", g, res.Fitness, rec.max)
		}
		if got := plan.Fitness(0, res.Order); got != res.Fitness {
			t.Errorf("generations %d: returned order scores %v, reported %v", g, got, res.Fitness)
		}
		if res.Evaluations != 10*(g+1) || rec.n != res.Evaluations {
			t.Errorf("generations %d: %d evaluations (%d seen), want %d", g, res.Evaluations, rec.n, 10*(g+1))
		}
		if !isPermutation(res.Order) {
			t.Fatalf("result %v is not a permutation", res.Order)
		}
	}
}

func TestSearchSeedOnlyZeroGenerations(t *testing.T) {
	plan := randomPlan(rand.New(rand.NewSource(8)), 12, 32)
	seed := []int{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}
	s := NewSearcher(Config{Population: 1})
	res := s.Search(rand.New(rand.NewSource(1)), 12, [][]int{seed}, plan)
	if !slices.Equal(res.Order, seed) || res.Evaluations != 1 {
		t.Errorf("population of one seed, no generations: got %v after %d evaluations, want the seed after 1", res.Order, res.Evaluations)
	}
	// A population of one can still breed: the child of a lone parent is
	// that parent, possibly mutated.
	s = NewSearcher(Config{Population: 1, Generations: 5})
	res = s.Search(rand.New(rand.NewSource(1)), 12, [][]int{seed}, plan)
	if !slices.Equal(res.Order, seed) {
		t.Errorf("population of one without mutation changed the seed to %v", res.Order)
	}
}

// permutations calls f with every permutation of 0..n-1 (Heap's algorithm).
func permutations(n int, f func([]int)) {
	a := make([]int, n)
	for i := range a {
		a[i] = i
	}
	c := make([]int, n)
	f(a)
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				a[0], a[i] = a[i], a[0]
			} else {
				a[c[i]], a[i] = a[i], a[c[i]]
			}
			f(a)
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
}

// bruteForce returns the best fitness over all orderings.
func bruteForce(plan *Plan) float64 {
	best := math.Inf(-1)
	permutations(len(plan.Jobs), func(o []int) { best = math.Max(best, plan.Fitness(0, o)) })
	return best
}

func TestSearchFindsBruteForceOptimum(t *testing.T) {
	// Hand-made queues where arrival order is not optimal; the thesis's
	// parameters must find the optimum on every one.
	hands := []*Plan{
		// A wide, low-value job arrived first and blocks urgent small ones.
		{Now: 100, Free: 8, Running: []Release{{End: 400, Procs: 8}}, Jobs: []PlanJob{
			{Submit: 0, Procs: 16, Estimate: 3000, Utility: linear{100, 0.01}},
			{Submit: 10, Procs: 8, Estimate: 600, Utility: linear{900, 1}},
			{Submit: 20, Procs: 4, Estimate: 300, Utility: linear{500, 0.5}},
			{Submit: 30, Procs: 8, Estimate: 1200, Utility: linear{800, 0.2}},
			{Submit: 40, Procs: 2, Estimate: 60, Utility: linear{50, 0.1}},
			{Submit: 50, Procs: 12, Estimate: 900, Utility: linear{700, 0.3}},
		}},
		// Whole-machine jobs only: the schedule is a sequence, the optimum
		// orders by urgency; two step-like deadlines.
		{Now: 0, Free: 4, Jobs: []PlanJob{
			{Procs: 4, Estimate: 100, Utility: linear{10, 0}},
			{Procs: 4, Estimate: 100, Utility: linear{100, 0.5}},
			{Procs: 4, Estimate: 50, Utility: linear{300, 2}},
			{Procs: 4, Estimate: 300, Utility: linear{50, 0.01}},
			{Procs: 4, Estimate: 10, Utility: linear{60, 1}},
		}},
	}
	for i, plan := range hands {
		plan.Prepare(2)
		arrival := make([]int, len(plan.Jobs))
		for k := range arrival {
			arrival[k] = k
		}
		best := bruteForce(plan)
		if !(best > plan.Fitness(0, arrival)) {
			t.Errorf("hand-made plan %d: arrival order is already optimal; the case tests nothing", i)
		}
		for seed := int64(0); seed < 5; seed++ {
			cfg := DefaultConfig()
			cfg.Workers, cfg.ParallelMin = 2, 1
			res := NewSearcher(cfg).Search(rand.New(rand.NewSource(seed)), len(plan.Jobs), [][]int{arrival}, plan)
			if res.Fitness != best {
				t.Errorf("hand-made plan %d seed %d: GA found %v, brute force %v", i, seed, res.Fitness, best)
			}
		}
	}
	// Random 6-job queues: a heuristic may miss now and then, but rarely
	// and not by much.
	rng := rand.New(rand.NewSource(9))
	const trials = 40
	exact := 0
	for i := 0; i < trials; i++ {
		plan := randomPlan(rng, 6, 16)
		best := bruteForce(plan)
		res := NewSearcher(DefaultConfig()).Search(rand.New(rand.NewSource(int64(i))), 6, nil, plan)
		if res.Fitness == best {
			exact++
		} else if res.Fitness < 0.98*best {
			t.Errorf("random plan %d: GA found %v, more than 2%% below the optimum %v", i, res.Fitness, best)
		}
	}
	if exact < trials*9/10 {
		t.Errorf("GA found the optimum of %d of %d random 6-job queues, want at least 90%%", exact, trials)
	}
	t.Logf("optimum found on %d of %d random 6-job queues", exact, trials)
}

func TestSearchDeterministicAcrossWorkers(t *testing.T) {
	plan := randomPlan(rand.New(rand.NewSource(10)), 40, 64)
	var want []int
	var wantFit float64
	for _, workers := range []int{1, 2, 3, 4, 1, 4} {
		for _, elitism := range []bool{false} {
			s := NewSearcher(Config{Population: 20, Generations: 30, Mutation: 0.3, Workers: workers, Elitism: elitism, ParallelMin: 1})
			res := s.Search(rand.New(rand.NewSource(42)), 40, nil, plan)
			if want == nil {
				want, wantFit = slices.Clone(res.Order), res.Fitness
				continue
			}
			if !slices.Equal(res.Order, want) || res.Fitness != wantFit {
				t.Errorf("workers %d: %v (%v), want %v (%v)", workers, res.Order, res.Fitness, want, wantFit)
			}
		}
	}
}

func TestSearchReuseAcrossSizes(t *testing.T) {
	s := NewSearcher(Config{Population: 6, Generations: 5, Mutation: 0.5, Workers: 2, ParallelMin: 1})
	rng := rand.New(rand.NewSource(3))
	for _, n := range []int{5, 0, 1, 30, 2, 7} {
		plan := randomPlan(rng, n, 16)
		res := s.Search(rng, n, nil, plan)
		if len(res.Order) != n || !isPermutation(res.Order) {
			t.Errorf("n=%d: result %v", n, res.Order)
		}
	}
}

func TestElitismKeepsBestInPopulation(t *testing.T) {
	plan := randomPlan(rand.New(rand.NewSource(12)), 25, 64)
	rec := &recorder{f: plan}
	s := NewSearcher(Config{Population: 8, Generations: 20, Mutation: 0.2, Workers: 1, Elitism: true})
	res := s.Search(rand.New(rand.NewSource(5)), 25, nil, rec)
	// With elitism the last generation holds the best ever, so it is the
	// best of the final population too.
	last := math.Inf(-1)
	for _, f := range s.fit {
		last = math.Max(last, f)
	}
	if last != res.Fitness {
		t.Errorf("best of the last generation %v, best ever %v", last, res.Fitness)
	}
}

func BenchmarkPlanFitness(b *testing.B) {
	for _, n := range []int{10, 50, 200, 1000} {
		b.Run("queue="+itoa(n), func(b *testing.B) {
			plan := randomPlan(rand.New(rand.NewSource(1)), n, 1024)
			order := make([]int, n)
			RandomPermutation(rand.New(rand.NewSource(2)), order)
			b.ReportAllocs()
			for b.Loop() {
				plan.Fitness(0, order)
			}
		})
	}
}

func BenchmarkSearch20x100(b *testing.B) {
	for _, tc := range []struct{ n, workers int }{{10, 1}, {10, 2}, {30, 1}, {30, 2}, {50, 1}, {50, 2}, {200, 1}, {200, 2}} {
		n, workers := tc.n, tc.workers
		b.Run("queue="+itoa(n)+"/workers="+itoa(workers), func(b *testing.B) {
			plan := randomPlan(rand.New(rand.NewSource(1)), n, 1024)
			var s *Searcher
			if workers == 1 {
				s = NewSearcher(Config{Population: 20, Generations: 100, Mutation: 0.1, Workers: 1})
			} else {
				s = NewSearcher(Config{Population: 20, Generations: 100, Mutation: 0.1, Workers: workers, ParallelMin: 1})
			}
			rng := rand.New(rand.NewSource(1))
			b.ReportAllocs()
			for b.Loop() {
				s.Search(rng, n, nil, plan)
			}
		})
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return string(buf[i:])
}
