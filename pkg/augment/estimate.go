package augment

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Untouched says what field 9 of a job that the qualitative estimator does not
// convert becomes.
type Untouched int

const (
	// UntouchedExact: the runtime. Guim et al.'s "fake estimator" replaces every
	// user estimate with one computed from the real runtime (3.1), so a job it
	// does not convert is estimated exactly. The default.
	UntouchedExact Untouched = iota
	// UntouchedUser: the user's estimate from the log stays.
	UntouchedUser
)

func (u Untouched) String() string {
	if u == UntouchedUser {
		return "user"
	}
	return "exact"
}

// Target says where an estimate transform writes its values.
type Target int

const (
	// TargetEstimate rewrites field 9, the requested time, which simulators
	// use as the kill time; the original goes to est0=. The default.
	TargetEstimate Target = iota
	// TargetPrediction writes the value as a pred= token and leaves field 9
	// alone: a runtime prediction the scheduler uses while the user's request
	// stays the kill time (swfsim --predictor token). This is our reading of
	// Guim et al.'s setup, not their words: their "fake estimator" gave the
	// scheduler its estimates in Tsafrir et al.'s simulator, which "allows
	// adding predictors modules" (section 3.1); docs/swfaugment.md quotes
	// what the paper says.
	TargetPrediction
)

func (t Target) String() string {
	if t == TargetPrediction {
		return "prediction"
	}
	return "estimate"
}

// QuantConfig configures QuantitativeErrors (Guim et al. 3.2.2). Error and
// Stdev are percentages of the runtime, as in the paper's experiments (errors
// 5..10000, stdevs 0.5..1000).
type QuantConfig struct {
	Error, Stdev float64
	Category     Category
	// PerfectShare is the share of jobs estimated perfectly in category 11
	// ("equal"); the paper uses 50% (0 means 0.5; use a tiny value for none).
	PerfectShare float64
	// Target is where the values go: field 9 (the zero value) or pred=.
	Target Target
}

// EstimateReport is what an estimate transform did.
type EstimateReport struct {
	Note      []string
	Changed   int // jobs whose field 9 was rewritten (est0= kept)
	Capped    int // of which the estimate was capped at swf.MaxTime
	Perfect   int // of which estimated exactly: the value written equals the runtime
	Floored   int // of which runtime 0 raised to the 1 s floor (counted in Over)
	Converted int // qualitative: jobs whose nature was changed
	// Unshortened counts, qualitative, the large jobs drawn for conversion
	// that no estimate could make short: the lower runtime bound is at or
	// below 1 s, the smallest estimate written. They are not converted.
	Unshortened int
	Unknown     int // jobs with unknown runtime: untouched
	Over, Under int // estimate above / below the runtime
	Target      Target
	// Category is the quantitative category (0 for the other transforms);
	// Exempt counts, of the jobs changed, those it estimated exactly
	// because they are in the category (1-9) or in the perfect share (11):
	// the others, Changed - Exempt, got the error.
	Category Category
	Exempt   int
	bounds   *Bounds // the category's bounds, for CategoryWarning
	// erredUnrunnable counts the jobs given the error that have no
	// processor count, which a simulator skips (CategoryWarning).
	erredUnrunnable int
}

// Notes returns the header Note lines.
func (r *EstimateReport) Notes() []string {
	what := "rewrote field 9 of %d jobs (original in est0=)"
	if r.Target == TargetPrediction {
		what = "wrote pred= on %d jobs as runtime predictions (field 9, the kill time, unchanged; use swfsim --predictor token)"
	}
	exempt := ""
	if r.Category != 0 {
		exempt = fmt.Sprintf("%d exempt by category %d (estimated exactly) and %d given the error; ", r.Exempt, int(r.Category), r.Changed-r.Exempt)
	}
	notes := append(r.Note, fmt.Sprintf("swfaugment estimate: "+what+": %s%d exact, %d over and %d under the runtime%s; %d jobs with unknown runtime untouched",
		r.Changed, exempt, r.Perfect, r.Over, r.Under, convertedText(r), r.Unknown))
	if w := r.CategoryWarning(); w != "" {
		notes = append(notes, "swfaugment estimate: "+w)
	}
	return notes
}

