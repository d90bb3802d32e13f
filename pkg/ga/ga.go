package ga

import (
	"math"
	"math/rand"
	"runtime"
	"sync"
	"sync/atomic"
)

// Fitness scores orderings. Fitness(worker, order) may be called
// concurrently for different worker values in 0..Workers-1, never
// concurrently for the same one, so per-worker scratch needs no locking.
// It must not keep or modify order, and must return the same value for the
// same order (the search's determinism rests on it).
type Fitness interface {
	Fitness(worker int, order []int) float64
}

// Config holds the search parameters. The zero value works: a population of
// DefaultPopulation, zero generations (the best of the initial population is
// returned), no mutation, one worker per CPU.
type Config struct {
	// Population is the constant number of individuals per generation;
	// 0 means DefaultPopulation.
	Population int
	// Generations is the number of generations bred after the initial one.
	Generations int
	// Mutation is the probability (thesis ϕ, section 3.2.2) that a child
	// undergoes one point mutation (two distinct items swap places).
	Mutation float64
	// Elitism, if set, puts a copy of the best individual ever seen into
	// each new generation in place of its first child. The thesis keeps the
	// best individual aside without breeding from it (section 3.3), which is
	// the default.
	Elitism bool
	// Workers is the number of goroutines computing fitness; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// ParallelMin is the least number of items for which fitness is
	// computed in parallel; below it one goroutine is faster than handing
	// work over each generation. 0 means DefaultParallelMin; 1 always
	// parallel. It changes speed only, never results.
	ParallelMin int
}

// DefaultParallelMin: with 20 individuals and about 0.1 µs of fitness per
// item, handing a generation to other goroutines pays off from about 32
// queued jobs (BenchmarkSearch20x100).
const DefaultParallelMin = 32

// Defaults used by the schedulers and the command line (thesis section 3.3:
// 20 individuals, 100 generations). The thesis does not give ϕ; 0.1 is the
// value of the Russell-Norvig genetic algorithm code its prototype adapted.
const (
	DefaultPopulation  = 20
	DefaultGenerations = 100
	DefaultMutation    = 0.1
)

// DefaultConfig returns the thesis's parameters.
func DefaultConfig() Config {
	return Config{Population: DefaultPopulation, Generations: DefaultGenerations, Mutation: DefaultMutation}
}

// Result is the outcome of a search.
type Result struct {
	Order       []int   // best ordering ever seen; owned by the Searcher
	Fitness     float64 // its fitness
	Generation  int     // generation in which it was first seen (0 = initial)
	Evaluations int     // fitness evaluations made
}

// Searcher runs searches, reusing its buffers from one to the next so that a
// search in steady state allocates only for the worker goroutines.
type Searcher struct {
	cfg Config

	pop, next [][]int // current and next generation (views into store)
	store     []int   // backing array: 2*Population*n
	fit       []float64
	cum       []float64 // cumulative selection weights
	best      []int
	used      []bool // crossover scratch

	// parallel evaluation state for the current search
	fitness Fitness
	cursor  atomic.Int64
	evalPop [][]int
	evalFit []float64
	starts  []chan struct{} // one per helper goroutine
	wg      sync.WaitGroup
}

