package policy

import "github.com/swfkit/swfkit/pkg/sim"

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
	return fairStarts(cfg, jobs, false)
}

// fairStarts is FairStarts; with replay, every arrival plays the queue from
// scratch (tests compare the two).
func fairStarts(cfg sim.Config, jobs []sim.Job, replay bool) ([]int64, error) {
	cp := append([]sim.Job(nil), jobs...)
	for i := range cp {
		cp[i].Tokens = nil
	}
	s, err := sim.New(cfg, cp)
	if err != nil {
		return nil, err
	}
	f := &fairStart{Conservative: NewConservative(len(cp)), fair: make([]int64, len(cp)), replay: replay}
	if err := s.Run(f); err != nil {
		return nil, err
	}
	return f.fair, nil
}

type fairStart struct {
	*Conservative
	fair     []int64
	releases releaseHeap
	// The strict-FCFS play of the last arrival, kept while nothing starts:
	// each arrival's play is the previous one's continued by one job (a bag
	// of a thousand equal jobs submitted at once plays the queue once, not a
	// thousand times). A job that ends does not spoil it, as the play already
	// released its processors at that very time, its real end; nor does time
	// passing while every played start is still to come (first >= now): a
	// play from now would pop the same releases in the same order. played is
	// false once a job starts (or ends other than at its real end); t is the
	// last play's start, first its first, and releases its pending releases.
	played         bool
	t, free, first int64
	replay         bool // tests: never continue a play
}

func (f *fairStart) Arrived(s *sim.Sim, j *sim.Job) {
	f.Conservative.Arrived(s, j)
	f.fair[j.ID] = f.fcfsStart(s, j)
}

func (f *fairStart) Ended(s *sim.Sim, j *sim.Job, why sim.EndReason) {
	if j.State != sim.Done || s.Now() != j.Start+realRun(s, j) {
		f.played = false
	}
	f.Conservative.Ended(s, j, why)
}

func (f *fairStart) Schedule(s *sim.Sim) {
	waiting := s.NumWaiting()
	f.Conservative.Schedule(s)
	if s.NumWaiting() != waiting {
		f.played = false // a job started
	}
}

// realRun is how long j would run if started now.
func realRun(s *sim.Sim, j *sim.Job) int64 {
	if !s.NoKill() && j.Remaining > j.Estimate {
		return j.Estimate
	}
	return j.Remaining
}

// fcfsStart plays strict FCFS from now over the waiting queue up to target.
func (f *fairStart) fcfsStart(s *sim.Sim, target *sim.Job) int64 {
	if !f.played || f.replay || f.first < s.Now() {
		if int64(target.Procs) <= s.FreeProcs() && s.NumWaiting() == 1 {
			return s.Now() // alone in the queue and fits: it would start now
		}
		f.t, f.free = s.Now(), s.FreeProcs()
		r := f.releases[:0]
		for _, j := range s.Running() {
			r = append(r, release{end: j.Start + realRun(s, j), procs: int64(j.Procs)})
		}
		f.releases = r
		f.releases.init()
		found, first := false, int64(-1)
		for _, j := range s.Waiting() {
			if j == target {
				found = true
				break
			}
			if j.State == sim.Waiting {
				if t := f.play(s, j); first < 0 {
					first = t
				}
			}
		}
		if !found {
			panic("policy: arriving job not in the waiting queue")
		}
		f.played = true
		f.first = first
	}
	// Every waiting job before target has been played; target comes next.
	t := f.play(s, target)
	if f.first < 0 {
		f.first = t
	}
	return t
}

// play starts j in the strict-FCFS play at the earliest time, no earlier
// than the play's last start, at which enough processors are free, and
// returns that time.
func (f *fairStart) play(s *sim.Sim, j *sim.Job) int64 {
	p := int64(j.Procs)
	for f.free < p {
		rel := f.releases.pop()
		f.t = max(f.t, rel.end)
		f.free += rel.procs
	}
	f.free -= p
	f.releases.push(release{end: f.t + realRun(s, j), procs: p})
	return f.t
}

type release struct{ end, procs int64 }

// releaseHeap is a binary min-heap of processor releases by time, typed (no
// interface calls: the fair-start plays are heap-bound). Its operations are
// container/heap's, step for step, so equal times come out in the same order.
type releaseHeap []release

func (h releaseHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *releaseHeap) push(r release) {
	*h = append(*h, r)
	h.up(len(*h) - 1)
}

func (h *releaseHeap) pop() release {
	old := *h
	r := old[0]
	n := len(old) - 1
	old[0] = old[n]
	*h = old[:n]
	if n > 0 && !h.down(0) {
		h.up(0)
	}
	return r
}

func (h releaseHeap) up(j int) {
	for {
		i := (j - 1) / 2 // parent
		if i == j || !(h[j].end < h[i].end) {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
}

// down sifts element i0 down and reports whether it moved.
func (h releaseHeap) down(i0 int) bool {
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
	return i > i0
}
