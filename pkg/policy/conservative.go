package policy

import (
	"math"

	"github.com/swfkit/swfkit/pkg/sim"
)

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
// its estimate, or a reservation that counted on such a job has passed, the
// profile is rebuilt from the running jobs and every reservation is made again
// in arrival order, which may move it later. Without --no-kill this never
// happens (Rebuilds stays 0).
type Conservative struct {
	sim.Base
	profile *sim.Profile
	// resv is per job ID the reservation start of a waiting job, or -1:
	// nil unless trackResv asked for it (selective reservation reads it),
	// so that a compression's moves write only the queue.
	resv    []int64
	held    []int64 // per job ID: end of the profile interval a running job holds
	arrived []*sim.Job
	freed   bool // a job ended before the end it held in the profile
	moved   bool // the last compression moved a job
	// freedEnd is the latest held end released early in this round; movedEnd
	// the latest old-slot end of a job the last compression moved.
	freedEnd, movedEnd int64
	proofs             []proof   // compress: starts proven not to fit, by job shape
	ended              bool      // a job ended in this round
	hint               int       // compress: profile index of the last step looked up
	rq                 resvQueue // the waiting jobs that hold a reservation
	// minResv is at most the earliest reservation of a waiting job, so
	// Schedule walks the queue to start jobs only when it may be now.
	minResv   int64
	lastProof int       // compress: index of the proof added or updated last
	prevProof int       // compress: the lastProof before it
	chain     moveChain // compress: moves not applied to the profile yet (chain.go)
	// cutFrom: a move whose old start is at least cutFrom weakens no proof
	// (weakenProofs), so settle need not walk them.
	cutFrom int64
	naive   bool       // tests: compress after every round with ends, no pruning
	holds   []sim.Hold // rebuild: the running jobs' holds
	fits    noFits     // rebuild: starts proven not to fit, by job shape

	// greedy: every reservation is where a rebuild would put it now, the
	// last rebuild's or placed after it at the end of the queue, and no
	// capacity came free since (rebuild).
	greedy bool

	// started, when not nil, is told of every job this policy starts
	// (ConservativeFairStarts' plays follow the run through it).
	started func(j *sim.Job)

	// Rebuilds counts rounds that rebuild the schedule (only with NoKill);
	// Reused counts those of them that found it unchanged (rebuild).
	Rebuilds, Reused int
	// Placed counts the jobs the rebuilds placed, TailPlaced those of them
	// placed later as a rebuild's lazy tail (lazytail.go); RebuildKinds
	// tells the rebuilds that were not reused apart.
	Placed, TailPlaced int
	RebuildKinds       RebuildCounts
	// Compressions counts what the compressions did.
	Compressions CompressCounts

	lazy lazyTail // a rebuild's tail not placed yet (lazytail.go)

	// watch, when not nil, is told of every move and every compression
	// (BenchmarkRICCCascades counts where the moves are); nil in a run.
	watch compressWatcher

	// due: what a compression at dueAt saw of the queue's first dueLen
	// entries, so that Schedule need not walk them again in the same
	// round: the first entries of the runs whose reservation is now, in
	// queue order, and the earliest reservation after now (dueMin).
	due           []int32
	dueAt, dueMin int64
	dueLen        int
}

// compressWatcher follows conservative's compressions, for the speed notes
// of docs/swfsim.md.
type compressWatcher interface {
	// moved: m jobs of procs processors and duration dur moved from old to t.
	moved(procs, dur, old, t int64, m int)
	// compressed: a compression at now, over a queue of waiting jobs,
	// made moves moves (runs of jobs moved together).
	compressed(now int64, waiting, moves int)
}

