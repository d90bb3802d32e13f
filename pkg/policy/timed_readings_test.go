package policy

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// Readings of Thebe, Bunde & Leung's section 2.1 that Timed does not follow,
// kept as test-only policies so that docs/swfsim-research.md ("Trial runs")
// can give their figures from a command (BenchmarkTrialRunReadings):
//
//   - timedReadingDecideFirst: a pass decides every trial run and every
//     commit first, as if all expired trial runs had been terminated, and
//     kills afterwards (oldest trial end first, sparing the expired jobs the
//     pass continues). Timed kills inside the pass, when a start needs the
//     processors, so an expired job can be killed for one start and
//     restarted from the beginning by the base scheduler later in the same
//     pass; here it continues instead.
//   - timedReadingStoredGuarantee (timed-easy): EASY "stores ... the first
//     job's guaranteed time" and keeps it while trial runs delay the head:
//     in every pass the shadow time is computed as easy computes it, and
//     while the same job stays the head the earliest shadow time computed
//     for it is used (a guarantee never moves later; early ends still bring
//     it forward). The extra processors are those expected free at it
//     beyond the head's need (none when trial runs have taken them). Timed
//     uses the shadow time of the pass, as easy does. Under --no-kill this
//     changes plain EASY too: a job past its estimate, expected to end at
//     now + 1, moves a recomputed shadow time later, a guarantee not.
//   - the third reading, EASY seeing a trial run as ending at start +
//     estimate instead of at its trial end, is Timed's unexported
//     trialSeenToEstimate (one line of startTrials).
//
// timedAlt also counts same-pass restarts: restarts (kills: every killed job
// runs again from the beginning) made by the very pass that killed the job.
type timedReading uint8

const (
	timedReadingOurs timedReading = iota // Timed itself
	timedReadingDecideFirst
	timedReadingStoredGuarantee
	// timedReadingCopy is decide-first's code with kills inside the pass:
	// it must equal Timed (TestTimedReadingCopy), which shows the copies of
	// Timed's pass below are faithful.
	timedReadingCopy
)

// timedAlt is Timed with its Schedule replaced; everything else (arrivals,
// ends, trial ends, the candidacy of jobs) is Timed's.
type timedAlt struct {
	*Timed
	reading timedReading

	// decide-first: the starts decided in this pass, and their processors
	decided []*sim.Job
	owed    int64

	// stored guarantee: the head and its guaranteed time
	head      *sim.Job
	guarantee int64

	// the expired jobs before the pass, and the same-pass restarts
	expiredBefore   []*sim.Job
	samePassRestart int64
}

func newTimedAlt(base TimedBase, trial int64, n int, reading timedReading) *timedAlt {
	return &timedAlt{Timed: NewTimed(base, trial, n), reading: reading}
}

func (a *timedAlt) Schedule(s *sim.Sim) {
	a.expiredBefore = append(a.expiredBefore[:0], a.expired...)
	switch a.reading {
	case timedReadingOurs:
		a.Timed.Schedule(s)
	case timedReadingDecideFirst, timedReadingCopy:
		a.decide(s)
		for _, j := range a.decided {
			a.makeRoom(s, int64(j.Procs))
			s.Start(j)
		}
		clear(a.decided)
		a.decided, a.owed = a.decided[:0], 0
	case timedReadingStoredGuarantee:
		t := a.Timed
		if t.trial > 0 && len(t.trials) > 0 && s.FreeProcs()+t.expProcs >= t.minTrial {
			t.startTrials(s)
		}
		if t.stale > 0 {
			t.trimQueue()
		}
		if free := s.FreeProcs() + t.expProcs; free > 0 {
			a.storedGuaranteePass(s, free)
		}
	}
	for _, j := range a.expiredBefore {
		// An expired job's run started at least one trial ago, so a
		// committed one starting now was killed and restarted by this pass.
		if a.state[j.ID] == tsCommitted && j.Start == s.Now() {
			a.samePassRestart++
		}
	}
}

// decide is Timed.Schedule with every start going through startOrDefer.
func (a *timedAlt) decide(s *sim.Sim) {
	t := a.Timed
	if t.trial > 0 && len(t.trials) > 0 && s.FreeProcs()+t.expProcs >= t.minTrial {
		a.startTrials(s)
	}
	if t.stale > 0 {
		t.trimQueue()
	}
	free := s.FreeProcs() + t.expProcs - a.owed
	if free == 0 {
		return
	}
	if t.base == TimedEASY {
		easyGeneral(s, a, t.queue, free, &t.view)
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
		a.begin(s, j)
		free -= int64(j.Procs)
	}
}

// startOrDefer starts j now (timedReadingCopy, as Timed does) or leaves the
// start, and the kills it needs, to the end of the pass.
func (a *timedAlt) startOrDefer(s *sim.Sim, j *sim.Job) {
	if a.reading == timedReadingCopy {
		a.makeRoom(s, int64(j.Procs))
		s.Start(j)
		return
	}
	a.decided = append(a.decided, j)
	a.owed += int64(j.Procs)
}

