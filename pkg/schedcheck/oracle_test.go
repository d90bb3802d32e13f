package schedcheck

import (
	"math/rand"
	"sort"
	"testing"
)

// earliestFitSlow is the first oracle: the step function of the live
// intervals rebuilt from scratch for one query.
func earliestFitSlow(live []job, procs, t, d, need int64) int64 {
	type ev struct{ t, d int64 }
	evs := []ev{{t, 0}}
	for _, l := range live {
		evs = append(evs, ev{max(l.start, t), -l.procs}, ev{l.end, l.procs})
	}
	sort.Slice(evs, func(x, y int) bool { return evs[x].t < evs[y].t })
	var times, free []int64
	f := procs
	for i := 0; i < len(evs); {
		at := evs[i].t
		for ; i < len(evs) && evs[i].t == at; i++ {
			f += evs[i].d
		}
		times = append(times, at)
		free = append(free, f)
	}
	for i := range times {
		ok := true
		for k := i; k < len(times) && times[k] < times[i]+d; k++ {
			if free[k] < need {
				ok = false
				break
			}
		}
		if ok {
			return times[i]
		}
	}
	panic("no fit")
}

// The tree oracle gives the slow oracle's answer for every job of random
// feasible schedules, whatever their order of arrival.
func TestFreeTreeMatchesSlowOracle(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := range 300 {
		const procs = 16
		n := 1 + rng.Intn(60)
		// A feasible schedule: jobs placed one by one at random times
		// where they fit under the slow oracle's view of all of them.
		var jobs []job
		for i := range n {
			submit := int64(rng.Intn(200))
			d := int64(1 + rng.Intn(40))
			p := int64(1 + rng.Intn(procs))
			start := earliestFitSlow(jobs, procs, submit+int64(rng.Intn(30)), d, p)
			jobs = append(jobs, job{in: i, submit: submit, start: start, end: start + d, procs: p, estimate: d})
		}
		sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].submit < jobs[b].submit })
		var times []int64
		for _, j := range jobs {
			times = append(times, j.submit, j.start, j.end)
		}
		tree := newFreeTree(times, procs)
		var live []job
		for _, j := range jobs {
			w := live[:0]
			for _, l := range live {
				if l.end > j.submit {
					w = append(w, l)
				}
			}
			live = w
			want := earliestFitSlow(live, procs, j.submit, j.estimate, j.procs)
			if got := tree.earliestFit(j.submit, j.estimate, j.procs); got != want {
				t.Fatalf("round %d, job %d (submit %d, %d s, %d procs): tree %d, slow oracle %d", round, j.in, j.submit, j.estimate, j.procs, got, want)
			}
			live = append(live, j)
			tree.add(j.start, j.end, -j.procs)
		}
	}
}
