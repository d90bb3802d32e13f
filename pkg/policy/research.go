package policy

import (
	"fmt"

	"github.com/swfkit/swfkit/pkg/predict"
	"github.com/swfkit/swfkit/pkg/sim"
)

// ResearchParams holds the parameters of the research policies (selective,
// selective-d, timed-fcfs, timed-easy, easy-p, sjbf, easy++). The zero value
// selects the documented defaults.
type ResearchParams struct {
	// Threshold is the starvation threshold of selective and selective-d: a
	// number; for selective-d also four numbers "SN,SW,LN,LW" or
	// "SN=x,SW=y,LN=z,LW=w"; "auto", "adaptive" or "scaled-adaptive:F".
	// Empty means "auto".
	Threshold string
	// ShortMax is selective-d's boundary: a job whose estimate is at most
	// ShortMax seconds is short; 0 means DefaultShortMax.
	ShortMax int64
	// NarrowMax is selective-d's boundary: a job of at most NarrowMax
	// processors is narrow; 0 means DefaultNarrowMax.
	NarrowMax int64
	// WellEstimated is the factor within which a job's runtime must lie of its
	// estimate to count for the auto and adaptive thresholds; 0 means
	// DefaultWellEstimated.
	WellEstimated float64
	// SlowdownBound is the bound (s) of the bounded slowdown the thresholds
	// average; 0 means DefaultSlowdownBound.
	SlowdownBound int64

	// Trial is the trial-run length of timed-fcfs and timed-easy in seconds;
	// 0 means DefaultTrial unless TrialSet (then 0 means no trial runs).
	Trial    int64
	TrialSet bool

	// Predictor is the pkg/predict predictor of easy-p, sjbf and easy++;
	// empty means the policy's default.
	Predictor string
	// Corrector is the pkg/predict corrector; empty means DefaultCorrector.
	Corrector string
	// Ladder is the ladder corrector's rungs in seconds; nil means
	// predict.DefaultLadder.
	Ladder []int64
}

// Defaults of the research policies' parameters.
const (
	DefaultShortMax      = 3600 // Srinivasan et al., Tables 1 and 2: 1 hour
	DefaultNarrowMax     = 8    // Table 1 (CTC, KTH, SDSC); Table 2 uses 64 for LANL
	DefaultWellEstimated = 2.0  // section 4.3: within a factor of two
	DefaultSlowdownBound = 10   // section 2: bounded slowdown, 10 s
	DefaultTrial         = 90   // Thebe et al., section 2: 90 s
	DefaultCorrector     = predict.CorrectEstimate
)

func (r ResearchParams) trial() int64 {
	if r.Trial == 0 && !r.TrialSet {
		return DefaultTrial
	}
	return r.Trial
}

func newPredictive(r ResearchParams, defaultPredictor string, sjbf bool, n int) (sim.Policy, error) {
	spec := r.Predictor
	if spec == "" {
		spec = defaultPredictor
	}
	pr, err := predict.New(spec)
	if err != nil {
		return nil, err
	}
	name := r.Corrector
	if name == "" {
		name = DefaultCorrector
	}
	c, err := predict.NewCorrector(name, r.Ladder)
	if err != nil {
		return nil, err
	}
	return NewPredictiveEASY(pr, c, sjbf, n), nil
}

func newTimed(r ResearchParams, base TimedBase, n int) (sim.Policy, error) {
	t := r.trial()
	if t < 0 {
		return nil, fmt.Errorf("policy: trial length %d is negative", t)
	}
	return NewTimed(base, t, n), nil
}

// Noter is implemented by policies that describe what they did (thresholds
// used, trial runs, prediction accuracy) in one line for the output header's
// Note, valid after the run.
type Noter interface {
	Note() string
}
