package stats

import (
	"math"
	"slices"
)

// machineRows reports machine size, makespan, utilization and peak
// processors in use over every job read whose submit, wait, runtime and processors
// are known. Makespan runs from the first submit to the last end (Lee sec.
// 1.4); utilization is the processor-seconds used over machine size times
// makespan, in percent.
func (c *Collector) machineRows() []Row {
	var first, last int64 = math.MaxInt64, math.MinInt64
	var area float64
	n := 0
	for i := range c.records {
		r := &c.records[i]
		if !r.placed() {
			continue
		}
		n++
		first = min(first, r.submit)
		last = max(last, r.end())
		area += float64(r.busy) * float64(r.procs) // all runs: lost work counts
	}
	makespan, util := math.NaN(), math.NaN()
	utilJobs := 0 // utilization is undefined, over no job, without a machine size or a makespan
	if n > 0 {
		makespan = float64(last - first)
		if c.machine.Procs > 0 && makespan > 0 {
			util = 100 * area / (float64(c.machine.Procs) * makespan)
			utilJobs = n
		}
	}
	procs := math.NaN()
	if c.machine.Procs > 0 {
		procs = float64(c.machine.Procs)
	}
	peak := c.CheckCapacity().Peak
	offered, offeredJobs := c.offeredLoad()
	return []Row{
		{Metric: "machine_procs", Statistic: "value", Value: procs},
		{Metric: "makespan_s", Statistic: "value", Value: makespan, Jobs: n},
		{Metric: "utilization_pct", Statistic: "value", Value: util, Jobs: utilJobs},
		{Metric: "peak_procs_in_use", Statistic: "value", Value: float64(peak), Jobs: n},
		{Metric: "offered_load", Statistic: "value", Value: offered, Jobs: offeredJobs},
	}
}

// offeredLoad is the work of the jobs whose submit time, runtime and
// processors are known, processors x runtime (field 4: of a simulated trace,
// the simulated runtime, cut at the estimate for a killed job), per
// processor-second of their submit span, as swfsim's offered-load Note
// computes it (swfaugment's --target-load also spans jobs of unknown
// runtime). NaN, over no job, without a machine size or a span.
func (c *Collector) offeredLoad() (float64, int) {
	var first, last int64 = math.MaxInt64, math.MinInt64
	var work float64
	n := 0
	for i := range c.records {
		r := &c.records[i]
		if !r.runKnown() || r.procs < 1 || r.submit < 0 {
			continue
		}
		n++
		first, last = min(first, r.submit), max(last, r.submit)
		work += float64(r.run) * float64(r.procs)
	}
	if n == 0 || c.machine.Procs <= 0 || last <= first {
		return math.NaN(), 0
	}
	return work / (float64(c.machine.Procs) * float64(last-first)), n
}

// event is a change of processors in use at a time.
type event struct {
	time  int64
	delta int64 // processors; negative at an end
	job   int   // index into records
}

// events returns the start and end events of the scheduled jobs, sorted by
// time with ends before starts at equal times: a job ending at t frees its
// processors for a job starting at t.
func (c *Collector) events() []event {
	ev := make([]event, 0, 2*len(c.records))
	for i := range c.records {
		r := &c.records[i]
		if !r.placed() || r.run == 0 {
			continue
		}
		ev = append(ev, event{r.start(), r.procs, i}, event{r.end(), -r.procs, i})
	}
	slices.SortFunc(ev, func(a, b event) int {
		if a.time != b.time {
			if a.time < b.time {
				return -1
			}
			return 1
		}
		if (a.delta < 0) != (b.delta < 0) {
			if a.delta < 0 {
				return -1
			}
			return 1
		}
		return a.job - b.job
	})
	return ev
}
