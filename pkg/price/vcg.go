package price

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/utility"
)

// VCGConfig configures VCG.
type VCGConfig struct {
	// Procs is the machine size.
	Procs int64
	// NoKill as in the original simulation.
	NoKill bool
	// NewPolicy builds the scheduler for the re-simulation that prices job
	// priced. ids maps each re-simulation job to its original ID (-1 for
	// the jobs pinned as running at the window's start) and util holds the
	// re-simulation jobs' utilities, indexed like ids. Required.
	NewPolicy func(priced int32, ids []int32, util []utility.Func) (sim.Policy, error)
	// Workers re-simulations run at once; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// WholeWait widens the window to every job submitted from i's
	// submission to its end, adding those that arrived while i waited,
	// which the thesis's window leaves out although i's place in the queue
	// can delay them too.
	WholeWait bool
	// Progress, if not nil, is called after each job is priced with the
	// number done and the total (from several goroutines, serialised).
	Progress func(done, total int)
	// Interruptions are the runs that ended before their job did (ga-ckpt's
	// bumps), in time order; nil when no job was interrupted. A job's state
	// at the window's start follows its runs: see VCG.
	Interruptions []Interruption
}

// Interruption is a run that ended before its job did: at At, after Ran
// seconds, keeping Saved seconds of work; the job's next run needs Overhead
// seconds more, in its work and in its requested time (policy.GA's bumps).
type Interruption struct {
	ID                       int32
	At, Ran, Saved, Overhead int64
}

// Window is the set of jobs whose utility pricing job i compares (thesis
// 3.4.3, step 1): the jobs waiting when i was submitted (submitted no later,
// first started no earlier) and the jobs submitted while i was running
// (from its first start to its end). Running holds the jobs running when i
// was submitted; the re-simulation pins them.
type Window struct {
	Jobs    []int32
	Running []int32
}

// WindowOf returns job i's window in the simulated jobs (state after Run);
// wholeWait widens it as VCGConfig.WholeWait says.
func WindowOf(jobs []sim.Job, i int32, wholeWait bool) Window {
	var w Window
	t0 := jobs[i].Submit
	start, end := jobs[i].FirstStart, jobs[i].End
	if wholeWait {
		start = t0
	}
	for k := range jobs {
		j := &jobs[k]
		if int32(k) == i || j.FirstStart < 0 {
			continue
		}
		switch {
		case j.Submit <= t0 && j.FirstStart >= t0:
			w.Jobs = append(w.Jobs, int32(k))
		case j.Submit >= start && j.Submit < end && j.Submit >= t0:
			w.Jobs = append(w.Jobs, int32(k))
		case j.FirstStart < t0 && j.End > t0:
			w.Running = append(w.Running, int32(k))
		}
	}
	return w
}

