package augment

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/swfkit/swfkit/pkg/swf"
)

// BoundsConfig says how Guim, Corbalan & Labarta's category bounds are computed
// (section 3.2.1, Table 3): upper = UpperFraction x the Percentile-th percentile
// of the variable, lower = LowerFraction x upper, for runtime, processors and
// area (runtime x processors) alike ("the bounds for the variable number of
// processors is computed in a similar way"). The zero value means the defaults.
type BoundsConfig struct {
	// Percentile in (0, 1]; default 0.95. The percentile is gonum's
	// stat.Quantile with stat.Empirical (the lowest value with at least that
	// share of values at or below it), which reproduces Table 4 exactly.
	Percentile float64
	// UpperFraction; default 0.5 (Table 3).
	UpperFraction float64
	// LowerFraction; default 0.04. Table 3 says 5%, but every lower bound in
	// Table 4 is 4% of its upper bound (KTH 956.88 = 0.04 x 23922, CTC 1152.2 =
	// 0.04 x 28804, LANL 224.27 ~ 0.04 x 5606), so the default follows Table 4.
	LowerFraction float64
	// TopApps is how many of the most executed applications (field 14) make
	// category 7 ("one of the most executed in the whole workload", a count the
	// paper does not give); default 10.
	TopApps int
	// Overrides: a value > 0 replaces the computed bound.
	RuntimeLower, RuntimeUpper, ProcsLower, ProcsUpper, AreaLower, AreaUpper float64
}

func (c BoundsConfig) withDefaults() BoundsConfig {
	if c.Percentile == 0 {
		c.Percentile = 0.95
	}
	if c.UpperFraction == 0 {
		c.UpperFraction = 0.5
	}
	if c.LowerFraction == 0 {
		c.LowerFraction = 0.04
	}
	if c.TopApps == 0 {
		c.TopApps = 10
	}
	return c
}

// Bounds are the category bounds of one trace. A variable known for no job
// of the trace (runtime, processors, or both for the area) has no bounds
// unless given: they are NaN, which matches no job, and its percentile is NaN
// too. No job then has the variable known, so no job's category depends on
// them: the transforms over the same trace are well defined, and a trace
// with no job of known runtime is left as it is.
type Bounds struct {
	Config                     BoundsConfig
	RuntimeLower, RuntimeUpper float64 // seconds
	ProcsLower, ProcsUpper     float64
	AreaLower, AreaUpper       float64 // processor-seconds
	TopApps                    []int64 // executable numbers, most executed first
	// Computed percentiles and the shares of short (runtime < lower) and large
	// (runtime > upper) jobs, as Table 4 reports them.
	RuntimePercentile, ProcsPercentile, AreaPercentile float64
	ShortShare, LargeShare                             float64
	// How many jobs had each variable known; a 0 means that variable's
	// bounds are NaN unless given in Config.
	KnownRuntimes, KnownProcs, KnownAreas int
}

// ComputeBounds computes the bounds of each variable over the jobs where it
// is known. It is BoundsSurvey over the jobs.
func ComputeBounds(jobs []swf.Job, cfg BoundsConfig) (*Bounds, error) {
	var s BoundsSurvey
	for i := range jobs {
		s.Observe(&jobs[i])
	}
	return s.Bounds(cfg)
}

// BoundsSurvey collects, job by job, what ComputeBounds needs: each job's
// runtime, processors and area where known (24 bytes a job, for the
// percentiles) and the executions per application. Its zero value is ready
// to use.
type BoundsSurvey struct {
	rt, procs, area []float64
	apps            map[int64]int
}

// Observe adds the next job of the trace.
func (s *BoundsSurvey) Observe(j *swf.Job) {
	// Each variable over the jobs where it is known: a job with unknown
	// processors still has a runtime (Table 4's LANL bound needs them).
	p := Procs(j)
	if j.RunTime >= 0 {
		s.rt = append(s.rt, float64(j.RunTime))
	}
	if p >= 0 {
		s.procs = append(s.procs, float64(p))
	}
	if j.RunTime >= 0 && p >= 0 {
		s.area = append(s.area, float64(p)*float64(j.RunTime))
	}
	if j.Executable >= 0 {
		if s.apps == nil {
			s.apps = map[int64]int{}
		}
		s.apps[j.Executable]++
	}
}

