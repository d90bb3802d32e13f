package sim

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// scripted is a test policy: FCFS plus hooks.
type scripted struct {
	Base
	arrived func(s *Sim, j *Job)
	ended   func(s *Sim, j *Job, why EndReason)
	timer   func(s *Sim, id TimerID, tag int64)
	log     []string
}

func (p *scripted) Arrived(s *Sim, j *Job) {
	if p.arrived != nil {
		p.arrived(s, j)
	}
}

func (p *scripted) Ended(s *Sim, j *Job, why EndReason) {
	p.log = append(p.log, why.String())
	if p.ended != nil {
		p.ended(s, j, why)
	}
}

func (p *scripted) Timer(s *Sim, id TimerID, tag int64) {
	if p.timer != nil {
		p.timer(s, id, tag)
	}
}

func (p *scripted) Schedule(s *Sim) {
	for _, j := range s.Waiting() {
		if j.State != Waiting {
			continue
		}
		if int64(j.Procs) > s.FreeProcs() {
			return
		}
		s.Start(j)
	}
}

func run(t *testing.T, procs int64, noKill bool, jobs []Job, p Policy) {
	t.Helper()
	s, err := New(Config{Procs: procs, NoKill: noKill}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(p); err != nil {
		t.Fatal(err)
	}
}

// A trial run: the policy starts J0 with a 10 s limit; it comes back to the
// queue at 10 (LimitReached), FCFS restarts it from scratch at 10 and it
// completes at 110.
func TestTrialRunLimit(t *testing.T) {
	jobs := []Job{{Submit: 0, Runtime: 100, Estimate: 200, Procs: 1}}
	p := &scripted{}
	first := true
	p.arrived = func(s *Sim, j *Job) {
		if first {
			first = false
			s.StartFor(j, 10)
		}
	}
	run(t, 1, false, jobs, p)
	j := jobs[0]
	if j.Runs != 2 || j.FirstStart != 0 || j.Start != 10 || j.End != 110 || j.Killed {
		t.Errorf("runs %d first %d start %d end %d killed %v; want 2 0 10 110 false", j.Runs, j.FirstStart, j.Start, j.End, j.Killed)
	}
	if got := strings.Join(p.log, ","); got != "limit-reached,completed" {
		t.Errorf("ends %s", got)
	}
}

// Preemption cancels the pending end event: J0 (100 s) is preempted at 5 when
// J1 arrives and, first in arrival order, restarts at once. With kept 0 it
// ends at 105, so the stale event at 100 must not end it; with kept 5 (a
// checkpoint) it ends at 100, by its new event.
func TestPreemptCancelsEnd(t *testing.T) {
	for _, tc := range []struct{ kept, end int64 }{{0, 115}, {5, 110}} {
		jobs := []Job{{Submit: 0, Runtime: 100, Estimate: 100, Procs: 1}, {Submit: 5, Runtime: 10, Estimate: 10, Procs: 1}}
		p := &scripted{}
		p.arrived = func(s *Sim, j *Job) {
			if j.ID == 1 {
				s.Preempt(p, s.Job(0), tc.kept)
			}
		}
		run(t, 1, false, jobs, p)
		// FCFS order after the preemption: J0 arrived first, so it restarts
		// first, at 5, and J1 waits for it.
		if jobs[0].Start != 5 || jobs[0].End != 5+100-tc.kept || jobs[1].Start != jobs[0].End {
			t.Errorf("kept %d: J0 %d-%d, J1 starts %d", tc.kept, jobs[0].Start, jobs[0].End, jobs[1].Start)
		}
		if jobs[0].Runs != 2 || p.log[0] != "preempted" {
			t.Errorf("kept %d: runs %d log %v", tc.kept, jobs[0].Runs, p.log)
		}
	}
}

// Timers fire after the ends and arrivals of their time and before the pass;
// a cancelled one never fires.
func TestTimers(t *testing.T) {
	jobs := []Job{{Submit: 0, Runtime: 10, Estimate: 10, Procs: 1}, {Submit: 20, Runtime: 1, Estimate: 1, Procs: 1}}
	var fired []int64
	p := &scripted{}
	p.arrived = func(s *Sim, j *Job) {
		if j.ID == 0 {
			s.SetTimer(7, 1)
			id := s.SetTimer(8, 2)
			s.CancelTimer(id)
			s.SetTimer(20, 3)
		}
	}
	p.timer = func(s *Sim, id TimerID, tag int64) {
		fired = append(fired, s.Now()*10+tag)
		if tag == 3 && s.NumWaiting() != 1 {
			t.Errorf("timer at 20 ran before the arrival at 20")
		}
	}
	run(t, 1, false, jobs, p)
	if len(fired) != 2 || fired[0] != 71 || fired[1] != 203 {
		t.Errorf("fired %v, want [71 203]", fired)
	}
}

// The run ends with the last job: a timer set for later does not fire, and
// one that sets another each time it fires cannot keep the run going.
func TestTimersAfterTheLastJob(t *testing.T) {
	jobs := []Job{{Submit: 0, Runtime: 10, Estimate: 10, Procs: 1}}
	var fired []int64
	p := &scripted{}
	p.arrived = func(s *Sim, j *Job) { s.SetTimer(5, 0) }
	p.timer = func(s *Sim, id TimerID, tag int64) {
		fired = append(fired, s.Now())
		s.SetTimer(s.Now()+5, 0) // at 10 (with the end) and then 15
	}
	run(t, 1, false, jobs, p)
	if fmt.Sprint(fired) != "[5 10]" || jobs[0].End != 10 {
		t.Errorf("timers fired at %v, job ended at %d; want [5 10] and 10", fired, jobs[0].End)
	}
}

// A policy that never starts anything is reported, not looped on.
func TestStuckPolicy(t *testing.T) {
	s, err := New(Config{Procs: 1}, []Job{{Submit: 0, Runtime: 1, Estimate: 1, Procs: 1}})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Run(&idle{})
	if err == nil || !strings.Contains(err.Error(), "1 jobs waiting") {
		t.Errorf("err = %v", err)
	}
}

type idle struct{ Base }

func (*idle) Schedule(*Sim) {}

func TestNewRejects(t *testing.T) {
	for _, tc := range []struct {
		name  string
		procs int64
		job   Job
	}{
		{"machine", 0, Job{Procs: 1}},
		{"too wide", 4, Job{Procs: 5}},
		{"no procs", 4, Job{Procs: 0}},
		{"runtime", 4, Job{Procs: 1, Runtime: -1}},
		{"estimate", 4, Job{Procs: 1, Estimate: -1}},
		{"submit", 4, Job{Procs: 1, Submit: -1}},
	} {
		if _, err := New(Config{Procs: tc.procs}, []Job{tc.job}); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestStartPanicsWhenTooWide(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(r.(string), "sim: ") {
			t.Errorf("recover = %v", r)
		}
	}()
	jobs := []Job{{Submit: 0, Runtime: 1, Estimate: 1, Procs: 2}, {Submit: 0, Runtime: 1, Estimate: 1, Procs: 2}}
	s, _ := New(Config{Procs: 3}, jobs)
	s.Run(&greedy{})
}

type greedy struct{ Base }

func (*greedy) Schedule(s *Sim) {
	for _, j := range s.Waiting() {
		if j.State == Waiting {
			s.Start(j)
		}
	}
}

// Waiting stays in arrival order through lazy compaction and requeues.
func TestWaitingOrder(t *testing.T) {
	jobs := []Job{
		{Submit: 5, Runtime: 1, Estimate: 1, Procs: 1},
		{Submit: 0, Runtime: 10, Estimate: 10, Procs: 1},
		{Submit: 5, Runtime: 1, Estimate: 1, Procs: 1},
		{Submit: 1, Runtime: 1, Estimate: 1, Procs: 1},
	}
	p := &scripted{}
	var order []int32
	p.ended = func(s *Sim, j *Job, _ EndReason) {
		if s.Now() == 10 {
			for _, w := range s.Waiting() {
				if w.State == Waiting {
					order = append(order, w.ID)
				}
			}
		}
	}
	run(t, 1, false, jobs, p)
	if len(order) != 3 || order[0] != 3 || order[1] != 0 || order[2] != 2 {
		t.Errorf("waiting at 10: %v, want [3 0 2]", order)
	}
	if s := jobs[3].Start; s != 10 {
		t.Errorf("J3 starts %d", s)
	}
}

// failing is FCFS that fails in the round at time failAt.
type failing struct {
	scripted
	failAt int64
	err    error
	rounds int
}

func (p *failing) Schedule(s *Sim) {
	p.rounds++
	if s.Now() == p.failAt {
		p.err = errors.New("program crashed")
		return
	}
	p.scripted.Schedule(s)
}

func (p *failing) Err() error { return p.err }

// A Failer's error ends the run after the round in which it appears: jobs
// arrive at 0, 5 and 9 (1 s each), the policy fails at 5, so the round at 9
// never happens.
func TestRunStopsOnFailerError(t *testing.T) {
	jobs := []Job{{Procs: 1, Runtime: 1, Submit: 0}, {Procs: 1, Runtime: 1, Submit: 5}, {Procs: 1, Runtime: 1, Submit: 9}}
	s, err := New(Config{Procs: 1}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	p := &failing{failAt: 5}
	err = s.Run(p)
	if err == nil || err.Error() != "program crashed" {
		t.Fatalf("Run = %v, want the policy's error", err)
	}
	// Rounds: 0 (start J0), 1 (J0 ends), 5 (fails).
	if p.rounds != 3 || s.Now() != 5 {
		t.Errorf("rounds %d, now %d; want 3 rounds, stopped at 5", p.rounds, s.Now())
	}
}
