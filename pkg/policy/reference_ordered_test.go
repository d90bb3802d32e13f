package policy

// A second, deliberately simple implementation of the ordered EASY policies
// (sjf, lxf, lxfw, priofifo) and of the EASY++ family (sjbf, easy-p, easy++),
// written only from docs/swfsim.md ("Simulation semantics", "Policies"),
// docs/swfsim-research.md ("EASY++ family") and DESIGN.md, without the engine,
// sim.Profile or the policies' own files: plain slices, the order, the shadow
// time and the extra processors recomputed from scratch in every pass. It is
// slow and exists only to be compared with the real implementation
// (reference_ordered_compare_test.go).
//
// The documented semantics it follows:
//   - A pass orders the waiting jobs by the policy's key, ties by submit time,
//     then file order; starts jobs in that order while they fit; the first
//     that does not is the head. Its shadow time is the first expected end of
//     a running job after which enough processors are free; extra = free at
//     the shadow time beyond the head's need (a job ending exactly at the
//     shadow counts). Each later job that fits now starts if now + its
//     estimate (prediction) <= shadow, or if it fits in what is left of extra.
//   - A running job's expected end is start + estimate (prediction), or
//     now + 1 once that has passed (--no-kill).
//   - sjf: estimate ascending. lxf: (wait + e) / e descending, e = max(estimate, 1).
//     lxfw: that + w * wait / 3600 descending. priofifo: class rank (the
//     --priority-order list, then unlisted queues by number, -1 last unless
//     listed), FIFO within.
//   - sjbf, easy-p, easy++: arrival order; predictions made at submission
//     (estimate; exact = the runtime the job will run; last2, lastk:K = the
//     average of the user's last 2 or K ended runtimes, the estimate while
//     there are fewer or the user is -1), capped at the estimate, at least
//     1 s unless the estimate is 0; a timer at a running job's predicted end
//     raises the prediction if the job still runs (ends first): to the
//     estimate, to twice the elapsed time (double) or to the next rung above
//     it (ladder), capped at the estimate; sjbf and easy++ try the jobs after
//     the head shortest prediction first, ties in arrival order.
//   - token (reference_predict_test.go): the job's pred= value, the estimate
//     without one, capped and floored as the others; --repredict: when a job
//     ends, its user's waiting jobs are predicted again from the history.
//
// Where the documents leave a choice open, this follows what the real code
// chose (the comparisons found it; they fail on the other choice): averages
// rounded down to whole seconds; exact under --no-kill is the real runtime,
// past the estimate (pkg/predict's doc says so, docs/swfsim-research.md does
// not); with --priority-order, an unlisted queue -1 comes after every other
// unlisted queue (the output's Note says so, docs/swfsim.md's table does not).

import (
	"slices"
	"sort"
)

type ordRefJob struct {
	refJob
	queue, user int64
}

// ordRefConfig names the policy and its parameters.
type ordRefConfig struct {
	policy    string  // sjf, lxf, lxfw, priofifo, sjbf, easy-p, easy++
	weight    float64 // lxfw: per hour of wait
	order     []int64 // priofifo: highest first; nil = ascending, -1 last
	predictor string  // sjbf, easy-p, easy++: estimate, exact, last2, last3, token
	corrector string  // "" or estimate, double, ladder
	ladder    []int64 // the ladder corrector's rungs
	tokens    []int64 // token: each job's pred= value, -1 for none (reference_predict_test.go)
	repredict bool    // last2, last3: a user's waiting jobs predicted again when one of the user's jobs ends
}

func (c ordRefConfig) predictive() bool {
	return c.policy == "sjbf" || c.policy == "easy-p" || c.policy == "easy++"
}

type ordRefSim struct {
	cfg     ordRefConfig
	procs   int64
	noKill  bool
	jobs    []ordRefJob
	start   []int64
	end     []int64           // when the run really ends
	pred    []int64           // the scheduler's idea of the runtime: estimate or prediction
	queue   []int             // waiting, arrival order
	running []int             // start order
	history map[int64][]int64 // runtimes of each user's ended jobs, in end order
	now     int64
}

