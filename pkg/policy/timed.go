package policy

import (
	"fmt"
	"math"
	"strconv"

	"github.com/swfkit/swfkit/pkg/sim"
)

// TimedBase is the base scheduler of a timed-run policy.
type TimedBase uint8

const (
	// TimedFCFS: first come first served, no backfilling (fcfs.go).
	TimedFCFS TimedBase = iota
	// TimedEASY: EASY backfilling (easy.go).
	TimedEASY
)

func (b TimedBase) String() string {
	if b == TimedEASY {
		return "easy"
	}
	return "fcfs"
}

// trialState is where a job is in the timed-run life cycle.
type trialState uint8

const (
	tsPending   trialState = iota // waiting for its trial run, in the trial list
	tsTrial                       // running its trial run
	tsExpired                     // running past its trial, killable, not committed
	tsReady                       // waiting to be committed (trial killed, or no trials)
	tsCommitted                   // started by the base scheduler (or continued): runs to the end
	tsDone
)

// Timed is timed-run scheduling: Thebe, Bunde & Leung, "Scheduling restartable
// jobs with short test runs" (JSSPP 2009), section 2, over an FCFS or EASY
// base scheduler (timed-fcfs, timed-easy).
//
//   - Every arriving job joins the trial list (section 2). In every pass (after
//     any arrival, end, or trial end), before the base scheduler runs, the list
//     is traversed in arrival order and every job that fits starts its trial
//     run; a job that does not fit is passed over (out of order allowed).
//   - A job cannot commit during its trial: the base scheduler treats it as
//     unable to start (2.1, first complication). Under EASY a head in its
//     trial gets its shadow time no earlier than its trial end.
//   - Lazy termination (2.1, "Jobs continue trial runs until replaced"): a job
//     whose trial ends keeps running; the scheduler decides as if its
//     processors were free, and kills such jobs, the one whose trial ended
//     longest ago first, only when a trial run or a commit needs their
//     processors. If the base scheduler picks a job whose trial has ended, the
//     job simply continues as its committed run.
//   - A job whose trial ended commits only when the base scheduler reaches it
//     (2.1, "Long jobs must wait for their turn", schedule (b) of Fig. 3): with
//     FCFS after every job ahead of it has committed; with EASY also by
//     backfilling, which is the base scheduler's own decision.
//   - Trial runs may break the EASY head's reservation (2.1, last complication).
//   - A killed job restarts from the beginning (it has no second trial); each
//     job is killed at most once. Its wait is measured to the start of the run
//     that finishes (section 3.1), which the engine's latest start gives.
//
// Choices where the paper is silent: trial runs and commits both see the
// engine's free processors plus those of expired trial runs; a trial run is
// expected (by EASY's shadow computation) to end at start + min(trial,
// estimate); a job whose trial has ended is, if backfilled under EASY, expected
// to run to its own start + estimate. Trial length 0 means no trial runs at
// all (section 3.2: "from 0 (no trial-runs)"), so timed-fcfs and timed-easy
// with --trial 0 equal fcfs and easy. Jobs that had a trial run get the token
// trial=W, W being the seconds from submission to the trial run's start.
type Timed struct {
	sim.Base
	base  TimedBase
	trial int64

	state   []trialState // per job ID
	viewEnd []int64      // per job ID: the end the job is filed under in view
	// timer is, per job ID, the timer set at its trial's end: a job that
	// ends within its trial cancels it, so that no pass runs there.
	timer    []sim.TimerID
	trials   []*sim.Job // trial list, arrival order (may hold stale jobs)
	minTrial int64      // no job in trials needs fewer processors
	queue    []*sim.Job // base queue: uncommitted jobs, arrival order (may hold stale jobs)
	stale    int        // entries of queue no longer in it
	expired  []*sim.Job // jobs past their trial, oldest trial end first
	expProcs int64      // processors held by expired jobs
	view     runView    // committed jobs and trial runs by expected end

	// trialSeenToEstimate is a reading of section 2.1 that only tests set
	// (timed_readings_test.go): EASY expects a trial run to end at start +
	// estimate, as any running job, instead of at its trial end.
	trialSeenToEstimate bool

	// Stats counts what the trial runs did, complete after the run.
	Stats TimedStats
}

// TimedStats summarises a timed-run simulation.
type TimedStats struct {
	Trials           int64 // trial runs started
	FinishedInTrial  int64 // jobs that ended within their trial run
	FinishedExtended int64 // jobs that ended after their trial, before being killed or committed
	Continued        int64 // jobs committed by continuing their trial run
	Kills            int64 // trial runs killed to free processors
	WorkLost         int64 // processor-seconds of killed runs
}

