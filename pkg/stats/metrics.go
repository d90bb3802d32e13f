package stats

import (
	"math"
)

// groupMetrics computes the per-job metrics of any subset of the measured jobs.
type groupMetrics struct {
	cfg  Config
	recs []record
	uqos []float64 // per record, NaN when undefined
	buf  []float64
}

// Fairness bins of Srinivasan et al., Table 9: the ratio of a job's bounded
// slowdown to its fair bounded slowdown, in right-closed intervals.
var fairnessBins = []struct {
	name  string
	upper float64
}{
	{"pct_le_1", 1}, {"pct_1_to_1.5", 1.5}, {"pct_1.5_to_2", 2}, {"pct_2_to_4", 4}, {"pct_gt_4", math.Inf(1)},
}

// rows returns every per-job metric over the records at idx.
func (g *groupMetrics) rows(idx []int, by1, g1, by2, g2 string) []Row {
	var rows []Row
	add := func(metric, stat string, v float64, n int) {
		rows = append(rows, Row{By1: by1, Group1: g1, By2: by2, Group2: g2, Metric: metric, Statistic: stat, Value: v, Jobs: n})
	}
	dist := func(metric string, descending bool, pick func(r *record, i int) (float64, bool)) {
		g.buf = g.buf[:0]
		for _, i := range idx {
			if v, ok := pick(&g.recs[i], i); ok {
				g.buf = append(g.buf, v)
			}
		}
		d := Distribute(g.buf, g.cfg.percentiles(), descending)
		add(metric, "n", float64(d.N), d.N)
		add(metric, "mean", d.Mean, d.N)
		for k, p := range g.cfg.percentiles() {
			add(metric, PercentileName(p), d.Percentiles[k], d.N)
		}
	}
	share := func(metric string, count, of int) {
		add(metric, "count", float64(count), of)
		add(metric, "percent", percent(count, of), of)
	}
	n := len(idx)
	add("jobs", "count", float64(n), n)

	dist("wait_s", false, func(r *record, _ int) (float64, bool) { return float64(r.wait), r.waitKnown() })
	dist("response_s", false, func(r *record, _ int) (float64, bool) { return float64(r.wait + r.run), r.scheduleKnown() })
	dist("slowdown", false, func(r *record, _ int) (float64, bool) {
		return float64(r.wait+r.run) / float64(r.busy), r.scheduleKnown() && r.busy > 0
	})
	dist("bsld", false, func(r *record, _ int) (float64, bool) { return g.cfg.boundedSlowdown(r) })

	var killed, failed, cancelled int
	for _, i := range idx {
		r := &g.recs[i]
		if r.killed {
			killed++
		}
		switch r.status {
		case 0:
			failed++
		case 5:
			cancelled++
		}
	}
	share("killed", killed, n)
	share("failed", failed, n)
	share("cancelled", cancelled, n)

	dist("request_inaccuracy_pct", false, func(r *record, _ int) (float64, bool) {
		// Lee eq. 5.1: |requested - actual| / requested.
		return 100 * math.Abs(float64(r.requested-r.run)) / float64(r.requested), r.requested > 0 && r.runKnown()
	})
	var under, withReq int
	for _, i := range idx {
		r := &g.recs[i]
		if r.requested > 0 && r.runKnown() {
			withReq++
			if 5*r.run < r.requested {
				under++
			}
		}
	}
	share("under_20pct_of_request", under, withReq)

	var withUtility bool
	for _, i := range idx {
		withUtility = withUtility || g.recs[i].hasUtility
	}
	if withUtility {
		var sum float64
		var m int
		for _, i := range idx {
			if r := &g.recs[i]; r.hasUtility && !r.utilityUnknown {
				sum += r.utilityEarned
				m++
			}
		}
		add("utility", "n", float64(m), m)
		add("utility", "sum", sum, m)
		add("utility", "mean", sum/float64(m), m)
		dist("start_value_earned_pct", true, func(r *record, _ int) (float64, bool) {
			return 100 * r.utilityEarned / r.utilityStart, r.hasUtility && !r.utilityUnknown && r.utilityStart > 0
		})
	}

	dist("uqos", false, func(_ *record, i int) (float64, bool) { return g.uqos[i], !math.IsNaN(g.uqos[i]) })

	rows = append(rows, g.fairness("fairness", idx, by1, g1, by2, g2, func(*record) bool { return true })...)
	short := g.cfg.shortRuntime()
	rows = append(rows, g.fairness("fairness_runtime_le_"+itoa(short)+"s", idx, by1, g1, by2, g2, func(r *record) bool { return r.busy <= short })...)
	rows = append(rows, g.fairness("fairness_runtime_gt_"+itoa(short)+"s", idx, by1, g1, by2, g2, func(r *record) bool { return r.busy > short })...)
	return rows
}

// fairness returns the Table 9 rows (Srinivasan et al. sec. 5) for the
// records at idx that satisfy keep, or nothing when no job has a fairstart=.
// A job's fair bounded slowdown is (fairstart - submit + max(run,T))/max(run,T).
func (g *groupMetrics) fairness(metric string, idx []int, by1, g1, by2, g2 string, keep func(*record) bool) []Row {
	var counts [5]int
	var n int
	any := false
	for _, i := range idx {
		r := &g.recs[i]
		any = any || r.hasFair
		if !r.hasFair || !keep(r) {
			continue
		}
		b, ok := g.cfg.boundedSlowdown(r)
		if !ok {
			continue
		}
		// The job's runtime is all its runs (runtotal= of a bumped job), as
		// in the bounded slowdown b it is compared with.
		floor := math.Max(float64(r.busy), g.cfg.bsldThreshold())
		fair := math.Max((float64(r.fairStart-r.submit)+floor)/floor, 1)
		ratio := b / fair
		for k, bin := range fairnessBins {
			if ratio <= bin.upper {
				counts[k]++
				break
			}
		}
		n++
	}
	if !any {
		return nil
	}
	rows := []Row{{By1: by1, Group1: g1, By2: by2, Group2: g2, Metric: metric, Statistic: "n", Value: float64(n), Jobs: n}}
	for k, bin := range fairnessBins {
		rows = append(rows, Row{By1: by1, Group1: g1, By2: by2, Group2: g2, Metric: metric, Statistic: bin.name, Value: percent(counts[k], n), Jobs: n})
	}
	return rows
}

func percent(count, of int) float64 {
	if of == 0 {
		return math.NaN()
	}
	return 100 * float64(count) / float64(of)
}
