package stats_test

// A second, deliberately plain implementation of swfstat's summary numbers,
// written from the documentation only (docs/swfstat.md "Definitions and the
// choices the papers leave open", pkg/stats/doc.go, the exported doc comments
// of pkg/stats and pkg/sim, README.md, and the papers they cite), without
// reading the bodies of pkg/stats. It is compared row for row with
// stats.Collector's Report in crosscheck_test.go. Where the documents leave a
// choice open, the comment at the choice says so and what the model assumes.
//
// It favours being obviously right over being fast: every metric is a loop
// over plain slices, and percentile ranks, percentage counts and the derived
// U-QoS classes are computed in exact arithmetic from the decimals the user
// wrote, as the documents state them, not as floating point rounds them.
//
// Where the documents are silent, the model assumes (and pkg/stats agrees):
//   - an undefined single-value machine metric (no machine size, a submit
//     span or makespan of 0 s) is over 0 jobs; machine_procs of an unknown
//     machine is undefined, not 0; the peak of no job is 0;
//   - offered_load counts warm-up and cool-down jobs, like the other
//     machine metrics;
//   - per-job metrics do not need the submit time (a job of unknown submit
//     has a wait and a response);
//   - large_jobs counts the large jobs with a known wait (those φ is over);
//   - utility rows appear in a group only when one of its measured jobs
//     carries u=;
//   - a job of runtime 0 with an unknown wait counts under both "wait
//     unknown" and "runtime 0";
//   - warm-up and cool-down that together pass the jobs read leave out
//     every job, the warm-up first;
//   - a group id below 0 (-1) is "unknown"; queue 0 is a group "0".

import (
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/stats"
)

// refJob is one record as the model sees it: the SWF fields it uses (-1
// unknown) and the tokens it reads.
type refJob struct {
	submit, wait, run        int64
	alloc, reqProcs, reqTime int64 // fields 5, 8, 9
	status, user, queue      int64 // fields 11, 12, 15
	killed                   bool  // killed=1
	runTotal                 int64 // runtotal=S, -1 when absent
	utility                  []refPoint
	hasUtility               bool
}

// refPoint is one point t:v of a u= token.
type refPoint struct{ t, v float64 }

// refConfig mirrors the swfstat flags the model covers, defaults already
// applied (docs/swfstat.md "Flags").
type refConfig struct {
	threshold          float64 // --bsld-threshold, 10
	percentiles        []float64
	procsFrom          sim.ProcsFrom
	shortRuntime       int64   // --category-runtime, 3600
	narrowProcs        int64   // --category-procs, 8
	trial              int64   // --trial, 90
	factor             float64 // --uqos-factor, 1
	lower, upper       float64 // --rt-lower-bound, --rt-upper-bound; 0 = derived
	skipFirst, skipLst stats.Count
	by                 []stats.Key
}

// refRowKey names one number of a report: its group and its metric.
type refRowKey struct {
	by1, group1, by2, group2 string
	metric, statistic        string
}

func (k refRowKey) String() string {
	s := k.metric + " " + k.statistic
	if k.by1 != "" {
		s = k.by1 + "=" + k.group1 + " " + s
	}
	if k.by2 != "" {
		s = k.by2 + "=" + k.group2 + " " + s
	}
	return s
}

// refRow is a value and the count of jobs it is over.
type refRow struct {
	value float64
	jobs  int
}

// refReport is the model's report: rows by key, and how many jobs were read,
// skipped and measured.
type refReport struct {
	rows                       map[refRowKey]refRow
	read, warm, cool, measured int
	// excluded counts the jobs left out for the reasons the docs name, by
	// the start of the reason (docs/swfstat.md "Unknown values",
	// "Slowdown", "Makespan", "Warm-up / cool-down", "U-QoS"); a reason
	// that leaves out no job is not listed.
	excluded map[string]int
	// measuredJobs are the indices of the measured jobs.
	measuredJobs []int
	// seen names the edge cases this trace met, for the coverage log.
	seen []string
}

// refPercentileName is the Statistic name of a percentile, "p25", "p99.9"
// (docs/swfstat.md: "Percentile statistics are named p25, p99.9").
func refPercentileName(p float64) string {
	return "p" + strconv.FormatFloat(p, 'f', -1, 64)
}

// refExact is the exact rational value of the decimal the user wrote for x:
// "98" for 98, "99.9" for 99.9 (the shortest decimal that reads back as x).
func refExact(x float64) *big.Rat {
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	if !ok {
		panic("refExact: " + strconv.FormatFloat(x, 'g', -1, 64))
	}
	return r
}