// CategoryWarning says why, when a category 1-9 exempts none or every one of
// the jobs of known runtime, the run is another experiment than its number
// says: none is category 10's (every job gets the error), every one a run
// without errors. "" otherwise, and for the other transforms.
func (r *EstimateReport) CategoryWarning() string {
	c := r.Category
	if c < minCat || c > CatNotSmall || r.Changed == 0 || r.bounds == nil {
		return ""
	}
	if r.Exempt > 0 && r.Exempt < r.Changed && r.Exempt+r.erredUnrunnable == r.Changed {
		return fmt.Sprintf("--error-category %d (%s: %s) exempts %d of the %d jobs of known runtime, and the other %d have no processor count, which swfsim skips: no simulated job gets the error, whatever --error-quant",
			int(c), c, r.bounds.condition(c), r.Exempt, r.Changed, r.erredUnrunnable)
	}
	if r.Exempt > 0 && r.Exempt < r.Changed {
		return ""
	}
	cond := r.bounds.condition(c)
	what := fmt.Sprintf("--error-category %d (%s: %s)", int(c), c, cond)
	if r.Exempt == 0 {
		why := "see the bounds Note; the --rt-*-bound, --procs-* and --area-* flags set the bounds"
		if strings.Contains(cond, "none") {
			why = "a bound the category needs is none: no job has that variable known; " + why
		}
		if c == CatTopApps {
			why = "see the bounds Note"
			if len(r.bounds.TopApps) == 0 {
				why = "no job has an application number: field 14 is -1 in every job"
			}
		}
		return fmt.Sprintf("%s exempts none of the %d jobs of known runtime: every job gets the error, as with category 10 (pure equal) (%s)", what, r.Changed, why)
	}
	return fmt.Sprintf("%s exempts all %d jobs of known runtime: every job is estimated exactly and none gets the error, whatever --error-quant (see the bounds Note; the --rt-*-bound, --procs-* and --area-* flags set the bounds)", what, r.Changed)
}

func convertedText(r *EstimateReport) string {
	text := ""
	if r.Floored > 0 {
		text = fmt.Sprintf(" (of the over, %d of runtime 0 at the 1 s floor)", r.Floored)
	}
	if r.Converted > 0 {
		text += fmt.Sprintf(", %d converted", r.Converted)
	}
	if r.Unshortened > 0 {
		text += fmt.Sprintf(", %d large jobs drawn for conversion left as they are (no estimate of whole seconds, at least 1, is below the lower runtime bound)", r.Unshortened)
	}
	if r.Capped > 0 {
		text += fmt.Sprintf(", %d capped at swfkit's time bound %d s", r.Capped, int64(swf.MaxTime))
	}
	return text
}

// record sets field 9 (or, with TargetPrediction, the pred= token) to x
// rounded (roundEstimate) and counts it.
func (r *EstimateReport) record(j *swf.Job, x float64) {
	est, capped := roundEstimate(x)
	if r.Target == TargetPrediction {
		j.SetExtra(KeyPrediction, strconv.FormatInt(est, 10))
	} else {
		setEstimate(j, est)
	}
	r.Changed++
	if capped {
		r.Capped++
	}
	// The counts compare what is written with the runtime, so that they are
	// the output's: a runtime-0 job written as 1 s is over, however it was
	// meant.
	switch {
	case est == j.RunTime:
		r.Perfect++
	case est > j.RunTime:
		r.Over++
		if j.RunTime == 0 && est == 1 {
			r.Floored++
		}
	default:
		r.Under++
	}
}

// QuantitativeErrors replaces field 9 following the pseudo-code of Guim et al.
// 3.2.2: per job e ~ Normal(Error, Stdev) (in percent, E = e/100); a job in
// the category (1-9), or in the perfect share of category 11, gets E = 0;
// then with probability 1/2 the estimate is rt + E x rt, else |rt - E x rt|.
// Estimates are rounded to whole seconds, at least 1 s. Every job draws the
// same three numbers whatever its branch.
func QuantitativeErrors(jobs []swf.Job, b *Bounds, cfg QuantConfig, rng *rand.Rand) (*EstimateReport, error) {
	e, err := NewQuantitative(b, cfg, rng)
	if err != nil {
		return nil, err
	}
	return e.applyAll(jobs), nil
}

