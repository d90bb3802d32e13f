package policy

import (
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// queueCheck is Timed with its base queue checked after every pass: it
// holds every job still to be committed (pending, in its trial, expired or
// ready) in arrival order, and stale counts exactly its other entries.
type queueCheck struct {
	*Timed
	tb     testing.TB
	passes int
}

func (c *queueCheck) Schedule(s *sim.Sim) {
	c.Timed.Schedule(s)
	c.passes++
	stale := 0
	var last *sim.Job
	for _, j := range c.queue {
		if last != nil && (j.Submit < last.Submit || j.Submit == last.Submit && j.ID < last.ID) {
			c.tb.Fatalf("pass %d at %d: job %d after job %d in the base queue", c.passes, s.Now(), j.ID, last.ID)
		}
		last = j
		if st := c.state[j.ID]; st == tsCommitted || st == tsDone {
			stale++
		}
	}
	if stale != c.stale {
		c.tb.Fatalf("pass %d at %d: %d stale entries, stale says %d", c.passes, s.Now(), stale, c.stale)
	}
	if c.passes%64 != 0 {
		return // the count below walks every job: every 64th pass
	}
	waiting := 0
	for i := 0; i < s.NumJobs(); i++ {
		if st := c.state[i]; s.Job(int32(i)).State != sim.Pending && st != tsCommitted && st != tsDone {
			waiting++
		}
	}
	if waiting != len(c.queue)-stale {
		c.tb.Fatalf("pass %d at %d: %d jobs to commit, %d in the base queue", c.passes, s.Now(), waiting, len(c.queue)-stale)
	}
}

// TestTimedBaseQueue checks the base queue's invariant (queueCheck) over a
// whole real trace, with and without kills, under both base schedulers.
func TestTimedBaseQueue(t *testing.T) {
	tr := loadResearchTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	for _, base := range []TimedBase{TimedFCFS, TimedEASY} {
		for _, noKill := range []bool{false, true} {
			jobs := append([]sim.Job(nil), tr.jobs...)
			s, err := sim.New(sim.Config{Procs: tr.procs, NoKill: noKill}, jobs)
			if err != nil {
				t.Fatal(err)
			}
			c := &queueCheck{Timed: NewTimed(base, DefaultTrial, len(jobs)), tb: t}
			if err := s.Run(c); err != nil {
				t.Fatal(err)
			}
			if c.passes < len(jobs) || c.Stats.Kills == 0 {
				t.Fatalf("%s no-kill=%v: %d passes, %d kills: the trace does not exercise the queue", base, noKill, c.passes, c.Stats.Kills)
			}
		}
	}
}
