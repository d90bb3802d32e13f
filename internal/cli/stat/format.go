package statcli

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/stats"
)

// settings are the lines that state every choice of the summary: the
// table's "#" lines and the JSON notes (the CSV has them as columns).
func settings(o *options) []string {
	cfg := o.cfg
	ps := make([]string, len(cfg.Percentiles))
	for i, p := range cfg.Percentiles {
		ps[i] = strconv.FormatFloat(p, 'f', -1, 64)
	}
	procs := map[sim.ProcsFrom]string{
		sim.ProcsRequestedElseAllocated: "field 8, else field 5",
		sim.ProcsRequested:              "field 8 only",
		sim.ProcsAllocated:              "field 5 only",
		sim.ProcsMax:                    "the larger of fields 5 and 8",
	}[cfg.ProcsFrom]
	fromNote := ""
	if o.procsFromNote {
		fromNote = ", as the swfsim run that wrote the input: its Note"
	}
	return []string{
		fmt.Sprintf("bounded slowdown = (wait+max(run,%g))/max(run,%g); slowdown = (wait+run)/run", cfg.BSLDThreshold, cfg.BSLDThreshold),
		"percentiles " + strings.Join(ps, ",") + " by nearest rank: the value at rank ceil(p/100*n) of the n sorted values; start_value_earned_pct percentiles run from the best job down (Lee, Table 4.1)",
		fmt.Sprintf("processors for utilization, queue and capacity: %s (--procs-from %s%s); category width: requested processors (field 8, else 5)", procs, cfg.ProcsFrom, fromNote),
		fmt.Sprintf("category: short <= %d s < long, narrow <= %d processors < wide", cfg.ShortRuntime, cfg.NarrowProcs),
		fmt.Sprintf("--by short: short = runtime <= %d s", cfg.TrialRuntime),
		uqosText(o),
		"utility: u(wait+run) from each job's u= token; aggregate utility = sum (Lee eq. 2.1); start value earned = u(wait+run)/u(0)",
		"estimate accuracy: inaccuracy = |requested - runtime|/requested (Lee eq. 5.1); under 20%: runtime < 0.2 x requested",
		fmt.Sprintf("fairness (Srinivasan et al. Table 9): bounded slowdown / fair bounded slowdown, fair = (fairstart-submit+max(run,%g))/max(run,%g); bins right-closed", cfg.BSLDThreshold, cfg.BSLDThreshold),
		"makespan, utilization, peak: every job read (warm-up and cool-down too) with known submit, wait, runtime and processors; makespan = last end - first submit",
	}
}

func uqosText(o *options) string {
	cfg := o.cfg
	bounds := "rt bounds from the trace: upper = 50% of the 95th percentile of runtime, lower = 4% of upper (Guim et al. Table 4; killed jobs count at their simulated runtime: run swfaugment --bounds on the input before swfsim, or give the bounds, to use recorded runtimes)"
	if cfg.UQoSLowerBound > 0 || cfg.UQoSUpperBound > 0 {
		// The bound not given is not "0": it is derived (the lower one
		// from the upper one, given or not), or taken from swfaugment's
		// bounds Note where an input has one (useAugmentBounds), and
		// saying which keeps the note true when only one flag is given.
		notGiven := func(rule string) string {
			if len(o.uqosNote) == 0 {
				return rule
			}
			return fmt.Sprintf("from swfaugment's bounds Note (recorded runtimes) in %s, an input without the Note: %s", strings.Join(o.uqosNote, ", "), rule)
		}
		upper := "upper not given: " + notGiven("50% of the 95th percentile of runtime")
		if cfg.UQoSUpperBound > 0 {
			upper = fmt.Sprintf("upper %g s (--rt-upper-bound)", cfg.UQoSUpperBound)
		}
		lower := "lower not given: " + notGiven("4% of upper")
		if cfg.UQoSLowerBound > 0 {
			lower = fmt.Sprintf("lower %g s (--rt-lower-bound)", cfg.UQoSLowerBound)
		}
		bounds = "rt bounds: " + lower + ", " + upper
	}
	if len(o.uqosNote) > 0 {
		if cfg.UQoSLowerBound == 0 && cfg.UQoSUpperBound == 0 {
			bounds = fmt.Sprintf("rt bounds from swfaugment's bounds Note (recorded runtimes, Guim et al. Table 4) in %s; an input without the Note: from its own trace (upper = 50%% of the 95th percentile of runtime, lower = 4%% of upper, killed jobs at their simulated runtime)", strings.Join(o.uqosNote, ", "))
		}
	}
	if o.uqosFrom != "" {
		which := "the first input"
		if o.baseline >= 0 {
			which = "the --baseline input"
		}
		bounds = fmt.Sprintf("%s, taken from input %s (%s) and used for every column: lower %g s, upper %g s", bounds, o.uqosFrom, which, o.uqosLower, o.uqosUpper)
	}
	if len(o.uqosShared) > 0 {
		which := "its first input"
		if o.baseline >= 0 {
			which = "its first input, or the --baseline input for its workload"
		}
		bounds = fmt.Sprintf("%s, taken for each workload (inputs with the same Computer, Installation and UnixStartTime header lines) from %s and used for that workload's columns: %s",
			bounds, which, strings.Join(o.uqosShared, "; "))
	}
	if len(o.uqosNoteUnused) > 0 {
		bounds += fmt.Sprintf(" (the bounds Note in %s is not used)", strings.Join(o.uqosNoteUnused, ", "))
	}
	return fmt.Sprintf("U-QoS (Guim et al. Table 6): factor %g; %s; phi = mean wait/run of large jobs; value = mean over jobs", cfg.UQoSFactor, bounds)
}

