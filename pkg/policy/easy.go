package policy

import "github.com/swfkit/swfkit/pkg/sim"

// EASY is EASY backfilling over the arrival-ordered queue: Lifka, "The ANL/IBM
// SP scheduling system" (JSSPP 1995), as specified by Mu'alem & Feitelson,
// "Utilization, predictability, workloads, and user runtime estimates in
// scheduling the IBM SP2 with backfilling" (IEEE TPDS 2001, section 2), and
// Lee 2009, 1.3.3. One pass per round:
//
//   - jobs start in arrival order (submit time, then file order) while they fit;
//   - the first that does not fit (the head) gets the only reservation, at its
//     shadow time: the earliest running-job end, from start + requested time, at
//     which enough processors are free;
//   - a later job that fits now may start if it ends by the shadow time by its
//     requested time, or uses only "extra" processors: those free at the shadow
//     time beyond the head's need. A running job ending exactly at the shadow
//     time counts towards the extra processors.
//
// Choices: the queue is scanned once per pass, in arrival order; the shadow is
// computed once per pass and the extra processors are used up by jobs that run
// past the shadow time. A job that has run past its estimate (only with
// --no-kill) is expected to end one second from now (sim.Sim.ExpectedEnd).
//
// The pass runs over EASY's own compact copy of the queue (easyqueue.go),
// which makes the same decisions as easyPass over s.Waiting(), faster.
type EASY struct {
	sim.Base
	queue easyQueue
}

// Arrived adds j to EASY's copy of the queue.
func (e *EASY) Arrived(s *sim.Sim, j *sim.Job) { e.queue.arrived(s, j) }

// Ended puts a job that is waiting again (after a run limit or a preemption
// by another party) back in EASY's copy of the queue.
func (e *EASY) Ended(s *sim.Sim, j *sim.Job, _ sim.EndReason) { e.queue.ended(s, j) }

// Schedule runs one EASY pass over the waiting queue.
func (e *EASY) Schedule(s *sim.Sim) { e.queue.pass(s) }
