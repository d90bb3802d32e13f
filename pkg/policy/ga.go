package policy

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/swfkit/swfkit/pkg/ga"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/utility"
)

// ErrNoUtility is returned by ga and ga-ckpt when no job carries a u= token.
var ErrNoUtility = errors.New("no job carries a utility function (u= token); add them with swfaugment --utility")

// GAConfig configures ga and ga-ckpt. The zero value is usable but is not
// the thesis's setting: it breeds no generation and charges no restart
// overhead; the field comments give each default and the values that select
// it (swfsim's flags pass the thesis's 20 x 100, mutation 0.1, overhead 1).
type GAConfig struct {
	// Population, Generations, Mutation and Elitism are the search
	// parameters (pkg/ga). Population 0 means 20; Generations < 0 means
	// 100 (0 is a valid choice: keep the best seed); Mutation < 0 means
	// 0.1.
	Population  int
	Generations int
	Mutation    float64
	Elitism     bool
	// Workers computing fitness in parallel; 0 means one per CPU.
	Workers int
	// Seed seeds the per-decision random sources.
	Seed int64
	// Seeds names the special orderings put into each initial population
	// (thesis 3.2.1), in this order: "arrival", "priority" (queue number,
	// lowest first, then arrival), "density" (current utility per
	// node-hour, highest first), "value" (current utility, highest first).
	// nil means all four; the rest of the population is random.
	Seeds []string
	// PriorityOrder orders the queues of the "priority" seed as priofifo
	// orders its classes (Params.PriorityOrder, which swfsim's
	// --priority-order sets for both); nil means ascending queue number,
	// unknown (-1) last.
	PriorityOrder [][]int64
	// WarmStart also seeds each search with the previous search's best
	// ordering (thesis 7.2.1): its jobs still in the plan keep their order,
	// new ones follow in arrival order.
	WarmStart bool

	// Checkpoint-aware variant (ga-ckpt, thesis 6.7).
	// BumpLimit is how often a job may be bumped; 0 means 1, < 0 means
	// no limit.
	BumpLimit int
	// Boost adds a running job's start value u(0) to its utility in the
	// fitness of orderings that keep it running.
	Boost bool
	// Airline puts bumped jobs at the front of the queue, in bump order;
	// the search orders only the other jobs.
	Airline bool
	// RestartOverhead is the restart cost in seconds per processor; < 0
	// means DefaultRestartOverhead.
	RestartOverhead float64
}

// DefaultRestartOverhead is the default restart cost, seconds per processor.
// The thesis (6.7.1) makes it proportional to processors without a figure.
const DefaultRestartOverhead = 1.0

// SeedNames are the special orderings GAConfig.Seeds may name.
var SeedNames = []string{"arrival", "priority", "density", "value"}

// ParseSeeds parses a comma-separated list of distinct SeedNames ("" or
// "none" alone: no special seed). Its errors are *ParamError of "ga-seeds".
func ParseSeeds(s string) ([]string, error) {
	out := []string{}
	if s == "" || s == "none" {
		return out, nil
	}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		switch {
		case f == "none":
			return nil, &ParamError{Param: "ga-seeds", Value: s, Msg: "none stands alone (no special ordering)"}
		case !slices.Contains(SeedNames, f):
			return nil, &ParamError{Param: "ga-seeds", Value: s, Msg: fmt.Sprintf("%q is not a seed ordering: want a list of %s, or none", f, strings.Join(SeedNames, ", "))}
		case slices.Contains(out, f):
			return nil, &ParamError{Param: "ga-seeds", Value: s, Msg: fmt.Sprintf("%s is named twice (each ordering is one member of the initial population)", f)}
		}
		out = append(out, f)
	}
	return out, nil
}

// Utilities reads the u= token of jobs 0..n-1 through extra. Jobs without
// one get a nil Func (utility 0). It fails with ErrNoUtility when no job has
// one, and names the job of the first malformed token.
func Utilities(n int, extra func(id int32, key string) (string, bool)) ([]utility.Func, int, error) {
	if extra == nil {
		return nil, 0, ErrNoUtility
	}
	fs := make([]utility.Func, n)
	have := 0
	for id := 0; id < n; id++ {
		v, ok := extra(int32(id), utility.Key)
		if !ok {
			continue
		}
		if err := fs[id].Parse(v); err != nil {
			return nil, 0, fmt.Errorf("job %d: u=%s: %w", id+1, v, err)
		}
		have++
	}
	if have == 0 {
		return nil, 0, ErrNoUtility
	}
	return fs, n - have, nil
}

