package augment

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// IntervalChoice is one checkpoint interval and its weight in the survey model.
type IntervalChoice struct {
	Minutes int64
	Weight  float64
}

// SurveyIntervals models the 219 intervals of Lee's checkpoint survey (thesis
// 6.5.2, Fig. 6.2): the counts of 5, 10 and 30 minutes are the published ones
// (36, 38, 34, the most common answers, together about half); the rest of the
// mass is our reading of the CDF constrained by the published median of 15
// minutes (the 10-minute answers end at 41% of the mass, 15 minutes at 52%).
var SurveyIntervals = []IntervalChoice{
	{1, 6}, {2, 6}, {3, 4}, {5, 36}, {10, 38}, {15, 24}, {20, 12},
	{30, 34}, {45, 6}, {60, 30}, {120, 15}, {240, 8},
}

// CheckpointConfig configures Checkpoint. The zero value means the defaults,
// which reproduce Lee's survey (thesis 6.5, Tables 6.1-6.2).
type CheckpointConfig struct {
	// JobShare is the share of jobs that checkpoint (survey: 16%).
	JobShare float64
	// WorkShare is their share of processor-seconds (survey: 57% of node-hours).
	WorkShare float64
	// DebugShare is the share of jobs, the smallest by processor-seconds, that
	// never checkpoint (survey: 40% of jobs were debug/trial runs, 3% of
	// node-hours, and none checkpointed).
	DebugShare float64
	// QuarterShare is the share of checkpointing jobs whose interval is drawn
	// only among intervals below a quarter of their runtime (survey: 96%).
	QuarterShare float64
	// Intervals is the interval distribution; nil means SurveyIntervals.
	Intervals []IntervalChoice
	// MinRuntime: jobs running less than this many seconds never checkpoint.
	MinRuntime int64
}

func (c CheckpointConfig) withDefaults() CheckpointConfig {
	if c.JobShare == 0 {
		c.JobShare = 0.16
	}
	if c.WorkShare == 0 {
		c.WorkShare = 0.57
	}
	if c.DebugShare == 0 {
		c.DebugShare = 0.40
	}
	if c.QuarterShare == 0 {
		c.QuarterShare = 0.96
	}
	if c.Intervals == nil {
		c.Intervals = SurveyIntervals
	}
	return c
}

func (c CheckpointConfig) validate() error {
	in01 := func(x float64) bool { return x >= 0 && x <= 1 }
	switch {
	case !in01(c.JobShare) || !in01(c.WorkShare) || !in01(c.DebugShare) || !in01(c.QuarterShare):
		return errors.New("shares must be in [0, 1]")
	case c.JobShare+c.DebugShare > 1:
		return errors.New("job share plus debug share exceed 1")
	}
	var sum float64
	for _, iv := range c.Intervals {
		if iv.Minutes < 1 || !(iv.Weight >= 0) || math.IsInf(iv.Weight, 0) {
			return errors.New("intervals must be >= 1 minute with non-negative weights")
		}
		sum += iv.Weight
	}
	if sum == 0 {
		return errors.New("interval weights sum to 0")
	}
	return nil
}

// CheckpointReport is what Checkpoint computed and did.
type CheckpointReport struct {
	Config CheckpointConfig
	// The selection model: P(checkpoint) = min(1, C x area^Beta) for the
	// jobs not in the debug share, 0 for those; C and Beta are solved so that
	// the expected job and work shares equal the targets.
	C, Beta float64
	// DebugArea is the largest area in the debug share: the round(DebugShare
	// x known) smallest jobs, which never checkpoint. Jobs of this area past
	// that count (ties, in file order) are not in it.
	DebugArea float64
	Debug     int     // jobs in the debug share
	Solved    bool    // false: the targets were out of reach, nearest shares used
	ExpJobs   float64 // expected job share under the solved model
	ExpWork   float64 // expected work share
	Known     int     // jobs with known processors and runtime
	Unknown   int     // jobs with unknown size: never checkpoint
	Jobs      int     // jobs marked
	JobsShare float64 // realised shares
	WorkShare float64
	// Interval statistics over the marked jobs.
	MedianMinutes float64
	ByMinutes     map[int64]int
	UnderQuarter  float64 // share with interval < runtime/4
	UnderFiftieth float64 // share with interval <= runtime/50 (survey: 67 of 120)
}

