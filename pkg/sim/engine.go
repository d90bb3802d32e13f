package sim

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Never is a time later than any event: the end of a run that has no end in sight.
const Never int64 = math.MaxInt64

// Config configures a simulation. The zero value is not usable: Procs must be > 0.
type Config struct {
	// Procs is the machine size in processors.
	Procs int64
	// NoKill lets a job run past its estimate to its real runtime instead of
	// being killed at Start + Estimate.
	NoKill bool
	// Progress, when not nil, is called with the number of jobs done so far,
	// about every ProgressEvery jobs (default 4096) and once at the end.
	Progress      func(done int)
	ProgressEvery int
}

// TimerID names a timer set with SetTimer.
type TimerID uint64

// Sim is one simulation run: the clock, the machine, the job lifecycle and the
// event queue. A Policy drives it through Start, StartFor, Preempt and timers.
type Sim struct {
	cfg  Config
	jobs []Job

	now     int64
	free    int64
	events  eventHeap
	seq     uint64
	arrival []int32 // job IDs by (Submit, ID)
	nextArr int     // cursor into arrival

	waiting      []*Job // arrival order (Submit, ID); may hold non-waiting jobs until compacted
	waitingStale int    // entries in waiting that no longer wait
	requeued     []*Job // back in the queue, not yet merged into waiting
	nWaiting     int
	waitProcs    procSet // Procs of the waiting jobs

	running []*Job // by (PlannedEnd, ID)

	timerSeq       TimerID
	timersCanceled map[TimerID]struct{}

	done         int
	lastProgress int
	inRound      bool
	batch        []event
}

// MaxHorizon bounds the simulated time: New refuses jobs whose latest submit
// time plus the sum of every job's runtime or estimate, whichever is longer,
// passes it. Every event of a run then happens before it, and the sums the
// engine and the policies form (a start plus an estimate, a reservation after
// a chain of others) stay far from int64's limit, leaving room for restarts
// and trial runs.
const MaxHorizon = 1 << 60

// checkHorizon applies MaxHorizon with overflow-checked sums.
func checkHorizon(jobs []Job) error {
	var horizon int64
	for i := range jobs {
		horizon = max(horizon, jobs[i].Submit)
	}
	for i := range jobs {
		longest := max(jobs[i].Runtime, jobs[i].Estimate, 0)
		if longest > MaxHorizon-horizon {
			return fmt.Errorf("sim: the trace cannot be simulated: its latest submit time plus its jobs' runtimes (or estimates) pass %d s, the engine's bound (first passed at job %d)", int64(MaxHorizon), i)
		}
		horizon += longest
	}
	return nil
}

// New validates jobs and returns a simulation over them. The engine keeps and
// updates jobs in place (the slice is the caller's afterwards, for output).
// Each job needs 1 <= Procs <= cfg.Procs, Runtime >= 0, Estimate >= 0 and
// Submit >= 0; ID is set to the job's index.
func New(cfg Config, jobs []Job) (*Sim, error) {
	if cfg.Procs <= 0 {
		return nil, errors.New("sim: machine size must be positive")
	}
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = 4096
	}
	if len(jobs) > math.MaxInt32 {
		return nil, errors.New("sim: too many jobs")
	}
	if err := checkHorizon(jobs); err != nil {
		return nil, err
	}
	s := &Sim{cfg: cfg, jobs: jobs, free: cfg.Procs, now: math.MinInt64, waitProcs: newProcSet(cfg.Procs, jobs)}
	s.arrival = make([]int32, len(jobs))
	sorted := true
	for i := range jobs {
		j := &jobs[i]
		switch {
		case j.Procs < 1 || int64(j.Procs) > cfg.Procs:
			return nil, fmt.Errorf("sim: job %d needs %d processors, machine has %d", i, j.Procs, cfg.Procs)
		case j.Runtime < 0:
			return nil, fmt.Errorf("sim: job %d has negative runtime %d", i, j.Runtime)
		case j.Estimate < 0:
			return nil, fmt.Errorf("sim: job %d has negative estimate %d", i, j.Estimate)
		case j.Submit < 0:
			return nil, fmt.Errorf("sim: job %d has negative submit time %d", i, j.Submit)
		}
		j.ID = int32(i)
		j.Remaining = j.Runtime
		j.State = Pending
		j.Killed = false
		j.reason, j.queued, j.gen = Completed, false, 0 // jobs may come from an earlier run
		j.Runs = 0
		j.FirstStart, j.Start, j.End, j.PlannedEnd = -1, -1, -1, -1
		s.arrival[i] = int32(i)
		if i > 0 && jobs[i-1].Submit > j.Submit {
			sorted = false
		}
	}
	if !sorted {
		sort.SliceStable(s.arrival, func(a, b int) bool {
			return jobs[s.arrival[a]].Submit < jobs[s.arrival[b]].Submit
		})
	}
	return s, nil
}