// refRank is the 1-based nearest rank of percentile p among n values:
// ceil(p/100*n), and 1 for p = 0 (doc.go, docs/swfstat.md "Percentiles:
// nearest rank"), computed exactly.
func refRank(p float64, n int) int {
	if p == 0 {
		return 1
	}
	q := new(big.Rat).Mul(refExact(p), big.NewRat(int64(n), 100))
	num, den := q.Num(), q.Denom()
	quo, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	rank := int(quo.Int64())
	if rem.Sign() != 0 {
		rank++
	}
	return rank
}

// refPercentOf resolves a percentage of a total, rounding down (Count.Of:
// "rounding a percentage down"), exactly.
func refPercentOf(c stats.Count, total int) int {
	if !c.IsPercent {
		return c.N
	}
	q := new(big.Rat).Mul(refExact(c.Percent), big.NewRat(int64(total), 100))
	return int(new(big.Int).Quo(q.Num(), q.Denom()).Int64())
}

// refProcs is a job's processors for the machine metrics, as --procs-from
// defines them (docs/swfstat.md "--procs-from"; sim.ProcsFrom constants):
// below 1 is unknown, returned as 0.
func refProcs(j refJob, from sim.ProcsFrom) int64 {
	var p int64
	switch from {
	case sim.ProcsRequestedElseAllocated:
		p = j.reqProcs
		if p <= 0 {
			p = j.alloc
		}
	case sim.ProcsRequested:
		p = j.reqProcs
	case sim.ProcsAllocated:
		p = j.alloc
	case sim.ProcsMax:
		p = max(j.alloc, j.reqProcs)
	}
	if p < 1 {
		return 0
	}
	return p
}

// refLength is the runtime a category and --by short use: all the job's
// runs, runtotal= of a bumped job (as its slowdowns use), else field 4
// (docs/swfstat.md, Breakdowns); unknown when field 4 is ("unknown when
// runtime ... is").
func refLength(j refJob) int64 {
	if j.run >= 0 && j.runTotal >= 0 {
		return j.runTotal
	}
	return j.run
}

// refWidth is the width a category uses: always the requested count, field 8,
// else field 5 (doc.go; docs/swfstat.md "Processors of a job").
func refWidth(j refJob) int64 { return refProcs(j, sim.ProcsRequestedElseAllocated) }

// refUtilityAt evaluates a u= function t seconds after submission: linear
// between points, the last value at the last time, 0 after it (DESIGN.md
// extension columns; docs/swfstat.md "Utility").
func refUtilityAt(pts []refPoint, t float64) float64 {
	last := pts[len(pts)-1]
	if t > last.t {
		return 0
	}
	for i := len(pts) - 1; i >= 0; i-- {
		if t == pts[i].t {
			return pts[i].v
		}
	}
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		if t > a.t && t < b.t {
			return a.v + (b.v-a.v)*(t-a.t)/(b.t-a.t)
		}
	}
	return pts[0].v // t before t0 = 0 cannot happen for a known response
}

// refGroup is the group of job j under key k (docs/swfstat.md "Breakdowns").
func refGroup(j refJob, k stats.Key, cfg refConfig) string {
	id := func(v int64) string {
		// Docs: "unknown when runtime or width is"; for ids the SWF
		// convention is -1 unknown. Other negative ids do not occur in the
		// traces and are not generated.
		if v < 0 {
			return stats.Unknown
		}
		return strconv.FormatInt(v, 10)
	}
	switch k {
	case stats.ByCategory:
		w := refWidth(j)
		if refLength(j) < 0 || w == 0 {
			return stats.Unknown
		}
		s := "L"
		if refLength(j) <= cfg.shortRuntime {
			s = "S"
		}
		if w <= cfg.narrowProcs {
			return s + "N"
		}
		return s + "W"
	case stats.ByShort:
		if refLength(j) < 0 {
			return stats.Unknown
		}
		if refLength(j) <= cfg.trial {
			return "short"
		}
		return "long"
	case stats.ByStatus:
		return id(j.status)
	case stats.ByUser:
		return id(j.user)
	case stats.ByQueue:
		return id(j.queue)
	}
	panic("refGroup: key")
}