// Notes returns the header Note lines.
func (r *CheckpointReport) Notes() []string {
	c := r.Config
	var iv []string
	for _, x := range c.Intervals {
		iv = append(iv, strconv.FormatInt(x.Minutes, 10)+":"+fmtFloat(x.Weight))
	}
	solved := "solved"
	if !r.Solved {
		solved = "NOT reachable, nearest"
	}
	return []string{
		fmt.Sprintf("swfaugment checkpoint (Lee 2009, ch. 6 survey): targets jobs=%s work=%s (processor-seconds of runtime), smallest %s of jobs by processor-seconds never checkpoint; others with P=min(1, C x area^beta); interval minutes:weight %s, drawn below runtime/4 for %s of jobs",
			fmtPct(c.JobShare), fmtPct(c.WorkShare), fmtPct(c.DebugShare), strings.Join(iv, ","), fmtPct(c.QuarterShare)),
		fmt.Sprintf("swfaugment checkpoint: model %s C=%.6g beta=%.6g debug cut the %d smallest jobs (area<=%s, ties in file order); expected jobs=%s work=%s; marked %d of %d jobs of known size: jobs=%s work=%s; %d of unknown size not marked; interval median %s min, under runtime/4 %s, at most runtime/50 %s",
			solved, r.C, r.Beta, r.Debug, fmtFloat(r.DebugArea), fmtPct(r.ExpJobs), fmtPct(r.ExpWork),
			r.Jobs, r.Known, fmtPct(r.JobsShare), fmtPct(r.WorkShare), r.Unknown,
			fmtFloat(r.MedianMinutes), fmtPct(r.UnderQuarter), fmtPct(r.UnderFiftieth)),
	}
}

// Checkpoint marks jobs that checkpoint with ckpt=S (seconds) and removes any
// existing ckpt= from the others. The model (our construction; the thesis
// publishes shares, not a model): the DebugShare smallest jobs by area never
// checkpoint; every other job checkpoints with probability min(1, C x area^Beta),
// with C and Beta solved on the trace so that the expected shares of jobs and of
// processor-seconds equal JobShare and WorkShare. Bigger jobs are thus more
// likely to checkpoint, as in the survey. The interval is drawn from Intervals,
// restricted to intervals below runtime/4 with probability QuarterShare (all
// intervals when none is below it).
func Checkpoint(jobs []swf.Job, cfg CheckpointConfig, rng *rand.Rand) (*CheckpointReport, error) {
	survey := NewCheckpointSurvey(cfg)
	for i := range jobs {
		survey.Observe(&jobs[i])
	}
	m, err := survey.Model(rng)
	if err != nil {
		return nil, err
	}
	for i := range jobs {
		m.Apply(&jobs[i])
	}
	return m.Report(), nil
}

// CheckpointSurvey is the first pass of Checkpoint over a trace streamed
// twice: it sees every job, in file order, before the model marks the
// first. It keeps each job's area (8 bytes a job of known size) and one bit
// for --ckpt-min-runtime, not the jobs.
type CheckpointSurvey struct {
	cfg       CheckpointConfig
	areas     []float64 // of the jobs of known size, in file order
	tooShort  bitset    // by index in areas: runtime below cfg.MinRuntime
	totalWork float64
	unknown   int
}

// NewCheckpointSurvey returns the survey for a configuration (the zero
// value means the defaults, as for Checkpoint).
func NewCheckpointSurvey(cfg CheckpointConfig) *CheckpointSurvey {
	return &CheckpointSurvey{cfg: cfg.withDefaults()}
}

// Observe adds the next job of the trace.
func (s *CheckpointSurvey) Observe(j *swf.Job) {
	a := Area(j)
	if a < 0 {
		s.unknown++
		return
	}
	if j.RunTime < s.cfg.MinRuntime {
		s.tooShort.set(len(s.areas))
	}
	s.areas = append(s.areas, a)
	s.totalWork += a
}