// GA is Lee's genetic-algorithm utility scheduler (Lee 2009, chapter 3) and,
// with checkpointing enabled, its checkpoint-aware variant (6.7). At each
// scheduling pass it evolves an ordering of the plan's jobs (pkg/ga) whose
// fitness is the aggregate utility of the EASY schedule the ordering yields
// with requested times (ga.Plan documents exactly how), then starts what
// EASY over the best ordering starts now.
//
// Choices: the search is skipped when nothing could start now (no waiting
// job fits in the idle processors and, for ga-ckpt, none would fit even
// after bumping every bumpable job), and when the plan has a single job: in
// both cases every ordering gives the same decision. Each search draws from
// a random source reseeded from (Seed, current time, searches so far at this
// time), so skipping a search never changes a later one. Running jobs that
// are not bumpable enter the plan as fixed releases at their expected ends
// (start + estimate, as EASY sees them). Jobs without a u= token have
// utility 0.
type GA struct {
	sim.Base
	cfg      GAConfig
	ckpt     bool
	util     []utility.Func
	interval []int64 // checkpoint interval by job ID, 0 = none (ga-ckpt)
	bumps    []int32 // by job ID
	bumped   []int64 // by job ID: seconds of the job's bumped runs (ga-ckpt)
	airline  []int32 // bumped jobs waiting, in bump order

	searcher *ga.Searcher
	rng      *rand.Rand
	class    func(queue int64) float64 // the "priority" seed's key
	plan     ga.Plan
	fit      prefixFitness
	jobs     []*sim.Job // plan index -> job
	queue    []*sim.Job
	seeds    [][]int
	seedBuf  []int
	keys     []float64
	prev     []int32 // warm start: previous best, as job IDs
	where    []int32 // by job ID: plan index + 1, 0 if absent
	started  []int
	ordered  []*sim.Job
	lastNow  int64
	sameNow  int64

	stats GAStats
	log   []Bump
}

// Bump records one termination by ga-ckpt.
type Bump struct {
	ID       int32 // job
	At       int64 // time of the bump
	Ran      int64 // seconds the run had lasted
	Saved    int64 // work kept: the last checkpoint, a multiple of the interval
	Overhead int64 // restart overhead added, seconds
}

// GAStats counts what a GA run did.
type GAStats struct {
	Passes      int     // scheduling passes seen
	Searches    int     // searches run
	Evaluations int64   // fitness evaluations
	Bumps       int     // jobs terminated and requeued (ga-ckpt)
	LostWork    float64 // processor-seconds of work lost since the last checkpoints
	Overhead    float64 // processor-seconds of restart overhead charged

	// SearchTime is the wall time spent searching, and BySize the searches
	// and their time by plan size (bucket k holds sizes in [2^k, 2^(k+1))).
	// Timing only; it does not influence decisions.
	SearchTime time.Duration
	BySize     [16]struct {
		Searches int
		Time     time.Duration
	}
}

// NewGA returns ga (ckpt false) or ga-ckpt for n jobs. util is indexed by
// job ID; interval (ga-ckpt only) gives each job's checkpoint interval in
// seconds, <= 0 for none.
func NewGA(cfg GAConfig, ckpt bool, util []utility.Func, interval []int64) (*GA, error) {
	if cfg.Population <= 0 {
		cfg.Population = ga.DefaultPopulation
	}
	if cfg.Generations < 0 {
		cfg.Generations = ga.DefaultGenerations
	}
	if cfg.Mutation < 0 {
		cfg.Mutation = ga.DefaultMutation
	}
	if cfg.Mutation > 1 {
		return nil, fmt.Errorf("GA mutation probability %g is above 1", cfg.Mutation)
	}
	if cfg.Seeds == nil {
		cfg.Seeds = SeedNames
	}
	if cfg.BumpLimit == 0 {
		cfg.BumpLimit = 1
	}
	if cfg.RestartOverhead < 0 {
		cfg.RestartOverhead = DefaultRestartOverhead
	}
	if ckpt && len(interval) != len(util) {
		return nil, errors.New("ga-ckpt: checkpoint intervals and utilities differ in length")
	}
	g := &GA{
		cfg:      cfg,
		ckpt:     ckpt,
		util:     util,
		interval: interval,
		searcher: ga.NewSearcher(ga.Config{Population: cfg.Population, Generations: cfg.Generations,
			Mutation: cfg.Mutation, Elitism: cfg.Elitism, Workers: cfg.Workers}),
		rng:     rand.New(rand.NewSource(cfg.Seed)),
		class:   priorityClass(cfg.PriorityOrder),
		where:   make([]int32, len(util)),
		lastNow: -1,
	}
	if ckpt {
		g.bumps = make([]int32, len(util))
		g.bumped = make([]int64, len(util))
	}
	return g, nil
}

