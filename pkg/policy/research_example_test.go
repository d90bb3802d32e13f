package policy_test

import (
	"fmt"

	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/sim"
)

// The instance of Thebe, Bunde & Leung, Fig. 2 (section 2.1): on 100
// processors with 90 s trials, job C's trial ends at 200 but FCFS wants B,
// which cannot start before A ends at 300, so C keeps running and completes
// in its extension.
func ExampleTimed() {
	jobs := []sim.Job{
		{Submit: 0, Procs: 80, Runtime: 300, Estimate: 1000},   // A
		{Submit: 100, Procs: 100, Runtime: 40, Estimate: 1000}, // B
		{Submit: 110, Procs: 20, Runtime: 150, Estimate: 1000}, // C
	}
	s, _ := sim.New(sim.Config{Procs: 100}, jobs)
	p := policy.NewTimed(policy.TimedFCFS, 90, len(jobs))
	if err := s.Run(p); err != nil {
		fmt.Println(err)
	}
	for _, j := range jobs {
		fmt.Println(j.Start, j.End, j.Tokens)
	}
	fmt.Println(p.Stats.Trials, p.Stats.FinishedInTrial, p.Stats.FinishedExtended, p.Stats.Kills)
	// Output:
	// 0 300 [trial=0]
	// 300 340 [trial=200]
	// 110 260 [trial=0]
	// 3 1 1 0
}

// Fair-start times (Srinivasan et al., section 5): B, the wide job, would
// start at 100 under strict FCFS; C and D would wait for B, although
// conservative backfilling runs C at once.
func ExampleFairStarts() {
	jobs := []sim.Job{
		{Submit: 0, Procs: 2, Runtime: 100, Estimate: 100}, // A
		{Submit: 1, Procs: 4, Runtime: 10, Estimate: 10},   // B
		{Submit: 2, Procs: 2, Runtime: 50, Estimate: 50},   // C
		{Submit: 3, Procs: 2, Runtime: 20, Estimate: 20},   // D
	}
	fair, _ := policy.FairStarts(sim.Config{Procs: 4}, jobs)
	fmt.Println(fair)
	// Output:
	// [0 100 110 110]
}