// Estimator applies one estimate transform job by job, in file order, and
// counts what it did. It is what QuantitativeErrors, QualitativeErrors and
// ApplyModel do to each job of a slice, for a trace that is streamed.
type Estimator struct {
	rep   *EstimateReport
	apply func(j *swf.Job)
}

// Apply transforms the next job of the trace.
func (e *Estimator) Apply(j *swf.Job) { e.apply(j) }

// Report returns what the estimator did to the jobs so far.
func (e *Estimator) Report() *EstimateReport { return e.rep }

func (e *Estimator) applyAll(jobs []swf.Job) *EstimateReport {
	for i := range jobs {
		e.apply(&jobs[i])
	}
	return e.rep
}

// NewQuantitative returns the estimator of QuantitativeErrors.
func NewQuantitative(b *Bounds, cfg QuantConfig, rng *rand.Rand) (*Estimator, error) {
	if cfg.Category < minCat || cfg.Category > maxCat {
		return nil, fmt.Errorf("estimate: category %d is not in 1..11", cfg.Category)
	}
	if !(cfg.Stdev >= 0) || math.IsNaN(cfg.Error) || math.IsInf(cfg.Error, 0) || math.IsInf(cfg.Stdev, 0) {
		return nil, errors.New("estimate: error and stdev must be finite, stdev non-negative")
	}
	if cfg.PerfectShare == 0 {
		cfg.PerfectShare = 0.5
	}
	if cfg.PerfectShare < 0 || cfg.PerfectShare > 1 {
		return nil, errors.New("estimate: perfect share must be in [0, 1]")
	}
	rep := &EstimateReport{Target: cfg.Target, Category: cfg.Category, bounds: b}
	rep.Note = []string{fmt.Sprintf("swfaugment estimate quantitative (Guim et al. 2007, 3.2.2, Table 2): error=%s%% stdev=%s%% category=%d (%s)%s; an erroneous estimate is rt+E*rt or |rt-E*rt| with probability 1/2 each, E~N(error,stdev)/100; rounded, at least 1 s",
		fmtFloat(cfg.Error), fmtFloat(cfg.Stdev), int(cfg.Category), cfg.Category, exemptText(cfg))}
	normal := distuv.Normal{Mu: cfg.Error, Sigma: cfg.Stdev, Src: rngSource{rng}}
	return &Estimator{rep: rep, apply: func(j *swf.Job) {
		pick := rng.Float64()
		e := normal.Rand() / 100
		sign := rng.Float64()
		if j.RunTime < 0 {
			rep.Unknown++
			return
		}
		exempt := b.Matches(j, cfg.Category)
		if cfg.Category == CatEqual {
			exempt = pick < cfg.PerfectShare
		}
		if exempt {
			e = 0
			rep.Exempt++
		} else if Procs(j) < 1 {
			rep.erredUnrunnable++
		}
		rt := float64(j.RunTime)
		var est float64
		if sign >= 0.5 {
			est = rt + e*rt
		} else {
			est = math.Abs(rt - e*rt)
		}
		rep.record(j, est)
	}}, nil
}

// exemptText says which jobs category cfg.Category estimates exactly and
// which get the error: categories 1-9 exempt their jobs, 10 exempts none and
// 11 a random share.
func exemptText(cfg QuantConfig) string {
	switch cfg.Category {
	case CatPureEqual:
		return "; no job exempt: every job gets the error"
	case CatEqual:
		return fmt.Sprintf(" perfect-share=%s; each job estimated exactly with that probability (chosen at random, whatever its category), the others get the error", fmtPct(cfg.PerfectShare))
	}
	return "; jobs in the category estimated exactly, the others get the error"
}

// Conversion is a qualitative-error type of Guim et al.'s Table 5.
type Conversion int

// The conversions; the number is the paper's.
const (
	ShortToLarge Conversion = 1 // s2l
	LargeToShort Conversion = 2 // l2s
	BothWays     Conversion = 3 // both
)

