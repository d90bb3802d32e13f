package policy

// A second, deliberately simple implementation of timed-run scheduling
// (timed-fcfs, timed-easy; Thebe, Bunde & Leung 2009, section 2), written
// only from docs/swfsim-research.md ("Trial runs"), docs/swfsim.md
// ("Simulation semantics"), DESIGN.md and the paper, without the engine or
// the policy's own file: plain slices, everything (free processors, the
// trial list, the base queue, the EASY shadow time and extra processors)
// recomputed from scratch in every pass. It is slow and exists only to be
// compared with the real implementation (reference_trial_compare_test.go).
//
// The documented semantics it follows:
//   - Rounds as everywhere: ends (completions, kills at the estimate) first,
//     then arrivals, then trial ends, then one pass; a job started with
//     runtime 0 ends in a further round at the same time.
//   - A job is waiting (on the trial list if it never had a trial), in its
//     trial (start .. start+T), expired (its trial ended, it still runs and
//     may be killed), committed, or done. The base queue holds every arrived
//     job that is not committed or done, in arrival order (submit, file
//     order); a killed job keeps its place in it.
//   - Capacity seen by trials and commits: the machine minus the jobs in
//     their trial and the committed ones (expired jobs count as free).
//     Starting on processors held by expired jobs kills them, the one whose
//     trial ended longest ago first, until enough are really free; a killed
//     job goes back to waiting, restarts from the beginning with its full
//     runtime and estimate, and gets no second trial.
//   - A pass: the trial list in arrival order, every job that fits starts
//     its trial (out of order); then the base scheduler over the base queue,
//     where a job in its trial cannot start, an expired job that is picked
//     continues (its start stays the trial's start), any other job starts.
//   - FCFS: jobs in order while they can start; the first that cannot stops
//     the pass.
//   - EASY: jobs in order while they can start; the first that cannot is the
//     head. Shadow time: the first expected end of a trial or committed run
//     after which enough processors are free, no earlier than the head's
//     own trial end if it is in its trial; extra = free at the shadow time
//     beyond the head's need (a run ending exactly at the shadow counts).
//     Expected ends: a trial at start + min(T, estimate), a committed run at
//     start + estimate, now + 1 once passed (--no-kill). A later job that
//     can start does if its expected end is by the shadow time or it fits
//     in what is left of extra.
//   - trial=W on every job that had a trial: W = trial start - submit. The
//     output start is the start of the run that finishes. The counts of the
//     Note (TimedStats) are kept too: trials, ends within a trial, ends after
//     it before being needed, continued runs, kills and the
//     processor-seconds they lost.
//
// Where the documents leave a choice open, this follows what the real code
// chose (the comparisons fail on the other choice): an expired job that EASY
// considers for backfilling is expected to end at its own start + estimate
// (not now + estimate); expired runs of equal trial end are killed in the
// order their trials started. It found two deviations of the real policy
// from its documentation, both under --no-kill only and since mended
// (TestReferenceTrialStaleTimer, TestReferenceTrialOverdueHead keep their
// cases). An expired candidate is expected to end no earlier than now + 1,
// which changes nothing, as every shadow time is later than now.

import (
	"sort"
)

const (
	trPending = iota
	trWaiting
	trInTrial
	trExpired
	trCommitted
	trDone
)

// trialRefConfig names the base scheduler and the trial length.
type trialRefConfig struct {
	base  string // "fcfs" or "easy"
	trial int64  // seconds; 0 = no trial runs

}

// trialRefStats mirrors TimedStats.
type trialRefStats struct {
	trials, finishedInTrial, finishedExtended, continued, kills, workLost int64
}

// trialRefResult is what the reference says about every job.
type trialRefResult struct {
	start, end []int64 // start of the run that finishes, its end
	killed     []bool  // killed at the estimate
	trialWait  []int64 // trial start - submit, -1 without a trial
	stats      trialRefStats
}

type trialRefSim struct {
	cfg      trialRefConfig
	procs    int64
	noKill   bool
	jobs     []refJob
	phase    []int
	hadTrial []bool
	start    []int64 // latest start
	runEnd   []int64 // when the current run really ends
	trialEnd []int64 // start of the trial + T
	trialSeq []int64 // order in which trials started (ties in trial end)
	seq      int64
	base     []int // base queue: arrived, not committed, not done; arrival order
	running  []int // in trial, expired or committed
	now      int64
	res      trialRefResult
}

func trialRefRun(jobs []refJob, procs int64, noKill bool, cfg trialRefConfig) trialRefResult {
	n := len(jobs)
	r := &trialRefSim{cfg: cfg, procs: procs, noKill: noKill, jobs: jobs,
		phase: make([]int, n), hadTrial: make([]bool, n), start: make([]int64, n),
		runEnd: make([]int64, n), trialEnd: make([]int64, n), trialSeq: make([]int64, n)}
	r.res = trialRefResult{start: make([]int64, n), end: make([]int64, n), killed: make([]bool, n), trialWait: make([]int64, n)}
	for i := range r.res.trialWait {
		r.res.trialWait[i] = -1
	}
	order := arrivalOrder(n, func(i int) int64 { return jobs[i].submit })
	next, done := 0, 0
	for done < n {
		t := int64(1) << 62
		if next < n {
			t = jobs[order[next]].submit
		}
		for _, k := range r.running {
			t = min(t, r.runEnd[k])
			if r.phase[k] == trInTrial {
				t = min(t, r.trialEnd[k])
			}
		}
		r.now = t
		var still []int
		for _, k := range r.running {
			if r.runEnd[k] != t {
				still = append(still, k)
				continue
			}
			switch r.phase[k] {
			case trInTrial:
				r.res.stats.finishedInTrial++
			case trExpired:
				r.res.stats.finishedExtended++
			}
			r.phase[k] = trDone
			r.res.start[k], r.res.end[k] = r.start[k], t
			r.res.killed[k] = t-r.start[k] < jobs[k].run
			r.removeFromBase(k)
			done++
		}
		r.running = still
		for next < n && jobs[order[next]].submit == t {
			k := order[next]
			r.phase[k] = trWaiting
			r.base = append(r.base, k)
			next++
		}
		for _, k := range r.running {
			if r.phase[k] == trInTrial && r.trialEnd[k] == t {
				r.phase[k] = trExpired
			}
		}
		r.pass()
	}
	return r.res
}

