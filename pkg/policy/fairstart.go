package policy

import (
	"cmp"
	"slices"

	"github.com/swfkit/swfkit/pkg/sim"
)

// FairStarts returns every job's fair-start time, indexed like jobs:
// Srinivasan, Kettimuthu, Subramani & Sadayappan (JSSPP 2002), section 5, "the
// earliest possible start time the job would have received under
// FCFS-Conservative if the scheduling strategy were suddenly changed to strict
// FCFS-NoBackfill at the instant the job arrived".
//
// It runs conservative backfilling (conservative.go) over a copy of jobs with
// cfg, whatever policy the caller simulates. When a job arrives (after the
// round's ends and the arrivals before it in file order, before the round's
// scheduling pass), the waiting jobs up to and including it are started in
// arrival order without backfilling: each at the earliest time, no earlier
// than the previous one's start, at which enough processors are free. Running
// and hypothetical jobs end when they really would (their runtime, cut at the
// estimate unless cfg.NoKill), so the fair start is what strict FCFS would
// really have given; with exact estimates this is the paper's definition.
// jobs is not modified.
func FairStarts(cfg sim.Config, jobs []sim.Job) ([]int64, error) {
	cp := append([]sim.Job(nil), jobs...)
	for i := range cp {
		cp[i].Tokens = nil
	}
	_, fair, err := ConservativeFairStarts(cfg, cp)
	return fair, err
}

// ConservativeStarts runs conservative backfilling (conservative.go) over
// jobs with cfg and returns every job's start: the run FairStarts and
// selective's auto thresholds need, for a caller that makes it once for both
// (FairStartsOf, ResearchParams.ConservativeStarts). It runs over jobs
// themselves, not over a copy, so that a large trace is not held twice:
// their input fields (Procs to Estimate, and Tokens) are not modified, ID
// becomes the index, and the fields the engine owns are left as that run set
// them (sim.New sets them again).
func ConservativeStarts(cfg sim.Config, jobs []sim.Job) ([]int64, error) {
	s, err := sim.New(cfg, jobs)
	if err != nil {
		return nil, err
	}
	if err := s.Run(NewConservative(len(jobs))); err != nil {
		return nil, err
	}
	start := make([]int64, len(jobs))
	for i := range jobs {
		start[i] = jobs[i].Start
	}
	return start, nil
}

// ConservativeFairStarts is ConservativeStarts and FairStartsOf made at once:
// the strict-FCFS plays run in a second goroutine as the conservative run's
// starts come (a play at an arrival needs only the starts before it), so on
// two processors they cost little more wall time than the run alone. It
// runs over jobs themselves, as ConservativeStarts does, and gives the same
// starts and fair starts as the two in turn.
func ConservativeFairStarts(cfg sim.Config, jobs []sim.Job) (start, fair []int64, err error) {
	s, err := sim.New(cfg, jobs)
	if err != nil {
		return nil, nil, err
	}
	c := NewConservative(len(jobs))
	feed := newStartStream(len(jobs))
	c.started = feed.started
	go feed.produce(s, c)
	// The plays read only the jobs' input fields, which the run does not
	// write (sim.New above wrote its fields before the run began).
	fair = fairStartsFed(cfg, jobs, feed.start, feed)
	if err := feed.wait(); err != nil {
		return nil, nil, err
	}
	start = feed.start
	for i := range jobs {
		start[i] = jobs[i].Start // as ConservativeStarts returns them
	}
	return start, fair, nil
}

// FairStartsOf is FairStarts given start, every job's start under conservative
// backfilling with cfg (as FairStarts would simulate it): it replays that
// schedule's arrivals, starts and ends, and plays strict FCFS at each arrival.
// It reads only the jobs' Submit, Procs, Runtime and Estimate.
func FairStartsOf(cfg sim.Config, jobs []sim.Job, start []int64) []int64 {
	return fairStartsFed(cfg, jobs, start, newStartList(start))
}

// startFeed gives a conservative schedule's starts in time order.
type startFeed interface {
	// before returns the jobs that start before t and were not returned
	// yet, once their starts (and every start before t) are in the start
	// array the feed fills; t never decreases between calls.
	before(t int64) []int32
}

// startList is the feed of a finished schedule.
type startList struct {
	start   []int64
	byStart []int32
	next    int
}

