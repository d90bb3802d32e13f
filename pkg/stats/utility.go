package stats

import (
	"fmt"

	"github.com/swfkit/swfkit/pkg/swf"
	"github.com/swfkit/swfkit/pkg/utility"
)

// UtilityFunc gives a job's utility at its start (t = 0) and at its
// response time t seconds after submission. ok is false when the job
// carries no utility function; err is non-nil when it carries a malformed one.
type UtilityFunc func(job *swf.Job, t float64) (start, earned float64, ok bool, err error)

// TokenUtility reads the job's u=t0:v0,t1:v1,... token with pkg/utility
// (DESIGN.md): piecewise linear in the time since submit, 0 after the last time.
func TokenUtility(job *swf.Job, t float64) (float64, float64, bool, error) {
	var f utility.Func
	return tokenUtility(&f, job, t)
}

// tokenUtility parses into f, reusing its points, so that a Collector does
// not allocate per job.
func tokenUtility(f *utility.Func, job *swf.Job, t float64) (float64, float64, bool, error) {
	tok, ok := job.ExtraValue(utility.Key)
	if !ok {
		return 0, 0, false, nil
	}
	if err := f.Parse(tok); err != nil {
		return 0, 0, true, fmt.Errorf("u=%s: %w", tok, err)
	}
	return f.Start(), f.Value(t), true, nil
}
