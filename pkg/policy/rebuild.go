package policy

import (
	"math"

	"github.com/swfkit/swfkit/pkg/sim"
)

// What conservative backfilling does with --no-kill when a job outlives its
// estimate (Conservative's doc comment): the whole schedule is made again.

// overdue reports whether a running job has outlived the interval it holds in
// the profile (only with NoKill), extending each such hold to now+1; procs is
// the sum of their processors.
func (c *Conservative) overdue(s *sim.Sim) (found bool, procs int64) {
	now := s.Now()
	for _, j := range s.Running() {
		if j.PlannedEnd > now {
			break // sorted by PlannedEnd; held >= PlannedEnd
		}
		if c.held[j.ID] <= now {
			c.held[j.ID] = now + 1 // the rebuild that follows reserves it
			found = true
			procs += int64(j.Procs)
		}
	}
	return found, procs
}

// stale reports whether a waiting job's reservation has passed without it
// starting. That happens only with NoKill: a reservation that counted on an
// overdue job ending by now+1.
func (c *Conservative) stale(s *sim.Sim) bool {
	if !s.NoKill() || c.minResv >= s.Now() {
		return false
	}
	// The reservation queue holds exactly the waiting jobs with a
	// reservation, with it (left entries have -1): for selective
	// reservation far fewer than the waiting jobs.
	now := s.Now()
	for i := range c.rq.q {
		if r := c.rq.q[i].resv; r >= 0 && r < now {
			return true
		}
	}
	return false
}

// rebuild makes every reservation again, in arrival order, from a profile of
// the running jobs alone.
//
// Equal neighbours in the queue (same estimate and width) are placed
// together: taken one by one each goes to the earliest start of a profile
// that has only lost capacity since the one before, so when one goes to t,
// every one that fits beside it at t (Profile.MinFree) goes there too, and the
// next one's search starts after t. This is what makes --no-kill bearable on
// bag-of-tasks logs, where a job that outlives its estimate causes a rebuild
// in every round until it ends.
//
// Most such rounds remake the schedule of the round before unchanged, and
// that is recognised without remaking it (Reused), or they remake it from
// the first reservation that is now or past only (keepFront): when the
// reservations are still those of the last rebuild, or of the jobs queued
// after it in arrival order, and no capacity came free since, the jobs
// before that one keep theirs.
func (c *Conservative) rebuild(s *sim.Sim, overdueProcs int64) {
	c.Rebuilds++
	// Afterwards every job sits at its earliest start given all the others,
	// as after a compression that moved nothing.
	c.moved, c.freedEnd, c.movedEnd = false, 0, 0
	now := s.Now()
	from := 0 // the entries before it (once compacted) keep their reservations
	fresh := true
	if c.greedy && !c.freed && !c.naive {
		var all bool
		if from, all = c.keepFront(now, overdueProcs); all {
			c.Reused++
			return
		}
		fresh = false
	} else {
		// A tail the last rebuild left (lazytail.go) is made again below.
		c.dropTail()
		holds := c.holds[:0]
		for _, j := range s.Running() {
			holds = append(holds, sim.Hold{End: c.held[j.ID], Procs: int64(j.Procs)})
		}
		c.profile.ResetRunning(s.Procs(), now, holds)
		c.holds = holds
	}
	c.greedy = true
	c.rq.compact()
	q := c.rq.q
	c.fits.reset()
	lazy := !c.naive
	c.lazy.witness = -1
	placed := c.Placed
	i := c.placeGroups(from, len(q), now, lazy)
	if k := &c.RebuildKinds; fresh {
		k.Fresh++
		k.FreshPlaced += c.Placed - placed
	} else {
		k.Fronts++
		k.FrontKept += from
		k.FrontPlaced += c.Placed - placed
	}
	if i < len(q) {
		// The tail is one run of entries not placed yet, hopped at once
		// by the start pass; only its first entry says so (resv Never).
		// Its other entries, and c.resv of its jobs, keep stale values
		// that nothing reads before placeTail writes them (selective's
		// pass knows the tail by its first job).
		q[i].resv, q[i].run = sim.Never, int32(len(q)-i)
		c.lazy = lazyTail{on: true, at: now, next: i, end: len(q),
			levels: c.lazy.levels, ends: c.lazy.ends[:0], witness: -1}
	}
	// The copies placed together are the runs: equal neighbours in one
	// group get distinct starts, and neighbouring groups differ in shape.
	// A tail not placed yet is one run (above).
	c.rq.grouped = true
}

