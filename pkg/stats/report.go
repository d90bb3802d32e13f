package stats

import "strconv"

// Machine is the machine size a report uses and where it came from.
type Machine struct {
	Procs  int64  // 0 when unknown
	Source string // "MaxProcs", "MaxNodes", "--procs"; when unknown, "" or why a header value is no size
}

// Exclusion counts the jobs left out of some metrics for one reason. A job
// can be counted under several reasons.
type Exclusion struct {
	Reason  string // e.g. "wait unknown"
	Affects string // the metrics it is left out of
	Jobs    int
}

// Row is one number of a report, in long ("tidy") form: the metric, the
// statistic, the group it is over and how many jobs it is over. Overall rows
// have empty By1 and By2.
type Row struct {
	By1, Group1 string
	By2, Group2 string
	Metric      string  // e.g. "wait_s"
	Statistic   string  // e.g. "mean", "p50", "count"
	Value       float64 // NaN when undefined (no jobs)
	Jobs        int     // jobs the value is over
}

// Report is the summary of one trace.
type Report struct {
	Label    string
	JobsRead int // records read
	Measured int // jobs left after warm-up and cool-down exclusion
	// WarmUp and CoolDown are the jobs left out first and last (Config
	// SkipFirst, SkipLast): jobs [0, WarmUp) and [JobsRead-CoolDown,
	// JobsRead) in the order added; Measured = JobsRead - WarmUp - CoolDown.
	WarmUp, CoolDown int
	Machine          Machine
	Excluded         []Exclusion
	Rows             []Row

	// Waits and BoundedSlowdowns of the measured jobs, ascending, for plots.
	Waits, BoundedSlowdowns []float64
}

// PercentileName is the Statistic of percentile p: "p25", "p99.9".
func PercentileName(p float64) string {
	return "p" + strconv.FormatFloat(p, 'f', -1, 64)
}

// Find returns the overall row with the given metric and statistic.
func (r *Report) Find(metric, statistic string) (Row, bool) {
	for _, row := range r.Rows {
		if row.By1 == "" && row.Metric == metric && row.Statistic == statistic {
			return row, true
		}
	}
	return Row{}, false
}