// CompressCounts counts the work of conservative's compressions, for the
// speed notes of docs/swfsim.md (BenchmarkRICCConservativeCounts).
type CompressCounts struct {
	Runs       int   // compressions
	Moving     int   // compressions that moved a job
	Visits     int   // looks at the first job of a run of equal waiting jobs (settle)
	Proven     int   // looks settled by the proofs, without a search
	Searched   int   // looks that searched the profile and found no earlier start
	Moves      int   // runs of jobs moved together
	ShortMoves int   // moves by 7 s or less
	SameShift  int   // moves by as many seconds as the move before them in the walk
	Chained    int   // moves that extended a chain (chain.go): not applied one by one
	Flushes    int   // chains applied to the profile, one Profile.Move each: Moves-Chained
	MovedBy    int64 // seconds moved, summed over the moves
}

// RebuildCounts counts the --no-kill rebuilds that remade some of the
// schedule (rebuild.go), for the speed notes of docs/swfsim.md.
type RebuildCounts struct {
	// Fronts counts rebuilds that kept the front of a greedy schedule
	// (keepFront), FrontKept the jobs they kept, FrontPlaced the jobs they
	// placed then (their lazy tails not included).
	Fronts, FrontKept, FrontPlaced int
	// Fresh counts rebuilds from the running jobs alone (capacity came
	// free, or the schedule was compressed, since the last one), and
	// FreshPlaced the jobs they placed then.
	Fresh, FreshPlaced int
}

// NewConservative returns conservative backfilling for n jobs.
func NewConservative(n int) *Conservative {
	c := &Conservative{held: make([]int64, n), minResv: sim.Never, dueAt: -1}
	c.rq.minProcs, c.rq.lastLeft = sim.Never, -1
	return c
}

// trackResv makes c keep resv, every job's reservation by job ID; call it
// before the run.
func (c *Conservative) trackResv() {
	c.resv = make([]int64, len(c.held))
	for i := range c.resv {
		c.resv[i] = -1
	}
}

// setResv records job id's reservation start (-1: none) in resv, when kept.
func (c *Conservative) setResv(id int32, t int64) {
	if c.resv != nil {
		c.resv[id] = t
	}
}

// proof records, during one compression, that a job of procs processors and
// duration dur found no start before until (its profile then lacking only its
// own reservation). A tight proof also knows that every window before until
// is blocked at a time before until: until was the job's earliest start, so
// a window that reaches until is blocked before it (from until on the job's
// window fits).
type proof struct {
	procs, dur, until int64
	tight             bool
}

// from returns the time before which the proof shows that no start fits a
// job it dominates, reserved at own: every start before until when the
// proof is tight and until is not after own (the blocking times are all
// before own's slot), else the starts whose window of dur ends by own.
func (pr *proof) from(own int64) int64 {
	if pr.tight && pr.until <= own {
		return pr.until
	}
	return min(pr.until, own-pr.dur+1)
}

// cutFrom returns the earliest old start of a moved job that leaves the
// proof as it is (weakenProofs): its until, when it is tight, else until +
// dur - 1 (every window before until then ends by that start).
func (pr *proof) cutFrom() int64 {
	if pr.tight {
		return pr.until
	}
	return pr.until + pr.dur - 1
}

// maxProofs bounds the proofs kept, so a lookup stays cheap.
const maxProofs = 8

// provenFor returns a time before which no start fits a job of procs and dur
// reserved at own, from the proofs of jobs it dominates: a proof of (p', d')
// with p' <= procs and d' <= dur says every window of d' starting before its
// until holds a time with fewer than p' free, and where that time is not in
// this job's own slot it blocks this job too (proof.from).
func (c *Conservative) provenFor(procs, dur, own int64) int64 {
	// The proof of the job visited last usually settles it (a bag of equal
	// jobs queues in a row). Where it applies but leaves a search to do,
	// the other proofs rarely do better, so the scan is kept for the jobs
	// it does not apply to: the searches it would have saved or shortened
	// cost less than the scans (docs/swfsim.md, round 19).
	if i := c.lastProof; i < len(c.proofs) {
		if pr := &c.proofs[i]; pr.procs <= procs && pr.dur <= dur {
			return pr.from(own)
		}
	}
	return c.provenScan(procs, dur, own)
}