func newStartList(start []int64) *startList {
	byStart := make([]int32, len(start))
	for i := range byStart {
		byStart[i] = int32(i)
	}
	slices.SortFunc(byStart, func(a, b int32) int { return cmp.Compare(start[a], start[b]) })
	return &startList{start: start, byStart: byStart}
}

func (l *startList) before(t int64) []int32 {
	k := l.next
	for k < len(l.byStart) && l.start[l.byStart[k]] < t {
		k++
	}
	out := l.byStart[l.next:k]
	l.next = k
	return out
}

// fairStartsFed is FairStartsOf with the starts from feed, which fills start.
func fairStartsFed(cfg sim.Config, jobs []sim.Job, start []int64, feed startFeed) []int64 {
	n := len(jobs)
	fair := make([]int64, n)
	if n == 0 {
		return fair
	}
	// The engine's arrival order: submit time, then file order.
	byArrival := make([]int32, n)
	for i := range byArrival {
		byArrival[i] = int32(i)
	}
	slices.SortStableFunc(byArrival, func(a, b int32) int { return cmp.Compare(jobs[a].Submit, jobs[b].Submit) })

	p := &fcfsPlay{free: cfg.Procs, start: start}
	for a := 0; a < n; {
		now := jobs[byArrival[a]].Submit
		// The state when the round's arrivals come: every start of an
		// earlier round made, every end due by now taken.
		started := feed.before(now)
		for _, i := range started {
			j := &jobs[i]
			if end := start[i] + realRun(cfg, j); end > now {
				p.running.push(release{end: end, procs: int64(j.Procs)})
				p.free -= int64(j.Procs)
			}
		}
		for len(p.running) > 0 && p.running[0].end <= now {
			p.free += p.running.pop().procs
		}
		if len(started) > 0 || (len(p.queue) > 0 && p.queue[0].at < now) {
			p.reconcile(now, len(started))
		}
		for ; a < n && jobs[byArrival[a]].Submit == now; a++ {
			i := byArrival[a]
			j := &jobs[i]
			fair[i] = p.add(now, played{id: i, run: realRun(cfg, j), procs: int64(j.Procs)})
		}
	}
	return fair
}

type release struct{ end, procs int64 }

// releaseHeap is a binary min-heap of processor releases by time, typed (no
// interface calls: the fair-start plays are heap-bound). Releases of equal
// times may come out in any order: the plays only add up the processors
// released by a time.
type releaseHeap []release

func (h releaseHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *releaseHeap) push(r release) {
	*h = append(*h, r)
	h.up(len(*h)-1, r)
}

// pop removes and returns the earliest release. The hole it leaves at the
// root goes down along the earlier child to a leaf, and the last release
// goes up from there into it (Floyd's bottom-up heap: one comparison a
// level on the way down instead of two, as the last release, among the
// latest, mostly belongs near the leaves anyway; docs/swfsim.md, round 20).
func (h *releaseHeap) pop() release {
	old := *h
	r := old[0]
	n := len(old) - 1
	last := old[n]
	*h = old[:n]
	if n == 0 {
		return r
	}
	hh := old[:n]
	i := 0
	for {
		j := 2*i + 1
		if j >= n {
			break
		}
		if j+1 < n && hh[j+1].end < hh[j].end {
			j++
		}
		hh[i] = hh[j]
		i = j
	}
	hh.up(i, last)
	return r
}

// up puts r into the hole at index j, or above it: the releases on the way
// up that end after r move down into the hole.
func (h releaseHeap) up(j int, r release) {
	for j > 0 {
		i := (j - 1) / 2 // parent
		if !(r.end < h[i].end) {
			break
		}
		h[j] = h[i]
		j = i
	}
	h[j] = r
}

// down sifts element i0 down (init).
func (h releaseHeap) down(i0 int) {
	n := len(h)
	i := i0
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 {
			break
		}
		j := j1 // left child
		if j2 := j1 + 1; j2 < n && h[j2].end < h[j1].end {
			j = j2 // right child
		}
		if !(h[j].end < h[i].end) {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

// realRun is how long j runs once started (without preemption): its runtime,
// cut at its estimate unless cfg.NoKill.
func realRun(cfg sim.Config, j *sim.Job) int64 {
	if !cfg.NoKill && j.Runtime > j.Estimate {
		return j.Estimate
	}
	return j.Runtime
}
