package ga

import (
	"math/rand"
	"testing"
)

// FuzzSearch checks the operators' invariants on arbitrary sizes and seeds:
// every child, mutant and result is a permutation, and a search returns the
// best fitness it evaluated.
func FuzzSearch(f *testing.F) {
	f.Add(int64(1), uint8(0), uint8(1), uint8(0))
	f.Add(int64(2), uint8(7), uint8(3), uint8(5))
	f.Add(int64(3), uint8(40), uint8(20), uint8(2))
	f.Fuzz(func(t *testing.T, seed int64, n, pop, gens uint8) {
		rng := rand.New(rand.NewSource(seed))
		size := int(n % 64)
		a, b, child := make([]int, size), make([]int, size), make([]int, size)
		RandomPermutation(rng, a)
		RandomPermutation(rng, b)
		Zipper(rng, child, a, b, make([]bool, size))
		Mutate(rng, child)
		if !isPermutation(a) || !isPermutation(child) {
			t.Fatalf("not a permutation: %v / %v", a, child)
		}
		plan := randomPlan(rng, size, 1+int(seed&63))
		rec := &recorder{f: plan}
		s := NewSearcher(Config{Population: 1 + int(pop%24), Generations: int(gens % 8), Mutation: 0.5, Workers: 1})
		res := s.Search(rng, size, nil, rec)
		if !isPermutation(res.Order) || res.Fitness != rec.max {
			t.Fatalf("result %v fitness %v, best evaluated %v", res.Order, res.Fitness, rec.max)
		}
	})
}
