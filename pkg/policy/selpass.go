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
// The no-guarantee queue holds every job that arrived and has neither
// started nor been promoted: a pass removes the jobs it starts, and a
// promotion drops its job at once (easyQueue.drop).
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
		if di < len(due) && (k == len(es) || before(&due[di], s.Job(es[k].id))) {
			j := s.Job(due[di].id)
			sel.startReserved(s, j)
			free -= int64(j.Procs)
			di++
			continue
		}
		if k == len(es) {
			break
		}
		// nextFit found room without a rebuild's tail; roomNow places
		// a waiting tail and asks again.
		if j := s.Job(es[k].id); sel.roomNow(now, int64(j.Procs), duration(j)) {
			sel.startUnreserved(s, j)
			q.remove(k)
			free -= int64(j.Procs)
		}
		k++
	}
}

// before reports whether the queued guaranteed job g arrived before j
// (submit time, then file order: the engine's waiting order).
func before(g *queued, j *sim.Job) bool {
	return g.submit < j.Submit || g.submit == j.Submit && g.id < j.ID
}

// nextFit returns the index of the first no-guarantee entry from k on whose
// job may start now (it has at most free processors and fits in the profile
// as it stands for its estimate), or len(entries).
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
		// A guard: the jobs in the queue are waiting without a
		// reservation (pass removes those it starts, a promotion drops
		// its job), so this drops nothing.
		j := s.Job(e.id)
		if j.State != sim.Waiting || sel.cons.resv[j.ID] >= 0 {
			q.remove(k)
			k++
			continue
		}
		return k
	}
	return len(es)
}