// startTrials is Timed.startTrials with its start through startOrDefer.
func (a *timedAlt) startTrials(s *sim.Sim) {
	t := a.Timed
	free := s.FreeProcs() + t.expProcs - a.owed
	now := s.Now()
	kept := t.trials[:0]
	minProcs := int64(1<<63 - 1)
	for i, j := range t.trials {
		if t.state[j.ID] != tsPending {
			continue
		}
		if free < t.minTrial {
			kept = append(kept, t.trials[i:]...)
			minProcs = min(minProcs, t.minTrial)
			break
		}
		if int64(j.Procs) > free {
			kept = append(kept, j)
			minProcs = min(minProcs, int64(j.Procs))
			continue
		}
		a.startOrDefer(s, j)
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

// begin is Timed.begin with its start through startOrDefer; easyGeneral
// calls it through a. A deferred start is filed in the view under the end
// s.Start will give it, now + estimate.
func (a *timedAlt) begin(s *sim.Sim, j *sim.Job) {
	t := a.Timed
	if t.state[j.ID] == tsExpired {
		t.dropExpired(j)
		t.Stats.Continued++
		t.viewEnd[j.ID] = j.PlannedEnd
	} else {
		a.startOrDefer(s, j)
		t.viewEnd[j.ID] = s.Now() + j.Estimate
	}
	t.state[j.ID] = tsCommitted
	t.stale++
	t.view.add(j, t.viewEnd[j.ID])
}

// storedGuaranteePass is easyGeneral (over Timed's view, queue order) with
// the head's shadow time never later than in an earlier pass with the same
// head.
func (a *timedAlt) storedGuaranteePass(s *sim.Sim, free int64) {
	t := a.Timed
	now := s.Now()
	order := t.queue
	i := 0
	for ; i < len(order); i++ {
		j := order[i]
		c := t.candidate(j)
		if c == candSkip {
			continue
		}
		if c == candBlocked || int64(j.Procs) > free {
			break
		}
		t.begin(s, j)
		free -= int64(j.Procs)
	}
	if i >= len(order) || free == 0 {
		return
	}
	head := order[i]
	shadow, _ := t.view.shadow(now, t.notBefore(s, head), free, int64(head.Procs))
	if head == a.head {
		shadow = min(shadow, a.guarantee)
	}
	a.head, a.guarantee = head, shadow
	extra := viewAvailableAt(&t.view, now, shadow, free) - int64(head.Procs)
	for _, j := range order[i+1:] {
		if free == 0 {
			return
		}
		p := int64(j.Procs)
		if p > free || t.candidate(j) != candReady {
			continue
		}
		if t.runFor(s, j) <= shadow-now {
			t.begin(s, j)
			free -= p
		} else if p <= extra {
			t.begin(s, j)
			free -= p
			extra -= p
		}
	}
}

// viewAvailableAt is free plus the processors of the view's jobs expected to
// have ended by at (an end at or before now counting as now + 1, as in
// runView.shadow).
func viewAvailableAt(v *runView, now, at, free int64) int64 {
	for _, e := range v.entries {
		if max(e.end, now+1) > at {
			break
		}
		free += int64(e.procs)
	}
	return free
}

// TestTimedReadingCopy holds the copies of Timed's pass that the readings are
// built on to Timed itself (timedReadingCopy starts and kills as Timed does),
// and checks what makes decide-first a reading of its own: Timed restarts
// some jobs in the pass that killed them, decide-first none.
func TestTimedReadingCopy(t *testing.T) {
	tr := loadResearchTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	run := func(base TimedBase, reading timedReading, noKill bool) ([]sim.Job, *timedAlt) {
		jobs := append([]sim.Job(nil), tr.jobs...)
		p := newTimedAlt(base, DefaultTrial, len(jobs), reading)
		s, err := sim.New(sim.Config{Procs: tr.procs, NoKill: noKill}, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(p); err != nil {
			t.Fatal(err)
		}
		return jobs, p
	}
	for _, base := range []TimedBase{TimedFCFS, TimedEASY} {
		for _, noKill := range []bool{false, true} {
			what := fmt.Sprintf("timed-%s no-kill %v", base, noKill)
			want, ours := run(base, timedReadingOurs, noKill)
			got, cp := run(base, timedReadingCopy, noKill)
			sameSchedule(t, what+": copy", got, want)
			for i := range got {
				if !slices.Equal(got[i].Tokens, want[i].Tokens) {
					t.Fatalf("%s: copy: job %d tokens %v, want %v", what, i, got[i].Tokens, want[i].Tokens)
				}
			}
			if cp.Stats != ours.Stats || cp.samePassRestart != ours.samePassRestart {
				t.Errorf("%s: copy: stats %+v, %d same-pass restarts; want %+v, %d", what,
					cp.Stats, cp.samePassRestart, ours.Stats, ours.samePassRestart)
			}
			if ours.samePassRestart == 0 {
				t.Errorf("%s: no same-pass restarts: the readings would not differ", what)
			}
			if _, df := run(base, timedReadingDecideFirst, noKill); df.samePassRestart != 0 {
				t.Errorf("%s: decide-first restarted %d jobs in the pass that killed them", what, df.samePassRestart)
			}
		}
	}
}