// ordRefRun simulates jobs under cfg and returns the start times.
func ordRefRun(jobs []ordRefJob, procs int64, noKill bool, cfg ordRefConfig) []int64 {
	n := len(jobs)
	r := &ordRefSim{cfg: cfg, procs: procs, noKill: noKill, jobs: jobs,
		start: make([]int64, n), end: make([]int64, n), pred: make([]int64, n),
		history: map[int64][]int64{}}
	arrival := arrivalOrder(n, func(i int) int64 { return jobs[i].submit })
	next, done := 0, 0
	for done < n {
		t := int64(1) << 62
		if next < n {
			t = jobs[arrival[next]].submit
		}
		for _, k := range r.running {
			t = min(t, r.end[k])
			if r.timer(k) {
				t = min(t, r.start[k]+r.pred[k])
			}
		}
		r.now = t
		var still []int
		var endedUsers map[int64]bool // --repredict: users with a job ended now
		if r.cfg.repredict {
			endedUsers = map[int64]bool{}
		}
		for _, k := range r.running {
			if r.end[k] == t {
				done++
				r.history[jobs[k].user] = append(r.history[jobs[k].user], r.end[k]-r.start[k])
				if endedUsers != nil {
					endedUsers[jobs[k].user] = true
				}
			} else {
				still = append(still, k)
			}
		}
		r.running = still
		if r.cfg.repredict {
			// A fresh prediction depends only on the user's history, so
			// predicting once after all of the round's ends equals predicting
			// after each.
			for _, k := range r.queue {
				if endedUsers[jobs[k].user] {
					r.pred[k] = r.predict(k)
				}
			}
		}
		for _, k := range r.running {
			if r.timer(k) && r.start[k]+r.pred[k] == t {
				r.pred[k] = r.correct(k)
			}
		}
		for next < n && jobs[arrival[next]].submit == t {
			k := arrival[next]
			r.queue = append(r.queue, k)
			r.pred[k] = r.predict(k)
			next++
		}
		r.pass()
	}
	return r.start
}

// timer says whether a correction is pending at k's predicted end.
func (r *ordRefSim) timer(k int) bool {
	return r.cfg.predictive() && r.pred[k] < r.jobs[k].est
}

func (r *ordRefSim) predict(k int) int64 {
	j := r.jobs[k]
	p := j.est
	switch r.cfg.predictor {
	case "exact":
		p = j.run
	case "token":
		if g := r.cfg.tokens[k]; g >= 0 {
			p = g
		}
	case "last2", "last3":
		k := 2
		if r.cfg.predictor == "last3" {
			k = 3
		}
		if h := r.history[j.user]; j.user >= 0 && len(h) >= k {
			var sum int64
			for _, x := range h[len(h)-k:] {
				sum += x
			}
			p = sum / int64(k) // rounded down
		}
	}
	// exact under --no-kill is the runtime the job will run, past its
	// estimate too (pkg/predict's doc; docs/swfsim-research.md does not say).
	if r.cfg.predictor != "exact" || !r.noKill {
		p = min(p, j.est)
	}
	if j.est > 0 {
		p = max(p, 1)
	}
	return p
}

// correct is k's prediction raised at its predicted end, k still running.
func (r *ordRefSim) correct(k int) int64 {
	est, elapsed := r.jobs[k].est, r.now-r.start[k]
	switch r.cfg.corrector {
	case "double":
		return min(2*elapsed, est)
	case "ladder":
		for _, rung := range r.cfg.ladder {
			if rung > elapsed {
				return min(rung, est)
			}
		}
	}
	return est
}

func (r *ordRefSim) startJob(k int) {
	j := r.jobs[k]
	run := j.run
	if !r.noKill && run > j.est {
		run = j.est
	}
	r.start[k] = r.now
	r.end[k] = r.now + run
	r.running = append(r.running, k)
	i := slices.Index(r.queue, k)
	if i < 0 {
		panic("not queued")
	}
	r.queue = slices.Delete(r.queue, i, i+1)
}

