package stats

import (
	"fmt"
	"math"
	"slices"

	"github.com/swfkit/swfkit/pkg/swf"
	"github.com/swfkit/swfkit/pkg/utility"
)

// Collector accumulates the jobs of one trace and computes its Report.
type Collector struct {
	cfg     Config
	machine Machine
	records []record
	utility utility.Func // reused by tokenUtility
	// utilityOf is Config.Utility, or the u= token parsed into utility.
	utilityOf UtilityFunc
}

// NewCollector returns a Collector for a trace run on machine.
func NewCollector(cfg Config, machine Machine) *Collector {
	c := &Collector{cfg: cfg, machine: machine, utilityOf: cfg.Utility}
	if c.utilityOf == nil {
		c.utilityOf = func(job *swf.Job, t float64) (float64, float64, bool, error) { return tokenUtility(&c.utility, job, t) }
	}
	return c
}

// Add records one job. It copies what it needs, so job may be reused. The
// error (a malformed u=, fairstart=, killed= or runtotal= token) is a
// *swf.ParseError naming the job's line and the token's field, without the
// file, which the caller sets.
func (c *Collector) Add(job *swf.Job) error {
	r, err := c.cfg.newRecord(job, c.utilityOf)
	if err != nil {
		return err // a *swf.ParseError naming the line and the token's field
	}
	c.records = append(c.records, r)
	return nil
}

// Grow makes room for n more jobs.
func (c *Collector) Grow(n int) { c.records = slices.Grow(c.records, n) }

// Len is the number of jobs added.
func (c *Collector) Len() int { return len(c.records) }

// measured returns the jobs left after warm-up and cool-down exclusion.
func (c *Collector) measured() (recs []record, first, last int) {
	n := len(c.records)
	first = c.cfg.SkipFirst.Of(n)
	last = min(c.cfg.SkipLast.Of(n), n-first)
	return c.records[first : n-last], first, last
}

// UQoSBounds returns the U-QoS rt_lowerbound and rt_upperbound a Report
// uses: those of Config, or derived from the measured jobs (Config).
func (c *Collector) UQoSBounds() (lower, upper float64) {
	recs, _, _ := c.measured()
	u := c.cfg.uqosParams(recs)
	return u.lower, u.upper
}

// SetUQoSBounds fixes the U-QoS bounds of later Reports, for instance to
// those of another trace (UQoSBounds), so that several schedules are
// compared under one definition. NaN bounds make U-QoS undefined.
func (c *Collector) SetUQoSBounds(lower, upper float64) {
	c.cfg.UQoSLowerBound, c.cfg.UQoSUpperBound = lower, upper
}

// Report computes every metric. label names the trace in outputs.
func (c *Collector) Report(label string) *Report {
	recs, first, last := c.measured()
	rep := &Report{Label: label, JobsRead: len(c.records), Measured: len(recs), WarmUp: first, CoolDown: last, Machine: c.machine}
	rep.Excluded = c.exclusions(recs, first, last)

	uq := c.cfg.uqosParams(recs)
	values := make([]float64, len(recs)) // U-QoS value per measured job, NaN if undefined
	for i := range recs {
		values[i] = uq.value(&recs[i])
	}
	if uq.undefined != "" {
		// Undefined for every job: say why, for the jobs it would cover.
		n := 0
		for i := range recs {
			if recs[i].scheduleKnown() {
				n++
			}
		}
		if n > 0 {
			rep.Excluded = append(rep.Excluded, Exclusion{
				Reason:  "U-QoS undefined: " + uq.undefined,
				Affects: "U-QoS", Jobs: n})
		}
	}
	all := make([]int, len(recs))
	for i := range all {
		all[i] = i
	}
	g := groupMetrics{cfg: c.cfg, recs: recs, uqos: values}
	rep.Rows = append(rep.Rows, c.machineRows()...)
	// The U-QoS parameters follow the overall U-QoS distribution.
	overall := g.rows(all, "", "", "", "")
	at := len(overall)
	for i, row := range overall {
		if row.Metric == "uqos" {
			at = i + 1
		}
	}
	rep.Rows = append(rep.Rows, overall[:at]...)
	rep.Rows = append(rep.Rows, uq.rows()...)
	rep.Rows = append(rep.Rows, overall[at:]...)
	rep.Rows = append(rep.Rows, c.breakdownRows(&g)...)

	for i := range recs {
		r := &recs[i]
		if r.waitKnown() {
			rep.Waits = append(rep.Waits, float64(r.wait))
		}
		if b, ok := c.cfg.boundedSlowdown(r); ok {
			rep.BoundedSlowdowns = append(rep.BoundedSlowdowns, b)
		}
	}
	slices.Sort(rep.Waits)
	slices.Sort(rep.BoundedSlowdowns)
	return rep
}

// breakdownRows returns the rows of every group of the --by keys (one or two).
func (c *Collector) breakdownRows(g *groupMetrics) []Row {
	if len(c.cfg.By) == 0 {
		return nil
	}
	type cell struct{ g1, g2 string }
	members := map[cell][]int{}
	for i := range g.recs {
		var k cell
		k.g1 = c.cfg.groupOf(c.cfg.By[0], &g.recs[i])
		if len(c.cfg.By) > 1 {
			k.g2 = c.cfg.groupOf(c.cfg.By[1], &g.recs[i])
		}
		members[k] = append(members[k], i)
	}
	cells := make([]cell, 0, len(members))
	for k := range members {
		cells = append(cells, k)
	}
	slices.SortFunc(cells, func(a, b cell) int {
		if a.g1 != b.g1 {
			return cmpGroup(a.g1, b.g1)
		}
		return cmpGroup(a.g2, b.g2)
	})
	by1, by2 := c.cfg.By[0].String(), ""
	if len(c.cfg.By) > 1 {
		by2 = c.cfg.By[1].String()
	}
	var rows []Row
	for _, k := range cells {
		rows = append(rows, g.rows(members[k], by1, k.g1, by2, k.g2)...)
	}
	return rows
}