// Model solves the model on the jobs observed and returns it, ready to mark
// the same jobs in the same order. The survey's memory is released.
func (s *CheckpointSurvey) Model(rng *rand.Rand) (*CheckpointModel, error) {
	cfg := s.cfg
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	m := &CheckpointModel{cfg: cfg, rng: rng, totalWork: s.totalWork}
	m.rep = CheckpointReport{Config: cfg, ByMinutes: map[int64]int{}, Known: len(s.areas), Unknown: s.unknown}
	areas, tooShort := s.areas, s.tooShort
	s.areas, s.tooShort = nil, nil
	if len(areas) == 0 || s.totalWork == 0 {
		m.none = true
		return m, nil
	}
	// Debug cut: the DebugShare smallest jobs, ties by file order. They are
	// the jobs of area below the cut's and the first cutTies, in file
	// order, of the cut's area: what a stable sort by area puts first.
	nDebug := int(math.Round(cfg.DebugShare * float64(len(areas))))
	m.rep.Debug = nDebug
	if nDebug > 0 {
		sorted := slices.Clone(areas)
		slices.Sort(sorted)
		m.cut = sorted[nDebug-1]
		below, _ := slices.BinarySearch(sorted, m.cut)
		m.cutTies = nDebug - below
		m.rep.DebugArea = m.cut
	}
	var logArea, eligArea []float64 // of eligible jobs, file order
	var cut debugCut
	for k, a := range areas {
		if !m.debug(&cut, a) && a > 0 && !tooShort.get(k) {
			logArea = append(logArea, math.Log(a))
			eligArea = append(eligArea, a)
		}
	}
	targetJobs := cfg.JobShare * float64(len(areas))
	solve := newShareSolver(logArea, eligArea, s.totalWork)
	logC, beta, solved := solve.fit(targetJobs, cfg.WorkShare)
	m.logC, m.beta = logC, beta
	m.rep.C, m.rep.Beta, m.rep.Solved = math.Exp(logC), beta, solved
	m.rep.ExpJobs = solve.expJobs(logC, beta) / float64(len(areas))
	m.rep.ExpWork = solve.expWork(logC, beta)
	return m, nil
}

// CheckpointModel marks jobs job by job, in file order, as Checkpoint does.
type CheckpointModel struct {
	cfg        CheckpointConfig
	rng        *rand.Rand
	rep        CheckpointReport
	none       bool // no job of known size or no work: no job checkpoints, nothing is drawn
	cut        float64
	cutTies    int
	ties       debugCut
	logC, beta float64
	totalWork  float64
	// Over the marked jobs.
	marked, underQ, under50 int
	work                    float64
}

// debugCut counts, in file order, the jobs whose area is the cut's.
type debugCut struct{ ties int }

// debug reports whether a job of known size, of area a, the next in file
// order, is in the debug share.
func (m *CheckpointModel) debug(c *debugCut, a float64) bool {
	switch {
	case m.rep.Debug == 0 || a > m.cut:
		return false
	case a < m.cut:
		return true
	}
	c.ties++
	return c.ties <= m.cutTies
}

// Apply marks the next job of the trace with ckpt=S, or removes its ckpt=.
func (m *CheckpointModel) Apply(j *swf.Job) {
	if m.none {
		j.DeleteExtra(KeyCheckpoint)
		return
	}
	// Three draws per job, always, so streams do not shift between jobs.
	u, v := m.rng.Float64(), m.rng.Float64()
	iv := m.rng.Float64()
	a := Area(j)
	eligible := a >= 0 && !m.debug(&m.ties, a) && a > 0 && j.RunTime >= m.cfg.MinRuntime
	if !eligible || u >= prob(m.logC, m.beta, math.Log(a)) {
		j.DeleteExtra(KeyCheckpoint)
		return
	}
	minutes := drawInterval(m.cfg.Intervals, j.RunTime, v < m.cfg.QuarterShare, iv)
	secs := minutes * 60
	j.SetExtra(KeyCheckpoint, strconv.FormatInt(secs, 10))
	m.marked++
	m.rep.ByMinutes[minutes]++
	m.work += a
	if 4*secs < j.RunTime {
		m.underQ++
	}
	if 50*secs <= j.RunTime {
		m.under50++
	}
}

// Report returns what the model computed and, over the jobs so far, did.
func (m *CheckpointModel) Report() *CheckpointReport {
	rep := m.rep
	rep.ByMinutes = maps.Clone(m.rep.ByMinutes)
	if m.none {
		return &rep
	}
	rep.Jobs = m.marked
	rep.JobsShare = float64(rep.Jobs) / float64(rep.Known)
	rep.WorkShare = m.work / m.totalWork
	if m.marked > 0 {
		rep.MedianMinutes = medianOfCounts(rep.ByMinutes, m.marked)
		rep.UnderQuarter = float64(m.underQ) / float64(m.marked)
		rep.UnderFiftieth = float64(m.under50) / float64(m.marked)
	}
	return &rep
}

