package ga

import "sort"

// UtilityFunc is a job's utility as a function of its turnaround time in
// seconds (pkg/utility's *Func satisfies it). Value must not allocate and
// must be safe for concurrent use.
type UtilityFunc interface {
	Value(turnaround float64) float64
}

// PlanJob is one job whose place in the schedule an ordering decides.
type PlanJob struct {
	Submit   int64       // submit time, s
	Procs    int         // processors, >= 1
	Estimate int64       // requested time if started at or after Plan.Now, s (>= 0)
	Utility  UtilityFunc // evaluated at completion - Submit; nil counts 0

	// Running marks a running job that the checkpoint-aware scheduler may
	// keep or bump. If the ordering's schedule starts it at Now it keeps
	// running and completes at RunningEnd (its requested end; Bonus is
	// added to its utility: the --boost damping); otherwise it is bumped
	// and restarts later for Estimate seconds (the restart estimate).
	Running    bool
	RunningEnd int64
	Bonus      float64
}

// Release is a running job that keeps running: its processors come back at
// End (its requested end).
type Release struct {
	End   int64
	Procs int
}

// Plan turns orderings of Jobs into schedules and scores them: it is the GA
// schedulers' Fitness. How an ordering becomes a schedule:
//
//  1. Time starts at Now with Free idle processors; jobs in Running release
//     their processors at their End. Only requested times are used: a job
//     started at t holds its processors until t + Estimate, exactly.
//  2. At each time t (Now, then each distinct release time in turn) one
//     EASY pass runs over the jobs not yet started, in the ordering's order:
//     jobs are started from the head while they fit; then the head that does
//     not fit gets a reservation at the shadow time S, the earliest release
//     time at which enough processors are free for it (all releases at
//     exactly S count, so the extra processors are those free at S beyond
//     the head's need); then each later job in order is started at t if it
//     fits in the idle processors and either ends by S or needs no more
//     than the remaining extra processors (which it then consumes).
//  3. No further jobs arrive: the schedule extends until every job has
//     started (the thesis's "foreseeable future").
//  4. The fitness is the sum over Jobs of Utility(start + duration - Submit)
//     (+ Bonus for kept running jobs), where duration is Estimate, or
//     RunningEnd - Now for a running job kept at Now.
//
// The jobs the pass at Now starts are exactly what EASY over that ordering
// starts now (StartsNow), so the fitness scores the decision it implies
// under the assumptions that estimates are exact and nothing else arrives.
//
// Fill the exported fields, then call Prepare before the first Fitness call;
// a Plan may be reused for the next decision by refilling and re-preparing
// it, which reuses its scratch.
type Plan struct {
	Now int64
	// Free is the processors idle at Now, not counting those that running
	// candidates (PlanJob.Running) hold: the plan counts those as idle
	// too, so that a candidate the pass at Now starts takes its own back
	// (kept) and one it does not start leaves them to the others (bumped).
	// Running lists only the jobs that keep running whatever the ordering.
	Free    int
	Running []Release
	Jobs    []PlanJob

	scratch []planScratch
}

type planScratch struct {
	ends  []Release
	queue []int
}

// Prepare sorts Running by End and sizes the per-worker scratch for workers
// concurrent evaluators. It panics if a job can never fit.
func (p *Plan) Prepare(workers int) {
	sort.Slice(p.Running, func(i, j int) bool { return p.Running[i].End < p.Running[j].End })
	capacity := p.Free
	for _, r := range p.Running {
		capacity += r.Procs
	}
	for _, j := range p.Jobs {
		if j.Running {
			capacity += j.Procs
		}
	}
	for _, j := range p.Jobs {
		if j.Procs < 1 || j.Procs > capacity || j.Estimate < 0 {
			panic("ga: plan job cannot be scheduled")
		}
	}
	if workers < 1 {
		workers = 1
	}
	for len(p.scratch) < workers {
		p.scratch = append(p.scratch, planScratch{})
	}
	need := len(p.Running) + len(p.Jobs)
	for i := range p.scratch {
		sc := &p.scratch[i]
		if cap(sc.ends) < need {
			sc.ends = make([]Release, 0, need)
		}
		if cap(sc.queue) < len(p.Jobs) {
			sc.queue = make([]int, 0, len(p.Jobs))
		}
	}
}

// Fitness implements Fitness: the aggregate utility of the schedule of
// order. It does not allocate.
func (p *Plan) Fitness(worker int, order []int) float64 {
	total, _ := p.schedule(&p.scratch[worker], order, nil, false, nil)
	return total
}

