package policy

// A second, deliberately simple implementation of EASY and conservative
// backfilling, written from DESIGN.md "Simulation semantics" without the engine
// or sim.Profile: plain slices, availability recomputed from scratch by
// summing over intervals. It is slow (cubic in the queue length at worst) and
// exists only to be compared with the real implementation.

import (
	"sort"
)

type refJob struct {
	submit, run, est, procs int64
}

type refSim struct {
	procs   int64
	noKill  bool
	jobs    []refJob
	start   []int64
	end     []int64 // when the run really ends
	held    []int64 // conservative: end of the interval a running job holds
	resv    []int64 // conservative: reservation of a waiting job, -1 none
	queue   []int   // waiting, arrival order
	running []int
	now     int64
}

// arrivalOrder returns the indices 0..n-1 in arrival order: by submit time
// (submit(i)), then file order. Every reference simulation walks arrivals so.
func arrivalOrder(n int, submit func(i int) int64) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return submit(order[a]) < submit(order[b]) })
	return order
}

// refRun simulates policy "easy" or "conservative" and returns start times.
func refRun(jobs []refJob, procs int64, noKill bool, policy string) []int64 {
	n := len(jobs)
	r := &refSim{procs: procs, noKill: noKill, jobs: jobs,
		start: make([]int64, n), end: make([]int64, n), held: make([]int64, n), resv: make([]int64, n)}
	for i := range r.resv {
		r.resv[i] = -1
	}
	order := arrivalOrder(n, func(i int) int64 { return jobs[i].submit })
	next, done := 0, 0
	for done < n {
		// The next time anything happens.
		t := int64(1) << 62
		if next < n {
			t = jobs[order[next]].submit
		}
		for _, k := range r.running {
			t = min(t, r.end[k])
		}
		r.now = t
		ended := false
		var still []int
		for _, k := range r.running {
			if r.end[k] == t {
				ended = true
				done++
			} else {
				still = append(still, k)
			}
		}
		r.running = still
		var arrived []int
		for next < n && jobs[order[next]].submit == t {
			arrived = append(arrived, order[next])
			r.queue = append(r.queue, order[next])
			next++
		}
		if policy == "easy" {
			r.easy()
		} else {
			r.conservative(ended, arrived)
		}
	}
	return r.start
}

func (r *refSim) startJob(k int) {
	j := r.jobs[k]
	run := j.run
	if !r.noKill && run > j.est {
		run = j.est
	}
	r.start[k] = r.now
	r.end[k] = r.now + run
	r.held[k] = r.now + max(j.est, 1)
	r.running = append(r.running, k)
	for i, q := range r.queue {
		if q == k {
			r.queue = append(r.queue[:i:i], r.queue[i+1:]...)
			return
		}
	}
	panic("not queued")
}

func (r *refSim) free() int64 {
	f := r.procs
	for _, k := range r.running {
		f -= r.jobs[k].procs
	}
	return f
}

// expectedEnd: start + estimate, or now+1 once that has passed.
func (r *refSim) expectedEnd(k int) int64 { return max(r.start[k]+r.jobs[k].est, r.now+1) }

func (r *refSim) easy() {
	for len(r.queue) > 0 && r.jobs[r.queue[0]].procs <= r.free() {
		r.startJob(r.queue[0])
	}
	if len(r.queue) == 0 {
		return
	}
	head := r.jobs[r.queue[0]]
	// The shadow time: the first expected end after which enough are free.
	var times []int64
	for _, k := range r.running {
		times = append(times, r.expectedEnd(k))
	}
	sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
	freeAfter := func(t int64) int64 {
		f := r.procs
		for _, k := range r.running {
			if r.expectedEnd(k) > t {
				f -= r.jobs[k].procs
			}
		}
		return f
	}
	var shadow int64 = -1
	for _, t := range times {
		if freeAfter(t) >= head.procs {
			shadow = t
			break
		}
	}
	extra := freeAfter(shadow) - head.procs
	for _, k := range append([]int(nil), r.queue[1:]...) {
		j := r.jobs[k]
		if j.procs > r.free() {
			continue
		}
		if r.now+j.est <= shadow {
			r.startJob(k)
		} else if j.procs <= extra {
			r.startJob(k)
			extra -= j.procs
		}
	}
}

type interval struct{ from, to, procs int64 }

// freeAt is the machine minus every interval covering t.
func freeAt(ivs []interval, procs, t int64) int64 {
	for _, iv := range ivs {
		if iv.from <= t && t < iv.to {
			procs -= iv.procs
		}
	}
	return procs
}

// earliest tries from and every interval end after it, in order, and checks
// the free processors at the candidate and at every interval start inside the
// window.
func earliest(ivs []interval, procs, from, d, need int64) int64 {
	cands := []int64{from}
	for _, iv := range ivs {
		if iv.to > from {
			cands = append(cands, iv.to)
		}
	}
	sort.Slice(cands, func(a, b int) bool { return cands[a] < cands[b] })
	for _, s := range cands {
		ok := freeAt(ivs, procs, s) >= need
		for _, iv := range ivs {
			if ok && iv.from > s && iv.from < s+d {
				ok = freeAt(ivs, procs, iv.from) >= need
			}
		}
		if ok {
			return s
		}
	}
	panic("no fit")
}

// intervals lists the running jobs' held intervals and the reservations of
// waiting jobs other than skip.
func (r *refSim) intervals(skip int) []interval {
	var ivs []interval
	for _, k := range r.running {
		ivs = append(ivs, interval{r.now, r.held[k], r.jobs[k].procs})
	}
	for _, k := range r.queue {
		if k != skip && r.resv[k] >= 0 {
			ivs = append(ivs, interval{r.resv[k], r.resv[k] + max(r.jobs[k].est, 1), r.jobs[k].procs})
		}
	}
	return ivs
}

func (r *refSim) place(k int) {
	j := r.jobs[k]
	r.resv[k] = earliest(r.intervals(k), r.procs, r.now, max(j.est, 1), j.procs)
}

func (r *refSim) conservative(ended bool, arrived []int) {
	overdue := false
	for _, k := range r.running {
		if r.held[k] <= r.now {
			r.held[k] = r.now + 1
			overdue = true
		}
	}
	for _, k := range r.queue {
		if r.resv[k] >= 0 && r.resv[k] < r.now {
			overdue = true // a reservation that counted on an overdue job passed
		}
	}
	switch {
	case overdue:
		// Make every reservation again in arrival order.
		var old []int
		for _, k := range r.queue {
			if r.resv[k] >= 0 {
				old = append(old, k)
				r.resv[k] = -1
			}
		}
		for _, k := range old {
			r.place(k)
		}
	case ended:
		for _, k := range r.queue {
			if r.resv[k] >= 0 {
				before := r.resv[k]
				r.place(k)
				if r.resv[k] > before {
					panic("compression moved a job later")
				}
			}
		}
	}
	for _, k := range arrived {
		r.place(k)
	}
	for _, k := range append([]int(nil), r.queue...) {
		if r.resv[k] == r.now {
			r.startJob(k)
			r.resv[k] = -1
		}
	}
}
