package sim

import (
	"fmt"
)

// Failer is a Policy that can fail during a run, such as a bridge to an
// external program that crashed or broke its protocol: Run checks Err after
// every round and stops with that error as soon as it is not nil.
type Failer interface {
	Err() error
}

// Run simulates until every job is done (timers set for later do not fire).
// It returns an error if the policy
// leaves jobs waiting with nothing running and no timer or arrival to come (it
// would never start them), or a Failer policy's error. Run may be called once.
func (s *Sim) Run(p Policy) error {
	failer, _ := p.(Failer)
	for {
		t, ok := s.nextTime()
		if !ok {
			break
		}
		s.now = t
		if s.round(p) {
			s.inRound = true
			p.Schedule(s)
			s.inRound = false
		}
		if failer != nil {
			if err := failer.Err(); err != nil {
				return err
			}
		}
		if s.cfg.Progress != nil && s.done/s.cfg.ProgressEvery != s.lastProgress {
			s.lastProgress = s.done / s.cfg.ProgressEvery
			s.cfg.Progress(s.done)
		}
		if s.done == len(s.jobs) {
			// Every job is done: a timer still set changes nothing, and a
			// policy that sets one in each round it is woken for (an
			// external program asking for every round) would otherwise
			// keep the run going with no job left.
			break
		}
	}
	if s.cfg.Progress != nil {
		s.cfg.Progress(s.done)
	}
	if s.done != len(s.jobs) {
		return fmt.Errorf("sim: at time %d the policy left %d jobs waiting with nothing running", s.now, s.nWaiting)
	}
	return nil
}

func (s *Sim) nextTime() (int64, bool) {
	t, ok := Never, false
	if len(s.events) > 0 {
		t, ok = s.events[0].at, true
	}
	if s.nextArr < len(s.arrival) {
		if a := s.jobs[s.arrival[s.nextArr]].Submit; !ok || a < t {
			t, ok = a, true
		}
	}
	return t, ok
}

// round takes every event due now, then dispatches ends, arrivals and timers
// in that order. It reports whether anything happened.
func (s *Sim) round(p Policy) bool {
	s.batch = s.batch[:0]
	for len(s.events) > 0 && s.events[0].at == s.now {
		s.batch = append(s.batch, s.events.pop())
	}
	s.inRound = true
	defer func() { s.inRound = false }()
	any := false
	for i := range s.batch {
		e := &s.batch[i]
		if e.kind != evEnd {
			continue
		}
		j := &s.jobs[e.job]
		if e.gen != j.gen || j.State != Running {
			continue // cancelled
		}
		any = true
		s.endRun(p, j)
	}
	for s.nextArr < len(s.arrival) {
		j := &s.jobs[s.arrival[s.nextArr]]
		if j.Submit != s.now {
			break
		}
		s.nextArr++
		any = true
		j.State = Waiting
		j.queued = true
		s.nWaiting++
		s.waitProcs.add(j.Procs)
		s.waiting = append(s.waiting, j)
		p.Arrived(s, j)
	}
	for i := range s.batch {
		e := &s.batch[i]
		if e.kind != evTimer {
			continue
		}
		if _, gone := s.timersCanceled[e.id]; gone {
			delete(s.timersCanceled, e.id)
			continue
		}
		any = true
		p.Timer(s, e.id, e.tag)
	}
	return any
}

func (s *Sim) endRun(p Policy, j *Job) {
	why := j.reason
	ran := s.now - j.Start
	s.stopRun(j)
	switch why {
	case Completed:
		j.Remaining = 0
		s.finish(j)
	case KilledAtEstimate:
		j.Killed = true
		j.Remaining -= ran
		s.finish(j)
	case LimitReached:
		s.requeue(j)
	}
	p.Ended(s, j, why)
}

func (s *Sim) finish(j *Job) {
	j.State = Done
	j.End = s.now
	s.done++
}
