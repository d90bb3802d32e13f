package policy

import (
	"container/heap"

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
	s, err := sim.New(cfg, cp)
	if err != nil {
		return nil, err
	}
	f := &fairStart{Conservative: NewConservative(len(cp)), fair: make([]int64, len(cp))}
	if err := s.Run(f); err != nil {
		return nil, err
	}
	return f.fair, nil
}

type fairStart struct {
	*Conservative
	fair     []int64
	releases releaseHeap
}

func (f *fairStart) Arrived(s *sim.Sim, j *sim.Job) {
	f.Conservative.Arrived(s, j)
	f.fair[j.ID] = f.fcfsStart(s, j)
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
	t, free := s.Now(), s.FreeProcs()
	if int64(target.Procs) <= free && s.NumWaiting() == 1 {
		return t // alone in the queue and fits: it would start now
	}
	r := f.releases[:0]
	for _, j := range s.Running() {
		r = append(r, release{end: j.Start + realRun(s, j), procs: int64(j.Procs)})
	}
	f.releases = r
	heap.Init(&f.releases)
	for _, j := range s.Waiting() {
		if j.State != sim.Waiting {
			continue
		}
		p := int64(j.Procs)
		for free < p {
			rel := f.releases.pop()
			t = max(t, rel.end)
			free += rel.procs
		}
		if j == target {
			return t
		}
		free -= p
		f.releases.push(release{end: t + realRun(s, j), procs: p})
	}
	panic("policy: arriving job not in the waiting queue")
}

type release struct{ end, procs int64 }

// releaseHeap is a container/heap of processor releases by time.
type releaseHeap []release

func (h releaseHeap) Len() int           { return len(h) }
func (h releaseHeap) Less(a, b int) bool { return h[a].end < h[b].end }
func (h releaseHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *releaseHeap) Push(x any)        { *h = append(*h, x.(release)) }
func (h *releaseHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// push and pop are heap.Push and heap.Pop without boxing a release in an
// interface (which would allocate).
func (h *releaseHeap) push(r release) {
	*h = append(*h, r)
	heap.Fix(h, len(*h)-1)
}

func (h *releaseHeap) pop() release {
	old := *h
	r := old[0]
	n := len(old) - 1
	old[0] = old[n]
	*h = old[:n]
	if n > 0 {
		heap.Fix(h, 0)
	}
	return r
}