// writeSummary writes the summary in format: table, csv or json.
func writeSummary(w io.Writer, format string, o *options, traces []*trace, ic *inputColumns, tt *tidyTable) error {
	switch format {
	case "csv":
		return tt.writeCSV(w)
	case "json":
		return writeTidyJSON(w, o, traces, ic, tt)
	}
	reports := make([]*stats.Report, len(traces))
	for i, t := range traces {
		reports[i] = t.report
	}
	return writeTable(w, o, traces, reports)
}

// formatTable renders a value for the table: integers exactly, other values
// with up to 4 decimals, "-" for undefined. A value that is not 0 never reads
// as 0 (a U-QoS delta_s of 1e-9 s, a --uqos-factor of 1e-6, next to an
// undefined U-QoS whose reason is a delta of 0): one that would round to 0 at
// 4 decimals keeps its first significant digit ("0.000001"), as formatChange
// does for changes. Nor does it show digits the value does not hold: a
// non-integer too large for 4 exact decimals (2.0928647153718503e14) is its
// shortest decimal ("209286471537185.03"), not the binary value's expansion
// ("209286471537185.0312").
func formatTable(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case v == 0:
		return "0" // not "-0"
	case math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', -1, 64)
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	decimals := 4
	if shortest := strconv.FormatFloat(v, 'f', -1, 64); strings.IndexByte(shortest, '.') < 0 {
		return shortest
	} else if d := len(shortest) - strings.IndexByte(shortest, '.') - 1; d < decimals {
		decimals = d
	}
	s := strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(v, 'f', decimals, 64), "0"), ".")
	if s == "0" || s == "-0" {
		s = strings.TrimRight(strconv.FormatFloat(v, 'f', firstDigitPlace(v), 64), "0")
	}
	return s
}

// firstDigitPlace is the decimal place at which v (|v| < 1, not 0) rounded
// to one significant digit has it: 5 for 0.00004 and for 9.99e-6 (0.00001).
// It reads the exponent strconv gives rather than -log10(|v|), which
// math.Log10 gets wrong below 2.2e-308 (-307.95 for 5e-324): rounded there, a
// --rt-lower-bound of 1e-310 s read "0.".
func firstDigitPlace(v float64) int {
	e := strconv.FormatFloat(v, 'e', 0, 64) // "-5e-324"
	exp, err := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if err != nil {
		panic("statcli: exponent of " + e)
	}
	return -exp
}