// NewSearcher returns a Searcher for cfg, with defaults filled in.
func NewSearcher(cfg Config) *Searcher {
	if cfg.Population <= 0 {
		cfg.Population = DefaultPopulation
	}
	if cfg.Generations < 0 {
		panic("ga: negative generations")
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.ParallelMin <= 0 {
		cfg.ParallelMin = DefaultParallelMin
	}
	return &Searcher{cfg: cfg}
}

// Config returns the configuration in use, defaults filled in.
func (s *Searcher) Config() Config { return s.cfg }

func (s *Searcher) grow(n int) {
	p := s.cfg.Population
	if cap(s.store) < 2*p*n {
		s.store = make([]int, 2*p*n)
		s.best = make([]int, n)
		s.used = make([]bool, n)
	}
	if s.pop == nil {
		s.pop = make([][]int, p)
		s.next = make([][]int, p)
		s.fit = make([]float64, p)
		s.cum = make([]float64, p)
	}
	for i := 0; i < p; i++ {
		s.pop[i] = s.store[i*n : (i+1)*n : (i+1)*n]
		s.next[i] = s.store[(p+i)*n : (p+i+1)*n : (p+i+1)*n]
	}
	s.best = s.best[:n]
	s.used = s.used[:n]
}

// Search evolves orderings of 0..n-1 and returns the best one ever seen.
// The initial population is seeds (each a permutation of 0..n-1; any beyond
// the population size are ignored; they are copied) followed by random
// permutations. Each later generation is bred by Breed. The returned Order
// is valid until the next call.
func (s *Searcher) Search(rng *rand.Rand, n int, seeds [][]int, f Fitness) Result {
	if n < 0 {
		panic("ga: negative length")
	}
	s.grow(n)
	p := s.cfg.Population
	for i := 0; i < p; i++ {
		if i < len(seeds) {
			if len(seeds[i]) != n {
				panic("ga: seed is not a permutation of the items")
			}
			copy(s.pop[i], seeds[i])
		} else {
			RandomPermutation(rng, s.pop[i])
		}
	}
	s.fitness = f
	var stop func()
	if s.cfg.Workers > 1 && p > 1 && n > 1 && n >= s.cfg.ParallelMin {
		stop = s.startWorkers()
	}
	var res Result
	s.evaluate(stop != nil)
	res.Evaluations += p
	res.Fitness = s.fit[0]
	copy(s.best, s.pop[0])
	s.keepBest(&res, 0)
	for g := 1; g <= s.cfg.Generations; g++ {
		s.breed(rng, n)
		s.pop, s.next = s.next, s.pop
		s.evaluate(stop != nil)
		res.Evaluations += p
		s.keepBest(&res, g)
	}
	if stop != nil {
		stop()
	}
	s.fitness = nil
	res.Order = s.best
	return res
}

func (s *Searcher) keepBest(res *Result, gen int) {
	for i, f := range s.fit {
		if f > res.Fitness || (math.IsNaN(res.Fitness) && !math.IsNaN(f)) {
			res.Fitness = f
			res.Generation = gen
			copy(s.best, s.pop[i])
		}
	}
}

// breed fills s.next from s.pop (section 3.2.3): each child comes from two
// distinct fitness-proportional parents by zipper crossover, then mutates
// with probability Mutation.
func (s *Searcher) breed(rng *rand.Rand, n int) {
	total := cumulate(s.fit, s.cum)
	start := 0
	if s.cfg.Elitism {
		copy(s.next[0], s.best)
		start = 1
	}
	for i := start; i < len(s.next); i++ {
		a := selectParent(rng, s.fit, s.cum, total, -1)
		b := a
		if len(s.pop) > 1 {
			b = selectParent(rng, s.fit, s.cum, total, a)
		}
		Zipper(rng, s.next[i], s.pop[a], s.pop[b], s.used)
		if s.cfg.Mutation > 0 && rng.Float64() < s.cfg.Mutation {
			Mutate(rng, s.next[i])
		}
	}
}

// evaluate computes s.fit for s.pop, in parallel if the workers run.
func (s *Searcher) evaluate(parallel bool) {
	if !parallel {
		for i, ind := range s.pop {
			s.fit[i] = s.fitness.Fitness(0, ind)
		}
		return
	}
	s.evalPop, s.evalFit = s.pop, s.fit
	s.cursor.Store(0)
	s.wg.Add(len(s.starts))
	for _, c := range s.starts {
		c <- struct{}{}
	}
	s.work(0)
	s.wg.Wait()
}

// work evaluates individuals claimed one at a time; results go to their own
// slots, so the claim order does not matter.
func (s *Searcher) work(worker int) {
	for {
		i := int(s.cursor.Add(1) - 1)
		if i >= len(s.evalPop) {
			return
		}
		s.evalFit[i] = s.fitness.Fitness(worker, s.evalPop[i])
	}
}

// startWorkers starts Workers-1 helper goroutines (the caller is worker 0)
// and returns the function that stops them.
func (s *Searcher) startWorkers() (stop func()) {
	s.starts = s.starts[:0]
	for w := 1; w < s.cfg.Workers; w++ {
		c := make(chan struct{})
		s.starts = append(s.starts, c)
		go func(worker int, start <-chan struct{}) {
			for range start {
				s.work(worker)
				s.wg.Done()
			}
		}(w, c)
	}
	return func() {
		for _, c := range s.starts {
			close(c)
		}
		s.starts = s.starts[:0]
	}
}