// StartsNow appends to dst the jobs (indices into Jobs) that the EASY pass
// at Now starts for order, in start order.
func (p *Plan) StartsNow(order []int, dst []int) []int {
	_, dst = p.schedule(&p.scratch[0], order, dst, true, nil)
	return dst
}

// Completions writes each job's planned completion time for order into
// done (len(Jobs)) and returns the fitness.
func (p *Plan) Completions(order []int, done []int64) float64 {
	total, _ := p.schedule(&p.scratch[0], order, nil, false, done)
	return total
}

// schedule builds the schedule of order (see Plan). It returns the
// aggregate utility; with nowOnly it stops after the pass at Now and returns
// the jobs started then appended to started. done, if not nil, receives
// completion times.
func (p *Plan) schedule(sc *planScratch, order []int, started []int, nowOnly bool, done []int64) (float64, []int) {
	if len(order) != len(p.Jobs) {
		panic("ga: ordering length differs from the plan's jobs")
	}
	ends := append(sc.ends[:0], p.Running...)
	head := 0 // ends[head:] are still running, sorted by End
	queue := append(sc.queue[:0], order...)
	free := p.Free
	for _, j := range p.Jobs {
		if j.Running {
			free += j.Procs
		}
	}
	t := p.Now
	first := true // the pass at Now, where running candidates may be kept
	minRemaining := 0
	var total float64
	start := func(k int) {
		j := &p.Jobs[k]
		end := t + j.Estimate
		u := 0.0
		if j.Running && first {
			end = j.RunningEnd
			if end < t {
				end = t
			}
			u = j.Bonus
		}
		if j.Utility != nil {
			u += j.Utility.Value(float64(end - j.Submit))
		}
		total += u
		if done != nil {
			done[k] = end
		}
		free -= j.Procs
		// insert keeping ends[head:] sorted; equal ends keep start order
		ends = append(ends, Release{})
		i := len(ends) - 1
		for i > head && ends[i-1].End > end {
			ends[i] = ends[i-1]
			i--
		}
		ends[i] = Release{End: end, Procs: j.Procs}
		if nowOnly {
			started = append(started, k)
		}
	}
	for {
		// Start from the head while jobs fit.
		n := 0
		for n < len(queue) && p.Jobs[queue[n]].Procs <= free {
			start(queue[n])
			n++
		}
		queue = queue[n:]
		if len(queue) == 0 {
			break
		}
		// minRemaining is a lower bound on the processors of any job left
		// (jobs only leave), so a pass with fewer idle ones starts nothing.
		if free > 0 && free >= minRemaining {
			queue, minRemaining = p.backfill(queue, ends[head:], free, t, first, minRemaining, start)
		}
		if nowOnly {
			break
		}
		if head == len(ends) {
			panic("ga: plan cannot make progress")
		}
		first = false
		// Advance to the next release time.
		t = ends[head].End
		for head < len(ends) && ends[head].End == t {
			free += ends[head].Procs
			head++
		}
	}
	return total, started
}

// backfill is the EASY part of a pass at t: queue[0] does not fit; it gets
// the shadow time, then later jobs start if they do not delay it. It returns
// the queue without the started jobs (compacted in place) and the fewest
// processors a job left in it needs (a lower bound: once no processor is
// idle the rest of the queue is kept unscanned, bounded by minBefore, the
// bound for the whole queue before this pass).
func (p *Plan) backfill(queue []int, running []Release, free int, t int64, first bool, minBefore int, start func(int)) ([]int, int) {
	need := p.Jobs[queue[0]].Procs
	avail := free
	shadow := int64(-1)
	for i := 0; i < len(running); i++ {
		avail += running[i].Procs
		if avail >= need {
			shadow = running[i].End
			for i+1 < len(running) && running[i+1].End == shadow {
				i++
				avail += running[i].Procs
			}
			break
		}
	}
	if shadow < 0 {
		panic("ga: plan job larger than the machine")
	}
	extra := avail - need
	minProcs := need
	w := 1
	for r := 1; r < len(queue); r++ {
		if free == 0 {
			w += copy(queue[w:], queue[r:])
			minProcs = min(minProcs, minBefore)
			break
		}
		k := queue[r]
		j := &p.Jobs[k]
		if j.Procs <= free {
			end := t + j.Estimate
			if j.Running && first {
				end = j.RunningEnd
			}
			if end <= shadow {
				start(k)
				free -= j.Procs
				continue
			}
			if j.Procs <= extra {
				start(k)
				free -= j.Procs
				extra -= j.Procs
				continue
			}
		}
		queue[w] = k
		w++
		minProcs = min(minProcs, j.Procs)
	}
	return queue[:w], minProcs
}
