// Package price computes what jobs pay under the utility-based price
// mechanisms of Lee's thesis (Lee 2009, 3.4.3) after a simulation:
//
//   - First: each job pays its utility at its actual turnaround (the
//     approximate first-price auction).
//   - VCG: each job pays an approximation of its opportunity cost, the
//     utility the other jobs of its window would have earned without it
//     (re-simulated with the same scheduler) minus what they earned with it,
//     clamped at 0.
//
// Conventions: jobs are indexed by sim.Job.ID; utilities are indexed the
// same way; a nil (empty) utility.Func is worth 0. Prices are in the units of
// the utility functions.
package price