// NewTimed returns timed-run scheduling over base with trial runs of trial
// seconds (0: none) for n jobs.
func NewTimed(base TimedBase, trial int64, n int) *Timed {
	if trial < 0 {
		panic("policy: negative trial length")
	}
	return &Timed{base: base, trial: trial, state: make([]trialState, n), viewEnd: make([]int64, n),
		timer: make([]sim.TimerID, n)}
}

// Note describes the trial runs for the output header.
func (t *Timed) Note() string {
	st := &t.Stats
	return fmt.Sprintf("base %s, trial %d s; %d trial runs, %d jobs finished within their trial, %d after it before being needed, %d continued as committed runs, %d kills losing %d processor-seconds",
		t.base, t.trial, st.Trials, st.FinishedInTrial, st.FinishedExtended, st.Continued, st.Kills, st.WorkLost)
}

// Arrived puts j on the trial list and in the base queue.
func (t *Timed) Arrived(_ *sim.Sim, j *sim.Job) {
	t.queue = append(t.queue, j)
	if t.trial > 0 {
		t.state[j.ID] = tsPending
		if len(t.trials) == 0 || int64(j.Procs) < t.minTrial {
			t.minTrial = int64(j.Procs)
		}
		t.trials = append(t.trials, j)
	} else {
		t.state[j.ID] = tsReady
	}
}

// Ended records a job's end; kills are bookkept by kill itself.
func (t *Timed) Ended(s *sim.Sim, j *sim.Job, why sim.EndReason) {
	if why == sim.Preempted {
		return
	}
	switch t.state[j.ID] {
	case tsTrial:
		// A pass at the trial's end, where nothing would happen, is a
		// scheduling point of its own; under --no-kill it would move the
		// shadow of jobs past their estimate (expected at now+1).
		s.CancelTimer(t.timer[j.ID])
		t.view.remove(j, t.viewEnd[j.ID])
		t.Stats.FinishedInTrial++
	case tsExpired:
		t.dropExpired(j)
		t.Stats.FinishedExtended++
	case tsCommitted:
		t.view.remove(j, t.viewEnd[j.ID])
	default:
		panic("policy: timed run ended in state " + strconv.Itoa(int(t.state[j.ID])))
	}
	if t.state[j.ID] != tsCommitted {
		t.stale++ // it was still in the base queue
	}
	t.state[j.ID] = tsDone
}

// Timer ends a trial run: the job keeps running, killable.
func (t *Timed) Timer(s *sim.Sim, _ sim.TimerID, tag int64) {
	j := s.Job(int32(tag))
	if t.state[j.ID] != tsTrial {
		return // ended or (impossible) committed before its trial ended
	}
	t.view.remove(j, t.viewEnd[j.ID])
	t.state[j.ID] = tsExpired
	t.expired = append(t.expired, j)
	t.expProcs += int64(j.Procs)
}

func (t *Timed) dropExpired(j *sim.Job) {
	for i, e := range t.expired {
		if e == j {
			t.expired = append(t.expired[:i], t.expired[i+1:]...)
			t.expProcs -= int64(j.Procs)
			return
		}
	}
	panic("policy: expired job missing")
}

// makeRoom kills expired jobs, oldest trial end first, until procs are free.
func (t *Timed) makeRoom(s *sim.Sim, procs int64) {
	for s.FreeProcs() < procs {
		e := t.expired[0]
		t.expired = t.expired[1:]
		t.expProcs -= int64(e.Procs)
		t.state[e.ID] = tsReady
		t.Stats.Kills++
		t.Stats.WorkLost += int64(e.Procs) * (s.Now() - e.Start)
		s.Preempt(t, e, 0)
	}
}

// Schedule starts trial runs, then lets the base scheduler commit jobs.
func (t *Timed) Schedule(s *sim.Sim) {
	if t.trial > 0 && len(t.trials) > 0 && s.FreeProcs()+t.expProcs >= t.minTrial {
		t.startTrials(s)
	}
	if t.stale > 0 {
		t.trimQueue()
	}
	free := s.FreeProcs() + t.expProcs
	if free == 0 {
		return
	}
	if t.base == TimedEASY {
		easyGeneral(s, t, t.queue, free, &t.view)
		return
	}
	for _, j := range t.queue {
		switch t.candidate(j) {
		case candSkip:
			continue
		case candBlocked:
			return
		}
		if int64(j.Procs) > free {
			return
		}
		t.begin(s, j)
		free -= int64(j.Procs)
	}
}