// provenScan is provenFor over every proof.
func (c *Conservative) provenScan(procs, dur, own int64) int64 {
	best := int64(math.MinInt64)
	for i := range c.proofs {
		if pr := &c.proofs[i]; pr.procs <= procs && pr.dur <= dur {
			best = max(best, pr.from(own))
		}
	}
	return best
}

// addProof records that start is the earliest start of a settled job of
// procs and dur: a tight proof (weakenProofs may loosen it later).
func (c *Conservative) addProof(procs, dur, start, now int64) {
	if start <= now {
		return // says nothing
	}
	pr := proof{procs: procs, dur: dur, until: start, tight: true}
	c.cutFrom = max(c.cutFrom, pr.cutFrom())
	if i := c.lastProof; i < len(c.proofs) && c.proofs[i].procs == procs && c.proofs[i].dur == dur {
		c.proofs[i] = pr
		return
	}
	// Two bags queued in turn alternate between two proofs.
	if i := c.prevProof; i < len(c.proofs) && c.proofs[i].procs == procs && c.proofs[i].dur == dur {
		c.proofs[i] = pr
		c.prevProof, c.lastProof = c.lastProof, i
		return
	}
	c.prevProof = c.lastProof
	c.addProofScan(pr)
}

// addProofScan is addProof for a proof of another shape than the last.
func (c *Conservative) addProofScan(pr proof) {
	for i := range c.proofs {
		if c.proofs[i].procs == pr.procs && c.proofs[i].dur == pr.dur {
			c.proofs[i] = pr
			c.lastProof = i
			return
		}
	}
	if len(c.proofs) < maxProofs {
		c.lastProof = len(c.proofs)
		c.proofs = append(c.proofs, pr)
		return
	}
	weakest := 0
	for i := range c.proofs {
		if c.proofs[i].until < c.proofs[weakest].until {
			weakest = i
		}
	}
	c.proofs[weakest] = pr
	c.lastProof = weakest
}

// weakenProofs keeps the proofs true after a job left its slot starting at
// old for an earlier one: only times from old on gained free processors, so
// a window that ends by old still holds the time that blocked it.
// Proofs that no longer reach past now say nothing and are dropped.
func (c *Conservative) weakenProofs(old, now int64) {
	k := 0
	c.cutFrom = math.MinInt64
	for _, pr := range c.proofs {
		if !pr.tight || old < pr.until {
			// Windows that end by old keep a blocking time before it.
			pr.until, pr.tight = min(pr.until, old-pr.dur+1), false
			if pr.until <= now {
				continue
			}
		} // else every blocking time is before until, so before old.
		c.proofs[k] = pr
		k++
		c.cutFrom = max(c.cutFrom, pr.cutFrom())
	}
	c.proofs = c.proofs[:k]
}

// leave records that a waiting job with a reservation started.
func (c *Conservative) leave(j *sim.Job) {
	c.setResv(j.ID, -1)
	c.rq.leave(j)
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
	c.ended = true
	if c.lazy.on {
		// The profile stays as the rebuild left it until its tail is
		// placed (lazytail.go); the release waits.
		c.lazy.endAt = s.Now()
	} else {
		c.profile.Advance(s.Now())
	}
	if c.held[j.ID] > s.Now() {
		if c.lazy.on {
			c.lazy.ends = append(c.lazy.ends, keptEnd{c.held[j.ID], int64(j.Procs)})
		} else {
			c.profile.Release(s.Now(), c.held[j.ID], int64(j.Procs))
		}
		c.freed, c.greedy = true, false
		c.freedEnd = max(c.freedEnd, c.held[j.ID])
	}
	if j.State == sim.Waiting { // back in the queue (run limit, preemption): reinsert
		c.arrived = append(c.arrived, j)
	}
}