// Bounds computes the bounds over the jobs observed. It sorts the values
// collected: call it once.
func (s *BoundsSurvey) Bounds(cfg BoundsConfig) (*Bounds, error) {
	cfg = cfg.withDefaults()
	if !(cfg.Percentile > 0 && cfg.Percentile <= 1) || !(cfg.UpperFraction > 0) || !(cfg.LowerFraction > 0) || cfg.TopApps < 0 {
		return nil, fmt.Errorf("bounds: percentile must be in (0, 1] and fractions positive")
	}
	rt, procs, area, apps := s.rt, s.procs, s.area, s.apps
	b := &Bounds{Config: cfg, KnownRuntimes: len(rt), KnownProcs: len(procs), KnownAreas: len(area)}
	q := func(x []float64) float64 {
		if len(x) == 0 {
			return math.NaN() // no bounds: NaN matches no job
		}
		slices.Sort(x)
		return stat.Quantile(cfg.Percentile, stat.Empirical, x, nil)
	}
	b.RuntimePercentile, b.ProcsPercentile, b.AreaPercentile = q(rt), q(procs), q(area)
	pick := func(override, computed float64) float64 {
		if override > 0 {
			return override
		}
		// A fraction such as 0.04 is not exact in binary: 0.04 x 176912 is
		// 7076.4800000000005. Rounded to 12 significant digits the bound is the
		// decimal the paper's rule gives (7076.48, the float swfstat's upper/25
		// gives too), so the Note and every reader of it agree with the run.
		r, _ := strconv.ParseFloat(strconv.FormatFloat(computed, 'g', 12, 64), 64)
		return r
	}
	b.RuntimeUpper = pick(cfg.RuntimeUpper, cfg.UpperFraction*b.RuntimePercentile)
	b.RuntimeLower = pick(cfg.RuntimeLower, cfg.LowerFraction*b.RuntimeUpper)
	b.ProcsUpper = pick(cfg.ProcsUpper, cfg.UpperFraction*b.ProcsPercentile)
	b.ProcsLower = pick(cfg.ProcsLower, cfg.LowerFraction*b.ProcsUpper)
	b.AreaUpper = pick(cfg.AreaUpper, cfg.UpperFraction*b.AreaPercentile)
	b.AreaLower = pick(cfg.AreaLower, cfg.LowerFraction*b.AreaUpper)
	if b.RuntimeLower > b.RuntimeUpper || b.ProcsLower > b.ProcsUpper || b.AreaLower > b.AreaUpper {
		return nil, fmt.Errorf("bounds: a lower bound exceeds its upper bound (runtime %g/%g, processors %g/%g, area %g/%g)",
			b.RuntimeLower, b.RuntimeUpper, b.ProcsLower, b.ProcsUpper, b.AreaLower, b.AreaUpper)
	}
	var short, large int
	for _, r := range rt {
		if r < b.RuntimeLower {
			short++
		}
		if r > b.RuntimeUpper {
			large++
		}
	}
	if len(rt) > 0 {
		b.ShortShare = float64(short) / float64(len(rt))
		b.LargeShare = float64(large) / float64(len(rt))
	}

	type appCount struct {
		app int64
		n   int
	}
	var counts []appCount
	for a, n := range apps {
		counts = append(counts, appCount{a, n})
	}
	slices.SortFunc(counts, func(x, y appCount) int {
		if c := cmp.Compare(y.n, x.n); c != 0 {
			return c
		}
		return cmp.Compare(x.app, y.app)
	})
	for k := 0; k < len(counts) && k < cfg.TopApps; k++ {
		b.TopApps = append(b.TopApps, counts[k].app)
	}
	return b, nil
}

// Unbounded names the variables that have no bounds (known for no job and
// not given), for a warning; nil when every variable has its bounds.
func (b *Bounds) Unbounded() []string {
	var none []string
	for _, v := range []struct {
		name         string
		lower, upper float64
	}{{"runtime", b.RuntimeLower, b.RuntimeUpper}, {"processors", b.ProcsLower, b.ProcsUpper}, {"area", b.AreaLower, b.AreaUpper}} {
		if math.IsNaN(v.lower) || math.IsNaN(v.upper) {
			none = append(none, v.name)
		}
	}
	return none
}

// Note returns the header Note line describing the bounds; bounds given
// instead of computed are named at its end (a lower bound left to the rule
// follows the upper bound given).
func (b *Bounds) Note() string {
	c := b.Config
	var given []string
	for _, o := range []struct {
		flag string
		v    float64
	}{{"rt-upper-bound", c.RuntimeUpper}, {"rt-lower-bound", c.RuntimeLower}, {"procs-upper", c.ProcsUpper},
		{"procs-lower", c.ProcsLower}, {"area-upper", c.AreaUpper}, {"area-lower", c.AreaLower}} {
		if o.v > 0 {
			given = append(given, "--"+o.flag+" "+fmtFloat(o.v))
		}
	}
	note := b.note(c)
	if len(given) > 0 {
		note += "; given instead of the rule: " + strings.Join(given, ", ")
	}
	return note
}