// Now returns the current time.
func (s *Sim) Now() int64 { return s.now }

// Procs returns the machine size.
func (s *Sim) Procs() int64 { return s.cfg.Procs }

// FreeProcs returns the processors not held by running jobs.
func (s *Sim) FreeProcs() int64 { return s.free }

// NoKill reports whether jobs run past their estimates.
func (s *Sim) NoKill() bool { return s.cfg.NoKill }

// NumJobs returns the number of jobs; IDs are 0..NumJobs()-1.
func (s *Sim) NumJobs() int { return len(s.jobs) }

// Job returns the job with the given ID.
func (s *Sim) Job(id int32) *Job { return &s.jobs[id] }

// Jobs returns all jobs, indexed by ID. The slice is the engine's: read only.
func (s *Sim) Jobs() []Job { return s.jobs }

// NumWaiting returns the number of waiting jobs.
func (s *Sim) NumWaiting() int { return s.nWaiting }

// Waiting returns the waiting jobs in arrival order: by submit time, then file
// order (a job that went back to the queue takes its arrival place again).
// The slice is the engine's and valid until the next call of Waiting. It may
// still hold jobs that have left the queue (compaction is lazy, so that a pass
// costs what it looks at, not the queue length): skip every job whose State is
// not Waiting. NumWaiting is the exact count.
func (s *Sim) Waiting() []*Job {
	if len(s.requeued) > 0 {
		s.mergeRequeued()
	}
	// Drop left jobs at the front (a pass usually starts the first ones), and
	// compact the rest once they are at least half the slice: O(1) amortized
	// per start.
	w := s.waiting
	k := 0
	for k < len(w) && w[k].State != Waiting {
		w[k].queued = false
		w[k] = nil
		k++
	}
	if k > 0 {
		s.waiting = w[k:]
		s.waitingStale -= k
		if s.waitingStale < 0 {
			s.waitingStale = 0
		}
	}
	if s.waitingStale > 0 && 2*s.waitingStale >= len(s.waiting) {
		w := s.waiting[:0]
		for _, j := range s.waiting {
			if j.State == Waiting {
				w = append(w, j)
			} else {
				j.queued = false
			}
		}
		clear(s.waiting[len(w):])
		s.waiting = w
		s.waitingStale = 0
	}
	return s.waiting
}

// MinWaitingProcs returns the fewest processors any waiting job needs, 0 when
// none waits: a pass can stop looking once fewer are free.
func (s *Sim) MinWaitingProcs() int64 { return s.waitProcs.min() }

// Running returns the running jobs ordered by PlannedEnd, then ID. The slice is
// the engine's and changes with every start and end: do not keep it across calls
// of Start, StartFor or Preempt.
func (s *Sim) Running() []*Job { return s.running }

// ExpectedEnd returns when the scheduler expects a running job to end, seen from
// now: its PlannedEnd, or now+1 for a job that has outlived it (only possible
// with NoKill): such a job is expected to end at any moment.
func (s *Sim) ExpectedEnd(j *Job) int64 {
	if j.PlannedEnd <= s.now {
		return s.now + 1
	}
	return j.PlannedEnd
}

// Start starts a waiting job now. Its run is killed at Start+Estimate unless
// Config.NoKill. It panics if the job is not waiting or does not fit.
func (s *Sim) Start(j *Job) { s.StartFor(j, Never) }

// StartFor starts a waiting job now with a run limit (trial runs): when the run
// has lasted limit seconds without finishing, it stops with reason LimitReached
// and the job goes back to the waiting queue. The estimate kill still applies
// when it comes first. limit >= 0; Never means no limit.
func (s *Sim) StartFor(j *Job, limit int64) {
	if !s.inRound {
		panic("sim: Start outside a policy callback")
	}
	if j.State != Waiting {
		panic("sim: starting a job that is " + j.State.String())
	}
	if int64(j.Procs) > s.free {
		panic(fmt.Sprintf("sim: job %d needs %d processors, %d free", j.ID, j.Procs, s.free))
	}
	if limit < 0 {
		panic("sim: negative run limit")
	}
	s.free -= int64(j.Procs)
	j.State = Running
	s.nWaiting--
	s.waitProcs.remove(j.Procs)
	s.waitingStale++
	j.Runs++
	if j.FirstStart < 0 {
		j.FirstStart = s.now
	}
	j.Start = s.now

	plan := j.Estimate
	if limit < plan {
		plan = limit
	}
	j.PlannedEnd = addTime(s.now, plan)

	run, reason := j.Remaining, Completed
	if !s.cfg.NoKill && run > j.Estimate {
		run, reason = j.Estimate, KilledAtEstimate
	}
	if limit < run {
		run, reason = limit, LimitReached
	}
	j.reason = reason
	s.events.push(event{at: s.now + run, seq: s.nextSeq(), kind: evEnd, gen: j.gen, job: j.ID})
	s.insertRunning(j)
}