func (r *ordRefSim) free() int64 {
	f := r.procs
	for _, k := range r.running {
		f -= r.jobs[k].procs
	}
	return f
}

func (r *ordRefSim) expectedEnd(k int) int64 { return max(r.start[k]+r.pred[k], r.now+1) }

// rank is priofifo's class rank of queue q: smaller is higher priority.
func (r *ordRefSim) rank(q int64) (int, int64) {
	if i := slices.Index(r.cfg.order, q); i >= 0 {
		return i, 0
	}
	if q < 0 {
		return len(r.cfg.order) + 1, 0
	}
	return len(r.cfg.order), q
}

// priority is lxf's and lxfw's key of waiting job k now: larger first.
func (r *ordRefSim) priority(k int) float64 {
	j := r.jobs[k]
	e := max(j.est, 1)
	xf := float64(r.now-j.submit+e) / float64(e)
	if r.cfg.policy == "lxf" {
		return xf
	}
	return xf + r.cfg.weight*float64(r.now-j.submit)/3600
}

// before says whether waiting job a comes before b in the policy's order;
// prio holds each waiting job's priority (lxf, lxfw).
func (r *ordRefSim) before(a, b int, prio map[int]float64) bool {
	ja, jb := r.jobs[a], r.jobs[b]
	switch r.cfg.policy {
	case "sjf":
		if ja.est != jb.est {
			return ja.est < jb.est
		}
	case "lxf", "lxfw":
		if prio[a] != prio[b] {
			return prio[a] > prio[b]
		}
	case "priofifo":
		ra, qa := r.rank(ja.queue)
		rb, qb := r.rank(jb.queue)
		if ra != rb {
			return ra < rb
		}
		if qa != qb {
			return qa < qb
		}
	}
	if ja.submit != jb.submit {
		return ja.submit < jb.submit
	}
	return a < b
}

func (r *ordRefSim) pass() {
	order := slices.Clone(r.queue)
	prio := map[int]float64{}
	if r.cfg.policy == "lxf" || r.cfg.policy == "lxfw" {
		for _, k := range order {
			prio[k] = r.priority(k)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return r.before(order[a], order[b], prio) })
	free := r.free()
	i := 0
	for i < len(order) && r.jobs[order[i]].procs <= free {
		r.startJob(order[i])
		free -= r.jobs[order[i]].procs
		i++
	}
	if i == len(order) {
		return
	}
	head := r.jobs[order[i]]
	rest := order[i+1:]
	if r.cfg.policy == "sjbf" || r.cfg.policy == "easy++" {
		sort.SliceStable(rest, func(a, b int) bool { return r.pred[rest[a]] < r.pred[rest[b]] })
	}
	// The shadow time: the first expected end after which enough are free.
	ends := slices.Clone(r.running)
	slices.SortFunc(ends, func(a, b int) int { return int(r.expectedEnd(a) - r.expectedEnd(b)) })
	shadow, freed := int64(-1), free
	for x, k := range ends {
		freed += r.jobs[k].procs
		last := x+1 == len(ends) || r.expectedEnd(ends[x+1]) > r.expectedEnd(k)
		if last && freed >= head.procs {
			shadow = r.expectedEnd(k)
			break
		}
	}
	freeAfter := func(t int64) int64 {
		f := r.procs
		for _, k := range r.running {
			if r.expectedEnd(k) > t {
				f -= r.jobs[k].procs
			}
		}
		return f
	}
	extra := freeAfter(shadow) - head.procs
	for _, k := range rest {
		j := r.jobs[k]
		if j.procs > free {
			continue
		}
		if r.now+r.pred[k] <= shadow {
			r.startJob(k)
			free -= j.procs
		} else if j.procs <= extra {
			r.startJob(k)
			free -= j.procs
			extra -= j.procs
		}
	}
}