// Ended writes runtotal=S on a bumped job when its last run ends: the
// seconds of all its runs, so that swfstat's utilization and slowdown count
// the work bumping lost (field 4 holds the last run only).
func (g *GA) Ended(s *sim.Sim, j *sim.Job, why sim.EndReason) {
	if g.bumped == nil || g.bumped[j.ID] == 0 || (why != sim.Completed && why != sim.KilledAtEstimate) {
		return
	}
	setToken(j, KeyRunTotal, fmt.Sprint(g.bumped[j.ID]+s.Now()-j.Start))
}

// KeyRunTotal is the token ga-ckpt writes on a job it bumped: the seconds of
// all the job's runs (pkg/stats reads it).
const KeyRunTotal = "runtotal"

// Bumps returns every bump so far, in time order (the slice is the GA's).
func (g *GA) Bumps() []Bump { return g.log }

// Stats returns the counts so far.
func (g *GA) Stats() GAStats { return g.stats }

// Note describes the run for the output header.
func (g *GA) Note() string {
	c := g.cfg
	seeds := strings.Join(c.Seeds, ",")
	if seeds == "" {
		seeds = "none"
	}
	mutation := fmt.Sprint(c.Mutation)
	if c.Generations == 0 {
		mutation = "none (0 generations)" // no generation mutates
	}
	s := fmt.Sprintf("GA population %d, generations %d, mutation %s, elitism %v, seeds %s, warm start %v, seed %d; %d searches in %d passes, %d fitness evaluations",
		c.Population, c.Generations, mutation, c.Elitism, seeds, c.WarmStart, c.Seed,
		g.stats.Searches, g.stats.Passes, g.stats.Evaluations)
	if g.ckpt {
		limit := fmt.Sprint(c.BumpLimit)
		if c.BumpLimit < 0 {
			limit = "none"
		}
		s += fmt.Sprintf("; checkpoint-aware: bump limit %s, boost %v, airline %v, restart overhead %g s/processor; %d bumps, %.0f processor-seconds of work lost, %.0f processor-seconds of restart overhead",
			limit, c.Boost, c.Airline, c.RestartOverhead, g.stats.Bumps, g.stats.LostWork, g.stats.Overhead)
	}
	return s
}

func (g *GA) utilityOf(j *sim.Job) ga.UtilityFunc {
	f := &g.util[j.ID]
	if len(f.Points) == 0 {
		return nil
	}
	return f
}

// bumpable reports whether a running job may be bumped now.
func (g *GA) bumpable(s *sim.Sim, j *sim.Job) bool {
	if !g.ckpt || g.interval[j.ID] <= 0 {
		return false
	}
	if g.cfg.BumpLimit >= 0 && int(g.bumps[j.ID]) >= g.cfg.BumpLimit {
		return false
	}
	return s.Now() > j.Start // a job started this very second has nothing to gain
}

// restartEstimate is the requested time a bumped job would need: its
// estimate less the work saved at its last checkpoint, plus the restart
// overhead; saved is that checkpointed work.
func (g *GA) restartEstimate(s *sim.Sim, j *sim.Job) (estimate, saved, overhead int64) {
	ran := s.Now() - j.Start
	iv := g.interval[j.ID]
	saved = ran / iv * iv
	if saved > j.Remaining {
		saved = j.Remaining
	}
	overhead = int64(g.cfg.RestartOverhead*float64(j.Procs) + 0.5)
	estimate = j.Estimate - saved + overhead
	if estimate < 0 {
		estimate = 0
	}
	return estimate, saved, overhead
}

