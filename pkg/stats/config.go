package stats

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

// Config chooses how metrics are computed. The zero value works and means the
// defaults documented on each field.
type Config struct {
	// BSLDThreshold is the runtime floor T of bounded slowdown, in seconds;
	// 0 means 10 (Srinivasan et al. sec. 2; Lee sec. 1.4). MinBSLDThreshold
	// up to swf.MaxTime keeps every value finite; swfstat refuses others.
	BSLDThreshold float64
	// Percentiles to report, each in [0,100]; nil means DefaultPercentiles.
	Percentiles []float64

	// ProcsFrom chooses a job's processors for machine metrics, with
	// swfsim's definition (sim.ProcsFrom.Procs), so that one --procs-from
	// value means the same in a simulation and in its summary. The zero
	// value is field 8, else field 5: what swfsim allocates by default.
	ProcsFrom sim.ProcsFrom

	// ShortRuntime is the longest runtime of a short job in the category
	// breakdown, in seconds; 0 means 3600 (Srinivasan et al., Tables 1-2).
	ShortRuntime int64
	// NarrowProcs is the widest narrow job in the category breakdown; 0 means
	// 8 (Srinivasan et al., Table 1; their LANL trace uses 64, Table 2).
	NarrowProcs int64
	// TrialRuntime is the longest runtime of a "short" job in the short
	// breakdown of Thebe et al. (a job that ends within its trial run);
	// 0 means 90 s, their default trial length.
	TrialRuntime int64

	// UQoSFactor is the factor of Guim et al. (Tables 6 and 7); 0 means 1.
	// swfstat accepts MinUQoSFactor to MaxUQoSFactor.
	UQoSFactor float64
	// UQoSLowerBound and UQoSUpperBound are rt_lowerbound and rt_upperbound of
	// Guim et al. in seconds; 0 means derived from the trace as their Table 3
	// does: upper = 50% of the 95th percentile of runtime (over the measured
	// jobs with a known runtime), lower = 4% of upper, the ratio of every
	// bound in their Table 4 (the text of Table 3 says 5%; swfaugment uses 4%
	// too, so that "short" means the same to an error injection and to U-QoS).
	UQoSLowerBound float64
	UQoSUpperBound float64

	// SkipFirst and SkipLast exclude the first and last jobs in file order
	// from the per-job metrics (warm-up, cool-down).
	SkipFirst, SkipLast Count

	// By lists up to two breakdown keys.
	By []Key

	// Utility evaluates utility functions; nil means the u= token
	// (TokenUtility).
	Utility UtilityFunc
}

// Count is a number of jobs or a percentage of the jobs read.
type Count struct {
	N       int
	Percent float64 // used when IsPercent
	// IsPercent says Percent applies instead of N.
	IsPercent bool
}

// ParseCount reads "100" or "5%".
func ParseCount(s string) (Count, error) {
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, err := swf.ParseDecimal(p)
		if err != nil || v < 0 || v > 100 || math.IsNaN(v) {
			return Count{}, fmt.Errorf("%q: want a count or a percentage 0%%..100%%", s)
		}
		return Count{Percent: v, IsPercent: true}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return Count{}, fmt.Errorf("%q: want a count or a percentage 0%%..100%%", s)
	}
	return Count{N: n}, nil
}

// Of resolves the count against a total, rounding a percentage down.
func (c Count) Of(total int) int {
	n := c.N
	if c.IsPercent {
		n = int(math.Floor(c.Percent * float64(total) / 100))
	}
	return min(n, total)
}

func (c Count) String() string {
	if c.IsPercent {
		return strconv.FormatFloat(c.Percent, 'f', -1, 64) + "%"
	}
	return strconv.Itoa(c.N)
}

// MinBSLDThreshold is the least runtime floor of bounded slowdown that
// keeps it finite and meaningful: SWF times are whole seconds, so a floor
// below 1 s changes only the jobs of runtime 0, whose bounded slowdown
// 1 + wait/T it sends towards infinity as T goes to 0 (Srinivasan et al.
// and Lee use 10 s, Feitelson's usual choice).
const MinBSLDThreshold = 1

// MinUQoSFactor and MaxUQoSFactor bound the U-QoS factor. Guim et al. use
// 1/4 to 4 (Table 7); within these bounds delta = factor x phi x
// rt_lowerbound, with bounds derived from a trace within swfkit's time
// bounds, can neither underflow to 0 nor overflow. A tiny rt_lowerbound given
// can still leave delta too small for wait/delta to be finite: U-QoS is then
// undefined, with the reason in the exclusions.
const (
	MinUQoSFactor = 1e-6
	MaxUQoSFactor = 1e6
)

func (c Config) bsldThreshold() float64 {
	if c.BSLDThreshold > 0 {
		return c.BSLDThreshold
	}
	return 10
}

func (c Config) percentiles() []float64 {
	if c.Percentiles != nil {
		return c.Percentiles
	}
	return DefaultPercentiles
}

func (c Config) shortRuntime() int64 { return positiveOr(c.ShortRuntime, 3600) }
func (c Config) narrowProcs() int64  { return positiveOr(c.NarrowProcs, 8) }
func (c Config) trialRuntime() int64 { return positiveOr(c.TrialRuntime, 90) }

func (c Config) uqosFactor() float64 {
	if c.UQoSFactor > 0 {
		return c.UQoSFactor
	}
	return 1
}

func positiveOr(v, def int64) int64 {
	if v > 0 {
		return v
	}
	return def
}
