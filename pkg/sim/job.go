package sim

// State is where a job is in its lifecycle.
type State uint8

const (
	// Pending: not yet submitted (the clock is before its submit time).
	Pending State = iota
	// Waiting: submitted and in the waiting queue.
	Waiting
	// Running: holds its processors.
	Running
	// Done: finished for good (completed or killed at its estimate).
	Done
)

func (st State) String() string {
	switch st {
	case Pending:
		return "pending"
	case Waiting:
		return "waiting"
	case Running:
		return "running"
	case Done:
		return "done"
	}
	return "invalid"
}

// EndReason says why a run stopped.
type EndReason uint8

const (
	// Completed: the job ran its remaining work to the end. The job is Done.
	Completed EndReason = iota
	// KilledAtEstimate: the run reached the job's estimate before its work was done
	// and the machine killed it (not with Config.NoKill). The job is Done and
	// Killed is set.
	KilledAtEstimate
	// LimitReached: the run reached the limit given to StartFor before the work
	// was done. The job is back in the waiting queue with Remaining unchanged
	// (a restart from scratch); a policy may lower Remaining in Ended, e.g. by
	// checkpointed progress.
	LimitReached
	// Preempted: the policy called Preempt. The job is back in the waiting queue
	// with Remaining lowered by the progress the policy said to keep.
	Preempted
)

func (r EndReason) String() string {
	switch r {
	case Completed:
		return "completed"
	case KilledAtEstimate:
		return "killed-at-estimate"
	case LimitReached:
		return "limit-reached"
	case Preempted:
		return "preempted"
	}
	return "invalid"
}

// Job is the simulator's compact record of one job. The caller fills the input
// fields (ID to Queue, and Remaining is set by New); the engine owns the rest.
// All times are integer seconds.
type Job struct {
	// ID is the job's index in the slice given to New: 0..n-1 in file order.
	// Policies key per-job data by ID (parallel slices of length NumJobs).
	ID int32
	// Procs is the number of processors the job needs, 1..machine size.
	Procs int32
	// Queue is the SWF queue number (field 15), -1 when unknown.
	Queue int32
	// User is the SWF user ID (field 12), -1 when unknown; history-based
	// runtime predictors (pkg/predict) key on it.
	User int32
	// Runs counts the job's starts.
	Runs int32
	// State is maintained by the engine.
	State State
	// Killed is set when the job was killed at its estimate.
	Killed bool
	reason EndReason
	queued bool   // in Sim.waiting or Sim.requeued
	gen    uint32 // bumped when a pending end event is cancelled

	// Submit is the submit time.
	Submit int64
	// Runtime is the job's real runtime r (field 4), >= 0.
	Runtime int64
	// Estimate is the requested time e (field 9, else r), >= 0. The scheduler may
	// read it; it must not read Runtime or Remaining to decide (they are unknown to
	// a real scheduler), except a policy that models exact knowledge on purpose.
	Estimate int64
	// Remaining is the work still to run: Runtime at the start, lowered only by
	// Preempt or by a policy in Ended (checkpoints).
	Remaining int64

	// FirstStart is the time of the first start, -1 before.
	FirstStart int64
	// Start is the time of the latest start, -1 before.
	Start int64
	// PlannedEnd is, while the job runs, the end the scheduler expects:
	// Start + min(Estimate, run limit). A job may end earlier; it ends later only
	// with Config.NoKill (see ExpectedEnd).
	PlannedEnd int64
	// End is when the job became Done, -1 before.
	End int64

	// Tokens are extension tokens (key=value) a policy wants written on the job's
	// output line, e.g. "bumps=2". The engine never reads them.
	Tokens []string
}

// Wait returns the time from submit to the latest start, -1 if never started.
func (j *Job) Wait() int64 {
	if j.Start < 0 {
		return -1
	}
	return j.Start - j.Submit
}
