package stats

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// UtilityFunc evaluates a job's utility function at t seconds after its
// submission. ok is false when the job carries no utility function; err is
// non-nil when it carries a malformed one.
type UtilityFunc func(job *swf.Job, t float64) (value float64, ok bool, err error)

// TokenUtility reads the job's u=t0:v0,t1:v1,... token (DESIGN.md): a
// piecewise-linear function of the time since submit, linear between points,
// equal to the last value at the last time and 0 after it.
//
// TODO(lead): switch to pkg/utility (branch aug) at merge time; this minimal
// parser exists so that pkg/stats did not wait for it.
func TokenUtility(job *swf.Job, t float64) (float64, bool, error) {
	tok, ok := job.ExtraValue("u")
	if !ok {
		return 0, false, nil
	}
	v, err := evalPiecewise(tok, t)
	if err != nil {
		return 0, true, fmt.Errorf("u=%s: %w", tok, err)
	}
	return v, true, nil
}

var errUtility = errors.New("want t0:v0,t1:v1,... with t0=0, times strictly increasing, values non-increasing")

// evalPiecewise parses and evaluates spec at t without allocating. Between
// two points the value is linear; at or before t0 it is v0; after the last
// time it is 0.
func evalPiecewise(spec string, t float64) (float64, error) {
	if spec == "" {
		return 0, errUtility
	}
	var prevT, prevV, result float64
	found := false
	for i := 0; spec != ""; i++ {
		point, rest, more := strings.Cut(spec, ",")
		if more && rest == "" {
			return 0, errUtility
		}
		spec = rest
		ts, vs, ok := strings.Cut(point, ":")
		if !ok {
			return 0, errUtility
		}
		pt, err1 := strconv.ParseFloat(ts, 64)
		pv, err2 := strconv.ParseFloat(vs, 64)
		if err1 != nil || err2 != nil || math.IsNaN(pv) || math.IsInf(pv, 0) || math.IsInf(pt, 0) || (i == 0 && pt != 0) || (i > 0 && (pt <= prevT || pv > prevV)) {
			return 0, errUtility
		}
		if !found {
			if i == 0 && t <= 0 {
				result, found = pv, true
			} else if i > 0 && t <= pt {
				result, found = prevV+(pv-prevV)*(t-prevT)/(pt-prevT), true
			}
		}
		prevT, prevV = pt, pv
	}
	return result, nil
}