func (r *trialRefSim) removeFromBase(k int) {
	for i, q := range r.base {
		if q == k {
			r.base = append(r.base[:i:i], r.base[i+1:]...)
			return
		}
	}
}

// capacity is what trials and commits see: expired runs count as free.
func (r *trialRefSim) capacity() int64 {
	f := r.procs
	for _, k := range r.running {
		if r.phase[k] != trExpired {
			f -= r.jobs[k].procs
		}
	}
	return f
}

func (r *trialRefSim) reallyFree() int64 {
	f := r.procs
	for _, k := range r.running {
		f -= r.jobs[k].procs
	}
	return f
}

// makeRoom kills expired runs, the oldest trial end first, until need
// processors are really free.
func (r *trialRefSim) makeRoom(need int64) {
	for r.reallyFree() < need {
		victim := -1
		for _, k := range r.running {
			if r.phase[k] != trExpired {
				continue
			}
			if victim < 0 || r.trialEnd[k] < r.trialEnd[victim] ||
				r.trialEnd[k] == r.trialEnd[victim] && r.trialSeq[k] < r.trialSeq[victim] {
				victim = k
			}
		}
		if victim < 0 {
			panic("reference: no expired run to kill")
		}
		r.res.stats.kills++
		r.res.stats.workLost += r.jobs[victim].procs * (r.now - r.start[victim])
		r.phase[victim] = trWaiting
		for i, q := range r.running {
			if q == victim {
				r.running = append(r.running[:i:i], r.running[i+1:]...)
				break
			}
		}
	}
}

// run starts k's run now.
func (r *trialRefSim) run(k int) {
	j := r.jobs[k]
	r.makeRoom(j.procs)
	length := j.run
	if !r.noKill {
		length = min(length, j.est)
	}
	r.start[k] = r.now
	r.runEnd[k] = r.now + length
	r.running = append(r.running, k)
}

func (r *trialRefSim) startTrial(k int) {
	r.run(k)
	r.phase[k] = trInTrial
	r.hadTrial[k] = true
	r.trialEnd[k] = r.now + r.cfg.trial
	r.seq++
	r.trialSeq[k] = r.seq
	r.res.trialWait[k] = r.now - r.jobs[k].submit
	r.res.stats.trials++
}

func (r *trialRefSim) commit(k int) {
	if r.phase[k] == trExpired {
		r.res.stats.continued++
	} else {
		r.run(k)
	}
	r.phase[k] = trCommitted
	r.removeFromBase(k)
}

// canCommit: not in its trial, and its processors are there.
func (r *trialRefSim) canCommit(k int) bool {
	return r.phase[k] != trInTrial && r.jobs[k].procs <= r.capacity()
}

func (r *trialRefSim) pass() {
	if r.cfg.trial > 0 {
		for _, k := range append([]int(nil), r.base...) {
			if r.phase[k] == trWaiting && !r.hadTrial[k] && r.jobs[k].procs <= r.capacity() {
				r.startTrial(k)
			}
		}
	}
	for len(r.base) > 0 && r.canCommit(r.base[0]) {
		r.commit(r.base[0])
	}
	if len(r.base) == 0 || r.cfg.base == "fcfs" {
		return
	}
	r.backfill()
}

// expectedEnd of a run in its trial or committed.
func (r *trialRefSim) expectedEnd(k int) int64 {
	e := r.start[k] + r.jobs[k].est
	if r.phase[k] == trInTrial {
		e = r.start[k] + min(r.cfg.trial, r.jobs[k].est)
	}
	return max(e, r.now+1)
}

func (r *trialRefSim) backfill() {
	head := r.base[0]
	var ends []int64
	for _, k := range r.running {
		if r.phase[k] != trExpired {
			ends = append(ends, r.expectedEnd(k))
		}
	}
	sort.Slice(ends, func(a, b int) bool { return ends[a] < ends[b] })
	freeAfter := func(t int64) int64 {
		f := r.procs
		for _, k := range r.running {
			if r.phase[k] != trExpired && r.expectedEnd(k) > t {
				f -= r.jobs[k].procs
			}
		}
		return f
	}
	shadow := int64(-1)
	for _, t := range ends {
		if freeAfter(t) >= r.jobs[head].procs {
			shadow = t
			break
		}
	}
	if shadow < 0 {
		panic("reference: no shadow time")
	}
	if r.phase[head] == trInTrial {
		shadow = max(shadow, r.expectedEnd(head))
	}
	extra := freeAfter(shadow) - r.jobs[head].procs
	for _, k := range append([]int(nil), r.base[1:]...) {
		if !r.canCommit(k) {
			continue
		}
		end := r.now + r.jobs[k].est
		if r.phase[k] == trExpired {
			end = max(r.start[k]+r.jobs[k].est, r.now+1)
		}
		if end <= shadow {
			r.commit(k)
		} else if r.jobs[k].procs <= extra {
			r.commit(k)
			extra -= r.jobs[k].procs
		}
	}
}