// formatExact renders a value for CSV: the shortest decimal that reads back
// exactly, never in exponent form; "" for undefined (pandas reads NaN, R NA).
func formatExact(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// rowKey identifies a row across reports.
type rowKey struct{ by1, g1, by2, g2, metric, stat string }

type section struct {
	by1, g1, by2, g2 string
	keys             []rowKey
}

func (s *section) title() string {
	if s.by1 == "" {
		return "overall"
	}
	t := s.by1 + "=" + s.g1
	if s.by2 != "" {
		t += ", " + s.by2 + "=" + s.g2
	}
	return t
}

// sections merges the rows of all reports into groups, overall first, then
// in group order; within a group rows keep their order of first appearance.
func sections(reports []*stats.Report) ([]*section, map[rowKey][]float64) {
	values := map[rowKey][]float64{}
	byGroup := map[[4]string]*section{}
	var list []*section
	for i, rep := range reports {
		for _, row := range rep.Rows {
			k := rowKey{row.By1, row.Group1, row.By2, row.Group2, row.Metric, row.Statistic}
			if _, ok := values[k]; !ok {
				v := make([]float64, len(reports))
				for j := range v {
					v[j] = math.NaN()
				}
				values[k] = v
				g := [4]string{row.By1, row.Group1, row.By2, row.Group2}
				s := byGroup[g]
				if s == nil {
					s = &section{by1: g[0], g1: g[1], by2: g[2], g2: g[3]}
					byGroup[g] = s
					list = append(list, s)
				}
				s.keys = append(s.keys, k)
			}
			values[k][i] = row.Value
		}
	}
	// Overall first, then groups in report order.
	sortSections(list)
	return list, values
}

func sortSections(list []*section) {
	less := func(a, b *section) bool {
		if (a.by1 == "") != (b.by1 == "") {
			return a.by1 == ""
		}
		if c := stats.CompareGroups(a.g1, b.g1); c != 0 {
			return c < 0
		}
		return stats.CompareGroups(a.g2, b.g2) < 0
	}
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && less(list[j], list[j-1]); j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
}

// cellText is a file name as a table cell: Go-quoted when it holds a
// control character (a line break, a tab), which would break the row.
func cellText(s string) string {
	if strings.ContainsFunc(s, unicode.IsControl) {
		return strconv.Quote(s)
	}
	return s
}

func writeTable(w io.Writer, o *options, traces []*trace, reports []*stats.Report) error {
	fmt.Fprintln(w, "# swfstat")
	fmt.Fprintf(w, "# %s: %s\n", provenance.Label, o.provenance.Format())
	for _, s := range settings(o) {
		fmt.Fprintf(w, "# %s\n", s)
	}
	// --metrics drops this section as it drops the CSV's input rows.
	if o.metricSelected("input") {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "input\tfile\tjobs read\tmeasured\tmachine")
		for i, t := range traces {
			machine := "unknown (no MaxProcs/MaxNodes; give --procs)"
			if t.machine.Source != "" {
				machine = "unknown (" + t.machine.Source + "; give --procs)"
			}
			if t.machine.Procs > 0 {
				machine = fmt.Sprintf("%d processors (%s)", t.machine.Procs, t.machine.Source)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\n", t.label, cellText(t.display), reports[i].JobsRead, reports[i].Measured, machine)
		}
		tw.Flush()
	}
	for _, n := range oversubscribed(o, traces, reports) {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	hinted := lastKillWarning(traces)
	for i, t := range traces {
		if t.warning != "" {
			fmt.Fprintf(w, "warning: %s: %s\n", t.label, killWarningText(t, i == hinted))
		}
	}

	// Printed only when some input leaves a job out of a metric: without the
	// section, every job of every input is in every metric (docs/swfstat.md).
	if o.metricSelected("excluded") && slices.ContainsFunc(reports, func(r *stats.Report) bool { return len(r.Excluded) > 0 }) {
		fmt.Fprintln(w, "\nexcluded (a job can count under several reasons; every other job is in every metric)")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "input\tjobs\treason\tleft out of")
		for i, rep := range reports {
			for _, e := range rep.Excluded {
				fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", traces[i].label, e.Jobs, e.Reason, e.Affects)
			}
		}
		tw.Flush()
	}

	list, values := sections(reports)
	for _, s := range list {
		var keys []rowKey
		for _, k := range s.keys {
			if o.metricSelected(k.metric) {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s\n", s.title())
		head := append([]string{"metric", "statistic"}, labels(traces)...)
		for i, t := range traces {
			if o.baseline >= 0 && i != o.baseline {
				head = append(head, t.label+" vs "+traces[o.baseline].label)
			}
		}
		cells := [][]string{head}
		for _, k := range keys {
			line := []string{k.metric, k.stat}
			for _, v := range values[k] {
				line = append(line, formatTable(v))
			}
			line = append(line, changeCells(o, k, values[k])...)
			cells = append(cells, line)
		}
		writeAligned(w, cells, 2)
	}
	return nil
}

// changeCells are the "X vs BASE" cells of a row of the table and of the
// HTML report: the change of each other input against the baseline, none
// for a setting (U-QoS factor and bounds), which the flags or the trace's
// runtimes set and which is no result of a schedule.
func changeCells(o *options, k rowKey, values []float64) []string {
	if o.baseline < 0 {
		return nil
	}
	var cells []string
	for i, v := range values {
		switch {
		case i == o.baseline:
		case isSetting(k.metric, k.stat):
			cells = append(cells, formatChange(math.NaN()))
		default:
			cells = append(cells, formatChange(changePct(v, values[o.baseline])))
		}
	}
	return cells
}

// changePct is the change of v relative to base in percent, NaN when undefined.
func changePct(v, base float64) float64 {
	if math.IsNaN(v) || math.IsNaN(base) || base == 0 {
		return math.NaN()
	}
	return 100 * (v - base) / math.Abs(base)
}

// baselineValues maps each row of the baseline report to its value; nil
// without --baseline.
func baselineValues(o *options, reports []*stats.Report) map[rowKey]float64 {
	if o.baseline < 0 {
		return nil
	}
	m := map[rowKey]float64{}
	for _, row := range reports[o.baseline].Rows {
		m[keyOf(row)] = row.Value
	}
	return m
}

func keyOf(row stats.Row) rowKey {
	return rowKey{row.By1, row.Group1, row.By2, row.Group2, row.Metric, row.Statistic}
}

// change returns the change of row of input i against the baseline.
func change(o *options, base map[rowKey]float64, i int, row stats.Row) float64 {
	b, ok := base[keyOf(row)]
	if base == nil || i == o.baseline || !ok {
		return math.NaN()
	}
	return changePct(row.Value, b)
}

// jsonValue is a number that encodes NaN as null.
type jsonValue float64

func (v jsonValue) MarshalJSON() ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'f', -1, 64), nil
}

func labels(traces []*trace) []string {
	out := make([]string, len(traces))
	for i, t := range traces {
		out[i] = t.label
	}
	return out
}

// writeAligned writes cells as columns two spaces apart: the first left
// columns left-aligned, the others (numbers) right-aligned.
func writeAligned(w io.Writer, cells [][]string, left int) {
	var width []int
	for _, line := range cells {
		for j, c := range line {
			if j == len(width) {
				width = append(width, 0)
			}
			width[j] = max(width[j], len(c))
		}
	}
	var b strings.Builder
	for _, line := range cells {
		b.Reset()
		for j, c := range line {
			if j > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[j]-len(c))
			if j < left {
				b.WriteString(c)
				if j < len(line)-1 {
					b.WriteString(pad)
				}
			} else {
				b.WriteString(pad)
				b.WriteString(c)
			}
		}
		b.WriteByte('\n')
		io.WriteString(w, b.String())
	}
}