// maintain brings the reservations up to date at the start of a pass (also
// selective reservation's): the profile moves to now, a rebuild follows
// overdue jobs (--no-kill), and otherwise a round with ends compresses
// (DESIGN.md). The compression is a no-op, and is skipped, unless capacity
// came free in this round or the last compression moved a job (whose old slot
// may now suit a job before it in arrival order).
func (c *Conservative) maintain(s *sim.Sim) {
	c.ensureProfile(s)
	over, procs := c.overdue(s)
	if !over {
		c.placeTail() // a rebuild's tail, before the profile moves on
	}
	c.profile.Advance(s.Now())
	if over || c.stale(s) {
		c.rebuild(s, procs)
	} else if c.ended && (c.naive || c.freed || c.moved) {
		c.moved = false
		c.greedy = false
		c.compress(s)
	}
	c.freed, c.ended = false, false
}

func (c *Conservative) ensureProfile(s *sim.Sim) {
	if c.profile == nil {
		c.profile = sim.NewProfile(s.Procs(), s.Now())
	}
}

// Schedule compresses if a job ended, inserts the round's arrivals and starts
// the jobs whose reservation is now.
func (c *Conservative) Schedule(s *sim.Sim) {
	c.maintain(s)
	now := s.Now()
	for _, j := range c.arrived {
		if j.State == sim.Waiting {
			c.reserve(j, now)
		}
	}
	clear(c.arrived)
	c.arrived = c.arrived[:0]
	due := c.dueAt == now
	c.dueAt = -1 // used once
	if c.minResv > now {
		return // no reservation is now: the queue need not be walked
	}
	c.minResv = sim.Never
	rq := &c.rq
	if !rq.grouped || 4*rq.left > len(rq.q) {
		c.placeTail() // the regroup moves its entries
		rq.regroup()  // also drops left entries when no compression does
		due = false
	}
	q := rq.q
	from := 0
	if due {
		// This round's compression walked the first dueLen entries: start
		// the runs it found due, and walk only the arrivals queued since.
		for _, h := range c.due {
			c.startRun(s, int(h), now)
		}
		c.minResv, from = c.dueMin, c.dueLen
	}
	for h := from; h < len(q); h += int(q[h].run) {
		switch r := q[h].resv; {
		case r < 0:
			// left
		case r == now:
			c.startRun(s, h, now)
		case r < now:
			panic("policy: conservative reservation in the past")
		default:
			c.minResv = min(c.minResv, r)
		}
	}
}

// startRun starts the run of waiting jobs whose first entry is q[h], whose
// reservation is now.
func (c *Conservative) startRun(s *sim.Sim, h int, now int64) {
	q := c.rq.q
	n := int(q[h].run)
	for i := h; i < h+n; i++ {
		e := &q[i]
		j := s.Job(e.id)
		s.Start(j)
		if c.started != nil {
			c.started(j)
		}
		e.resv = -1
		c.setResv(e.id, -1)
		c.held[e.id] = now + e.dur
	}
	c.rq.started(h, n)
}

// reserve gives a waiting job its reservation and queues it.
func (c *Conservative) reserve(j *sim.Job, now int64) {
	if c.lazyReserve(j, now) {
		return
	}
	c.placeTail()
	if !c.rq.add(j, c.place(j, now)) {
		c.greedy = false // a rebuild would have placed it before others
	}
}

// place reserves the earliest start for j in the profile and returns it.
func (c *Conservative) place(j *sim.Job, now int64) int64 {
	d, p := duration(j), int64(j.Procs)
	t := c.profile.EarliestFit(now, d, p)
	c.profile.Reserve(t, t+d, p)
	c.setResv(j.ID, t)
	c.minResv = min(c.minResv, t)
	return t
}