// Preempt stops a running job now and puts it back in the waiting queue; its
// pending end event is cancelled. kept is the progress (seconds of work) the
// job keeps, 0 <= kept <= the time it has run; Remaining drops by kept. Ended
// is called with reason Preempted before Preempt returns.
func (s *Sim) Preempt(p Policy, j *Job, kept int64) {
	if !s.inRound {
		panic("sim: Preempt outside a policy callback")
	}
	if j.State != Running {
		panic("sim: preempting a job that is " + j.State.String())
	}
	if kept < 0 || kept > s.now-j.Start || kept > j.Remaining {
		panic("sim: preempt keeps more progress than the job made")
	}
	j.gen++ // the pending end event is now stale
	j.Remaining -= kept
	s.stopRun(j)
	s.requeue(j)
	p.Ended(s, j, Preempted)
}

// SetTimer asks for a Timer callback at time at (>= now) with tag. Timers fire
// after the ends and arrivals of their time and before that round's pass; a
// timer set for now fires in a further round at the same time.
func (s *Sim) SetTimer(at int64, tag int64) TimerID {
	if at < s.now {
		panic("sim: timer in the past")
	}
	s.timerSeq++
	s.events.push(event{at: at, seq: s.nextSeq(), kind: evTimer, id: s.timerSeq, tag: tag})
	return s.timerSeq
}

// CancelTimer cancels a timer that has not fired; cancelling one that fired or
// was cancelled does nothing.
func (s *Sim) CancelTimer(id TimerID) {
	if s.timersCanceled == nil {
		s.timersCanceled = make(map[TimerID]struct{})
	}
	s.timersCanceled[id] = struct{}{}
}

func (s *Sim) nextSeq() uint64 { s.seq++; return s.seq }

func addTime(t, d int64) int64 {
	if d >= Never-t {
		return Never
	}
	return t + d
}

// insertRunning keeps s.running sorted by (PlannedEnd, ID).
func (s *Sim) insertRunning(j *Job) {
	i := s.runningIndex(j.PlannedEnd, j.ID)
	s.running = append(s.running, nil)
	copy(s.running[i+1:], s.running[i:])
	s.running[i] = j
}

func (s *Sim) runningIndex(end int64, id int32) int {
	r := s.running
	lo, hi := 0, len(r)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if r[m].PlannedEnd < end || (r[m].PlannedEnd == end && r[m].ID < id) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

func (s *Sim) stopRun(j *Job) {
	i := s.runningIndex(j.PlannedEnd, j.ID)
	if i >= len(s.running) || s.running[i] != j {
		panic("sim: running list out of order")
	}
	copy(s.running[i:], s.running[i+1:])
	s.running[len(s.running)-1] = nil
	s.running = s.running[:len(s.running)-1]
	s.free += int64(j.Procs)
}

// requeue puts j back into the waiting queue; Waiting merges it in at its
// arrival place, so a slice a policy is iterating over does not shift.
func (s *Sim) requeue(j *Job) {
	j.State = Waiting
	s.nWaiting++
	s.waitProcs.add(j.Procs)
	if !j.queued { // else it is still in s.waiting, at its place, not yet compacted
		j.queued = true
		s.requeued = append(s.requeued, j)
	}
}

// mergeRequeued inserts the requeued jobs at their arrival places.
func (s *Sim) mergeRequeued() {
	for _, j := range s.requeued {
		if j.State != Waiting {
			j.queued = false // started again before the merge
			continue
		}
		w := s.waiting
		i := sort.Search(len(w), func(k int) bool {
			return w[k].Submit > j.Submit || (w[k].Submit == j.Submit && w[k].ID > j.ID)
		})
		s.waiting = append(s.waiting, nil)
		copy(s.waiting[i+1:], s.waiting[i:])
		s.waiting[i] = j
	}
	clear(s.requeued)
	s.requeued = s.requeued[:0]
}
