package policy

// fcfsPlay is the strict-FCFS play behind the fair starts (fairstart.go): the
// waiting jobs in arrival order, each started at the earliest time, no earlier
// than the previous one's start, at which enough processors are free, with
// running and played jobs ending at their real ends.
//
// A play from scratch at every arrival costs the whole queue each time. Most
// arrivals change nothing before them, so the play is kept and only its
// changed part is played again: reconcile finds the first job whose played
// start can have changed since the last arrival (d), keeps every start
// before d, and plays again from d on a state rebuilt from the kept starts.
// A played start T_k of job k (p_k processors) is the earliest time from
// T_{k-1} on with p_k processors free once the jobs before k have started.
// Between two arrivals the only changes are:
//   - time passed: a play from now starts nothing before now, so a job whose
//     played start is before now moves (d is at most its position);
//   - jobs started (conservative's schedule): a started job x leaves the
//     queue and holds its processors from its real start S_x for its run.
//     Jobs after x saw x played at T_x: if S_x = T_x they see the same
//     processors taken and keep their starts, otherwise d is at most the
//     first of them. Jobs before x did not see x at all and now lose p_x
//     processors over [S_x, S_x+run_x): as the processors free at any time can
//     only be fewer, job k keeps T_k exactly when p_k processors are still
//     free at T_k, that is when its slack (processors free at T_k once k
//     started) is at least the p_x of the started jobs after k whose run
//     covers T_k (S_x <= now <= T_k, so those with S_x+run_x > T_k);
//   - jobs ended: each at its real end, where the play already released it.
//
// Arrivals come at the end of the queue and change nothing before them. The
// slack kept is a lower bound (lowered by what the started jobs took; with
// more than maxWindows started jobs ahead, by all their processors), so the
// test may play again a job that would have kept its start, never the
// reverse. A play from scratch (a test's oracle) gives the same starts.
type fcfsPlay struct {
	queue []played // the waiting jobs in arrival order, with their played starts

	// start is every job's start in conservative's schedule, by job index,
	// as far as known: sim.Never for a job not started yet (FairStartsOf
	// knows them all; a play fed by a running simulation learns them as they
	// come, and always before the arrival they precede).
	start []int64

	running releaseHeap // the running jobs (their real ends), as of now
	free    int64       // processors free now

	// The play's state after its last job, valid while live: its time, the
	// processors free then and the releases still to come.
	live bool
	t    int64
	left int64
	rel  releaseHeap

	windows []played // scratch for reconcile: the jobs started since the last arrival
}

// played is a job in the play.
type played struct {
	id    int32 // the job's index (fcfsPlay.start)
	run   int64 // its real run
	procs int64
	at    int64 // its start in the play
	slack int64 // processors free at at once it started (a lower bound)
}

// add appends a job arrived at now to the play and returns its played start.
func (p *fcfsPlay) add(now int64, j played) int64 {
	if !p.live {
		if len(p.queue) == 0 && j.procs <= p.free {
			// Alone in the queue and fits: it would start now. The state after
			// it is built when another job comes.
			j.at, j.slack = now, p.free-j.procs
			p.queue = append(p.queue, j)
			return now
		}
		p.rebuild(now, len(p.queue))
	}
	p.place(&j)
	p.queue = append(p.queue, j)
	return j.at
}

// place starts j in the play at the earliest time, no earlier than the play's
// last start, at which enough processors are free.
func (p *fcfsPlay) place(j *played) {
	for p.left < j.procs {
		r := p.rel.pop()
		p.t = max(p.t, r.end)
		p.left += r.procs
	}
	// Count every release due by t, so that the slack is exact (j's own
	// release is not one of them, even when it runs 0 s).
	for len(p.rel) > 0 && p.rel[0].end <= p.t {
		p.left += p.rel.pop().procs
	}
	p.left -= j.procs
	j.at, j.slack = p.t, p.left
	p.rel.push(release{end: p.t + j.run, procs: j.procs})
}

// rebuild makes the play's state after its first d jobs, whose played starts
// stand, and plays the rest again.
func (p *fcfsPlay) rebuild(now int64, d int) {
	t := now
	if d > 0 {
		t = max(t, p.queue[d-1].at)
	}
	p.rel = append(p.rel[:0], p.running...) // a heap already
	p.left = p.free
	for i := range p.queue[:d] {
		j := &p.queue[i]
		if end := j.at + j.run; end > t {
			p.rel.push(release{end: end, procs: j.procs})
			p.left -= j.procs
		}
	}
	p.t, p.live = t, true
	for i := d; i < len(p.queue); i++ {
		p.place(&p.queue[i])
	}
}

// maxWindows bounds the exact slack test: with more started jobs still
// ahead, a job keeps its start only if its slack covers all of them.
const maxWindows = 32

// reconcile brings the play to now, after started jobs (those whose start is
// before now) and time passing: it drops the started jobs and plays again from
// the first job whose start can have changed (see fcfsPlay).
func (p *fcfsPlay) reconcile(now int64, started int) {
	q := p.queue
	// The started jobs, by position in the queue.
	w := p.windows[:0]
	for i := 0; i < len(q) && len(w) < started; i++ {
		if p.start[q[i].id] < now {
			j := q[i]
			j.slack = int64(i) // its position, for the test below
			w = append(w, j)
		}
	}
	p.windows = w
	// d: the first kept job whose start can change; kept: how many kept
	// jobs come before position i.
	d := -1
	moved := false // a started job before i left its played start
	var ahead int64
	for _, x := range w {
		ahead += x.procs
	}
	kept, next := 0, 0
	for i := range q {
		if next < len(w) && int64(i) == w[next].slack {
			x := &w[next]
			next++
			ahead -= x.procs
			if p.start[x.id] != x.at {
				moved = true
			}
			continue
		}
		if d >= 0 {
			q[kept] = q[i]
			kept++
			continue
		}
		j := &q[i]
		switch {
		case j.at < now || moved:
			d = kept
			d = kept
		case ahead > 0:
			need := ahead
			if len(w)-next <= maxWindows {
				need = 0
				for _, x := range w[next:] {
					if p.start[x.id]+x.run > j.at {
						need += x.procs
					}
				}
			}
			if j.slack < need {
				d = kept
			} else {
				j.slack -= need
			}
		}
		q[kept] = q[i]
		kept++
	}
	clear(q[kept:])
	p.queue = q[:kept]
	if d < 0 {
		d = kept
		if p.live && !moved {
			// Every start stands and every started job holds its processors
			// when the play had it hold them: the play's state is still right.
			p.t = max(p.t, now)
			return
		}
	}
	p.live = false
	if d > 0 || len(p.queue) > 0 {
		p.rebuild(now, d)
	}
}