// Schedule runs one GA pass.
func (g *GA) Schedule(s *sim.Sim) {
	g.stats.Passes++
	g.queue = g.queue[:0]
	minProcs := int32(-1)
	for _, j := range s.Waiting() {
		if j.State == sim.Waiting {
			g.queue = append(g.queue, j)
			if minProcs < 0 || j.Procs < minProcs {
				minProcs = j.Procs
			}
		}
	}
	if len(g.queue) == 0 {
		return
	}
	free := s.FreeProcs()
	var bumpProcs int64
	nBump := 0
	if g.ckpt {
		for _, j := range s.Running() {
			if g.bumpable(s, j) {
				bumpProcs += int64(j.Procs)
				nBump++
			}
		}
	}
	if int64(minProcs) > free+bumpProcs {
		return // nothing can start whatever the ordering
	}
	if nBump == 0 && len(g.queue) == 1 {
		easyPass(s, g.queue)
		return
	}
	g.buildPlan(s, nBump)
	best := g.search(s)
	if !g.ckpt {
		g.ordered = g.ordered[:0]
		for _, k := range best {
			g.ordered = append(g.ordered, g.jobs[k])
		}
		easyPass(s, g.ordered)
		clear(g.ordered)
		return
	}
	g.decideCkpt(s, best)
}

// buildPlan fills g.plan and g.jobs: waiting jobs in arrival order, then
// bumpable running jobs.
func (g *GA) buildPlan(s *sim.Sim, nBump int) {
	p := &g.plan
	p.Now = s.Now()
	p.Free = int(s.FreeProcs())
	p.Running = p.Running[:0]
	p.Jobs = p.Jobs[:0]
	g.jobs = g.jobs[:0]
	for _, j := range g.queue {
		p.Jobs = append(p.Jobs, ga.PlanJob{Submit: j.Submit, Procs: int(j.Procs), Estimate: j.Estimate, Utility: g.utilityOf(j)})
		g.jobs = append(g.jobs, j)
	}
	for _, j := range s.Running() {
		if nBump > 0 && g.bumpable(s, j) {
			est, _, _ := g.restartEstimate(s, j)
			pj := ga.PlanJob{Submit: j.Submit, Procs: int(j.Procs), Estimate: est, Utility: g.utilityOf(j),
				Running: true, RunningEnd: s.ExpectedEnd(j)}
			if g.cfg.Boost {
				pj.Bonus = g.util[j.ID].Start()
			}
			p.Jobs = append(p.Jobs, pj)
			g.jobs = append(g.jobs, j)
			continue
		}
		p.Running = append(p.Running, ga.Release{End: s.ExpectedEnd(j), Procs: int(j.Procs)})
	}
	workers := g.searcher.Config().Workers
	p.Prepare(workers)
	for k, j := range g.jobs {
		g.where[j.ID] = int32(k + 1)
	}
}

// search returns the best ordering of the plan's jobs (plan indices).
func (g *GA) search(s *sim.Sim) []int {
	m := len(g.jobs)
	// Airline: bumped waiting jobs form a fixed prefix.
	g.fit.reset(&g.plan, m, g.searcher.Config().Workers)
	if g.ckpt && g.cfg.Airline {
		for _, id := range g.airline {
			if k := g.where[id]; k > 0 && g.jobs[k-1].State == sim.Waiting {
				g.fit.fix(int(k - 1))
			}
		}
	}
	g.fit.finish()
	n := len(g.fit.free)
	g.makeSeeds(s, n)
	if s.Now() != g.lastNow {
		g.lastNow, g.sameNow = s.Now(), 0
	}
	g.sameNow++
	g.rng.Seed(decisionSeed(g.cfg.Seed, s.Now(), g.sameNow))
	t0 := time.Now()
	res := g.searcher.Search(g.rng, n, g.seeds, &g.fit)
	dt := time.Since(t0)
	g.stats.SearchTime += dt
	b := min(bits.Len(uint(m))-1, len(g.stats.BySize)-1)
	g.stats.BySize[b].Searches++
	g.stats.BySize[b].Time += dt
	g.stats.Searches++
	g.stats.Evaluations += int64(res.Evaluations)
	full := g.fit.expand(res.Order)
	if g.cfg.WarmStart {
		g.prev = g.prev[:0]
		for _, k := range full {
			g.prev = append(g.prev, g.jobs[k].ID)
		}
	}
	for _, j := range g.jobs {
		g.where[j.ID] = 0
	}
	return full
}

// decisionSeed mixes the run seed with the decision's time and ordinal
// (splitmix64 finaliser).
func decisionSeed(seed, now, sub int64) int64 {
	x := uint64(seed) ^ uint64(now)*0x9e3779b97f4a7c15 ^ uint64(sub)*0xbf58476d1ce4e5b9
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return int64(x)
}