// compress re-inserts every waiting job, in arrival order, at its earliest
// feasible start.
//
// Pruning (exact: TestConservativePruningExact compares with the plain
// version): a job can only move into a window that gained capacity since it
// was last placed, and capacity is gained only where a job ended before its
// held end (this round) or where a moved job left its old slot (in this or the
// previous compression). So a job can move only to a start before gainEnd, the
// latest end of those gains. If the profile step just before the job's slot
// has too few processors free for it, every start whose window reaches that
// step is blocked too. A job that stays keeps its reservation without touching
// the profile (EarliestFitMoving). Jobs share proofs: once a job A is
// settled, no start before its new or kept start t_A fits A (starts before
// gainEnd were searched or proven, later ones pruned as above), and every
// window of A before t_A is blocked at a time before t_A (one that reaches
// t_A overlaps A's fitting window from t_A on, which does not block it). A
// later job B at least as wide and as long sees the same profile except that
// A's slot is taken and B's is free, so when t_A is not after B's own
// reservation no start of B before t_A fits, and otherwise every window of B
// whose first d_A seconds end by B's reservation holds a time that blocked A
// and blocks B; B's search starts after those (proof.from). A move frees
// capacity only from the moved job's old start on, so it cuts each proof back
// to the windows that end by then (a proof whose blocking times are all
// before it stays whole).
// Last, the queue is walked run by run (resvQueue), each run of equal jobs
// settled at once (settle).
func (c *Conservative) compress(s *sim.Sim) {
	if c.naive {
		c.compressNaive(s)
		return
	}
	rq := &c.rq
	if !rq.grouped || 4*rq.left > len(rq.q) {
		rq.regroup()
	}
	ps := pass{now: s.Now(), gainEnd: max(c.freedEnd, c.movedEnd), hint: c.hint}
	moves := c.Compressions.Moves
	c.proofs = c.proofs[:0]
	c.cutFrom = math.MinInt64
	q := rq.q
	// prev is the first entry of the last waiting run settled when it ends
	// where the next run starts: equal neighbours are merged into one run
	// for the next walks.
	prev := -1
	// The runs due now and the earliest later reservation, for Schedule.
	due, dueMin := c.due[:0], sim.Never
	for h := 0; h < len(q); {
		n := int(q[h].run)
		if q[h].resv < 0 {
			// Left runs in a row become one, hopped at once next time.
			for h+n < len(q) && q[h+n].resv < 0 {
				n += int(q[h+n].run)
			}
			q[h].run = int32(n)
			h += n
			prev = -1
			continue
		}
		last := c.settle(q[h:h+n], &ps)
		x := h // the first run of the settled ones not merged into prev
		if prev >= 0 && same(&q[prev], &q[h]) {
			q[prev].run += q[h].run
			x += int(q[h].run)
			if last == 0 {
				last = prev - h
			}
		}
		for ; x < h+n; x += int(q[x].run) {
			if r := q[x].resv; r == ps.now {
				due = append(due, int32(x))
			} else {
				dueMin = min(dueMin, r)
			}
		}
		prev = h + last
		h += n
	}
	c.flushChain()
	c.due, c.dueMin, c.dueLen, c.dueAt = due, dueMin, len(q), ps.now
	c.hint = ps.hint
	c.movedEnd = ps.movedEnd
	c.freedEnd = 0
	c.Compressions.Runs++
	if c.Compressions.Moves > moves {
		c.Compressions.Moving++
	}
	if c.watch != nil {
		c.watch.compressed(ps.now, len(q)-rq.left, c.Compressions.Moves-moves)
	}
}

// pass is the state of one compression.
type pass struct {
	now, gainEnd int64
	movedEnd     int64 // latest old-slot end of a job moved in this pass
	hint         int   // profile index of the last step looked up
	lastShift    int64 // seconds the last move moved by (CompressCounts)
}