// keepFront is a rebuild of a greedy schedule (Conservative.greedy) to
// which no capacity came back: it keeps the reservations that the rebuild
// would make again and takes the others out of the profile.
//
// Since the schedule was made, the running jobs hold what they held then,
// less what has ended on time, plus the overdue jobs over [now, now+1), and
// a job that started held its reservation (or, in selective reservation's
// pass, a slot that fitted beside every reservation). Taken in arrival
// order, each job sees a profile with at most the capacity it saw then, so
// no earlier start fits it; and as long as its slot is disjoint from [now,
// now+1) (its reservation is after now) the slot has kept its room, being
// disjoint from the jobs before it that moved (none has). So the jobs
// before the first one whose reservation is now or past keep theirs, and
// every later one is placed again: its slot is released here (a tail still
// waiting holds none). The overdue jobs' second is reserved. It returns the
// number of waiting entries kept, which is where the rest starts once the
// queue is compacted, and whether every one was kept (all: nothing is to
// place, and the reservations are the rebuild's).
func (c *Conservative) keepFront(now, overdueProcs int64) (kept int, all bool) {
	rq := &c.rq
	q := rq.q
	limit := len(q)
	if c.lazy.on {
		limit = c.lazy.next
	}
	c.dropTail()
	first := sim.Never // the earliest reservation kept
	i := 0
	for i < limit {
		e := &q[i]
		if !rq.grouped {
			e.run = 1 // the runs of what is kept stay valid
		}
		n := int(e.run)
		if e.resv >= 0 {
			if e.resv <= now {
				break
			}
			first = min(first, e.resv)
			kept += n
		}
		i += n
	}
	all = i == len(q)
	for i < limit {
		e := &q[i]
		if !rq.grouped {
			e.run = 1
		}
		if e.resv >= 0 {
			c.profile.Release(e.resv, e.resv+e.dur, int64(e.run)*int64(e.procs))
		}
		i += int(e.run)
	}
	if overdueProcs > 0 {
		c.profile.Reserve(now, now+1, overdueProcs)
	}
	if all {
		c.minResv = first
	}
	return kept, all
}

// placeGroups places q[i:end] in arrival order from now, equal neighbours
// together (rebuild). With lazy it stops at a group's start once no job from
// there on can start now (lazytail.go), and returns where it stopped; else
// it returns end.
func (c *Conservative) placeGroups(i, end int, now int64, lazy bool) int {
	q := c.rq.q
	done, check := 0, lazyCheckEvery
	for i < end {
		if lazy && done >= check {
			if !c.tailStartsNow(i, now) {
				return i
			}
			check = done + max(lazyCheckEvery, done/4)
		}
		d, p := q[i].dur, int64(q[i].procs)
		k := min(i+int(q[i].alike), end)
		for k < end && sameShape(&q[k], &q[i]) {
			k = min(k+int(q[k].alike), end)
		}
		done += k - i
		for from := max(now, c.fits.until(p, d)); i < k; {
			t, free, placed := c.profile.ReserveEarliest(from, d, p, int64(k-i))
			if t == sim.Never {
				panic("policy: conservative rebuild found no start")
			}
			m := int(placed)
			c.Placed += m
			q[i].run = int32(m)
			for x := m; x > 0; x-- {
				q[i].resv = t
				c.setResv(q[i].id, t)
				i++
			}
			c.minResv = min(c.minResv, t)
			from = t + 1
			// No start before t fits this shape, and none at t either
			// once as many copies as fit there have taken it.
			if int64(m) == free/p {
				c.fits.add(p, d, t+1)
			} else {
				c.fits.add(p, d, t)
			}
		}
	}
	return end
}

// noFit remembers, during a rebuild, that no start before until fits a job of
// procs processors for dur seconds. A rebuild only ever takes capacity, so
// such a fact stays true to its end, and it also holds for every job at least
// as wide and as long (each of its windows contains a blocked one).
type noFit struct{ procs, dur, until int64 }

// noFits is a small table of noFit facts; the one that would say the least
// is replaced when it is full.
type noFits struct{ facts []noFit }

const maxNoFits = 16

func (f *noFits) reset() { f.facts = f.facts[:0] }

// until returns the latest start that the facts rule out for a job of procs
// and dur (the earliest that may fit), or math.MinInt64.
func (f *noFits) until(procs, dur int64) int64 {
	best := int64(math.MinInt64)
	for _, x := range f.facts {
		if x.procs <= procs && x.dur <= dur {
			best = max(best, x.until)
		}
	}
	return best
}

func (f *noFits) add(procs, dur, until int64) {
	for i := range f.facts {
		if x := &f.facts[i]; x.procs == procs && x.dur == dur {
			x.until = max(x.until, until)
			return
		}
	}
	if len(f.facts) < maxNoFits {
		f.facts = append(f.facts, noFit{procs, dur, until})
		return
	}
	weakest := 0
	for i := range f.facts {
		if f.facts[i].until < f.facts[weakest].until {
			weakest = i
		}
	}
	f.facts[weakest] = noFit{procs, dur, until}
}