// refDist adds the n, mean and percentile rows of values under prefix.
// descending takes the percentiles from the largest value down (Lee's Table
// 4.1 reading, used for start_value_earned_pct).
func refDist(rows map[refRowKey]refRow, prefix refRowKey, values []float64, pcts []float64, descending bool) {
	n := len(values)
	sorted := append([]float64(nil), values...)
	sort.Float64s(sorted)
	if descending {
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			sorted[i], sorted[j] = sorted[j], sorted[i]
		}
	}
	set := func(stat string, v float64) {
		k := prefix
		k.statistic = stat
		rows[k] = refRow{v, n}
	}
	set("n", float64(n))
	sum := 0.0
	for _, v := range values {
		sum += v
	}
	mean := math.NaN()
	if n > 0 {
		mean = sum / float64(n)
	}
	set("mean", mean)
	for _, p := range pcts {
		v := math.NaN()
		if n > 0 {
			v = sorted[refRank(p, n)-1]
		}
		set(refPercentileName(p), v)
	}
}

// refCount adds a count and its percent of total.
func refCount(rows map[refRowKey]refRow, prefix refRowKey, count, total int) {
	pct := math.NaN()
	if total > 0 {
		pct = 100 * float64(count) / float64(total)
	}
	k := prefix
	k.statistic = "count"
	rows[k] = refRow{float64(count), total}
	k.statistic = "percent"
	rows[k] = refRow{pct, total}
}

// refUQoS is what U-QoS needs of the whole measured set: the bounds and δ.
type refUQoS struct {
	lower, upper float64
	delta        float64 // NaN or 0: U-QoS undefined
	// x95 is the 95th percentile of the measured runtimes when a bound is
	// derived from the trace (upper = x95/2, lower = upper/25 = 4%); the
	// model then classifies with exact integer comparisons.
	upperDerived, lowerDerived bool
	x95                        int64
}

// large: r > upper.
func (u refUQoS) large(run int64) bool {
	if u.upperDerived {
		return 2*run > u.x95
	}
	return float64(run) > u.upper
}

// short: r < lower.
func (u refUQoS) short(run int64) bool {
	switch {
	case u.lowerDerived && u.upperDerived:
		return 50*run < u.x95
	case u.lowerDerived:
		return float64(25*run) < u.upper
	}
	return float64(run) < u.lower
}

// refPerJob adds the per-job metrics of the measured jobs set (indices into
// jobs) under prefix (a group, or overall).
func refPerJob(rows map[refRowKey]refRow, prefix refRowKey, jobs []refJob, set []int, cfg refConfig, uq refUQoS) {
	metric := func(m string) refRowKey { k := prefix; k.metric = m; return k }
	k := metric("jobs")
	k.statistic = "count"
	rows[k] = refRow{float64(len(set)), len(set)}

	var waits, responses, slowdowns, bslds, inaccuracy, utilities, earned, uqos []float64
	var killed, failed, cancelled, under20 int
	anyUtility := false
	for _, i := range set {
		j := jobs[i]
		if j.killed {
			killed++
		}
		switch j.status {
		case 0:
			failed++
		case 5:
			cancelled++
		}
		if j.wait >= 0 {
			waits = append(waits, float64(j.wait))
		}
		known := j.wait >= 0 && j.run >= 0
		if known {
			responses = append(responses, float64(j.wait+j.run))
			// A bumped job: run = all its runs S, wait = response - S.
			run, wait := j.run, j.wait
			if j.runTotal >= 0 {
				run, wait = j.runTotal, j.wait+j.run-j.runTotal
			}
			if run > 0 {
				slowdowns = append(slowdowns, float64(wait+run)/float64(run))
			}
			bounded := math.Max(float64(run), cfg.threshold)
			bslds = append(bslds, (float64(wait)+bounded)/bounded)
		}
		if j.reqTime > 0 && j.run >= 0 {
			req := float64(j.reqTime)
			inaccuracy = append(inaccuracy, 100*math.Abs(req-float64(j.run))/req)
			if float64(j.run) < 0.2*req {
				under20++
			}
		}
		if j.hasUtility {
			anyUtility = true
			if known {
				t := float64(j.wait + j.run)
				u := refUtilityAt(j.utility, t)
				utilities = append(utilities, u)
				if u0 := refUtilityAt(j.utility, 0); u0 > 0 {
					earned = append(earned, 100*u/u0)
				}
			}
		}
		if known && uq.delta > 0 {
			// A bumped job: r = all its runs S, w = response - S
			// (docs/swfstat.md "Bumped jobs"), as for the slowdowns.
			length := refLength(j)
			w, r := float64(j.wait+j.run-length), float64(length)
			switch {
			case uq.large(length):
				uqos = append(uqos, (w+r)/r)
			case uq.short(length):
				uqos = append(uqos, w/uq.delta)
			default:
				// A middle job of runtime 0 cannot occur: lower >= 0
				// makes it short unless lower is 0, and then upper is 0
				// and it is neither; (w+0)/0 is then +Inf or NaN, and
				// min takes w/δ.
				sld := (w + r) / r
				if r == 0 {
					sld = math.Inf(1)
				}
				uqos = append(uqos, math.Min(sld, w/uq.delta))
			}
		}
	}
	pcts := cfg.percentiles
	refDist(rows, metric("wait_s"), waits, pcts, false)
	refDist(rows, metric("response_s"), responses, pcts, false)
	refDist(rows, metric("slowdown"), slowdowns, pcts, false)
	refDist(rows, metric("bsld"), bslds, pcts, false)
	refCount(rows, metric("killed"), killed, len(set))
	refCount(rows, metric("failed"), failed, len(set))
	refCount(rows, metric("cancelled"), cancelled, len(set))
	refDist(rows, metric("request_inaccuracy_pct"), inaccuracy, pcts, false)
	refCount(rows, metric("under_20pct_of_request"), under20, len(inaccuracy))
	// docs: utility rows "when jobs carry u=". The docs do not say whether
	// a group without any u= job gets them; the model gives them to a group
	// (and to overall) with at least one measured job carrying u=.
	if anyUtility {
		k := metric("utility")
		k.statistic = "n"
		rows[k] = refRow{float64(len(utilities)), len(utilities)}
		sum := 0.0
		for _, u := range utilities {
			sum += u
		}
		k.statistic = "sum"
		rows[k] = refRow{sum, len(utilities)}
		k.statistic = "mean"
		mean := math.NaN()
		if len(utilities) > 0 {
			mean = sum / float64(len(utilities))
		}
		rows[k] = refRow{mean, len(utilities)}
		refDist(rows, metric("start_value_earned_pct"), earned, pcts, true)
	}
	refDist(rows, metric("uqos"), uqos, pcts, false)
}

