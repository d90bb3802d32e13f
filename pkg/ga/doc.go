// Package ga is the genetic algorithm of Lee's utility scheduler (Lee 2009,
// chapter 3): it evolves orderings (permutations) of a set of n items, here
// the queued jobs, towards a higher fitness supplied by the caller.
//
// Conventions:
//   - An individual is a permutation of 0..n-1 held in a []int. Item i means
//     whatever the caller's Fitness says it means (for the schedulers: the
//     i-th queued job in arrival order).
//   - Fitness values are compared for the best-so-far as given; for the
//     fitness-proportional parent selection (thesis equation 3.1) a negative
//     or NaN fitness weighs 0. If every weight is 0, selection is uniform.
//   - All randomness comes from the *rand.Rand passed to Search and is drawn
//     on the calling goroutine only, in a fixed order, so a fixed seed gives
//     the same result whatever the number of workers: the workers only
//     compute fitness values, each into its own slot.
//   - Slices returned by a Searcher belong to it and stay valid until its
//     next Search. A Searcher is not safe for concurrent use; its Fitness
//     is called concurrently with distinct worker numbers.
//   - Plan (plan.go) is the schedulers' fitness: the aggregate utility of
//     the EASY schedule an ordering produces. It is independent of the
//     simulation engine.
package ga