// makeSeeds builds the special orderings over the search's items
// (g.fit.free indices).
func (g *GA) makeSeeds(s *sim.Sim, n int) {
	g.seeds = g.seeds[:0]
	need := len(g.cfg.Seeds)
	if g.cfg.WarmStart && len(g.prev) > 0 {
		need++
	}
	if cap(g.seedBuf) < need*n {
		g.seedBuf = make([]int, need*n)
	}
	buf := g.seedBuf[:need*n]
	next := func() []int {
		o := buf[:n:n]
		buf = buf[n:]
		return o
	}
	if g.cfg.WarmStart && len(g.prev) > 0 {
		o := next()[:0]
		// previous best first (items still here), then the rest in plan order
		inv := g.fit.inverse()
		for _, id := range g.prev {
			if k := g.where[id]; k > 0 {
				if it := inv[k-1]; it >= 0 {
					o = append(o, it)
					inv[k-1] = -1
				}
			}
		}
		for k, it := range inv {
			if it >= 0 {
				o = append(o, it)
				inv[k] = -1
			}
		}
		g.seeds = append(g.seeds, o)
	}
	now := s.Now()
	if cap(g.keys) < n {
		g.keys = make([]float64, n)
	}
	keys := g.keys[:n]
	for _, name := range g.cfg.Seeds {
		o := next()
		for i := range o {
			o[i] = i // plan order: arrival, bumpable running jobs last
		}
		switch name {
		case "arrival":
			// Running candidates first: the status quo keeps them.
			if g.ckpt {
				slices.SortStableFunc(o, func(a, b int) int {
					ra, rb := g.plan.Jobs[g.fit.free[a]].Running, g.plan.Jobs[g.fit.free[b]].Running
					switch {
					case ra && !rb:
						return -1
					case rb && !ra:
						return 1
					}
					return 0
				})
			}
		case "priority":
			for i := range o {
				keys[i] = g.class(int64(g.jobs[g.fit.free[i]].Queue))
			}
			slices.SortStableFunc(o, func(a, b int) int { return cmpFloat(keys[a], keys[b]) })
		case "density", "value":
			for i := range o {
				pj := &g.plan.Jobs[g.fit.free[i]]
				v := 0.0
				if pj.Utility != nil {
					v = pj.Utility.Value(float64(now - pj.Submit))
				}
				if name == "density" {
					est := pj.Estimate
					if est < 1 {
						est = 1
					}
					v /= float64(pj.Procs) * float64(est) / 3600
				}
				keys[i] = -v
			}
			slices.SortStableFunc(o, func(a, b int) int { return cmpFloat(keys[a], keys[b]) })
		}
		g.seeds = append(g.seeds, o)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// decideCkpt applies the decision of ga-ckpt for the best ordering: running
// candidates the pass at Now does not keep are bumped, then the waiting jobs
// it starts are started in its order.
func (g *GA) decideCkpt(s *sim.Sim, best []int) {
	g.started = g.plan.StartsNow(best, g.started[:0])
	for _, k := range g.started {
		if g.plan.Jobs[k].Running {
			g.where[g.jobs[k].ID] = -1 // kept
		}
	}
	for k, j := range g.jobs {
		if g.plan.Jobs[k].Running && g.where[j.ID] != -1 {
			g.bump(s, j)
		}
		g.where[j.ID] = 0
	}
	for _, k := range g.started {
		if !g.plan.Jobs[k].Running {
			s.Start(g.jobs[k])
		}
	}
	// Bumped jobs that started again leave the airline queue.
	w := g.airline[:0]
	for _, id := range g.airline {
		if s.Job(id).State == sim.Waiting {
			w = append(w, id)
		}
	}
	g.airline = w
}

// bump terminates running job j and requeues it: it keeps the work done up
// to its last checkpoint, and its remaining work and requested time grow by
// the restart overhead.
func (g *GA) bump(s *sim.Sim, j *sim.Job) {
	est, saved, overhead := g.restartEstimate(s, j)
	ran := s.Now() - j.Start
	g.stats.Bumps++
	g.stats.LostWork += float64(ran-saved) * float64(j.Procs)
	g.stats.Overhead += float64(overhead) * float64(j.Procs)
	g.bumps[j.ID]++
	g.bumped[j.ID] += ran
	g.log = append(g.log, Bump{ID: j.ID, At: s.Now(), Ran: ran, Saved: saved, Overhead: overhead})
	s.Preempt(g, j, saved)
	j.Remaining += overhead
	j.Estimate = est
	setToken(j, "bumps", fmt.Sprint(g.bumps[j.ID]))
	g.airline = append(g.airline, j.ID)
}

// setToken sets key=value in j.Tokens, replacing an earlier value.
func setToken(j *sim.Job, key, value string) {
	tok := key + "=" + value
	for i, t := range j.Tokens {
		if strings.HasPrefix(t, key+"=") {
			j.Tokens[i] = tok
			return
		}
	}
	j.Tokens = append(j.Tokens, tok)
}

// prefixFitness adapts the plan to a search over the non-fixed jobs: an
// ordering of the free items becomes the fixed prefix (airline) followed by
// those items. Per-worker buffers keep it allocation-free.
type prefixFitness struct {
	plan    *ga.Plan
	fixed   []int  // plan indices, in order
	free    []int  // item -> plan index
	isFixed []bool // by plan index
	bufs    [][]int
	out     []int
	inv     []int
}

func (f *prefixFitness) reset(plan *ga.Plan, m, workers int) {
	f.plan = plan
	f.fixed = f.fixed[:0]
	if cap(f.isFixed) < m {
		f.isFixed = make([]bool, m)
	}
	f.isFixed = f.isFixed[:m]
	clear(f.isFixed)
	for len(f.bufs) < workers {
		f.bufs = append(f.bufs, nil)
	}
	for w := range f.bufs {
		if cap(f.bufs[w]) < m {
			f.bufs[w] = make([]int, 0, m)
		}
	}
}

func (f *prefixFitness) fix(k int) {
	if !f.isFixed[k] {
		f.isFixed[k] = true
		f.fixed = append(f.fixed, k)
	}
}

func (f *prefixFitness) finish() {
	f.free = f.free[:0]
	for k, fixed := range f.isFixed {
		if !fixed {
			f.free = append(f.free, k)
		}
	}
}

func (f *prefixFitness) Fitness(worker int, order []int) float64 {
	return f.plan.Fitness(worker, f.fill(f.bufs[worker][:0], order))
}

func (f *prefixFitness) fill(dst, order []int) []int {
	dst = append(dst, f.fixed...)
	for _, it := range order {
		dst = append(dst, f.free[it])
	}
	return dst
}

// expand returns the plan ordering of a search ordering (valid until the
// next call).
func (f *prefixFitness) expand(order []int) []int {
	f.out = f.fill(f.out[:0], order)
	return f.out
}

// inverse returns plan index -> item, -1 for fixed jobs (scratch, valid
// until the next call).
func (f *prefixFitness) inverse() []int {
	f.inv = f.inv[:0]
	for range f.isFixed {
		f.inv = append(f.inv, -1)
	}
	for it, k := range f.free {
		f.inv[k] = it
	}
	return f.inv
}

// newGAFromParams builds ga or ga-ckpt from the registry parameters, reading
// u= (and for ga-ckpt ckpt=) tokens through p.Extra.
func newGAFromParams(p Params, n int, ckpt bool) (sim.Policy, error) {
	name := "ga"
	if ckpt {
		name = "ga-ckpt"
	}
	util, _, err := Utilities(n, p.Extra)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", name, err)
	}
	var interval []int64
	if ckpt {
		if interval, err = CheckpointIntervals(n, p.Extra); err != nil {
			return nil, fmt.Errorf("policy %s: %w", name, err)
		}
	}
	cfg := p.GA
	if cfg.PriorityOrder == nil {
		cfg.PriorityOrder = p.PriorityOrder // swfsim's one --priority-order
	}
	g, err := NewGA(cfg, ckpt, util, interval)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", name, err)
	}
	return g, nil
}

// CheckpointIntervals reads the ckpt= token of jobs 0..n-1 through extra:
// the interval in seconds, 0 for jobs without one or with ckpt=-1.
func CheckpointIntervals(n int, extra func(id int32, key string) (string, bool)) ([]int64, error) {
	interval := make([]int64, n)
	if extra == nil {
		return interval, nil
	}
	for id := 0; id < n; id++ {
		v, ok := extra(int32(id), "ckpt")
		if !ok {
			continue
		}
		iv, err := strconv.ParseInt(v, 10, 64)
		if err != nil || iv < -1 || iv == 0 {
			return nil, fmt.Errorf("job %d: ckpt=%s: want a checkpoint interval in seconds > 0, or -1", id+1, v)
		}
		if iv > 0 {
			interval[id] = iv
		}
	}
	return interval, nil
}
