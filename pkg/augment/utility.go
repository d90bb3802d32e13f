package augment

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/swfkit/swfkit/pkg/swf"
	"github.com/swfkit/swfkit/pkg/utility"
)

// Decay is one of Lee's three models of decay in utility (thesis 2.6.3, Fig. 2.11).
type Decay int

// The decay models.
const (
	DecayLinear      Decay = iota // expected linear
	DecayExponential              // expected exponential
	DecayStep                     // step
	numDecays
)

var decayNames = [numDecays]string{"linear", "exponential", "step"}

func (d Decay) String() string { return decayNames[d] }

// UtilityConfig configures GenerateUtility. The zero value means the defaults
// documented on each field. Where the thesis leaves a parameter open the default
// is our choice, named as such.
type UtilityConfig struct {
	// GlobMax is the top of the value-per-processor-minute range that is divided
	// into one bin per priority (thesis eq. 2.2). Open in the thesis; default 1.
	GlobMax float64
	// Spread is the standard deviation of the start value per processor-minute,
	// as a fraction of one bin's width. Open in the thesis ("most, but not all,
	// jobs" land in their bin); default 0.5, which puts 68% of jobs in their bin.
	// Draws below 0 are redrawn (values are non-negative).
	Spread float64
	// DeadlineFactor multiplies the job's wait in the input log (thesis 2.6.3:
	// 2; chapter 4.5 also uses 1 and 3). Default 2.
	DeadlineFactor float64
	// MinDeadline is the least deadline in seconds (thesis: 10 s). Default 10.
	MinDeadline int64
	// Weights of the decay models, indexed by Decay (thesis 4.3: about one third
	// each). All zero means equal weights.
	Weights [numDecays]float64
	// Points is the number of intermediate points of the linear and exponential
	// models ("a predetermined number" in the thesis). Default 4. Fewer are used
	// when the deadline leaves fewer distinct whole seconds.
	Points int
	// Epsilon is the width of an approximated jump in seconds (the step model's
	// drops). Open in the thesis (Fig. 2.10 uses 0.001 time units); default 1 s,
	// the resolution of SWF times.
	Epsilon int64
	// Digits is the number of significant digits values are rounded to, to keep
	// tokens short; rounding is monotone so shapes are preserved. Default 6.
	Digits int
	// Priorities maps queues to ranks; nil means DefaultPriorities.
	Priorities *Priorities
}

func (c UtilityConfig) withDefaults() UtilityConfig {
	if c.GlobMax == 0 {
		c.GlobMax = 1
	}
	if c.Spread == 0 {
		c.Spread = 0.5
	}
	if c.DeadlineFactor == 0 {
		c.DeadlineFactor = 2
	}
	if c.MinDeadline == 0 {
		c.MinDeadline = 10
	}
	if c.Weights == [numDecays]float64{} {
		c.Weights = [numDecays]float64{1, 1, 1}
	}
	if c.Points == 0 {
		c.Points = 4
	}
	if c.Epsilon == 0 {
		c.Epsilon = 1
	}
	if c.Digits == 0 {
		c.Digits = 6
	}
	return c
}

func (c UtilityConfig) validate() error {
	var sum float64
	for _, w := range c.Weights {
		if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			return errors.New("decay weights must be finite and non-negative")
		}
		sum += w
	}
	switch {
	case sum == 0:
		return errors.New("decay weights sum to 0")
	case !(c.GlobMax > 0) || math.IsInf(c.GlobMax, 0):
		return errors.New("globmax must be positive")
	case !(c.Spread >= 0) || math.IsInf(c.Spread, 0):
		return errors.New("spread must be non-negative")
	case !(c.DeadlineFactor > 0) || math.IsInf(c.DeadlineFactor, 0):
		return errors.New("deadline factor must be positive")
	case c.Epsilon < 1 || c.Epsilon > swf.MaxTime:
		return fmt.Errorf("epsilon must be 1 to %d s", int64(swf.MaxTime))
	case c.MinDeadline > swf.MaxTime:
		return fmt.Errorf("minimum deadline must be at most %d s (swfkit's time bound)", int64(swf.MaxTime))
	case c.Weights[DecayStep] > 0 && c.MinDeadline < 2*c.Epsilon+2:
		return fmt.Errorf("minimum deadline %d s leaves no room for a step with epsilon %d s (need >= %d)", c.MinDeadline, c.Epsilon, 2*c.Epsilon+2)
	case c.MinDeadline < 1:
		return fmt.Errorf("minimum deadline %d s: want 1 s or more", c.MinDeadline)
	case c.Points < 0:
		return errors.New("number of points must be non-negative")
	case c.Digits < 1 || c.Digits > 17:
		return errors.New("digits must be in 1..17")
	}
	return nil
}

