package ga

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

func isPermutation(order []int) bool {
	seen := make([]bool, len(order))
	for _, v := range order {
		if v < 0 || v >= len(order) || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

func TestRandomPermutation(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	counts := make([][]int, 4) // counts[position][item]
	for i := range counts {
		counts[i] = make([]int, 4)
	}
	order := make([]int, 4)
	const trials = 40000
	for i := 0; i < trials; i++ {
		RandomPermutation(rng, order)
		if !isPermutation(order) {
			t.Fatalf("not a permutation: %v", order)
		}
		for pos, item := range order {
			counts[pos][item]++
		}
	}
	for pos := range counts {
		for item, c := range counts[pos] {
			if math.Abs(float64(c)-trials/4) > 0.05*trials/4 {
				t.Errorf("item %d at position %d %d times, want about %d", item, pos, c, trials/4)
			}
		}
	}
}

func TestZipperYieldsPermutation(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for n := 0; n <= 40; n++ {
		a, b, child := make([]int, n), make([]int, n), make([]int, n)
		used := make([]bool, n)
		for trial := 0; trial < 50; trial++ {
			RandomPermutation(rng, a)
			RandomPermutation(rng, b)
			Zipper(rng, child, a, b, used)
			if !isPermutation(child) {
				t.Fatalf("n=%d: child %v of %v and %v is not a permutation", n, child, a, b)
			}
			// Definition: each child item is the first item of one parent
			// that is not already in the child.
			for k, item := range child {
				if item != firstUnused(a, child[:k]) && item != firstUnused(b, child[:k]) {
					t.Fatalf("n=%d: child[%d]=%d is the first unused item of neither parent (a=%v b=%v child=%v)", n, k, item, a, b, child)
				}
			}
		}
	}
}

func firstUnused(parent, taken []int) int {
	for _, v := range parent {
		if !slices.Contains(taken, v) {
			return v
		}
	}
	return -1
}

func TestZipperMixesBothParents(t *testing.T) {
	// Thesis figure 3.3: parents A = 3 2 1 4 5 0 and B = 0 1 2 3 4 5. The
	// first child item comes from either parent with probability 1/2.
	a := []int{3, 2, 1, 4, 5, 0}
	b := []int{0, 1, 2, 3, 4, 5}
	child, used := make([]int, 6), make([]bool, 6)
	rng := rand.New(rand.NewSource(3))
	fromA := 0
	const trials = 10000
	for i := 0; i < trials; i++ {
		Zipper(rng, child, a, b, used)
		if child[0] == 3 {
			fromA++
		}
	}
	if math.Abs(float64(fromA)-trials/2) > 0.03*trials {
		t.Errorf("first item from parent A %d of %d times, want about half", fromA, trials)
	}
	Zipper(rng, child, a, a, used)
	if !slices.Equal(child, a) {
		t.Errorf("zipper of a parent with itself = %v, want %v", child, a)
	}
}

func TestMutateSwapsTwoDistinctPositions(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for _, n := range []int{0, 1} {
		order := make([]int, n)
		RandomPermutation(rng, order)
		before := slices.Clone(order)
		Mutate(rng, order)
		if !slices.Equal(order, before) {
			t.Errorf("n=%d: mutation changed %v to %v", n, before, order)
		}
	}
	const n = 5
	pairs := map[[2]int]int{}
	const trials = 50000
	order := make([]int, n)
	for i := 0; i < trials; i++ {
		for k := range order {
			order[k] = k
		}
		Mutate(rng, order)
		var diff []int
		for k, v := range order {
			if v != k {
				diff = append(diff, k)
			}
		}
		if len(diff) != 2 || order[diff[0]] != diff[1] || order[diff[1]] != diff[0] {
			t.Fatalf("mutation of identity gave %v, want exactly one swap", order)
		}
		pairs[[2]int{diff[0], diff[1]}]++
	}
	want := float64(trials) / (n * (n - 1) / 2)
	if len(pairs) != n*(n-1)/2 {
		t.Errorf("%d distinct swaps, want %d", len(pairs), n*(n-1)/2)
	}
	for p, c := range pairs {
		if math.Abs(float64(c)-want) > 0.06*want {
			t.Errorf("swap %v %d times, want about %.0f", p, c, want)
		}
	}
}

func TestSelectParentIsFitnessProportional(t *testing.T) {
	tests := []struct {
		name    string
		fit     []float64
		exclude int
		want    []float64 // probabilities
	}{
		{"proportional", []float64{1, 2, 3, 4}, -1, []float64{0.1, 0.2, 0.3, 0.4}},
		{"without replacement", []float64{1, 2, 3, 4}, 2, []float64{1.0 / 7, 2.0 / 7, 0, 4.0 / 7}},
		{"exclude first", []float64{5, 1, 0, 4}, 0, []float64{0, 0.2, 0, 0.8}},
		{"zero weight never drawn", []float64{0, 3, 0, 1}, -1, []float64{0, 0.75, 0, 0.25}},
		{"negative and NaN weigh 0", []float64{-5, 1, math.NaN(), 1}, -1, []float64{0, 0.5, 0, 0.5}},
		{"all zero is uniform", []float64{0, 0, 0, 0}, -1, []float64{0.25, 0.25, 0.25, 0.25}},
		{"only excluded positive: uniform over others", []float64{0, 7, 0, 0}, 1, []float64{1.0 / 3, 0, 1.0 / 3, 1.0 / 3}},
		{"last only", []float64{0, 0, 0, 2}, -1, []float64{0, 0, 0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(5))
			cum := make([]float64, len(tt.fit))
			total := cumulate(tt.fit, cum)
			counts := make([]int, len(tt.fit))
			const trials = 40000
			for i := 0; i < trials; i++ {
				counts[selectParent(rng, tt.fit, cum, total, tt.exclude)]++
			}
			for i, p := range tt.want {
				got := float64(counts[i]) / trials
				if p == 0 && counts[i] != 0 || math.Abs(got-p) > 0.015 {
					t.Errorf("index %d drawn with frequency %.4f, want %.4f", i, got, p)
				}
			}
		})
	}
}
