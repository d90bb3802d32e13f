package policy

import "github.com/swfkit/swfkit/pkg/sim"

// Conservative is conservative backfilling (Mu'alem & Feitelson, IEEE TPDS
// 2001, section 2; Lee 2009, 1.3.4): every waiting job holds a reservation in
// an availability profile (sim.Profile) built from running jobs' requested ends
// (start + estimate) and the reservations of the jobs before it.
//
//   - A job that arrives gets a reservation at the earliest time at which its
//     processors are free for its whole estimate, given all existing
//     reservations; arrivals of one round are inserted in file order. A job with
//     estimate 0 reserves 1 s.
//   - After a round in which any job ended (completed or killed), and before that
//     round's arrivals are inserted, the schedule is compressed: the waiting jobs,
//     in arrival order, are each removed and re-inserted at their earliest
//     feasible start, which can only be earlier than their old reservation, never
//     later.
//   - Every job whose reservation is now starts, in arrival order. Backfilling is
//     implicit: a later job whose reservation falls in a hole starts early.
//
// This is exact, so a job never starts later than its first reservation when
// estimates are exact, yet a job behind it can take a hole that an early end
// would have given to it (pseudo-delay, Lee Fig. 1.2).
//
// Choice for --no-kill: a job running past its estimate is expected to end one
// second from now (sim.Sim.ExpectedEnd); in a round where any job has outlived
// its estimate the profile is rebuilt from the running jobs and every
// reservation is made again in arrival order, which may move it later.
type Conservative struct {
	sim.Base
	profile *sim.Profile
	resv    []int64 // per job ID: reservation start (waiting) or -1
	held    []int64 // per job ID: end of the profile interval a running job holds
	arrived []*sim.Job
	freed   bool // a job ended before the end it held in the profile
	moved   bool // the last compression moved a job
	ended   bool // a job ended in this round
	naive   bool // tests: compress after every round with ends, no pruning

	// Rebuilds counts full rebuilds of the schedule (only with NoKill).
	Rebuilds int
}

// NewConservative returns conservative backfilling for n jobs.
func NewConservative(n int) *Conservative {
	c := &Conservative{resv: make([]int64, n), held: make([]int64, n)}
	for i := range c.resv {
		c.resv[i] = -1
	}
	return c
}

func duration(j *sim.Job) int64 {
	if j.Estimate < 1 {
		return 1
	}
	return j.Estimate
}

func (c *Conservative) Arrived(s *sim.Sim, j *sim.Job) { c.arrived = append(c.arrived, j) }

func (c *Conservative) Ended(s *sim.Sim, j *sim.Job, why sim.EndReason) {
	c.ensureProfile(s)
	c.profile.Advance(s.Now())
	c.ended = true
	if c.held[j.ID] > s.Now() {
		c.profile.Release(s.Now(), c.held[j.ID], int64(j.Procs))
		c.freed = true
	}
	if j.State == sim.Waiting { // back in the queue (run limit, preemption): reinsert
		c.arrived = append(c.arrived, j)
	}
}

func (c *Conservative) ensureProfile(s *sim.Sim) {
	if c.profile == nil {
		c.profile = sim.NewProfile(s.Procs(), s.Now())
	}
}

// Schedule compresses if a job ended, inserts the round's arrivals and starts
// the jobs whose reservation is now.
func (c *Conservative) Schedule(s *sim.Sim) {
	c.ensureProfile(s)
	now := s.Now()
	c.profile.Advance(now)
	if c.overdue(s) {
		c.rebuild(s)
	} else if c.freed || c.moved || (c.naive && c.ended) {
		// Compressing is a no-op unless capacity came free since the last
		// compression or that compression moved a job (whose old slot may
		// now suit a job before it in arrival order): skip it then, with the
		// same result as compressing after every round with ends.
		c.moved = false
		c.compress(s)
	}
	c.freed, c.ended = false, false
	for _, j := range c.arrived {
		if j.State == sim.Waiting {
			c.reserve(j, now)
		}
	}
	clear(c.arrived)
	c.arrived = c.arrived[:0]
	for _, j := range s.Waiting() {
		if j.State != sim.Waiting {
			continue
		}
		switch r := c.resv[j.ID]; {
		case r == now:
			s.Start(j)
			c.resv[j.ID] = -1
			c.held[j.ID] = now + duration(j)
		case r < now:
			panic("policy: conservative reservation in the past")
		}
	}
}

func (c *Conservative) reserve(j *sim.Job, now int64) {
	d, p := duration(j), int64(j.Procs)
	t := c.profile.EarliestFit(now, d, p)
	c.profile.Reserve(t, t+d, p)
	c.resv[j.ID] = t
}

// compress re-inserts every waiting job, in arrival order, at its earliest
// feasible start.
func (c *Conservative) compress(s *sim.Sim) {
	now := s.Now()
	for _, j := range s.Waiting() {
		old := c.resv[j.ID]
		if j.State != sim.Waiting || old < 0 {
			continue // not yet inserted: an arrival of this round
		}
		d, p := duration(j), int64(j.Procs)
		if !c.naive && c.profile.MaxFreeBefore(old) < p {
			continue // it cannot start at any time before its reservation
		}
		c.profile.Release(old, old+d, p)
		t := c.profile.EarliestFit(now, d, p)
		if t > old {
			panic("policy: conservative compression moved a job later")
		}
		c.profile.Reserve(t, t+d, p)
		c.resv[j.ID] = t
		if t < old {
			c.moved = true
		}
	}
}

// overdue reports whether a running job has outlived the interval it holds in
// the profile (only with NoKill), extending each such hold to now+1.
func (c *Conservative) overdue(s *sim.Sim) bool {
	now := s.Now()
	found := false
	for _, j := range s.Running() {
		if j.PlannedEnd > now {
			break // sorted by PlannedEnd; held >= PlannedEnd
		}
		if h := c.held[j.ID]; h <= now {
			c.profile.Reserve(h, now+1, int64(j.Procs))
			c.held[j.ID] = now + 1
			found = true
		}
	}
	return found
}

// rebuild makes every reservation again, in arrival order, from a profile of
// the running jobs alone.
func (c *Conservative) rebuild(s *sim.Sim) {
	c.Rebuilds++
	now := s.Now()
	c.profile.Reset(s.Procs(), now)
	for _, j := range s.Running() {
		c.profile.Reserve(now, c.held[j.ID], int64(j.Procs))
	}
	for _, j := range s.Waiting() {
		if j.State == sim.Waiting && c.resv[j.ID] >= 0 {
			c.reserve(j, now)
		}
	}
}