// ParseDecayWeights parses "linear:1,exponential:1,step:1" (missing models get 0;
// shares need not sum to 1).
func ParseDecayWeights(s string) ([numDecays]float64, error) {
	var w [numDecays]float64
	var named [numDecays]bool
	for _, part := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(part, ":")
		if !ok {
			return w, fmt.Errorf("decay mix %q: want model:share pairs separated by commas", s)
		}
		d := slices.Index(decayNames[:], strings.TrimSpace(name))
		if d < 0 {
			return w, fmt.Errorf("decay mix %q: unknown model %q (linear, exponential, step)", s, name)
		}
		if named[d] {
			return w, fmt.Errorf("decay mix %q: %s is named twice; give each model one share", s, decayNames[d])
		}
		named[d] = true
		x, err := swf.ParseDecimal(strings.TrimSpace(val))
		if err != nil || x < 0 || math.IsInf(x, 0) {
			return w, fmt.Errorf("decay mix %q: bad share %q", s, val)
		}
		w[d] = x
	}
	if w[0]+w[1]+w[2] <= 0 {
		return w, fmt.Errorf("decay mix %q: the shares add up to 0; give at least one model a positive share", s)
	}
	if math.IsInf(w[0]+w[1]+w[2], 0) {
		return w, fmt.Errorf("decay mix %q: the shares add up to more than a float64 holds; give smaller shares (only their ratios count)", s)
	}
	return w, nil
}

// UtilityReport is what GenerateUtility did.
type UtilityReport struct {
	Config      UtilityConfig
	Jobs        int // functions written
	Skipped     int // jobs with unknown processors or requested time
	UnknownWait int // jobs whose wait was unknown: deadline = MinDeadline
	Unlisted    int // jobs whose queue had no rank: lowest priority
	// PastDeadline counts the jobs given a function whose run time, capped
	// at the estimate as swfsim kills, is at or past the deadline: they
	// earn 0 whatever the schedule, even started at once.
	PastDeadline int
	// EmptyQueues are the queues a --priority-order lists in which no job
	// of the trace is (a typo, another log's queue): they rank nothing.
	EmptyQueues []int64
	ByDecay     [numDecays]int
	ByRank      []int // jobs per priority rank
	Redraws     int   // negative normal draws redrawn
}

// Notes returns the header Note lines.
func (r *UtilityReport) Notes() []string {
	c := r.Config
	total := 0.0
	for _, w := range c.Weights {
		total += w
	}
	var mix []string
	for d, w := range c.Weights {
		mix = append(mix, decayNames[d]+":"+fmtFloat(w/total))
	}
	return []string{
		fmt.Sprintf("swfaugment utility (Lee 2009, 2.6): globmax=%s spread=%s (sd as fraction of bin width) deadline=max(%d s, %s x wait) decay=%s points=%d epsilon=%d s digits=%d priority order (highest first, from %s)=%s",
			fmtFloat(c.GlobMax), fmtFloat(c.Spread), c.MinDeadline, fmtFloat(c.DeadlineFactor),
			strings.Join(mix, ","), c.Points, c.Epsilon, c.Digits, c.Priorities.Source, c.Priorities),
		fmt.Sprintf("swfaugment utility: wrote u= for %d jobs (linear %d, exponential %d, step %d; per priority rank %s); %d unknown processors or time (no u=), %d unknown wait (deadline %d s), %d queue without rank (lowest priority), %d negative draws redrawn",
			r.Jobs, r.ByDecay[DecayLinear], r.ByDecay[DecayExponential], r.ByDecay[DecayStep],
			intsString(r.ByRank), r.Skipped, r.UnknownWait, c.MinDeadline, r.Unlisted, r.Redraws),
	}
}

