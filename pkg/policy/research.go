package policy

import (
	"fmt"
	"strconv"

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
	// Repredict makes easy-p, sjbf and easy++ recompute the predictions of a
	// user's waiting jobs whenever a job of that user ends; false predicts
	// once, at submission (the spec's item 2).
	Repredict bool
	// NoKill says jobs may outlive their estimates (sim.Config.NoKill).
	NoKill bool

	// ConservativeStarts, if not nil, is every job's start under conservative
	// backfilling of the same jobs on the same machine, with the same kills
	// (ConservativeStarts, as the fair starts need it): selective's auto
	// thresholds then use it instead of running conservative again.
	ConservativeStarts []int64
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

func newPredictive(p Params, defaultPredictor string, sjbf bool, n int) (sim.Policy, error) {
	r := p.Research
	spec := r.Predictor
	if spec == "" {
		spec = defaultPredictor
	}
	pr, err := predict.New(spec)
	if err != nil {
		return nil, err
	}
	if _, ok := pr.(*predict.LastK); r.Repredict && !ok {
		// Only a user's history changes a waiting job's prediction.
		return nil, &ParamError{Param: "repredict", Msg: fmt.Sprintf("recomputes predictions from a user's finished jobs (last2, lastk:K); predictor %s does not use them, so it would change nothing", spec)}
	}
	name := r.Corrector
	if name == "" {
		name = DefaultCorrector
	}
	c, err := predict.NewCorrector(name, r.Ladder)
	if err != nil {
		return nil, err
	}
	// A corrector acts on a job that outlives its prediction: say so when
	// none can, rather than run as the default and record the corrector.
	if name != DefaultCorrector {
		switch {
		case spec == predict.NameExact:
			return nil, &ParamError{Param: "corrector", Value: name, Msg: "corrects predictions a job outlives; predictor exact is never outlived, so it would change nothing"}
		case spec == predict.NameEstimate:
			// Without --no-kill a job is killed at its estimate; with it, a
			// job past its estimate is expected to end at any moment, and
			// every corrector is capped at the estimate.
			return nil, &ParamError{Param: "corrector", Value: name, Msg: "corrects predictions a job outlives, up to its estimate; with predictor estimate every prediction is the estimate already, so it would change nothing (with or without --no-kill)"}
		}
	}
	e := NewPredictiveEASY(pr, c, sjbf, n)
	e.repredict = r.Repredict
	if spec == predict.NameToken {
		if e.given, err = RecordedPredictions(n, p.Extra); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// KeyPrediction is the extension token holding a runtime prediction that is
// not the kill time (swfaugment --as-prediction), read by the predictor
// "token".
const KeyPrediction = "pred"

// RecordedPredictions reads the pred= token of jobs 0..n-1 through extra:
// seconds, -1 for a job without one. No token at all is an error, so that
// --predictor token on a trace without predictions does not pass for a run
// with them.
func RecordedPredictions(n int, extra func(id int32, key string) (string, bool)) ([]int64, error) {
	given := make([]int64, n)
	found := false
	for id := range given {
		given[id] = -1
		if extra == nil {
			continue
		}
		v, ok := extra(int32(id), KeyPrediction)
		if !ok {
			continue
		}
		s, err := strconv.ParseInt(v, 10, 64)
		if err != nil || s < 0 {
			return nil, fmt.Errorf("job %d: %s=%s: want a prediction in whole seconds >= 0", id+1, KeyPrediction, v)
		}
		given[id], found = s, true
	}
	if !found && n > 0 {
		return nil, fmt.Errorf("predictor token: no job has a %s= token (swfaugment --as-prediction writes them)", KeyPrediction)
	}
	return given, nil
}

func newTimed(r ResearchParams, base TimedBase, n int) (sim.Policy, error) {
	t := r.trial()
	if t < 0 {
		return nil, &ParamError{Param: "trial", Value: strconv.FormatInt(t, 10), Msg: "the trial length is negative"}
	}
	return NewTimed(base, t, n), nil
}

// Noter is implemented by policies that describe what they did (thresholds
// used, trial runs, prediction accuracy) in one line for the output header's
// Note, valid after the run.
type Noter interface {
	Note() string
}

// DefaultPredictor is the predictor policy name runs with when
// ResearchParams.Predictor is empty: last2 for easy-p and easy++, estimate
// for sjbf (the registry's choices; "" for a policy without a predictor).
// swfsim records it in its Provenance line as the effective value.
func DefaultPredictor(name string) string {
	switch name {
	case "easy-p", "easy++":
		return predict.NameLast2
	case "sjbf":
		return predict.NameEstimate
	}
	return ""
}
