package policy

import (
	"math"
	"sort"

	"github.com/swfkit/swfkit/pkg/sim"
)

// easyQueue is EASY's own copy of the waiting queue, in the engine's arrival
// order (submit time, then file order), holding per job only what a pass
// tests: its processors and estimate, 16 bytes side by side.
//
// Why: on RICC-2010-2 EASY's backfill scan visits 530 million queue entries
// in 270,000 passes, half of them narrow enough to fit but too long for the
// shadow time. Over s.Waiting() each visit follows a pointer to a 120-byte
// sim.Job and takes an unpredictable branch; here it reads the next 16 bytes
// and decides with one sign test (see pass), the branch taken only to start
// a job. The decisions, and so the schedule, are easyPass's exactly.
//
// Entries leave the queue when EASY starts their job (they are marked gone
// and compacted away lazily, as the engine's queue is). A job someone else
// started (a wrapper such as pkg/price's pinFirst) is dropped when a pass
// first meets it, and a job back in the queue after a run limit or a
// preemption is put back at its arrival place, so the copy holds every
// waiting job whatever drives the engine.
type easyQueue struct {
	run     *sim.Sim    // the simulation the queue belongs to
	entries []easyEntry // arrival order; gone entries included; see first
	first   int         // entries[:first] are gone (left at the front)
	gone    int         // gone entries in entries[first:]
	blocks  []easyBlock // a summary of every easyBlockLen entries
	queued  []bool      // by job ID: has an entry that is not gone
}

type easyEntry struct {
	estimate int64 // math.MaxInt64 when gone
	procs    int32 // goneProcs when gone
	id       int32 // kept when gone, so that entries stay in arrival order
}

// easyBlock bounds from below the processors and estimates of the entries
// easyBlockLen*b to easyBlockLen*(b+1)-1, so that a pass can skip all of
// them with one test. On RICC-2010-2, 97% of the blocks a pass meets hold
// no job that may start (their shortest estimate passes the shadow time).
type easyBlock struct {
	minProcs, minEstimate int64
}

const easyBlockLen = 32

// goneProcs marks an entry whose job left the queue, with estimate
// math.MaxInt64: no backfilling pass starts it, since such a pass has fewer
// than the machine's processors free (the head does not fit) and the machine
// has at most math.MaxInt32. A job of math.MaxInt32 processors is not gone:
// estimates stay within swfkit's time bound (gone).
const goneProcs = math.MaxInt32

// gone reports whether the entry's job left the queue.
func (e *easyEntry) gone() bool { return e.estimate == math.MaxInt64 && e.procs == goneProcs }

// bind empties the queue when s is another simulation than the last one.
func (q *easyQueue) bind(s *sim.Sim) {
	if q.run == s {
		return
	}
	q.run = s
	q.entries, q.blocks = q.entries[:0], q.blocks[:0]
	q.first, q.gone = 0, 0
	q.queued = make([]bool, s.NumJobs())
}

func (q *easyQueue) arrived(s *sim.Sim, j *sim.Job) {
	q.bind(s)
	k := len(q.entries)
	q.entries = append(q.entries, easyEntry{estimate: j.Estimate, procs: j.Procs, id: j.ID})
	q.queued[j.ID] = true
	if k%easyBlockLen == 0 {
		q.blocks = append(q.blocks, easyBlock{minProcs: int64(j.Procs), minEstimate: j.Estimate})
		return
	}
	b := &q.blocks[k/easyBlockLen]
	b.minProcs = min(b.minProcs, int64(j.Procs))
	b.minEstimate = min(b.minEstimate, j.Estimate)
}

// ended puts a job that is waiting again back at its arrival place.
func (q *easyQueue) ended(s *sim.Sim, j *sim.Job) {
	q.bind(s)
	if j.State != sim.Waiting || q.queued[j.ID] {
		return
	}
	i := q.after(s, j)
	q.entries = append(q.entries, easyEntry{})
	copy(q.entries[i+1:], q.entries[i:])
	q.entries[i] = easyEntry{estimate: j.Estimate, procs: j.Procs, id: j.ID}
	q.queued[j.ID] = true
	q.summarize(i)
}

// drop marks the entry of a job that left the queue other than by a pass
// over it (selective: promoted to a reservation, or started by one) gone,
// so that a queue whose passes skip its block still sheds it.
func (q *easyQueue) drop(s *sim.Sim, j *sim.Job) {
	q.bind(s)
	if !q.queued[j.ID] {
		return
	}
	if i := q.after(s, j) - 1; i >= q.first && q.entries[i].id == j.ID && !q.entries[i].gone() {
		q.remove(i)
	}
}

// after returns the index of the first entry from q.first on whose job
// arrived after j (submit time, then file order).
func (q *easyQueue) after(s *sim.Sim, j *sim.Job) int {
	es := q.entries[q.first:]
	return q.first + sort.Search(len(es), func(k int) bool {
		o := s.Job(es[k].id)
		return o.Submit > j.Submit || (o.Submit == j.Submit && o.ID > j.ID)
	})
}