// oversubscribed warns about inputs whose running jobs exceed the machine:
// usually a recorded log summarized with swfsim's processor rule.
func oversubscribed(o *options, traces []*trace, reports []*stats.Report) []string {
	var notes []string
	for i, rep := range reports {
		peak, ok := rep.Find("peak_procs_in_use", "value")
		if !ok || traces[i].machine.Procs <= 0 || peak.Value <= float64(traces[i].machine.Procs) {
			continue
		}
		hint := "--check-capacity shows when and which jobs"
		if o.cfg.ProcsFrom != sim.ProcsAllocated {
			hint = "for a recorded log, --procs-from allocated counts what its machine gave; " + hint
		}
		notes = append(notes, fmt.Sprintf("%s: up to %.0f processors in use on a %d-processor machine, so utilization can exceed 100%% (%s)",
			traces[i].label, peak.Value, traces[i].machine.Procs, hint))
	}
	return notes
}

// formatChange renders a relative change (in percent) for the table:
// "+50%", "-3.25%", "0%", "-". Changes are rounded to two decimals, except
// one that would round to zero, which keeps its first significant digit
// ("+0.003%"): a table must not say two different values are equal.
func formatChange(c float64) string {
	if math.IsNaN(c) {
		return "-"
	}
	if math.IsInf(c, 0) {
		return formatTable(c) + "%" // "+Inf%", "-Inf%"
	}
	sign := ""
	if c > 0 {
		sign = "+"
	}
	r := math.Round(c*100) / 100
	if r == 0 && c != 0 {
		s := strconv.FormatFloat(c, 'f', firstDigitPlace(c), 64)
		if t := strings.TrimRight(s, "0"); t != "-0." && t != "0." {
			s = t
		}
		return sign + s + "%"
	}
	if r == 0 {
		return "0%"
	}
	return sign + formatTable(r) + "%"
}
