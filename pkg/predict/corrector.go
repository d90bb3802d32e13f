package predict

import (
	"fmt"
	"github.com/swfkit/swfkit/pkg/swf"
	"slices"
	"strconv"
	"strings"
)

// Corrector raises the prediction of a job that is still running when it
// reaches its predicted end (Tsafrir et al., prediction correction).
type Corrector interface {
	// Correct returns the job's new prediction, given the time it has run so
	// far (elapsed, which is its current prediction) and its user estimate.
	// The new prediction is greater than elapsed and at most the estimate;
	// ok is false when no such value exists (elapsed >= estimate).
	Correct(elapsed, estimate int64) (prediction int64, ok bool)
	// String returns the corrector's specification, as NewCorrector accepts it.
	String() string
}

// Corrector names accepted by NewCorrector.
const (
	CorrectEstimate = "estimate"
	CorrectLadder   = "ladder"
	CorrectDouble   = "double"
)

// DefaultLadder is the ladder of durations the EASY++ spec names:
// 1m 5m 15m 30m 1h 2h 5h 10h 20h 50h 100h.
var DefaultLadder = []int64{60, 300, 900, 1800, 3600, 7200, 18000, 36000, 72000, 180000, 360000}

// NewCorrector returns a corrector by name: "estimate" (jump to the user
// estimate), "ladder" (the next rung of ladder above the elapsed time, or the
// estimate past the top rung; nil ladder means DefaultLadder) or "double"
// (twice the elapsed time).
func NewCorrector(name string, ladder []int64) (Corrector, error) {
	switch name {
	case CorrectEstimate:
		return EstimateCorrector{}, nil
	case CorrectDouble:
		return DoubleCorrector{}, nil
	case CorrectLadder:
		if ladder == nil {
			ladder = DefaultLadder
		}
		return NewLadder(ladder)
	}
	return nil, &SpecError{Kind: "corrector", Spec: name, Msg: "unknown corrector (want estimate, ladder or double)"}
}

// EstimateCorrector corrects a prediction to the user estimate.
type EstimateCorrector struct{}

// Correct returns the estimate.
func (EstimateCorrector) Correct(elapsed, estimate int64) (int64, bool) {
	return estimate, estimate > elapsed
}

func (EstimateCorrector) String() string { return CorrectEstimate }

// DoubleCorrector corrects a prediction to twice the elapsed time (at least
// one second more), capped at the estimate.
type DoubleCorrector struct{}

// Correct returns min(2 * elapsed, estimate).
func (DoubleCorrector) Correct(elapsed, estimate int64) (int64, bool) {
	p := max(2*elapsed, elapsed+1)
	return min(p, estimate), estimate > elapsed
}

func (DoubleCorrector) String() string { return CorrectDouble }

// Ladder corrects a prediction to the next rung of an increasing ladder of
// durations above the elapsed time, capped at the estimate; above the top rung
// it jumps to the estimate.
type Ladder struct{ rungs []int64 }

// NewLadder returns a Ladder over rungs, which must be positive and strictly
// increasing.
func NewLadder(rungs []int64) (*Ladder, error) {
	if len(rungs) == 0 {
		return nil, &SpecError{Kind: "ladder", Msg: "no rungs"}
	}
	for i, r := range rungs {
		if r <= 0 || (i > 0 && r <= rungs[i-1]) {
			return nil, &SpecError{Kind: "ladder", Spec: FormatLadder(rungs), Msg: "rungs must be positive and strictly increasing"}
		}
	}
	return &Ladder{rungs: slices.Clone(rungs)}, nil
}

// Correct returns the first rung above elapsed, capped at the estimate.
func (l *Ladder) Correct(elapsed, estimate int64) (int64, bool) {
	if estimate <= elapsed {
		return estimate, false
	}
	i, found := slices.BinarySearch(l.rungs, elapsed)
	if found {
		i++
	}
	if i == len(l.rungs) {
		return estimate, true
	}
	return min(l.rungs[i], estimate), true
}

func (l *Ladder) String() string { return CorrectLadder + ":" + FormatLadder(l.rungs) }

// ParseLadder parses a comma-separated list of durations, each a whole number
// with an optional unit s, m, h or d (seconds when none): "1m,5m,15m,1h,2d".
// Its errors are *SpecError of kind "ladder" naming s.
func ParseLadder(s string) ([]int64, error) {
	var rungs []int64
	for _, field := range strings.Split(s, ",") {
		d, err := ParseDuration(strings.TrimSpace(field))
		if err != nil {
			return nil, &SpecError{Kind: "ladder", Spec: s, Msg: strings.TrimPrefix(err.Error(), "predict: ")}
		}
		rungs = append(rungs, d)
	}
	if _, err := NewLadder(rungs); err != nil {
		return nil, &SpecError{Kind: "ladder", Spec: s, Msg: err.(*SpecError).Msg}
	}
	return rungs, nil
}

// SpecError is a predictor, corrector or ladder that cannot be used: Kind is
// which ("predictor", "corrector", "ladder": swfsim's flags for them), Spec
// the value as given, Msg what is wrong with it.
type SpecError struct{ Kind, Spec, Msg string }

func (e *SpecError) Error() string {
	if e.Spec == "" {
		return "predict: " + e.Kind + ": " + e.Msg
	}
	return fmt.Sprintf("predict: %s %q: %s", e.Kind, e.Spec, e.Msg)
}

// ParseDuration parses a whole number of seconds with an optional unit s, m, h
// or d.
func ParseDuration(s string) (int64, error) {
	unit := int64(1)
	num := s
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 's':
			num = s[:n-1]
		case 'm':
			unit, num = 60, s[:n-1]
		case 'h':
			unit, num = 3600, s[:n-1]
		case 'd':
			unit, num = 86400, s[:n-1]
		}
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil || v < 0 || v > (1<<62)/unit {
		return 0, fmt.Errorf("predict: bad duration %q (want a whole number with optional unit s, m, h or d)", s)
	}
	if v*unit > swf.MaxTime {
		return 0, fmt.Errorf("predict: duration %q is beyond swfkit's time bound %d s", s, int64(swf.MaxTime))
	}
	return v * unit, nil
}

// FormatLadder writes rungs in the form ParseLadder reads, with the largest
// unit that divides each value.
func FormatLadder(rungs []int64) string {
	var b strings.Builder
	for i, r := range rungs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(FormatDuration(r))
	}
	return b.String()
}

// FormatDuration writes seconds with the largest of the units d, h, m, s that
// divides them.
func FormatDuration(sec int64) string {
	for _, u := range []struct {
		size   int64
		suffix string
	}{{86400, "d"}, {3600, "h"}, {60, "m"}} {
		if sec != 0 && sec%u.size == 0 {
			return strconv.FormatInt(sec/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatInt(sec, 10) + "s"
}
