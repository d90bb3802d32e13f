package stats

import (
	"math"
	"strconv"
)

// uqosParams are the quantities of Guim et al.'s User-Quality of Service
// (sec. 4, Table 6) for one trace.
//
// Their Table 6 writes phi as a sum over all jobs and the metric as a sum;
// their text says phi is "the normalization of the wait time respect the
// run-time of large jobs" and "how much the large jobs have been waited in
// average", and their figures show values between 1 and 12 like an average
// slowdown. So phi is the mean of wait/run over the large jobs, and the
// metric is the mean of the per-job values:
//
//	delta = factor * phi * rt_lowerbound
//	value = sld                 for a large job (run > rt_upperbound)
//	        wait/delta          for a short job (run < rt_lowerbound)
//	        min(sld, wait/delta) otherwise
//
// with sld = (wait+run)/run. For a job bumped and restarted (runtotal=),
// run is all its runs and wait its response minus them, as in its slowdowns
// and its category: its fields (the last run, and a wait that holds its
// earlier runs) would call a 12-hour job whose last piece took 15 minutes
// short and count the hours it ran as waiting. The derived bounds take the
// same runtimes. When no large job has a known wait, or phi is 0
// (no large job waited), delta is 0 and the metric is undefined: every value
// is NaN. So it is when delta is so small (a tiny factor or rt_lowerbound,
// from a flag or a Note) that wait/delta could overflow to +Inf, which no
// output could show alike (a table's +Inf is CSV's and JSON's undefined).
type uqosParams struct {
	factor, lower, upper float64
	phi, delta           float64
	largeJobs            int
	derived              bool   // bounds computed from the trace
	undefined            string // why every value is NaN; "" when defined
}

// maxUQoSWait bounds the wait of any job within swfkit's time bounds (a
// bumped job's, its response less its runs, is below 2^42 s): a delta of at
// least maxUQoSWait/MaxFloat64 keeps every wait/delta finite.
const maxUQoSWait = 1 << 42

func (c Config) uqosParams(recs []record) uqosParams {
	u := uqosParams{factor: c.uqosFactor(), lower: c.UQoSLowerBound, upper: c.UQoSUpperBound}
	if u.upper <= 0 {
		var runs []float64
		for i := range recs {
			if recs[i].runKnown() {
				runs = append(runs, float64(recs[i].busy))
			}
		}
		u.upper = Distribute(runs, []float64{95}, false).Percentiles[0] / 2
		u.derived = true
	}
	if u.lower <= 0 {
		u.lower = u.upper / 25 // 4% (Table 4), without 0.04's representation error
		u.derived = true
	}
	var sum float64
	for i := range recs {
		r := &recs[i]
		if r.scheduleKnown() && float64(r.busy) > u.upper && r.busy > 0 {
			sum += float64(r.offProcessors()) / float64(r.busy)
			u.largeJobs++
		}
	}
	u.phi = math.NaN()
	if u.largeJobs > 0 {
		u.phi = sum / float64(u.largeJobs)
	}
	u.delta = u.factor * u.phi * u.lower
	switch {
	case !(u.phi > 0):
		u.undefined = "no large job (runtime above rt_upperbound) waited, so delta is 0"
	case !(u.delta >= maxUQoSWait/math.MaxFloat64) || math.IsInf(u.delta, 0):
		u.undefined = "delta = factor x phi x rt_lowerbound = " + strconv.FormatFloat(u.delta, 'g', -1, 64) + " s is out of range: wait/delta would not be finite"
	}
	return u
}

// value is a job's U-QoS value, NaN when undefined.
func (u *uqosParams) value(r *record) float64 {
	if !r.scheduleKnown() || u.undefined != "" {
		return math.NaN()
	}
	run, wait := float64(r.busy), float64(r.offProcessors())
	sld := math.Inf(1)
	if run > 0 {
		sld = (wait + run) / run
	}
	switch {
	case run > u.upper:
		return sld
	case run < u.lower:
		return wait / u.delta
	}
	return math.Min(sld, wait/u.delta)
}

// rows reports the parameters, so that every U-QoS number can be recomputed.
func (u *uqosParams) rows() []Row {
	return []Row{
		{Metric: "uqos", Statistic: "factor", Value: u.factor},
		{Metric: "uqos", Statistic: "rt_lowerbound_s", Value: u.lower},
		{Metric: "uqos", Statistic: "rt_upperbound_s", Value: u.upper},
		{Metric: "uqos", Statistic: "large_jobs", Value: float64(u.largeJobs), Jobs: u.largeJobs},
		{Metric: "uqos", Statistic: "phi", Value: u.phi, Jobs: u.largeJobs},
		{Metric: "uqos", Statistic: "delta_s", Value: finiteOrNaN(u.delta), Jobs: u.largeJobs},
	}
}

// finiteOrNaN is v, or NaN (undefined, as every output shows it) for ±Inf.
func finiteOrNaN(v float64) float64 {
	if math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