func (t *Timed) startTrials(s *sim.Sim) {
	free := s.FreeProcs() + t.expProcs
	now := s.Now()
	kept := t.trials[:0]
	minProcs := int64(math.MaxInt64)
	for i, j := range t.trials {
		if t.state[j.ID] != tsPending {
			continue
		}
		if free < t.minTrial { // none of the rest fits; keep them as they are
			kept = append(kept, t.trials[i:]...)
			minProcs = min(minProcs, t.minTrial)
			break
		}
		if int64(j.Procs) > free {
			kept = append(kept, j)
			minProcs = min(minProcs, int64(j.Procs))
			continue
		}
		t.makeRoom(s, int64(j.Procs))
		s.Start(j)
		free -= int64(j.Procs)
		t.state[j.ID] = tsTrial
		t.viewEnd[j.ID] = t.trialViewEnd(now, j)
		t.view.add(j, t.viewEnd[j.ID])
		t.timer[j.ID] = s.SetTimer(now+t.trial, int64(j.ID))
		j.Tokens = append(j.Tokens, "trial="+strconv.FormatInt(now-j.Submit, 10))
		t.Stats.Trials++
	}
	clear(t.trials[len(kept):])
	t.trials = kept
	t.minTrial = minProcs
}

// trialViewEnd is when EASY expects a trial run of j started at now to end.
func (t *Timed) trialViewEnd(now int64, j *sim.Job) int64 {
	if t.trialSeenToEstimate {
		return now + j.Estimate
	}
	return now + min(t.trial, j.Estimate)
}

// trimQueue drops the entries of jobs no longer in the base queue
// (committed or done), which every walk of it passes over: those at its
// front at once (commits come mostly in arrival order), and the rest, under
// FCFS, only once they are half of it, since FCFS walks only the queue's
// front; EASY walks it whole in every pass that backfills, so the rest go at
// once. Compacting in every pass with a stale entry cost timed-fcfs 1.3 of
// its 1.8 s on RICC-2010-2, whose queue is thousands of jobs long.
func (t *Timed) trimQueue() {
	k := 0
	for k < len(t.queue) && t.stale > 0 && t.left(t.queue[k]) {
		t.queue[k] = nil
		k++
		t.stale--
	}
	t.queue = t.queue[k:]
	if t.stale == 0 || t.base == TimedFCFS && 2*t.stale < len(t.queue) {
		return
	}
	q := t.queue[:0]
	for _, j := range t.queue {
		if !t.left(j) {
			q = append(q, j)
		}
	}
	clear(t.queue[len(q):])
	t.queue = q
	t.stale = 0
}

// left reports whether j has left the base queue (committed or done): its
// entry is stale.
func (t *Timed) left(j *sim.Job) bool {
	st := t.state[j.ID]
	return st == tsCommitted || st == tsDone
}

func (t *Timed) candidate(j *sim.Job) candidacy {
	switch t.state[j.ID] {
	case tsExpired, tsReady:
		return candReady
	case tsPending, tsTrial:
		// A pending job cannot fit here: the trial pass has just passed it
		// over with at least as many processors free.
		return candBlocked
	}
	return candSkip
}

func (t *Timed) runFor(s *sim.Sim, j *sim.Job) int64 {
	if t.state[j.ID] == tsExpired {
		return s.ExpectedEnd(j) - s.Now() // it continues: start + estimate
	}
	return j.Estimate
}

func (t *Timed) notBefore(s *sim.Sim, j *sim.Job) int64 {
	if t.state[j.ID] == tsTrial {
		// A trial past its expected end (start + estimate, under
		// --no-kill) is expected to end at any moment, as any job past
		// its estimate: now+1, never now, when the head cannot start.
		return max(t.viewEnd[j.ID], s.Now()+1)
	}
	return s.Now()
}

// begin commits j: an expired job continues, any other starts now.
func (t *Timed) begin(s *sim.Sim, j *sim.Job) {
	if t.state[j.ID] == tsExpired {
		t.dropExpired(j)
		t.Stats.Continued++
	} else {
		t.makeRoom(s, int64(j.Procs))
		s.Start(j)
	}
	t.state[j.ID] = tsCommitted
	t.stale++
	t.viewEnd[j.ID] = j.PlannedEnd
	t.view.add(j, j.PlannedEnd)
}