// settle re-inserts a run of equal waiting jobs (same estimate, width and
// reservation), in arrival order. Taken one by one they move to
// non-decreasing starts: the profile the next one sees before the run's
// reservation is the one the last one saw, less the last one's new slot. So
// when one stays the rest stay, and when one can move to t every one that fits
// beside it at t (Profile.MinFree) moves with it, as one move: one
// Profile.Move, made when the chain it starts or extends ends (chain.go). The
// moved parts become runs of their own; settle returns the offset of the
// first entry of the last one.
func (c *Conservative) settle(run []queued, ps *pass) int {
	old, d, p := run[0].resv, run[0].dur, int64(run[0].procs)
	lo := ps.now // no start before lo fits the next job
	off, last := 0, 0
	for off < len(run) {
		c.Compressions.Visits++
		bound := min(old, ps.gainEnd)
		if bound <= lo {
			break // no earlier start exists or can have come free
		}
		var t int64
		m := 0
		if c.chain.on {
			// The start the chain's last job left is usually this job's
			// earliest (chain.go).
			if t, m = c.extendChain(old, d, p, lo, bound, len(run)-off, ps); m > 0 {
				c.Compressions.Chained++
			} else {
				c.flushChain()
			}
		}
		if m == 0 {
			// The step just before the job's slot: if it is too full for
			// the job, every start whose window reaches into it is blocked,
			// so only starts before search can fit. This settles most
			// visits.
			search := bound
			k, st, free := c.profile.StepAt(old-1, ps.hint)
			ps.hint = k
			if free < p {
				search = min(search, st-d+1)
			}
			// proven: no start before it fits this job (see the proofs above).
			proven := lo
			if search > lo {
				proven = max(lo, c.provenFor(p, d, old))
			}
			t = old
			if proven < search {
				t = c.profile.EarliestFitMoving(proven, d, p, old, search, k)
				if t >= old {
					c.Compressions.Searched++
				}
			} else {
				c.Compressions.Proven++
			}
			if t >= old {
				c.addProof(p, d, old, ps.now)
				break
			}
			m = 1
			if rest := len(run) - off; rest > 1 {
				m = int(min(int64(rest), c.profile.MinFree(t, min(t+d, old))/p))
			}
			// The move starts a chain; the profile sees it when the chain
			// ends.
			c.chain = moveChain{on: true, to: t, from: old, dur: d, procs: p, width: int64(m) * p}
		}
		if c.watch != nil {
			c.watch.moved(p, d, old, t, m)
		}
		c.Compressions.Moves++
		c.Compressions.MovedBy += old - t
		if old-t <= 7 {
			c.Compressions.ShortMoves++
		}
		if old-t == ps.lastShift {
			c.Compressions.SameShift++
		}
		ps.lastShift = old - t
		if old < c.cutFrom {
			c.weakenProofs(old, ps.now)
		}
		// t was the earliest start: a tight proof for the jobs after it.
		c.addProof(p, d, t, ps.now)
		for x := off; x < off+m; x++ {
			run[x].resv = t
			c.setResv(run[x].id, t)
		}
		run[off].run = int32(m)
		last = off
		off += m
		if off < len(run) {
			run[off].run = int32(len(run) - off)
			last = off
		}
		lo = t + 1
		c.minResv = min(c.minResv, t)
		c.moved = true
		ps.movedEnd = max(ps.movedEnd, old+d)
		ps.gainEnd = max(ps.gainEnd, old+d)
	}
	return last
}

// compressNaive is compress without pruning: every waiting job is taken out
// and put back at its earliest start (tests compare the two).
func (c *Conservative) compressNaive(s *sim.Sim) {
	now := s.Now()
	c.rq.regroup() // drops left entries
	for i := range c.rq.q {
		e := &c.rq.q[i]
		old, d, p := e.resv, e.dur, int64(e.procs)
		c.profile.Release(old, old+d, p)
		t := c.profile.EarliestFit(now, d, p)
		c.profile.Reserve(t, t+d, p)
		if t > old {
			panic("policy: conservative compression moved a job later")
		}
		if t < old {
			e.resv = t
			c.setResv(e.id, t)
			c.minResv = min(c.minResv, t)
			c.moved = true
		}
	}
	c.rq.grouped = false
	c.movedEnd, c.freedEnd = 0, 0
}
