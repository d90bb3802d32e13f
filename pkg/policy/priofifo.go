package policy

import "github.com/swfkit/swfkit/pkg/sim"

// NewPrioFIFO returns priority FIFO (Chun & Culler, "User-centric performance
// analysis of market-based cluster batch schedulers", CCGrid 2002; Lee 2009,
// 1.3.5 and chapter 4): jobs fall into priority classes by their queue number
// (SWF field 15); the queue is ordered by class, highest priority first, FIFO
// (submit time, then file order) within a class, and EASY backfilling (see
// EASY) runs over that order: the first job that does not fit, in that order,
// gets the reservation, and backfilling considers all jobs of a class before
// any of a lower one.
//
// order lists queue numbers from highest to lowest priority, a group of
// queues sharing one class (FIFO across them). Jobs in a queue not listed
// come after all listed ones, ordered by queue number. With a nil order
// (the default) every queue is ordered by number: the lowest number is the
// highest priority, as in Lee's normalisation (0 = highest, section 2.4);
// jobs with an unknown queue (-1) come last.
func NewPrioFIFO(order [][]int64) sim.Policy {
	class := priorityClass(order)
	return newOrderedEASY(true, func(_ int64, j *sim.Job) float64 { return class(int64(j.Queue)) })
}

// priorityClass returns the class key of a queue under order (smaller
// first), shared by priofifo and ga's "priority" seed: listed queues by
// their group's position, then unlisted ones by number (offset past the
// list), then unknown ones. Queue numbers are int32, so every key is exact
// in a float64.
func priorityClass(order [][]int64) func(queue int64) float64 {
	rank := map[int64]int{}
	for i, g := range order {
		for _, q := range g {
			rank[q] = i
		}
	}
	n := float64(len(order))
	return func(q int64) float64 {
		if r, ok := rank[q]; ok {
			return float64(r)
		}
		if q < 0 {
			return n + 1<<32
		}
		return n + float64(q)
	}
}