// summarize recomputes the block summaries from entry k's block on.
func (q *easyQueue) summarize(k int) {
	nb := (len(q.entries) + easyBlockLen - 1) / easyBlockLen
	q.blocks = q.blocks[:min(len(q.blocks), nb)]
	for len(q.blocks) < nb {
		q.blocks = append(q.blocks, easyBlock{})
	}
	for b := k / easyBlockLen; b < nb; b++ {
		m := easyBlock{minProcs: goneProcs, minEstimate: math.MaxInt64}
		for _, e := range q.entries[b*easyBlockLen : min((b+1)*easyBlockLen, len(q.entries))] {
			m.minProcs = min(m.minProcs, int64(e.procs))
			m.minEstimate = min(m.minEstimate, e.estimate)
		}
		q.blocks[b] = m
	}
}

// remove marks entry k gone and tightens its block's summary.
func (q *easyQueue) remove(k int) {
	e := &q.entries[k]
	q.queued[e.id] = false
	e.procs, e.estimate = goneProcs, math.MaxInt64
	q.gone++
	b := k / easyBlockLen
	m := easyBlock{minProcs: goneProcs, minEstimate: math.MaxInt64}
	for _, e := range q.entries[b*easyBlockLen : min((b+1)*easyBlockLen, len(q.entries))] {
		m.minProcs = min(m.minProcs, int64(e.procs))
		m.minEstimate = min(m.minEstimate, e.estimate)
	}
	q.blocks[b] = m
}

// compact moves past gone entries at the front, and drops all gone entries
// once they are at least half the queue: O(1) amortized per start.
func (q *easyQueue) compact() {
	for q.first < len(q.entries) && q.entries[q.first].gone() {
		q.first++
		q.gone--
	}
	if q.first+q.gone > 0 && 2*(q.first+q.gone) >= len(q.entries) {
		kept := q.entries[:0]
		for _, e := range q.entries[q.first:] {
			if !e.gone() {
				kept = append(kept, e)
			}
		}
		q.entries = kept
		q.first, q.gone = 0, 0
		q.summarize(0)
	}
}

// pass is easyPass (backfill.go) over the queue: the same starts in the same
// order.
func (q *easyQueue) pass(s *sim.Sim) {
	q.bind(s)
	defer q.compact()
	s.Waiting() // unread, but it lets the engine compact its own queue
	free := s.FreeProcs()
	es := q.entries
	i := q.first
	for ; i < len(es); i++ {
		if es[i].gone() {
			continue
		}
		j := s.Job(es[i].id)
		if j.State != sim.Waiting {
			q.remove(i) // started by someone else
			continue
		}
		if int64(j.Procs) > free {
			break
		}
		s.Start(j)
		q.remove(i)
		free -= int64(j.Procs)
	}
	if i >= len(es) || free < s.MinWaitingProcs() {
		return // nothing waiting fits in what is free
	}
	shadow, extra := ShadowTime(s, int64(es[i].procs))
	horizon := shadow - s.Now() // a job this short ends by the shadow time
	minProcs := s.MinWaitingProcs()
	for k := i + 1; ; k++ {
		k = q.nextBackfill(k, free, horizon, extra)
		if k == len(es) {
			return
		}
		e := &es[k]
		p := int64(e.procs)
		j := s.Job(e.id)
		if j.State != sim.Waiting {
			q.remove(k)
			continue
		}
		long := e.estimate > horizon
		s.Start(j)
		q.remove(k)
		free -= p
		if long {
			extra -= p // it runs past the shadow time on the extra processors
		}
		if free < minProcs {
			return
		}
	}
}

// nextBackfill returns the index of the first entry from k on that may
// start: p <= free, and estimate <= horizon or p <= extra; len(entries) if
// none. Each comparison is the sign of a difference (the operands stay far
// from overflow: times below sim.MaxHorizon, counts below 2^31), so one sign
// test decides an entry, or a whole block from its summary.
func (q *easyQueue) nextBackfill(k int, free, horizon, extra int64) int {
	es := q.entries
	for ; k < len(es) && k%easyBlockLen != 0; k++ {
		if backfillSign(int64(es[k].procs), es[k].estimate, free, horizon, extra) >= 0 {
			return k
		}
	}
	for b := k / easyBlockLen; b < len(q.blocks); b++ {
		m := q.blocks[b]
		if backfillSign(m.minProcs, m.minEstimate, free, horizon, extra) < 0 {
			continue
		}
		for k = b * easyBlockLen; k < min((b+1)*easyBlockLen, len(es)); k++ {
			if backfillSign(int64(es[k].procs), es[k].estimate, free, horizon, extra) >= 0 {
				return k
			}
		}
	}
	return len(es)
}

// backfillSign is negative when a job of procs processors and this estimate
// cannot start, or when no job of a block whose smallest counts these are can.
func backfillSign(procs, estimate, free, horizon, extra int64) int64 {
	return (free - procs) | ((horizon - estimate) & (extra - procs))
}