// PastDeadlineText says how many jobs earn 0 under any schedule (thesis
// 2.6.3 bases the deadline on the logged wait, not the run time), or ""
// when none does.
func (r *UtilityReport) PastDeadlineText() string {
	if r.PastDeadline == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d jobs have a run time at or past their deadline and earn 0 under any schedule (run time capped at the estimate, where swfsim kills)", r.PastDeadline, r.Jobs)
}

func intsString(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, "/")
}

// GenerateUtility appends a utility function u= to every job whose processors
// and requested time are known (replacing an existing u=), following Lee's
// thesis 2.6:
//
//   - start value per processor-minute ~ Normal(mean, Spread x GlobMax/N) with
//     mean = (N-1-rank+0.5)/N x GlobMax. Equation 2.2 writes (rank+0.5)/N with
//     rank 0 the highest priority, which would give the highest priority the
//     lowest values, against the thesis's stated intent ("higher priority jobs
//     should have higher start values"); we follow the intent.
//   - start value = that x processors x requested minutes (eq. 2.3).
//   - deadline = max(MinDeadline, DeadlineFactor x wait), whole seconds.
//   - linear: Points distinct whole-second times in (0, deadline), values
//     uniform in [0, start], sorted decreasing; exponential: the same times,
//     values drawn each uniform in [0, previous]; step: one time ts, value start
//     until ts, a drop to V ~ U[0, start] at ts+Epsilon, V until
//     deadline-Epsilon, 0 at the deadline. Every function ends (deadline, 0).
//
// Every job line, in file order and whether or not it gets a function, takes
// one draw from rng: the seed of its own three streams, one for its start
// value, one for its decay model and one for its shape. So a job's values
// depend on the seed and its place in the file only, and an option changes
// only what it is about: --decay the models (and so the shapes), --points and
// the deadline the shapes, --globmax and --spread the start values (and the
// shapes, which scale with them), never another job's draws.
func GenerateUtility(jobs []swf.Job, h *swf.Header, cfg UtilityConfig, rng *rand.Rand) (*UtilityReport, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("utility: %w", err)
	}
	if cfg.Priorities == nil {
		cfg.Priorities = DefaultPriorities(h, jobs)
	}
	u, err := NewUtilityGenerator(cfg, rng)
	if err != nil {
		return nil, err
	}
	for i := range jobs {
		if err := u.Apply(&jobs[i]); err != nil {
			return nil, err
		}
	}
	return u.Report(), nil
}

// UtilityGenerator is GenerateUtility job by job, for a trace that is
// streamed: Apply takes the jobs in file order.
type UtilityGenerator struct {
	cfg         UtilityConfig
	rng         *rand.Rand
	rep         UtilityReport
	ranks       float64 // the number of priority ranks
	binWidth    float64
	totalWeight float64
	g           *generator
	buf         []byte
	seen        map[int64]bool // queues of the jobs given a function
	// The last job Apply gave a function: its deadline and whether it
	// was counted past it (Settle recounts it).
	last struct {
		given    bool
		deadline int64
		past     bool
	}
}

// NewUtilityGenerator returns the generator of GenerateUtility. Its
// cfg.Priorities must be set (DefaultPriorities, QueueSurvey.Priorities):
// the default ranks depend on the whole trace. It panics when they are not.
func NewUtilityGenerator(cfg UtilityConfig, rng *rand.Rand) (*UtilityGenerator, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("utility: %w", err)
	}
	if cfg.Priorities == nil {
		panic("augment: NewUtilityGenerator without priorities")
	}
	u := &UtilityGenerator{cfg: cfg, rng: rng, ranks: float64(cfg.Priorities.N()), g: newGenerator(cfg), seen: map[int64]bool{}}
	u.rep = UtilityReport{Config: cfg, ByRank: make([]int, cfg.Priorities.N())}
	u.binWidth = cfg.GlobMax / u.ranks
	for _, w := range cfg.Weights {
		u.totalWeight += w
	}
	return u, nil
}

