package predict

import (
	"fmt"
	"strconv"
	"strings"
)

// Job is what a predictor may know about a job.
type Job struct {
	// User is the submitting user (SWF field 12); -1 means unknown.
	User int64
	// Estimate is the user's requested time in seconds (SWF field 9, or the
	// simulator's fallback), the cap of every prediction.
	Estimate int64
	// Runtime is the time the job will actually run in the simulation (after
	// any kill at the estimate). Only the Exact oracle reads it.
	Runtime int64
	// Given is a prediction recorded with the job on its input line (the
	// pred= token that swfaugment --as-prediction writes); below 0 means
	// none. Only the Token predictor reads it.
	Given int64
}

// Predictor predicts a job's runtime when it is submitted, learning from the
// jobs that have terminated.
type Predictor interface {
	// Predict returns the prediction for a job at its submission.
	Predict(j Job) int64
	// Terminated records that job j ended after running runtime seconds.
	Terminated(j Job, runtime int64)
	// String returns the predictor's specification, as New accepts it.
	String() string
}

// Predictor names accepted by New.
const (
	NameEstimate = "estimate"
	NameLast2    = "last2"
	NameLastK    = "lastk" // written lastk:K
	// MaxLastK bounds K of lastk:K: the sum of K runtimes (each at most
	// swf.MaxTime) then fits in int64.
	MaxLastK  = 1 << 20
	NameExact = "exact"
	NameToken = "token"
)

// New returns a fresh predictor from its specification: "estimate" (the user
// estimate), "last2" (average of the user's two most recently terminated jobs,
// the EASY++ predictor), "lastk:K" (average of the last K), "exact" (the
// actual runtime, an oracle baseline) or "token" (the prediction recorded on
// the job's input line, Job.Given).
func New(spec string) (Predictor, error) {
	name, arg, hasArg := strings.Cut(spec, ":")
	switch {
	case name == NameEstimate && !hasArg:
		return Estimate{}, nil
	case name == NameExact && !hasArg:
		return Exact{}, nil
	case name == NameToken && !hasArg:
		return Token{}, nil
	case name == NameLast2 && !hasArg:
		return NewLastK(2), nil
	case name == NameLastK && hasArg:
		k, err := strconv.Atoi(arg)
		if err != nil || k < 1 || k > MaxLastK {
			return nil, &SpecError{Kind: "predictor", Spec: spec, Msg: fmt.Sprintf("lastk needs a whole number K from 1 to %d, as in lastk:3", MaxLastK)}
		}
		return NewLastK(k), nil
	}
	return nil, &SpecError{Kind: "predictor", Spec: spec, Msg: "unknown predictor (want estimate, last2, lastk:K, exact or token)"}
}

// Estimate predicts the user estimate itself: EASY's view of a job.
type Estimate struct{}

// Predict returns the estimate.
func (Estimate) Predict(j Job) int64 { return j.Estimate }

// Terminated does nothing.
func (Estimate) Terminated(Job, int64) {}

func (Estimate) String() string { return NameEstimate }

// Exact is the oracle: it predicts the runtime the job will really run.
type Exact struct{}

// Predict returns the job's actual runtime, raised to 1 s when the runtime is 0
// and the estimate is not.
func (Exact) Predict(j Job) int64 { return floor(j.Runtime, j.Estimate) }

// Terminated does nothing.
func (Exact) Terminated(Job, int64) {}

func (Exact) String() string { return NameExact }

// Token predicts the value recorded with the job (Job.Given), e.g. an
// erroneous estimate that swfaugment --as-prediction wrote as pred=, so that
// Guim, Corbalan & Labarta's synthetic errors act as predictions while the
// user estimate stays the kill time (the setup of Tsafrir et al.'s simulator
// they used, section 3.1). The value is capped at the estimate: the job is
// killed there, so the scheduler knows it ends by then. A job without a
// recorded value is predicted its estimate.
type Token struct{}

// Predict returns min(Given, estimate), at least 1 s when the estimate is, or
// the estimate when Given < 0.
func (Token) Predict(j Job) int64 {
	if j.Given < 0 {
		return j.Estimate
	}
	return floor(min(j.Given, j.Estimate), j.Estimate)
}

// Terminated does nothing.
func (Token) Terminated(Job, int64) {}

func (Token) String() string { return NameToken }

// floor raises p to 1 s unless limit is 0: a job whose estimate (or runtime)
// is 0 may be predicted 0.
func floor(p, limit int64) int64 {
	if p < 1 && limit >= 1 {
		return 1
	}
	if p < 0 {
		return 0
	}
	return p
}