// ParseConversion parses s2l, l2s or both (or 1, 2, 3).
func ParseConversion(s string) (Conversion, error) {
	switch strings.ToLower(s) {
	case "s2l", "1":
		return ShortToLarge, nil
	case "l2s", "2":
		return LargeToShort, nil
	case "both", "3":
		return BothWays, nil
	}
	return 0, fmt.Errorf("conversion %q: want s2l, l2s or both", s)
}

func (c Conversion) String() string {
	switch c {
	case ShortToLarge:
		return "s2l"
	case LargeToShort:
		return "l2s"
	case BothWays:
		return "both"
	}
	return strconv.Itoa(int(c))
}

// QualConfig configures QualitativeErrors (Guim et al. 3.3.1). Percent and
// Stdev are percentages of jobs.
type QualConfig struct {
	Conversion     Conversion
	Percent, Stdev float64
	Untouched      Untouched
	// Target is where the values go: field 9 (the zero value) or pred=.
	Target Target
}

// QualitativeErrors converts the nature of jobs following the pseudo-code of
// Guim et al. 3.3.1: per job p ~ Normal(Percent, Stdev) and u ~ U(0, 100); a
// short job (rt < lower) is converted when the conversion allows it and p > u,
// to rt + upper (at least the first whole second above upper, so that a
// runtime of 0 is made large too); a large job (rt > upper) likewise to rt - upper, or lower - 1
// when that is still above the lower bound. Jobs not converted get the runtime
// or keep the user's estimate, as cfg.Untouched says.
func QualitativeErrors(jobs []swf.Job, b *Bounds, cfg QualConfig, rng *rand.Rand) (*EstimateReport, error) {
	e, err := NewQualitative(b, cfg, rng)
	if err != nil {
		return nil, err
	}
	return e.applyAll(jobs), nil
}

// NewQualitative returns the estimator of QualitativeErrors.
func NewQualitative(b *Bounds, cfg QualConfig, rng *rand.Rand) (*Estimator, error) {
	if cfg.Conversion < ShortToLarge || cfg.Conversion > BothWays {
		return nil, fmt.Errorf("estimate: conversion %d is not in 1..3", cfg.Conversion)
	}
	if !(cfg.Stdev >= 0) || math.IsNaN(cfg.Percent) || math.IsInf(cfg.Percent, 0) || math.IsInf(cfg.Stdev, 0) {
		return nil, errors.New("estimate: percent and stdev must be finite, stdev non-negative")
	}
	rep := &EstimateReport{Target: cfg.Target}
	bounds := fmtFloat(b.RuntimeLower) + ".." + fmtFloat(b.RuntimeUpper) + " s"
	if math.IsNaN(b.RuntimeLower) || math.IsNaN(b.RuntimeUpper) {
		bounds = "none (no job with a known runtime, so none to convert)"
	}
	rep.Note = []string{fmt.Sprintf("swfaugment estimate qualitative (Guim et al. 2007, 3.3.1, Table 5): conversion=%s percent=%s%% stdev=%s%% with runtime bounds %s; short->rt+upper (above upper), large->rt-upper (at most lower-1); jobs not converted: %s",
		cfg.Conversion, fmtFloat(cfg.Percent), fmtFloat(cfg.Stdev), bounds, cfg.Untouched)}
	normal := distuv.Normal{Mu: cfg.Percent, Sigma: cfg.Stdev, Src: rngSource{rng}}
	s2l := cfg.Conversion == ShortToLarge || cfg.Conversion == BothWays
	l2s := cfg.Conversion == LargeToShort || cfg.Conversion == BothWays
	return &Estimator{rep: rep, apply: func(j *swf.Job) {
		p := normal.Rand()
		u := 100 * rng.Float64()
		if j.RunTime < 0 {
			rep.Unknown++
			return
		}
		rt := float64(j.RunTime)
		if rt < b.RuntimeLower && s2l && p > u {
			// A job is large above the upper bound: a runtime of 0 would
			// land on it (and a fractional bound round down onto it), so
			// the estimate is at least the first whole second above it.
			rep.Converted++
			rep.record(j, max(rt+b.RuntimeUpper, math.Floor(b.RuntimeUpper)+1))
			return
		}
		if rt > b.RuntimeUpper && l2s && p > u {
			est := rt - b.RuntimeUpper
			// The estimate is written in whole seconds: it must be below
			// the lower bound once rounded (40.5 would become 41 over a
			// bound of 40.5), or the job is not made short.
			if est > b.RuntimeLower || math.Round(est) >= b.RuntimeLower {
				est = b.RuntimeLower - 1
			}
			if w, _ := roundEstimate(est); float64(w) < b.RuntimeLower {
				rep.Converted++
				rep.record(j, est)
				return
			}
			// A lower bound at or below 1 s: no estimate of whole
			// seconds, at least 1, is short. The job stays what it is.
			rep.Unshortened++
		}
		switch {
		case cfg.Untouched == UntouchedExact:
			rep.record(j, rt)
		case cfg.Target == TargetPrediction:
			// The user's request is this job's prediction: swfsim
			// predicts a job without pred= its request, so a pred= left
			// by an earlier transform (a pipeline of two) must go.
			j.DeleteExtra(KeyPrediction)
		}
	}}, nil
}