// CompareGroups orders group names as reports do: categories (SN SW LN LW)
// and short/long in their fixed order, numeric ids numerically, unknown last.
func CompareGroups(a, b string) int { return cmpGroup(a, b) }

func cmpGroup(a, b string) int {
	switch {
	case a == b:
		return 0
	case groupLess(a, b):
		return -1
	}
	return 1
}

// exclusions counts, per reason, the jobs left out of some metrics.
func (c *Collector) exclusions(recs []record, first, last int) []Exclusion {
	const perJob = "all per-job metrics"
	const timed = "wait, response, slowdown, bounded slowdown, utility, U-QoS, fairness"
	var ex []Exclusion
	add := func(reason, affects string, n int) {
		if n > 0 {
			ex = append(ex, Exclusion{Reason: reason, Affects: affects, Jobs: n})
		}
	}
	add(fmt.Sprintf("warm-up: first %s jobs in file order", c.cfg.SkipFirst), perJob, first)
	add(fmt.Sprintf("cool-down: last %s jobs in file order", c.cfg.SkipLast), perJob, last)
	var noWait, noRun, zeroRun, noReq, noWidth, noUtil, zeroUtil, noFair int
	for i := range recs {
		r := &recs[i]
		if !r.waitKnown() {
			noWait++
		}
		if !r.runKnown() {
			noRun++
		} else if r.busy == 0 {
			// The slowdowns divide by the time on processors over all
			// runs (runtotal= for a bumped job), not the last run's.
			zeroRun++
		}
		if r.requested <= 0 {
			noReq++
		}
		if r.width < 1 {
			noWidth++
		}
		if !r.hasUtility {
			noUtil++
		} else if r.utilityStart <= 0 {
			zeroUtil++
		}
		if !r.hasFair {
			noFair++
		}
	}
	add("wait unknown (field 3 < 0)", timed, noWait)
	add("runtime unknown (field 4 < 0)", "all but wait and status counts", noRun)
	add("runtime 0", "slowdown (undefined)", zeroRun)
	add("requested time unknown (field 9 <= 0)", "estimate accuracy", noReq)
	add("requested processors unknown (fields 8 and 5 <= 0)", "category (grouped as unknown)", noWidth)
	if noUtil < len(recs) {
		add("no u= token", "utility", noUtil)
		add("utility start value u(0) <= 0", "start value earned", zeroUtil)
	}
	if noFair < len(recs) {
		add("no fairstart= token", "fairness", noFair)
	}
	var machineOut int
	for i := range c.records {
		if !c.records[i].placed() {
			machineOut++
		}
	}
	add("submit, wait, runtime or processors unknown (all jobs read)", "makespan, utilization, queue, capacity", machineOut)
	// A ratio over a span of 0 s is undefined although jobs were read (a
	// trace of one job, a batch workload submitted at once): say so, or
	// its "-" would read as "no jobs".
	placedSpan, placed := c.span(func(r *record) (int64, int64, bool) { return r.submit, r.end(), r.placed() })
	if placed > 0 && placedSpan == 0 {
		add("makespan 0 s (all jobs read)", "utilization", placed)
	}
	submitSpan, submitted := c.span(func(r *record) (int64, int64, bool) {
		return r.submit, r.submit, r.runKnown() && r.procs >= 1 && r.submit >= 0
	})
	if submitted > 0 && submitSpan == 0 {
		add("submit span 0 s: every job submitted at one time (all jobs read)", "offered load", submitted)
	}
	return ex
}

// boundedSlowdown is (wait+max(run,T))/max(run,T), Srinivasan et al. sec. 2.
func (c Config) boundedSlowdown(r *record) (float64, bool) {
	if !r.scheduleKnown() {
		return 0, false
	}
	b := math.Max(float64(r.busy), c.bsldThreshold())
	return (float64(r.offProcessors()) + b) / b, true
}

// GroupJobs counts the measured jobs (those a Report's metrics cover) in each
// group of key k: what the "jobs" "count" rows of a Report broken down by k
// say, without computing the rest of it.
func (c *Collector) GroupJobs(k Key) map[string]int {
	recs, _, _ := c.measured()
	n := map[string]int{}
	for i := range recs {
		n[c.cfg.groupOf(k, &recs[i])]++
	}
	return n
}

// WithBy returns a Collector over the same jobs with other breakdown keys.
// The two share their records and must not be added to afterwards.
func (c *Collector) WithBy(by ...Key) *Collector {
	d := *c
	d.cfg.By = by
	return &d
}

// span returns the time from the least start to the greatest end that
// times gives over the records it accepts, and how many it accepted.
func (c *Collector) span(times func(*record) (start, end int64, ok bool)) (int64, int) {
	var first, last int64 = math.MaxInt64, math.MinInt64
	n := 0
	for i := range c.records {
		if start, end, ok := times(&c.records[i]); ok {
			first, last = min(first, start), max(last, end)
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return last - first, n
}