func (b *Bounds) note(c BoundsConfig) string {
	pct := fmtFloat(100 * c.Percentile)
	// A variable without bounds says "none" where its range would be, so
	// that a reader of "runtime L..U" (swfstat) finds no range rather than
	// NaN; one known for no job but given says so instead of a percentile.
	variable := func(name, unit string, lower, upper, percentile float64, known int, what, extra string) string {
		switch {
		case math.IsNaN(lower) || math.IsNaN(upper):
			return fmt.Sprintf("%s none (no job with %s)", name, what)
		case known == 0:
			return fmt.Sprintf("%s %s..%s%s (no job with %s%s)", name, fmtFloat(lower), fmtFloat(upper), unit, what, extra)
		}
		jobs := "jobs"
		if known == 1 {
			jobs = "job"
		}
		return fmt.Sprintf("%s %s..%s%s (p%s=%s over %d %s%s)", name, fmtFloat(lower), fmtFloat(upper), unit, pct, fmtFloat(percentile), known, jobs, extra)
	}
	shares := fmt.Sprintf("; %s short, %s large", fmtPct(b.ShortShare), fmtPct(b.LargeShare))
	// Each variable's percentile is over the jobs that have it known:
	// their count goes with it.
	return fmt.Sprintf("swfaugment bounds (Guim et al. 2007, Tables 3-4): upper=%s x p%s, lower=%s x upper: %s, %s, %s, top %d applications %v",
		fmtFloat(c.UpperFraction), pct, fmtFloat(c.LowerFraction),
		variable("runtime", " s", b.RuntimeLower, b.RuntimeUpper, b.RuntimePercentile, b.KnownRuntimes, "a known runtime", shares),
		variable("processors", "", b.ProcsLower, b.ProcsUpper, b.ProcsPercentile, b.KnownProcs, "known processors", ""),
		variable("area", " proc-s", b.AreaLower, b.AreaUpper, b.AreaPercentile, b.KnownAreas, "known runtime and processors", ""),
		c.TopApps, b.TopApps)
}

// Category is a quantitative-error job category of Guim et al.'s Table 2.
type Category int

// The categories of Table 2; the number is the paper's.
const (
	CatHighProcs   Category = 1  // processors > procs upper
	CatLowProcs    Category = 2  // processors < procs lower
	CatShort       Category = 3  // runtime < runtime lower
	CatLarge       Category = 4  // runtime > runtime upper
	CatHighArea    Category = 5  // area > area upper
	CatLowArea     Category = 6  // area < area lower
	CatTopApps     Category = 7  // application among the most executed
	CatShortNarrow Category = 8  // runtime < runtime lower and processors < procs lower
	CatNotSmall    Category = 9  // runtime > runtime lower or processors > procs lower
	CatPureEqual   Category = 10 // no job is exempt: every job gets the error
	CatEqual       Category = 11 // a random share of jobs is estimated perfectly
	minCat, maxCat          = CatHighProcs, CatEqual
)

var categoryNames = map[Category]string{
	CatHighProcs: "high processors", CatLowProcs: "low processors", CatShort: "short",
	CatLarge: "large", CatHighArea: "high area", CatLowArea: "low area",
	CatTopApps: "most executed applications", CatShortNarrow: "low processors and low runtime",
	CatNotSmall: "not small", CatPureEqual: "pure equal", CatEqual: "equal",
}

func (c Category) String() string {
	if s, ok := categoryNames[c]; ok {
		return s
	}
	return fmt.Sprintf("category %d", int(c))
}

// condition is category c's rule (1-9) with the bounds, for messages.
// A bound no job gave (NaN) reads "none", as in the bounds Note.
func (b *Bounds) condition(c Category) string {
	f := func(v float64) string {
		if math.IsNaN(v) {
			return "none"
		}
		return fmtFloat(v)
	}
	switch c {
	case CatHighProcs:
		return "processors > " + f(b.ProcsUpper)
	case CatLowProcs:
		return "processors < " + f(b.ProcsLower)
	case CatShort:
		return "runtime < " + f(b.RuntimeLower) + " s"
	case CatLarge:
		return "runtime > " + f(b.RuntimeUpper) + " s"
	case CatHighArea:
		return "area > " + f(b.AreaUpper) + " proc-s"
	case CatLowArea:
		return "area < " + f(b.AreaLower) + " proc-s"
	case CatTopApps:
		return fmt.Sprintf("field 14 among the %d most executed applications %v", b.Config.TopApps, b.TopApps)
	case CatShortNarrow:
		return "runtime < " + f(b.RuntimeLower) + " s and processors < " + f(b.ProcsLower)
	case CatNotSmall:
		return "runtime > " + f(b.RuntimeLower) + " s or processors > " + f(b.ProcsLower)
	}
	return c.String()
}

// Matches reports whether the job is in a category 1-9 (and so is estimated
// perfectly). It is false for 10 and 11, whose exemptions are not by kind.
func (b *Bounds) Matches(j *swf.Job, c Category) bool {
	// Unknown processors or runtime (-1) match no bound on that variable.
	pk, rk := Procs(j) >= 0, j.RunTime >= 0
	p, rt := float64(Procs(j)), float64(j.RunTime)
	area := p * rt
	switch c {
	case CatHighProcs:
		return pk && p > b.ProcsUpper
	case CatLowProcs:
		return pk && p < b.ProcsLower
	case CatShort:
		return rk && rt < b.RuntimeLower
	case CatLarge:
		return rk && rt > b.RuntimeUpper
	case CatHighArea:
		return pk && rk && area > b.AreaUpper
	case CatLowArea:
		return pk && rk && area < b.AreaLower
	case CatTopApps:
		return j.Executable >= 0 && slices.Contains(b.TopApps, j.Executable)
	case CatShortNarrow:
		return rk && pk && rt < b.RuntimeLower && p < b.ProcsLower
	case CatNotSmall:
		return rk && rt > b.RuntimeLower || pk && p > b.ProcsLower
	}
	return false
}