// Model is one of Mu'alem & Feitelson's estimate models.
type Model struct {
	Kind string  // "exact", "scale" or "uniform"
	R    float64 // scale: estimate = R x runtime
	A, B float64 // uniform: estimate = runtime x U(A, B)
	// Target is where the values go: field 9 (the zero value) or pred=.
	Target Target
}

// ParseModel parses exact, scale:R or uniform:A,B.
func ParseModel(s string) (Model, error) {
	kind, arg, _ := strings.Cut(s, ":")
	bad := fmt.Errorf("estimate model %q: want exact, scale:R or uniform:A,B", s)
	switch kind {
	case "exact":
		if arg != "" {
			return Model{}, bad
		}
		return Model{Kind: kind}, nil
	case "scale":
		r, err := swf.ParseDecimal(arg)
		if err != nil {
			return Model{}, bad
		}
		if !(r > 0) || math.IsInf(r, 0) {
			return Model{}, fmt.Errorf("estimate model %q: the factor R of scale:R must be a positive number", s)
		}
		return Model{Kind: kind, R: r}, nil
	case "uniform":
		as, bs, ok := strings.Cut(arg, ",")
		a, err1 := swf.ParseDecimal(as)
		b, err2 := swf.ParseDecimal(bs)
		if !ok || err1 != nil || err2 != nil {
			return Model{}, bad
		}
		if !(a > 0) || !(b >= a) || math.IsInf(b, 0) {
			return Model{}, fmt.Errorf("estimate model %q: uniform:A,B wants 0 < A <= B (the estimate is the runtime times a factor drawn from [A, B])", s)
		}
		return Model{Kind: kind, A: a, B: b}, nil
	}
	return Model{}, bad
}

func (m Model) String() string {
	switch m.Kind {
	case "scale":
		return "scale:" + fmtFloat(m.R)
	case "uniform":
		return "uniform:" + fmtFloat(m.A) + "," + fmtFloat(m.B)
	}
	return m.Kind
}

// ApplyModel sets every estimate with known runtime to the model's value
// (Mu'alem & Feitelson): exact = runtime, scale:R = R x runtime, uniform:A,B =
// runtime x U(A, B), rounded to whole seconds, at least 1 s.
func ApplyModel(jobs []swf.Job, m Model, rng *rand.Rand) *EstimateReport {
	return NewModelEstimator(m, rng).applyAll(jobs)
}

// NewModelEstimator returns the estimator of ApplyModel.
func NewModelEstimator(m Model, rng *rand.Rand) *Estimator {
	rep := &EstimateReport{Target: m.Target, Note: []string{fmt.Sprintf("swfaugment estimate model (Mu'alem & Feitelson): %s; rounded, at least 1 s", m)}}
	unif := distuv.Uniform{Min: m.A, Max: m.B, Src: rngSource{rng}}
	return &Estimator{rep: rep, apply: func(j *swf.Job) {
		f := 1.0
		switch m.Kind {
		case "scale":
			f = m.R
		case "uniform":
			f = unif.Rand()
		}
		if j.RunTime < 0 {
			rep.Unknown++
			return
		}
		rep.record(j, f*float64(j.RunTime))
	}}
}
