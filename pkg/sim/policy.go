package sim

// Policy is a scheduler. The engine calls it at each event time, in this order
// (one "round"):
//
//  1. Ended for every run that stopped at this time (completions, estimate
//     kills, run limits), in the order the end events were created;
//  2. Arrived for every job submitted at this time, by file order;
//  3. Timer for every timer set for this time, in the order they were set;
//  4. Schedule once: the pass in which the policy starts jobs.
//
// If the round created events at the same time (a job started with runtime 0,
// StartFor with limit 0, a timer for now), a further round follows at the same
// time: its ends, its timers, and another Schedule. A round with nothing in it
// (only cancelled events) is skipped. Policies may call Start, StartFor,
// Preempt, SetTimer and CancelTimer from any callback; a job must be Waiting to
// start and fit in the free processors.
type Policy interface {
	// Arrived: j was just submitted and appended to the waiting queue.
	Arrived(s *Sim, j *Job)
	// Ended: a run of j stopped. With Completed or KilledAtEstimate the job is
	// Done; with LimitReached or Preempted it is Waiting again.
	Ended(s *Sim, j *Job, why EndReason)
	// Timer: a timer set with SetTimer fired.
	Timer(s *Sim, id TimerID, tag int64)
	// Schedule: the scheduling pass of the round.
	Schedule(s *Sim)
}

// Base implements every Policy method but Schedule as a no-op; embed it.
type Base struct{}

func (Base) Arrived(*Sim, *Job)          {}
func (Base) Ended(*Sim, *Job, EndReason) {}
func (Base) Timer(*Sim, TimerID, int64)  {}