// VCG returns each job's approximate VCG price (thesis 3.4.3): for job i
// with window W (WindowOf), AUtrue is the utility W's jobs earned in the
// simulation (result), AUalt what they earn when the scheduler runs again
// over W without i, and the price is max(0, AUalt - AUtrue): the utility
// i's presence cost the others. (The thesis writes AUtrue - AUalt; as an
// opportunity cost, the others' loss, it is AUalt - AUtrue; a negative one,
// which the thesis also says to clamp, means the re-run did worse.)
//
// The re-simulation starts at i's submit time T0: W's jobs submitted before
// T0 arrive at T0 with their utility functions shifted so that utility is
// still measured from their real submission; the jobs running at T0 are
// started first, at T0, for the rest of their run and with the rest of its
// requested time, and earn nothing. input holds the jobs as given to the
// simulation (original runtimes and estimates), result the same jobs after
// it. Re-simulations run in parallel.
//
// With interruptions (cfg.Interruptions), a job's runs are followed: one
// that was waiting at T0 after an interruption is a waiting job of W, with
// the work and requested time of its next run; one running at T0 in a run
// that was interrupted later is pinned for the rest of that run as if
// nothing interrupted it (without i the interruption may not happen; the
// re-simulation's scheduler cannot interrupt a pinned job).
func VCG(input, result []sim.Job, util []utility.Func, cfg VCGConfig) ([]float64, error) {
	if cfg.NewPolicy == nil {
		return nil, errors.New("price: VCG needs a policy constructor")
	}
	if len(input) != len(result) || len(util) != len(result) {
		return nil, errors.New("price: input, result and utilities differ in length")
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	runs := newRunIndex(input, result, cfg)
	prices := make([]float64, len(result))
	var next atomic.Int64
	var mu sync.Mutex
	done := 0
	var firstErr error
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(result) {
					return
				}
				p, err := vcgPrice(input, result, util, int32(i), cfg, runs)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				prices[i] = p
				done++
				if cfg.Progress != nil {
					cfg.Progress(done, len(result))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return prices, firstErr
}

func vcgPrice(input, result []sim.Job, util []utility.Func, i int32, cfg VCGConfig, runs runIndex) (price float64, err error) {
	// A policy that cannot take the pinned jobs (started before its first
	// pass) panics in the engine's checks: an error naming the job, not a crash.
	defer func() {
		if r := recover(); r != nil {
			price, err = 0, fmt.Errorf("price: job %d: the re-simulation without it failed: %v", i+1, r)
		}
	}()
	if result[i].End < 0 {
		return 0, nil
	}
	w := WindowOf(result, i, cfg.WholeWait)
	t0 := result[i].Submit
	// A job WindowOf finds running at t0 (started before, ending after) may
	// be waiting then, between two runs: it belongs with W's jobs.
	running := w.Running[:0:0]
	type work struct{ runtime, estimate int64 }
	next := map[int32]work{}
	for _, k := range w.Running {
		if r, e, waiting := runs.waitingAt(k, t0); waiting {
			w.Jobs = append(w.Jobs, k)
			next[k] = work{r, e}
		} else {
			running = append(running, k)
		}
	}
	if len(next) > 0 {
		slices.Sort(w.Jobs) // file order, which breaks the re-simulation's ties
	}
	// A pinned job whose run was interrupted later (a bump, perhaps i's own)
	// runs on in the re-simulation: what that gains or loses it is i's too,
	// so it counts with the utility it earned and the one it earns there.
	var auTrue, auAlt float64
	bumpedLater := false
	type pin struct{ rest, estimate int64 }
	pins := make([]pin, len(running))
	for x, k := range running {
		rest, est, interrupted := runs.restAt(k, t0)
		pins[x] = pin{rest, est}
		if interrupted {
			bumpedLater = true
			auTrue += util[k].Value(float64(result[k].End - result[k].Submit))
			auAlt += util[k].Value(float64(t0 + rest - result[k].Submit))
		}
	}
	if len(w.Jobs) == 0 {
		if !bumpedLater {
			return 0, nil
		}
		return opportunityCost(auAlt, auTrue), nil
	}
	n := len(w.Jobs) + len(running)
	jobs := make([]sim.Job, 0, n)
	ids := make([]int32, 0, n)
	us := make([]utility.Func, 0, n)
	for x, k := range running {
		r := &result[k]
		jobs = append(jobs, sim.Job{Procs: r.Procs, Queue: r.Queue, Submit: t0, Runtime: pins[x].rest, Estimate: pins[x].estimate})
		ids = append(ids, -1)
		us = append(us, utility.Func{})
	}
	for _, k := range w.Jobs {
		auTrue += util[k].Value(float64(result[k].End - result[k].Submit))
		in := input[k]
		shift := t0 - in.Submit
		if shift < 0 {
			shift = 0
		}
		runtime, estimate := in.Runtime, in.Estimate
		if nw, ok := next[k]; ok {
			runtime, estimate = nw.runtime, nw.estimate
		}
		jobs = append(jobs, sim.Job{Procs: in.Procs, Queue: in.Queue, Submit: in.Submit + shift, Runtime: runtime, Estimate: estimate})
		ids = append(ids, k)
		us = append(us, Shift(util[k], float64(shift)))
	}
	pol, err := cfg.NewPolicy(i, ids, us)
	if err != nil {
		return 0, err
	}
	pinned := &pinFirst{Policy: pol, n: len(running)}
	s, err := sim.New(sim.Config{Procs: cfg.Procs, NoKill: cfg.NoKill}, jobs)
	if err != nil {
		return 0, fmt.Errorf("price: job %d: %w", i+1, err)
	}
	if err := s.Run(pinned); err != nil {
		return 0, fmt.Errorf("price: job %d: %w", i+1, err)
	}
	for k := len(running); k < len(jobs); k++ {
		auAlt += us[k].Value(float64(jobs[k].End - jobs[k].Submit))
	}
	return opportunityCost(auAlt, auTrue), nil
}

// opportunityCost is max(0, auAlt - auTrue), and 0 when the difference is
// within the rounding of the two sums (1e-12 of the larger): they add the
// same utilities in different orders when job i's presence changed nothing,
// and a price of 1.8e-15 would stand for that.
func opportunityCost(auAlt, auTrue float64) float64 {
	d := auAlt - auTrue
	if d <= 1e-12*max(math.Abs(auAlt), math.Abs(auTrue)) {
		return 0
	}
	return d
}

// pinFirst starts the first n jobs (the pinned running ones, all submitted
// at the window's start) before the wrapped policy's first pass.
type pinFirst struct {
	sim.Policy
	n      int
	pinned bool
}

func (p *pinFirst) Schedule(s *sim.Sim) {
	if !p.pinned {
		p.pinned = true
		for k := 0; k < p.n; k++ {
			s.Start(s.Job(int32(k)))
		}
	}
	p.Policy.Schedule(s)
}

// Shift returns the utility function seen from d seconds after submission:
// g(t) = f(t + d).
func Shift(f utility.Func, d float64) utility.Func {
	if d <= 0 || len(f.Points) == 0 {
		return f
	}
	pts := []utility.Point{{Time: 0, Value: f.Value(d)}}
	for _, p := range f.Points {
		if p.Time > d {
			pts = append(pts, utility.Point{Time: p.Time - d, Value: p.Value})
		}
	}
	if len(pts) == 1 {
		pts = append(pts, utility.Point{Time: 1, Value: 0})
	}
	return utility.Func{Points: pts}
}

// runIndex follows each job's runs through its interruptions.
type runIndex struct {
	input, result []sim.Job
	noKill        bool
	byJob         map[int32][]Interruption // in time order
}

func newRunIndex(input, result []sim.Job, cfg VCGConfig) runIndex {
	ix := runIndex{input: input, result: result, noKill: cfg.NoKill}
	if len(cfg.Interruptions) > 0 {
		ix.byJob = map[int32][]Interruption{}
		for _, b := range cfg.Interruptions {
			ix.byJob[b.ID] = append(ix.byJob[b.ID], b)
		}
	}
	return ix
}

// run is one run of a job: from start to end, with the work and requested
// time it started with.
type run struct{ start, end, work, estimate int64 }

// runs lists job k's runs in order.
func (ix runIndex) runs(k int32) []run {
	j, in := &ix.result[k], &ix.input[k]
	work, est := in.Runtime, in.Estimate
	start := j.FirstStart
	var out []run
	for _, b := range ix.byJob[k] {
		out = append(out, run{start: b.At - b.Ran, end: b.At, work: work, estimate: est})
		work += b.Overhead - b.Saved
		est = max(0, est+b.Overhead-b.Saved)
	}
	if len(out) > 0 {
		start = j.Start
	}
	return append(out, run{start: start, end: j.End, work: work, estimate: est})
}

// waitingAt reports whether job k, started before t and ending after it,
// was waiting at t between two runs (after t's ends and arrivals, before its
// pass), and if so the work and requested time of its next run.
func (ix runIndex) waitingAt(k int32, t int64) (work, estimate int64, waiting bool) {
	if ix.byJob[k] == nil {
		return 0, 0, false
	}
	rs := ix.runs(k)
	for n := 1; n < len(rs); n++ {
		// A bump at t itself came in t's pass, after t's arrivals: the
		// job was still running when they came.
		if rs[n-1].end < t && t <= rs[n].start {
			return rs[n].work, rs[n].estimate, true
		}
	}
	return 0, 0, false
}

// restAt returns the rest of the run job k was in at t (started before t,
// ending after it) and the rest of its requested time: a run interrupted
// later (interrupted) runs on as its work and kill rule say.
func (ix runIndex) restAt(k int32, t int64) (rest, estimate int64, interrupted bool) {
	if ix.byJob[k] == nil { // one run: no list to build
		j := &ix.result[k]
		rest = j.End - t
		return rest, max(j.FirstStart+ix.input[k].Estimate-t, rest), false
	}
	rs := ix.runs(k)
	r := rs[len(rs)-1]
	end := r.end
	for _, x := range rs[:len(rs)-1] {
		if x.start < t && t <= x.end {
			r = x
			length := x.work
			if !ix.noKill {
				length = min(length, x.estimate)
			}
			end = x.start + length
			interrupted = true
			break
		}
	}
	rest = end - t
	return rest, max(r.start+r.estimate-t, rest), interrupted
}
