package policy

import "github.com/swfkit/swfkit/pkg/sim"

// fairStartsInSim is how FairStarts worked before it played a finished
// conservative schedule (fairstart.go): the strict-FCFS plays run inside the
// conservative simulation, at each arrival; with replay, every arrival plays
// the queue from scratch. Tests hold the fast play to it.
func fairStartsInSim(cfg sim.Config, jobs []sim.Job, replay bool) ([]int64, error) {
	cp := append([]sim.Job(nil), jobs...)
	for i := range cp {
		cp[i].Tokens = nil
	}
	s, err := sim.New(cfg, cp)
	if err != nil {
		return nil, err
	}
	f := &inSimFairStart{Conservative: NewConservative(len(cp)), fair: make([]int64, len(cp)), replay: replay}
	if err := s.Run(f); err != nil {
		return nil, err
	}
	return f.fair, nil
}

type inSimFairStart struct {
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

func (f *inSimFairStart) Arrived(s *sim.Sim, j *sim.Job) {
	f.Conservative.Arrived(s, j)
	f.fair[j.ID] = f.fcfsStart(s, j)
}

func (f *inSimFairStart) Ended(s *sim.Sim, j *sim.Job, why sim.EndReason) {
	if j.State != sim.Done || s.Now() != j.Start+inSimRealRun(s, j) {
		f.played = false
	}
	f.Conservative.Ended(s, j, why)
}

func (f *inSimFairStart) Schedule(s *sim.Sim) {
	waiting := s.NumWaiting()
	f.Conservative.Schedule(s)
	if s.NumWaiting() != waiting {
		f.played = false // a job started
	}
}

// realRun is how long j would run if started now.
func inSimRealRun(s *sim.Sim, j *sim.Job) int64 {
	if !s.NoKill() && j.Remaining > j.Estimate {
		return j.Estimate
	}
	return j.Remaining
}

// fcfsStart plays strict FCFS from now over the waiting queue up to target.
func (f *inSimFairStart) fcfsStart(s *sim.Sim, target *sim.Job) int64 {
	if !f.played || f.replay || f.first < s.Now() {
		if int64(target.Procs) <= s.FreeProcs() && s.NumWaiting() == 1 {
			return s.Now() // alone in the queue and fits: it would start now
		}
		f.t, f.free = s.Now(), s.FreeProcs()
		r := f.releases[:0]
		for _, j := range s.Running() {
			r = append(r, release{end: j.Start + inSimRealRun(s, j), procs: int64(j.Procs)})
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
func (f *inSimFairStart) play(s *sim.Sim, j *sim.Job) int64 {
	p := int64(j.Procs)
	for f.free < p {
		rel := f.releases.pop()
		f.t = max(f.t, rel.end)
		f.free += rel.procs
	}
	f.free -= p
	f.releases.push(release{end: f.t + inSimRealRun(s, j), procs: p})
	return f.t
}
