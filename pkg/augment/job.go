package augment

import (
	"math"
	"strconv"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Procs returns the job's processors: field 8 when > 0, else field 5, else -1.
func Procs(j *swf.Job) int64 {
	switch {
	case j.RequestedProcs > 0:
		return j.RequestedProcs
	case j.AllocatedProcs > 0:
		return j.AllocatedProcs
	}
	return -1
}

// RequestedTime returns field 9 when > 0, else the runtime (which may be -1).
func RequestedTime(j *swf.Job) int64 {
	if j.RequestedTime > 0 {
		return j.RequestedTime
	}
	return j.RunTime
}

// Area returns processors x runtime in processor-seconds, or -1 when unknown.
func Area(j *swf.Job) float64 {
	p := Procs(j)
	if p < 0 || j.RunTime < 0 {
		return -1
	}
	return float64(p) * float64(j.RunTime)
}

// setEstimate writes a new field 9, first saving the original in est0= unless a
// previous transform already did.
func setEstimate(j *swf.Job, estimate int64) {
	if _, ok := j.ExtraValue(KeyEstimate0); !ok {
		j.SetExtra(KeyEstimate0, strconv.FormatInt(j.RequestedTime, 10))
	}
	j.RequestedTime = estimate
}

// Extension-column keys written by this package.
const (
	KeyUtility    = "u"
	KeyCheckpoint = "ckpt"
	KeyEstimate0  = "est0"
	// KeyPrediction holds a runtime prediction that is not the kill time
	// (DESIGN.md's pred=S; swfsim --predictor token reads it).
	KeyPrediction = "pred"
)

// roundEstimate turns a float estimate into whole seconds, at least 1: field 9
// = 0 is an anomaly in SWF (the archive writes -1) and simulators read it as
// "no estimate", which would silently undo the transform. An estimate beyond
// swf.MaxTime, which no tool would read back, is capped there (capped says
// so, for the report).
func roundEstimate(x float64) (est int64, capped bool) {
	if math.IsNaN(x) || x < 1 {
		return 1, false
	}
	if x > swf.MaxTime {
		return swf.MaxTime, true
	}
	return int64(math.Round(x)), false
}

// fmtFloat formats a parameter or result for a Note in the shortest form that
// reads back to the same float64, so a Note's parameters reproduce the run.
func fmtFloat(x float64) string {
	if a := math.Abs(x); a >= 1e-4 && a < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// fmtPct formats a share as a percentage with two decimals.
func fmtPct(x float64) string {
	return strconv.FormatFloat(100*x, 'f', 2, 64) + "%"
}
