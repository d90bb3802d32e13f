package policy

import (
	"github.com/swfkit/swfkit/pkg/sim"
)

// A --no-kill rebuild (rebuild.go) makes every reservation again, but while
// a job outlives its estimate the next round rebuilds once more and throws
// them away. What a rebuild's round needs is only which jobs start now, and
// a job whose reservation is now is found long before the end of the queue
// (on the first 100,000 RICC jobs the last one is at position 254 of 3,019 on
// average). So a rebuild places the queue in arrival order only until no job
// after the placed ones can start now: its width is more than the fewest
// processors free from now for its duration in the profile as it stands, and
// placing jobs only takes capacity, so none of them will. The rest, the
// tail, is placed, in the profile the rebuild left, the first time anything
// needs it: a round that does not rebuild, a job queued anywhere but last, a
// selective pass that may start a job the tail could take the room of, or a
// regroup. Until then the profile is left as the rebuild left it: the ends
// of the rounds in between are kept (Ended) and applied after the tail is
// placed. Arrivals of the rebuild's round that cannot start now join the
// tail; one that may start now has the tail placed first. The reservations
// made are those a whole rebuild would have made; only the time they are
// made differs (TestRebuildLeavesEqualRuns places every tail at once and
// compares; the naive tests compare with rebuilds that place everything).
//
// While it waits, the tail is one run of the queue whose first entry has the
// reservation sim.Never (the start pass hops it at once); its other entries,
// and Conservative.resv of its jobs, hold stale values that nothing reads
// (selective's pass knows the tail by its first job's arrival).
type lazyTail struct {
	on      bool
	at      int64       // the rebuild's time: the tail is placed from it
	next    int         // index in rq.q of the first entry of the tail
	end     int         // rq.q[next:end] are the rebuild's; rq.q[end:] arrived after it
	levels  []sim.Level // tailStartsNow's descent
	witness int         // tailStartsNow's last job that fitted, or -1
	// Ends kept for after the tail is placed (Ended).
	ends  []keptEnd
	endAt int64 // the time the kept ends happened, to advance the profile to
}

// keptEnd is a release of a job's held interval that Ended kept back while a
// tail waits.
type keptEnd struct{ held, procs int64 }

// lazyCheckEvery is the fewest jobs placed between two tests of whether the
// tail can stop: a test walks the profile's descent from now and the shapes
// of the tail (until one fits), so testing after every job costs more than
// it saves. The interval grows with the jobs placed (a quarter of them), so
// a rebuild that places most of its queue tests a few times only. (16 and an
// eighth measured the same on the first 200,000 RICC jobs.)
const lazyCheckEvery = 32

// tailStartsNow reports whether a job of q[from:] might start now in the
// profile as it stands: whether any of them fits at now.
//
// A rebuild asks several times as it places the queue, and the profile
// only loses capacity in between, so a job found not to fit never fits
// again: the job that fitted last time (witness) is asked first, and when
// it no longer fits the scan goes on after it. So each rebuild looks at each
// job of its queue about once.
func (c *Conservative) tailStartsNow(from int, now int64) bool {
	lt := &c.lazy
	q := c.rq.q
	lt.levels = c.profile.Descent(now, now+c.rq.maxDur, c.rq.minProcs, lt.levels[:0])
	free0 := lt.levels[0].Free
	if free0 < 0 {
		return false // fewer free now than the narrowest job needs
	}
	fits := func(e *queued) bool {
		p := int64(e.procs)
		return p <= free0 && sim.LevelAt(lt.levels, now+e.dur-1) >= p
	}
	i := from
	if lt.witness >= from {
		if fits(&q[lt.witness]) {
			return true
		}
		i = lt.witness + 1
	}
	for i < len(q) {
		e := &q[i]
		if fits(e) {
			lt.witness = i
			return true
		}
		// Equal neighbours ask the same question: hop over them.
		for i += int(e.alike); i < len(q) && sameShape(&q[i], e); {
			i += int(q[i].alike)
		}
	}
	return false
}

// placeTail places the tail a rebuild left (lazyTail), if any, in the
// profile as that rebuild left it, then applies the ends kept since.
func (c *Conservative) placeTail() {
	lt := &c.lazy
	if !lt.on {
		return
	}
	lt.on = false
	c.dueAt = -1 // the tail's new reservations are not in the due list
	before := c.Placed
	c.placeGroups(lt.next, lt.end, lt.at, false)
	c.TailPlaced += c.Placed - before
	q := c.rq.q
	for i := lt.end; i < len(q); i++ {
		e := &q[i]
		if e.resv < 0 {
			continue // left (cannot happen: a tail job does not start)
		}
		d, p := e.dur, int64(e.procs)
		t := c.profile.EarliestFit(lt.at, d, p)
		c.profile.Reserve(t, t+d, p)
		e.resv = t
		c.setResv(e.id, t)
		c.minResv = min(c.minResv, t)
	}
	if len(lt.ends) > 0 {
		c.profile.Advance(lt.endAt)
		for _, x := range lt.ends {
			c.profile.Release(lt.endAt, x.held, x.procs)
		}
		lt.ends = lt.ends[:0]
	}
}

// dropTail forgets a tail a new rebuild will make again, with the ends kept
// for it (the rebuild's profile starts from the running jobs).
func (c *Conservative) dropTail() {
	c.lazy.on = false
	c.lazy.ends = c.lazy.ends[:0]
}

// queuesLast reports whether j would be queued after every entry of the
// reservation queue (resvQueue.add's arrival order).
func (rq *resvQueue) queuesLast(j *sim.Job) bool {
	n := len(rq.q)
	return n == 0 || before(&rq.q[n-1], j)
}

// lazyReserve queues an arrival of the rebuild's round behind a waiting
// tail when it cannot start now, and reports whether it did.
func (c *Conservative) lazyReserve(j *sim.Job, now int64) bool {
	lt := &c.lazy
	if !lt.on || now != lt.at || !c.rq.queuesLast(j) {
		return false
	}
	d, p := duration(j), int64(j.Procs)
	if c.profile.FreeUntil(now, p) >= now+d {
		return false // it may start now
	}
	c.setResv(j.ID, sim.Never)
	c.rq.add(j, sim.Never)
	return true
}