// medianOfCounts is the median of n values given as value -> count: the
// middle one, or the mean of the middle two.
func medianOfCounts(counts map[int64]int, n int) float64 {
	values := slices.Sorted(maps.Keys(counts))
	nth := func(k int) int64 { // the k-th value in increasing order, from 0
		for _, v := range values {
			if k < counts[v] {
				return v
			}
			k -= counts[v]
		}
		panic("augment: median of fewer values than counted")
	}
	if n%2 == 1 {
		return float64(nth(n / 2))
	}
	return float64(nth(n/2-1)+nth(n/2)) / 2
}

// bitset is a set of small non-negative integers.
type bitset []uint64

func (b *bitset) set(i int) {
	for len(*b) <= i/64 {
		*b = append(*b, 0)
	}
	(*b)[i/64] |= 1 << (i % 64)
}

func (b bitset) get(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

func prob(logC, beta, logArea float64) float64 {
	return math.Min(1, math.Exp(logC+beta*logArea))
}

// drawInterval picks an interval in minutes; with underQuarter only among
// intervals strictly below runtime/4 (all when none is).
func drawInterval(choices []IntervalChoice, runtime int64, underQuarter bool, u float64) int64 {
	ok := func(c IntervalChoice) bool { return !underQuarter || 4*c.Minutes*60 < runtime }
	var total float64
	for _, c := range choices {
		if ok(c) {
			total += c.Weight
		}
	}
	if total == 0 {
		underQuarter = false
		for _, c := range choices {
			total += c.Weight
		}
	}
	x := u * total
	last := choices[0].Minutes
	for _, c := range choices {
		if !ok(c) || c.Weight == 0 {
			continue
		}
		last = c.Minutes
		if x < c.Weight {
			return c.Minutes
		}
		x -= c.Weight
	}
	return last
}

// shareSolver finds C and Beta of P = min(1, C x area^Beta).
type shareSolver struct {
	logArea, area []float64
	totalWork     float64
}

func newShareSolver(logArea, area []float64, totalWork float64) *shareSolver {
	return &shareSolver{logArea: logArea, area: area, totalWork: totalWork}
}

func (s *shareSolver) expJobs(logC, beta float64) float64 {
	var sum float64
	for _, la := range s.logArea {
		sum += prob(logC, beta, la)
	}
	return sum
}

func (s *shareSolver) expWork(logC, beta float64) float64 {
	var sum float64
	for k, la := range s.logArea {
		sum += prob(logC, beta, la) * s.area[k]
	}
	return sum / s.totalWork
}

// logCFor solves expJobs(logC, beta) = target: Newton's method on logC
// (expJobs increases with it; its derivative is the sum of the probabilities
// below 1), kept inside a shrinking bisection bracket.
func (s *shareSolver) logCFor(target, beta float64) float64 {
	lo, hi := -300.0, 300.0
	x := 0.0
	for range 200 {
		var sum, deriv float64
		for _, la := range s.logArea {
			p := prob(x, beta, la)
			sum += p
			if p < 1 {
				deriv += p
			}
		}
		diff := sum - target
		if math.Abs(diff) <= 1e-9*max(target, 1) {
			return x
		}
		if diff < 0 {
			lo = x
		} else {
			hi = x
		}
		next := x - diff/deriv
		if deriv == 0 || !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		if next == x || hi-lo < 1e-12 {
			return x
		}
		x = next
	}
	return x
}

// fit solves both shares: for each beta, C matches the job count; the work
// share then grows with beta (mass moves to bigger jobs), so beta is bisected.
func (s *shareSolver) fit(targetJobs, workShare float64) (logC, beta float64, ok bool) {
	if targetJobs > float64(len(s.logArea)) {
		targetJobs = float64(len(s.logArea))
	}
	work := func(b float64) float64 { return s.expWork(s.logCFor(targetJobs, b), b) }
	lo, hi := 0.0, 8.0
	wlo, whi := work(lo), work(hi)
	switch {
	case workShare <= wlo:
		return s.logCFor(targetJobs, lo), lo, workShare == wlo
	case workShare >= whi:
		return s.logCFor(targetJobs, hi), hi, workShare == whi
	}
	for range 32 {
		mid := (lo + hi) / 2
		if work(mid) < workShare {
			lo = mid
		} else {
			hi = mid
		}
	}
	beta = (lo + hi) / 2
	return s.logCFor(targetJobs, beta), beta, true
}