// Apply gives the next job of the trace its function (see GenerateUtility).
// The error is a *swf.ParseError naming the job's line when a value is out
// of swfkit's bounds.
func (u *UtilityGenerator) Apply(j *swf.Job) error {
	cfg, rep, g := &u.cfg, &u.rep, u.g
	g.seedJob(u.rng.Uint64())
	u.last.given = false
	p, e := Procs(j), RequestedTime(j)
	if p < 0 || e < 0 {
		rep.Skipped++
		return nil
	}
	rank, listed := cfg.Priorities.Rank(j.Queue)
	if !listed && len(cfg.Priorities.Groups) > 0 {
		rep.Unlisted++
	}
	u.seen[j.Queue] = true
	rep.ByRank[rank]++
	mean := (u.ranks - 1 - float64(rank) + 0.5) * u.binWidth
	perMinute, redraws := positiveNormal(mean, cfg.Spread*u.binWidth, g.startRng)
	rep.Redraws += redraws
	start := g.round(perMinute * float64(p) * float64(e) / 60)
	if math.IsInf(start, 0) || math.IsNaN(start) || start > utility.MaxValue {
		// Said in the order that overflows last: the product above
		// can overflow where the value itself fits a float64.
		value := perMinute / 60 * float64(p) * float64(e)
		return &swf.ParseError{Line: j.Line, Err: swf.ErrRange,
			Detail: fmt.Sprintf("the utility start value of job %d (%g per processor-minute x %d processors x %d s = %g) is beyond %g, swfkit's bound on utility values: lower --globmax (%g)", j.JobNumber, perMinute, p, e, value, utility.MaxValue, cfg.GlobMax)}
	}

	wait := j.WaitTime
	if wait < 0 {
		rep.UnknownWait++
		wait = 0
	}
	scaled := math.Round(cfg.DeadlineFactor * float64(wait))
	if scaled > swf.MaxTime {
		return &swf.ParseError{Line: j.Line, Field: swf.FieldWaitTime, Err: swf.ErrRange,
			Detail: fmt.Sprintf("the deadline %g x %d s is beyond swfkit's time bound %d s", cfg.DeadlineFactor, wait, int64(swf.MaxTime))}
	}
	deadline := max(cfg.MinDeadline, int64(scaled))
	past := pastDeadline(j, deadline)
	if past {
		rep.PastDeadline++
	}
	u.last.given, u.last.deadline, u.last.past = true, deadline, past

	d := pickDecay(cfg.Weights, u.totalWeight, g.modelRng.Float64())
	rep.ByDecay[d]++
	g.build(d, start, deadline)
	u.buf = g.f.AppendFormat(u.buf[:0])
	j.SetExtra(KeyUtility, string(u.buf))
	rep.Jobs++
	return nil
}

// pastDeadline reports whether the job's run time, capped at its requested
// time where swfsim kills it, is at or past the deadline: it earns 0 under
// any schedule.
func pastDeadline(j *swf.Job, deadline int64) bool {
	return min(j.RunTime, RequestedTime(j)) >= deadline
}

// Settle recounts, for the report's PastDeadline, the job Apply last saw
// as the other operations of the run left it: an estimate transform after
// the utility rewrites field 9, the kill time, which decides whether the
// job can end inside its deadline (its function, drawn from the log's
// request, stays). Call it with that job before the next Apply; without
// it the count is on the jobs as Apply saw them.
func (u *UtilityGenerator) Settle(j *swf.Job) {
	if !u.last.given {
		return
	}
	if past := pastDeadline(j, u.last.deadline); past != u.last.past {
		if past {
			u.rep.PastDeadline++
		} else {
			u.rep.PastDeadline--
		}
		u.last.past = past
	}
}

// Report returns what the generator did to the jobs so far.
func (u *UtilityGenerator) Report() *UtilityReport {
	rep := u.rep
	rep.ByRank = slices.Clone(u.rep.ByRank)
	rep.EmptyQueues = nil
	for _, grp := range u.cfg.Priorities.Groups {
		for _, q := range grp {
			if !u.seen[q] {
				rep.EmptyQueues = append(rep.EmptyQueues, q)
			}
		}
	}
	return &rep
}

