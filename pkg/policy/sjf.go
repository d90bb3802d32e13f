package policy

import "github.com/swfkit/swfkit/pkg/sim"

// NewSJF returns shortest-job-first with EASY backfilling (SJF-backfill of
// Chiang, Arpaci-Dusseau & Vernon, "The impact of more accurate requested
// runtimes on production job scheduling performance", JSSPP 2002; used by
// Guim, Corbalan & Labarta 2007, section 3). The waiting queue is ordered by
// requested time (the estimate: field 9, else the runtime), smallest first,
// ties by submit time then file order, and EASY backfilling (see EASY) runs
// over that order: the first job in it that does not fit gets the reservation.
func NewSJF() sim.Policy {
	return newOrderedEASY(true, func(_ int64, j *sim.Job) float64 { return float64(j.Estimate) })
}
