package stats

import (
	"math"

	"github.com/swfkit/swfkit/pkg/swf"
)

// JobValues are the derived values of one job, as the per-job metrics
// compute them; NaN where undefined (an unknown wait or runtime, runtime 0
// for Slowdown, no u= token for Utility).
type JobValues struct {
	Wait            float64 // field 3
	Response        float64 // wait + runtime
	Slowdown        float64 // (wait + run)/run; run = all runs (runtotal=) for a bumped job
	BoundedSlowdown float64 // (wait + max(run,T))/max(run,T)
	Category        string  // SN, SW, LN, LW or unknown (ByCategory)
	Utility         float64 // u(wait + run): the utility the job earned
}

// Values returns job's derived values under the Collector's configuration
// (its bounded-slowdown threshold and category bounds). The error names a
// malformed u= or fairstart= token.
func (c *Collector) Values(job *swf.Job) (JobValues, error) {
	r, err := c.cfg.newRecord(job, c.utilityOf)
	if err != nil {
		return JobValues{}, err
	}
	nan := math.NaN()
	v := JobValues{Wait: nan, Response: nan, Slowdown: nan, BoundedSlowdown: nan, Utility: nan,
		Category: c.cfg.groupOf(ByCategory, &r)}
	if r.waitKnown() {
		v.Wait = float64(r.wait)
	}
	if r.scheduleKnown() {
		v.Response = float64(r.wait + r.run)
		if r.busy > 0 {
			v.Slowdown = v.Response / float64(r.busy) // as the slowdown metric: all runs of a bumped job
		}
		v.BoundedSlowdown, _ = c.cfg.boundedSlowdown(&r)
	}
	if r.hasUtility && !r.utilityUnknown {
		v.Utility = r.utilityEarned
	}
	return v, nil
}