// positiveNormal draws from Normal(mean, sd) until the value is >= 0 (a
// normal truncated at 0), giving up after 1000 tries with the mean.
func positiveNormal(mean, sd float64, rng *rand.Rand) (float64, int) {
	dist := distuv.Normal{Mu: mean, Sigma: sd, Src: rngSource{rng}}
	for tries := 0; tries < 1000; tries++ {
		if x := dist.Rand(); x >= 0 {
			return x, tries
		}
	}
	return mean, 1000
}

// rngSource lets gonum's distuv (which takes a math/rand/v2 Source) draw from
// a *rand.Rand: a job's start-value stream (GenerateUtility), the operation's
// stream (the estimate errors).
type rngSource struct{ r *rand.Rand }

func (s rngSource) Uint64() uint64 { return s.r.Uint64() }

func pickDecay(w [numDecays]float64, total, u float64) Decay {
	x := u * total
	for d := range numDecays {
		if x < w[d] {
			return d
		}
		x -= w[d]
	}
	// Rounding: the last model with a positive weight.
	for d := numDecays - 1; d > 0; d-- {
		if w[d] > 0 {
			return d
		}
	}
	return 0
}

// generator builds functions into a reused Func, drawing from one job's
// streams (seedJob).
type generator struct {
	cfg UtilityConfig
	// The job's streams: start value, decay model, shape (rng: the shape's).
	startSrc, modelSrc, shapeSrc *rand.PCG
	startRng, modelRng, rng      *rand.Rand
	f                            utility.Func
	times                        []int64
	values                       []float64
}

// The second seeds of a job's streams. Part of the output's
// reproducibility, as Stream's values are.
const (
	jobStreamStart = 1
	jobStreamModel = 2
	jobStreamShape = 3
)

func newGenerator(cfg UtilityConfig) *generator {
	g := &generator{cfg: cfg, startSrc: &rand.PCG{}, modelSrc: &rand.PCG{}, shapeSrc: &rand.PCG{}}
	g.startRng, g.modelRng, g.rng = rand.New(g.startSrc), rand.New(g.modelSrc), rand.New(g.shapeSrc)
	return g
}

// seedJob starts the next job's streams from seed.
func (g *generator) seedJob(seed uint64) {
	g.startSrc.Seed(seed, jobStreamStart)
	g.modelSrc.Seed(seed, jobStreamModel)
	g.shapeSrc.Seed(seed, jobStreamShape)
}

func (g *generator) round(x float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', g.cfg.Digits, 64), 64)
	return r
}

func (g *generator) build(d Decay, start float64, deadline int64) {
	pts := g.f.Points[:0]
	pts = append(pts, utility.Point{Time: 0, Value: start})
	switch d {
	case DecayStep:
		eps := g.cfg.Epsilon
		// ts in [1, deadline-2eps-1] so that ts < ts+eps < deadline-eps < deadline.
		ts := 1 + g.rng.Int64N(deadline-2*eps-1)
		v := g.round(g.rng.Float64() * start)
		pts = append(pts,
			utility.Point{Time: float64(ts), Value: start},
			utility.Point{Time: float64(ts + eps), Value: v})
		if deadline-eps > ts+eps {
			pts = append(pts, utility.Point{Time: float64(deadline - eps), Value: v})
		}
	default:
		k := min(int64(g.cfg.Points), deadline-1)
		g.times = g.times[:0]
		for int64(len(g.times)) < k {
			t := 1 + g.rng.Int64N(deadline-1)
			if !slices.Contains(g.times, t) {
				g.times = append(g.times, t)
			}
		}
		slices.Sort(g.times)
		g.values = g.values[:0]
		prev := start
		for range k {
			var v float64
			if d == DecayLinear {
				v = g.rng.Float64() * start
			} else {
				v = g.rng.Float64() * prev
				prev = v
			}
			g.values = append(g.values, g.round(v))
		}
		slices.SortFunc(g.values, func(a, b float64) int { return -cmpFloat(a, b) })
		for i, t := range g.times {
			pts = append(pts, utility.Point{Time: float64(t), Value: g.values[i]})
		}
	}
	pts = append(pts, utility.Point{Time: float64(deadline), Value: 0})
	g.f.Points = pts
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
