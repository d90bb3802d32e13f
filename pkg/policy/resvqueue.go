package policy

import (
	"sort"

	"github.com/swfkit/swfkit/pkg/sim"
)

// resvQueue holds the waiting jobs that have a reservation, in arrival order
// (as sim.Sim.Waiting: submit time, then ID), with what conservative
// backfilling reads of them, so that its walks stay in one small array and
// never touch the engine's job structs.
//
// Entries are grouped into runs: neighbours with the same estimate, width and
// reservation (bags of equal jobs, common in real logs, queue in a row and
// are reserved side by side). While grouped, the first entry of each run
// holds the run's length, and every entry of a run is either waiting or has
// left (a run's jobs start together, their reservation being the same), so a
// walk hops from run to run. An entry whose resv is -1 has left the queue; it
// stays until the next regroup, which also compacts; left runs in a row are
// merged into one by the walks.
//
// Independently of the runs, each entry's alike hops over neighbours of the
// same shape (width and estimate, whatever their reservations), which a
// --no-kill rebuild's walks ask the same questions of (rebuild.go,
// lazytail.go): a queue of bags of equal jobs is walked in hops.
type resvQueue struct {
	q       []queued
	grouped bool // run lengths are valid
	left    int  // left entries in q while grouped
	// lastLeft is at least the index of the last left entry (-1: none), so
	// compact moves only the entries before it: jobs leave from near the
	// front, and a --no-kill rebuild compacts a queue of thousands.
	lastLeft int
	// buf is q's array from its start: compact drops entries from the
	// front by starting q off entries into it, and add takes that room
	// back before the array would grow.
	buf []queued
	off int
	// minProcs and maxDur bound the shapes of the entries (of some that
	// left too): a lazy rebuild's test of its tail (lazytail.go) needs
	// them; add widens them and regroup's walk makes them tight again.
	minProcs, maxDur int64
}

// queued is a waiting job as conservative's walks see it.
type queued struct {
	submit, dur int64
	resv        int64 // reservation start; -1: left
	procs, id   int32
	run         int32 // at a run's first entry: the run's length
	// alike: the entries from this one to alike-1 after it all have its
	// width and estimate (alikeWalk). It is at least 1 and may count
	// fewer than all such neighbours (appends update only the last
	// alikeWalk entries), never more, so a hop never skips a shape.
	alike int32
}

// sameShape reports whether two entries have the same width and estimate.
func sameShape(a, b *queued) bool { return a.dur == b.dur && a.procs == b.procs }

// alikeWalk is the most entries before a new one whose alike an add updates:
// a bag of thousands of equal jobs queued one by one then costs linear time,
// and hops over it go alikeWalk entries at a time or more.
const alikeWalk = 64

// cutAlike makes the entries before i hop no further than i, after i's
// entry changed (an insertion or a replacement): only the entries whose
// hop reached past i-1 can be wrong, and they lie just before it.
func cutAlike(q []queued, i int) {
	for j := i - 1; j >= 0 && j+int(q[j].alike) > i; j-- {
		q[j].alike = int32(i - j)
	}
}

// setAlike sets q[i].alike from its next neighbour's, whose is valid.
func setAlike(q []queued, i int) {
	q[i].alike = 1
	if i+1 < len(q) && sameShape(&q[i], &q[i+1]) {
		q[i].alike = q[i+1].alike + 1
	}
}

// same reports whether two waiting entries may share a run.
func same(a, b *queued) bool { return a.resv == b.resv && sameShape(a, b) }

// bound widens minProcs and maxDur to include e.
func (rq *resvQueue) bound(e *queued) {
	rq.minProcs = min(rq.minProcs, int64(e.procs))
	rq.maxDur = max(rq.maxDur, e.dur)
}

