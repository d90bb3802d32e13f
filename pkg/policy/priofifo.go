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
// order lists queue numbers from highest to lowest priority. Jobs in a queue
// not listed come after all listed ones, ordered by queue number. With a nil
// order (the default) every queue is ordered by number: the lowest number is
// the highest priority, as in Lee's normalisation (0 = highest, section 2.4);
// jobs with an unknown queue (-1) come last.
func NewPrioFIFO(order []int64) sim.Policy {
	rank := make(map[int64]int, len(order))
	for i, q := range order {
		rank[q] = i
	}
	// The key is the class rank: listed queues by position, then unlisted ones
	// by number (offset past the list), then unknown ones. Queue numbers are
	// int32, so every rank is exact in a float64.
	class := func(_ int64, j *sim.Job) float64 {
		if r, ok := rank[int64(j.Queue)]; ok {
			return float64(r)
		}
		if j.Queue < 0 {
			return float64(len(order)) + 1<<32
		}
		return float64(len(order)) + float64(j.Queue)
	}
	return newOrderedEASY(true, class)
}