// refOver is the Jobs of a single-value machine metric: the docs do not say
// over how many jobs an undefined one (no machine size, a span of 0 s) is;
// Row.Value's comment ("NaN when undefined (no jobs)") suggests 0, which the
// model says.
func refOver(v float64, jobs int) int {
	if math.IsNaN(v) {
		return 0
	}
	return jobs
}

// refModel computes the report of jobs (in file order) on a machine of procs
// processors (0 unknown).
func refModel(jobs []refJob, procs int64, cfg refConfig) refReport {
	rows := map[refRowKey]refRow{}
	n := len(jobs)
	// Warm-up and cool-down: counts of jobs read in file order. The docs do
	// not say what happens when the two overlap; the model leaves out the
	// first ones first and never more than all.
	warm := min(refPercentOf(cfg.skipFirst, n), n)
	cool := min(refPercentOf(cfg.skipLst, n), n-warm)
	var measured []int
	for i := warm; i < n-cool; i++ {
		measured = append(measured, i)
	}

	// Machine metrics: every job read, whatever the warm-up and cool-down
	// (doc.go; docs/swfstat.md "Makespan").
	overall := refRowKey{}
	set := func(metric, stat string, v float64, jobs int) {
		k := overall
		k.metric, k.statistic = metric, stat
		rows[k] = refRow{v, jobs}
	}
	// An unknown machine size (0) is undefined, and so are the metrics
	// that divide by it.
	if procs > 0 {
		set("machine_procs", "value", float64(procs), 0)
	} else {
		set("machine_procs", "value", math.NaN(), 0)
	}
	var firstSubmit, lastEnd int64 = math.MaxInt64, math.MinInt64
	var work float64
	var starts, ends, widths []int64
	for _, j := range jobs {
		p := refProcs(j, cfg.procsFrom)
		if j.submit < 0 || j.wait < 0 || j.run < 0 || p == 0 {
			continue
		}
		start := j.submit + j.wait
		end := start + j.run
		firstSubmit = min(firstSubmit, j.submit)
		lastEnd = max(lastEnd, end)
		run := j.run
		if j.runTotal >= 0 {
			run = j.runTotal // utilization counts all the runs of a bumped job
		}
		work += float64(run) * float64(p)
		starts, ends, widths = append(starts, start), append(ends, end), append(widths, p)
	}
	machineJobs := len(starts)
	// With no job, the peak is 0 processors in use (the docs are silent;
	// nothing ran, and Capacity.Peak is a count), the makespan undefined.
	makespan, util, peak := math.NaN(), math.NaN(), 0.0
	if machineJobs > 0 {
		makespan = float64(lastEnd - firstSubmit)
		if procs > 0 && makespan > 0 {
			util = 100 * work / (float64(procs) * makespan)
		}
		// A job holds its processors over [start, end), none when end =
		// start (docs "Capacity check"): walk the starts and ends in time
		// order, ends first at equal times, and keep the most in use.
		type event struct{ t, delta int64 }
		var events []event
		for i := range starts {
			if ends[i] > starts[i] {
				events = append(events, event{starts[i], widths[i]}, event{ends[i], -widths[i]})
			}
		}
		sort.Slice(events, func(a, b int) bool {
			if events[a].t != events[b].t {
				return events[a].t < events[b].t
			}
			return events[a].delta < events[b].delta
		})
		var inUse, most int64
		for _, e := range events {
			inUse += e.delta
			most = max(most, inUse)
		}
		peak = float64(most)
	}
	set("makespan_s", "value", makespan, machineJobs)
	set("utilization_pct", "value", util, refOver(util, machineJobs))
	set("peak_procs_in_use", "value", peak, machineJobs)

	// Offered load: processors x runtime (field 4, the last run of a bumped
	// job) per processor-second of the submit span, over the jobs with known
	// submit, runtime and processors. The docs do not say whether warm-up and
	// cool-down jobs count; the model counts every job read, as swfsim's Note
	// (over the whole input) does.
	var firstSub, lastSub int64 = math.MaxInt64, math.MinInt64
	var offered float64
	offeredJobs := 0
	for _, j := range jobs {
		p := refProcs(j, cfg.procsFrom)
		if j.submit < 0 || j.run < 0 || p == 0 {
			continue
		}
		offeredJobs++
		firstSub, lastSub = min(firstSub, j.submit), max(lastSub, j.submit)
		offered += float64(j.run) * float64(p)
	}
	load := math.NaN()
	if offeredJobs > 0 && lastSub > firstSub && procs > 0 {
		load = offered / (float64(procs) * float64(lastSub-firstSub))
	}
	set("offered_load", "value", load, refOver(load, offeredJobs))

	// U-QoS bounds and δ over the measured jobs (docs/swfstat.md "U-QoS").
	// Each bound not given is derived: upper = 50% of the 95th percentile
	// (nearest rank) of the measured jobs' known runtimes, lower = 4% of
	// upper (Config.UQoSLowerBound; docs "else 4% of upper").
	uq := refUQoS{lower: cfg.lower, upper: cfg.upper, upperDerived: cfg.upper == 0, lowerDerived: cfg.lower == 0}
	if uq.upperDerived {
		var runs []float64
		for _, i := range measured {
			if jobs[i].run >= 0 {
				runs = append(runs, float64(refLength(jobs[i])))
			}
		}
		sort.Float64s(runs)
		if len(runs) == 0 {
			uq.upper = math.NaN()
		} else {
			x := runs[refRank(95, len(runs))-1]
			uq.x95 = int64(x)
			uq.upper = x / 2
		}
	}
	if uq.lowerDerived {
		uq.lower = uq.upper / 25
	}
	var phiSum float64
	large := 0
	for _, i := range measured {
		j := jobs[i]
		if j.wait < 0 || j.run < 0 || math.IsNaN(uq.upper) {
			continue
		}
		if length := refLength(j); uq.large(length) {
			large++
			phiSum += float64(j.wait+j.run-length) / float64(length)
		}
	}
	phi := math.NaN()
	if large > 0 {
		phi = phiSum / float64(large)
	}
	uq.delta = cfg.factor * phi * uq.lower
	set("uqos", "factor", cfg.factor, 0)
	set("uqos", "rt_lowerbound_s", uq.lower, 0)
	set("uqos", "rt_upperbound_s", uq.upper, 0)
	set("uqos", "large_jobs", float64(large), large)
	set("uqos", "phi", phi, large)
	set("uqos", "delta_s", uq.delta, large)

	refPerJob(rows, overall, jobs, measured, cfg, uq)

	// Breakdowns: every non-empty group (cell of a cross table).
	if len(cfg.by) > 0 {
		groups := map[[2]string][]int{}
		for _, i := range measured {
			var g [2]string
			g[0] = refGroup(jobs[i], cfg.by[0], cfg)
			if len(cfg.by) > 1 {
				g[1] = refGroup(jobs[i], cfg.by[1], cfg)
			}
			groups[g] = append(groups[g], i)
		}
		for g, members := range groups {
			prefix := refRowKey{by1: cfg.by[0].String(), group1: g[0]}
			if len(cfg.by) > 1 {
				prefix.by2, prefix.group2 = cfg.by[1].String(), g[1]
			}
			refPerJob(rows, prefix, jobs, members, cfg, uq)
		}
	}
	rep := refReport{rows: rows, read: n, warm: warm, cool: cool, measured: len(measured),
		excluded: map[string]int{}, measuredJobs: measured}
	note := func(seen bool, what string) {
		if seen {
			rep.seen = append(rep.seen, what)
		}
	}
	waitUnknown, runUnknown, runZero, bumpedLarge, middleZeroRun := 0, 0, 0, 0, 0
	bumpedZero := 0
	for _, i := range measured {
		j := jobs[i]
		if j.wait < 0 {
			waitUnknown++
		}
		if j.run < 0 {
			runUnknown++
		}
		// "runtime 0 ... excluded from slowdown only", also when the wait
		// is unknown too: the docs do not say under which reason such a
		// job counts, and Exclusion's comment allows both ("A job can be
		// counted under several reasons"). A bumped job's run is all its
		// runs (runtotal=), 0 only if it is.
		if j.run == 0 && j.runTotal <= 0 {
			runZero++
		}
		if j.run == 0 && j.runTotal > 0 {
			bumpedZero++
		}
		if j.runTotal >= 0 && j.wait >= 0 && j.run >= 0 && !math.IsNaN(uq.upper) && uq.large(j.runTotal) != uq.large(j.run) {
			bumpedLarge++
		}
		if refLength(j) == 0 && j.wait >= 0 && !uq.short(0) && !uq.large(0) && uq.delta > 0 {
			middleZeroRun++
		}
	}
	machineUnknown := n - machineJobs
	uqosUndefined := 0
	if !(uq.delta > 0) {
		// "the exclusions count the jobs it leaves out with that reason":
		// the measured jobs U-QoS would be over.
		for _, i := range measured {
			if jobs[i].wait >= 0 && jobs[i].run >= 0 {
				uqosUndefined++
			}
		}
	}
	for reason, count := range map[string]int{
		"wait unknown": waitUnknown, "runtime unknown": runUnknown, "runtime 0": runZero,
		"warm-up": warm, "cool-down": cool,
		"submit, wait, runtime or processors unknown": machineUnknown,
		"U-QoS undefined": uqosUndefined,
	} {
		if count > 0 {
			rep.excluded[reason] = count
		}
	}
	note(bumpedZero > 0, "bumped job whose last run is 0 s")
	note(uq.delta == 0, "U-QoS delta 0 (no large job waited)")
	note(math.IsNaN(uq.delta), "U-QoS delta undefined (no large job)")
	note(uq.delta > 0, "U-QoS defined")
	note(bumpedLarge > 0, "bumped (runtotal=) job large by all its runs, not by its last")
	note(middleZeroRun > 0, "middle U-QoS job of runtime 0")
	note(offeredJobs > 0 && lastSub == firstSub, "submit span 0")
	note(machineJobs > 0 && makespan == 0, "makespan 0")
	note(procs == 0, "machine size unknown")
	note(len(measured) == 0, "no job measured")
	note(warm+cool > 0 && warm+cool == n, "warm-up and cool-down cover every job")
	return rep
}

// refParseJob reads the fields and tokens the model uses from an SWF line's
// tokens (already split); it is used for the generated traces, whose tokens
// are well formed by construction.
func refParseTokens(j *refJob, extra []string) {
	j.runTotal = -1
	for _, tok := range extra {
		key, val, _ := strings.Cut(tok, "=")
		switch key {
		case "killed":
			j.killed = val == "1"
		case stats.KeyRunTotal:
			j.runTotal, _ = strconv.ParseInt(val, 10, 64)
		case "u":
			j.hasUtility = true
			for _, pt := range strings.Split(val, ",") {
				ts, vs, _ := strings.Cut(pt, ":")
				t, _ := strconv.ParseFloat(ts, 64)
				v, _ := strconv.ParseFloat(vs, 64)
				j.utility = append(j.utility, refPoint{t, v})
			}
		}
	}
}