// add queues a job that has just been given a reservation, at its arrival
// place: at the end, unless it went back to the queue or selective
// reservation promoted it. A left entry of the same job sits at that place
// and is reused. A new last entry is a run of its own (the next walk merges
// it with an equal neighbour); any other insertion ungroups the queue. It
// reports whether the job was queued last.
func (rq *resvQueue) add(j *sim.Job, resv int64) (last bool) {
	e := queued{submit: j.Submit, dur: duration(j), resv: resv, procs: j.Procs, id: j.ID, run: 1, alike: 1}
	q := rq.q
	i := len(q)
	for i > 0 && (q[i-1].submit > e.submit || q[i-1].submit == e.submit && q[i-1].id > e.id) {
		i--
	}
	rq.bound(&e)
	if i > 0 && q[i-1].id == e.id {
		q[i-1] = e
		cutAlike(q, i-1)
		setAlike(q, i-1)
		rq.grouped = false
		return false
	}
	last = i == len(q)
	if !last {
		rq.grouped = false
	}
	if i <= rq.lastLeft {
		rq.lastLeft++
	}
	if len(q) == cap(q) && rq.off > 0 {
		q = rq.buf[:copy(rq.buf, q)]
		rq.off = 0
	}
	if len(q) == cap(q) {
		q = append(q, queued{})
		rq.buf, rq.off = q[:cap(q)], 0
	} else {
		q = q[:len(q)+1]
	}
	copy(q[i+1:], q[i:])
	q[i] = e
	rq.q = q
	if last {
		// The entries whose hop reaches the one before it, when that one
		// has its shape, now reach it too.
		if i > 0 && sameShape(&q[i-1], &e) {
			for j := i - 1; j >= max(0, i-alikeWalk) && j+int(q[j].alike) == i; j-- {
				q[j].alike++
			}
		}
	} else {
		cutAlike(q, i)
		setAlike(q, i)
	}
	return last
}

// leave records that a queued job started on its own (selective
// reservation's pass); it ungroups the queue.
func (rq *resvQueue) leave(j *sim.Job) {
	q := rq.q
	i := sort.Search(len(q), func(k int) bool {
		return q[k].submit > j.Submit || q[k].submit == j.Submit && q[k].id >= j.ID
	})
	if i == len(q) || q[i].id != j.ID {
		panic("policy: conservative job not in its queue")
	}
	q[i].resv = -1
	rq.grouped = false
	rq.lastLeft = max(rq.lastLeft, i)
}

// started records that the run of n entries from q[h] has left (started
// together).
func (rq *resvQueue) started(h, n int) {
	rq.left += n
	rq.lastLeft = max(rq.lastLeft, h+n-1)
}

// regroup drops the left entries and groups equal neighbours into runs.
func (rq *resvQueue) regroup() {
	q := rq.q
	n, head := 0, -1
	rq.minProcs, rq.maxDur = sim.Never, 0
	for i := range q {
		e := &q[i]
		if e.resv < 0 {
			continue
		}
		if head >= 0 && same(&q[head], e) {
			q[head].run++
		} else {
			head = n
			e.run = 1
		}
		rq.bound(e)
		if n != i {
			q[n] = *e
		}
		n++
	}
	rq.q = q[:n]
	for i := n - 1; i >= 0; i-- {
		setAlike(rq.q, i)
	}
	rq.grouped, rq.left, rq.lastLeft = true, 0, -1
}

// compact drops the left entries, keeping the order; the runs are then to
// be set by the caller (Conservative.rebuild) or by a regroup. The entries
// up to the last left one shift towards the end of the queue, and the queue
// then starts later in its array; the shape bounds are kept (they may still
// count some jobs that left).
func (rq *resvQueue) compact() {
	rq.grouped, rq.left = false, 0
	q := rq.q
	w := rq.lastLeft + 1
	for i := rq.lastLeft; i >= 0; i-- {
		if q[i].resv >= 0 {
			w--
			q[w] = q[i]
			setAlike(q, w) // q[w+1] is kept or placed already
		}
	}
	rq.q = q[w:]
	rq.off += w
	rq.lastLeft = -1
}
