package policy

import (
	"math"

	"github.com/swfkit/swfkit/pkg/sim"
)

// pass starts the jobs selective reservation starts now: the guaranteed
// jobs whose reservation is now and the no-guarantee jobs that fit, in
// arrival order, exactly as walk does, but without visiting every waiting
// job. On RICC with --no-kill selective-d's walk met 239 million
// no-guarantee jobs in 242,000 passes on the first 200,000 jobs, most of them
// too long for the room there is. Here the no-guarantee jobs are scanned
// from their own queue (easyQueue: processors and estimate side by side,
// with the fewest processors and the shortest estimate of every 32 entries),
// and a block none of whose jobs can fit is skipped with one test: a job of
// at least its fewest processors and its shortest estimate fits only if that
// corner does (Profile.FreeUntil only falls as the width grows). The
// guaranteed jobs due now come from the reservation queue, and the two are
// merged by arrival, so that the starts are made in walk's order.
//
// The no-guarantee queue holds every job that arrived; an entry whose job
// has started or been promoted (it has a reservation) is dropped when a pass
// meets it.
func (sel *Selective) pass(s *sim.Sim) {
	c := sel.cons
	q := &sel.ng
	q.bind(s)
	defer q.compact()
	s.Waiting() // unread, but it lets the engine compact its own queue
	now := s.Now()
	free := s.FreeProcs()
	due := sel.dueNow[:0]
	if c.minResv <= now {
		rq := c.rq.q
		for i := 0; i < len(rq); i++ {
			if c.lazy.on && i == c.lazy.next {
				i = c.lazy.end - 1 // the tail holds no reservation now
				continue
			}
			if rq[i].resv == now {
				due = append(due, rq[i])
			}
		}
	}
	sel.dueNow = due
	es := q.entries
	di, k := 0, q.first
	for free > 0 {
		k = sel.nextFit(s, k, free, now)
		if di < len(due) {
			g := &due[di]
			if k == len(q.entries) || before(g, s.Job(q.entries[k].id)) {
				j := s.Job(g.id)
				s.Start(j)
				c.leave(j)
				c.held[j.ID] = now + duration(j)
				free -= int64(j.Procs)
				di++
				continue
			}
		}
		if k == len(es) {
			break
		}
		j := s.Job(es[k].id)
		d := duration(j)
		if c.lazy.on {
			// It fits before a rebuild's tail is placed; the tail may
			// take the room.
			c.placeTail()
			sel.version++
			if sel.freeUntil(now, int64(j.Procs)) < now+d {
				k++
				continue
			}
		}
		c.profile.Reserve(now, now+d, int64(j.Procs))
		sel.version++ // the profile changed
		s.Start(j)
		q.remove(k)
		c.held[j.ID] = now + d
		free -= int64(j.Procs)
		k++
	}
}

// before reports whether the queued guaranteed job g arrived before j
// (submit time, then file order: the engine's waiting order).
func before(g *queued, j *sim.Job) bool {
	return g.submit < j.Submit || g.submit == j.Submit && g.id < j.ID
}

// nextFit returns the index of the first no-guarantee entry from k on whose
// job may start now (it is waiting without a reservation, has at most free
// processors, and fits in the profile as it stands for its estimate), or
// len(entries); entries of jobs that started or were promoted are dropped on
// the way.
func (sel *Selective) nextFit(s *sim.Sim, k int, free, now int64) int {
	q := &sel.ng
	es := q.entries
	fits := func(procs, estimate int64) bool {
		return procs <= free && sel.freeUntil(now, procs) >= now+max(estimate, 1)
	}
	for k < len(es) {
		if k%easyBlockLen == 0 {
			// Skip whole blocks whose corner does not fit.
			for b := k / easyBlockLen; b < len(q.blocks); b++ {
				m := q.blocks[b]
				// A block of gone entries only has the estimate
				// math.MaxInt64 (a job may be math.MaxInt32 wide).
				if m.minEstimate != math.MaxInt64 && fits(m.minProcs, m.minEstimate) {
					break
				}
				k = (b + 1) * easyBlockLen
			}
			if k >= len(es) {
				return len(es)
			}
		}
		e := &es[k]
		if e.gone() || !fits(int64(e.procs), e.estimate) {
			k++
			continue
		}
		j := s.Job(e.id)
		if j.State != sim.Waiting || sel.cons.resv[j.ID] >= 0 {
			q.remove(k) // started, or promoted to a reservation
			k++
			continue
		}
		return k
	}
	return len(es)
}
