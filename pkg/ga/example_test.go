package ga_test

import (
	"fmt"
	"math/rand"

	"github.com/swfkit/swfkit/pkg/ga"
)

// flat is a utility that does not decay.
type flat float64

func (f flat) Value(float64) float64 { return float64(f) }

// urgent is worth its value only if done within its deadline.
type urgent struct{ value, deadline float64 }

func (u urgent) Value(t float64) float64 {
	if t > u.deadline {
		return 0
	}
	return u.value
}

// A whole-machine job that arrived first would make an urgent one miss its
// deadline; the search puts the urgent job first.
func ExampleSearcher_Search() {
	plan := &ga.Plan{
		Now:  0,
		Free: 8,
		Jobs: []ga.PlanJob{
			{Submit: 0, Procs: 8, Estimate: 3600, Utility: flat(10)},
			{Submit: 0, Procs: 8, Estimate: 600, Utility: urgent{100, 1800}},
		},
	}
	plan.Prepare(1)
	s := ga.NewSearcher(ga.Config{Population: 4, Generations: 5, Mutation: 0.1, Workers: 1})
	res := s.Search(rand.New(rand.NewSource(1)), 2, [][]int{{0, 1}}, plan)
	fmt.Println("arrival order:", plan.Fitness(0, []int{0, 1}))
	fmt.Println("best:", res.Order, res.Fitness)
	fmt.Println("starts now:", plan.StartsNow(res.Order, nil))
	// Output:
	// arrival order: 10
	// best: [1 0] 110
	// starts now: [1]
}
