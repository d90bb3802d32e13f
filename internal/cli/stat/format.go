package statcli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/stats"
)

// setting is one choice that every output states.
type setting struct {
	name  string
	value float64
	text  string // how the table states it
}

func settings(o *options) []setting {
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
	return []setting{
		{"bsld_threshold_s", cfg.BSLDThreshold, fmt.Sprintf("bounded slowdown = (wait+max(run,%g))/max(run,%g); slowdown = (wait+run)/run", cfg.BSLDThreshold, cfg.BSLDThreshold)},
		{"percentiles=nearest_rank", 1, "percentiles " + strings.Join(ps, ",") + " by nearest rank: the value at rank ceil(p/100*n) of the n sorted values; start_value_earned_pct percentiles run from the best job down (Lee, Table 4.1)"},
		{"procs_from=" + cfg.ProcsFrom.String(), 1, fmt.Sprintf("processors for utilization, queue and capacity: %s (--procs-from %s%s); category width: requested processors (field 8, else 5)", procs, cfg.ProcsFrom, fromNote)},
		{"category_runtime_s", float64(cfg.ShortRuntime), fmt.Sprintf("category: short <= %d s < long, narrow <= %d processors < wide", cfg.ShortRuntime, cfg.NarrowProcs)},
		{"category_procs", float64(cfg.NarrowProcs), ""},
		{"short_threshold_s", float64(cfg.TrialRuntime), fmt.Sprintf("--by short: short = runtime <= %d s", cfg.TrialRuntime)},
		{"uqos_factor", cfg.UQoSFactor, uqosText(o)},
		uqosFromSetting(o),
		{"", 0, "utility: u(wait+run) from each job's u= token; aggregate utility = sum (Lee eq. 2.1); start value earned = u(wait+run)/u(0)"},
		{"", 0, "estimate accuracy: inaccuracy = |requested - runtime|/requested (Lee eq. 5.1); under 20%: runtime < 0.2 x requested"},
		{"", 0, fmt.Sprintf("fairness (Srinivasan et al. Table 9): bounded slowdown / fair bounded slowdown, fair = (fairstart-submit+max(run,%g))/max(run,%g); bins right-closed", cfg.BSLDThreshold, cfg.BSLDThreshold)},
		{"", 0, "makespan, utilization, peak: every job read (warm-up and cool-down too) with known wait, runtime and processors; makespan = last end - first submit"},
	}
}

// uqosFromSetting names the input whose U-QoS bounds all columns use.
func uqosFromSetting(o *options) setting {
	if o.uqosFrom == "" {
		return setting{}
	}
	return setting{name: "uqos_bounds_from=" + o.uqosFrom, value: 1}
}

func uqosText(o *options) string {
	cfg := o.cfg
	bounds := "rt bounds from the trace: upper = 50% of the 95th percentile of runtime, lower = 4% of upper (Guim et al. Table 4; killed jobs count at their simulated runtime: run swfaugment --bounds on the input before swfsim, or give the bounds, to use recorded runtimes)"
	if cfg.UQoSLowerBound > 0 || cfg.UQoSUpperBound > 0 {
		bounds = fmt.Sprintf("rt bounds given: lower %g s, upper %g s (0 = from the trace)", cfg.UQoSLowerBound, cfg.UQoSUpperBound)
	}
	if len(o.uqosNote) > 0 {
		bounds += fmt.Sprintf("; bounds not given taken from swfaugment's bounds Note (recorded runtimes) in %s", strings.Join(o.uqosNote, ", "))
	}
	if o.uqosFrom != "" {
		which := "the first input"
		if o.baseline >= 0 {
			which = "the --baseline input"
		}
		bounds = fmt.Sprintf("%s, taken from input %s (%s) and used for every column: lower %g s, upper %g s", bounds, o.uqosFrom, which, o.uqosLower, o.uqosUpper)
	}
	return fmt.Sprintf("U-QoS (Guim et al. Table 6): factor %g; %s; phi = mean wait/run of large jobs; value = mean over jobs", cfg.UQoSFactor, bounds)
}

func writeSummary(w io.Writer, o *options, traces []*trace, reports []*stats.Report) error {
	switch o.format {
	case "csv":
		return writeCSV(w, o, traces, reports)
	case "json":
		return writeJSON(w, o, traces, reports)
	}
	return writeTable(w, o, traces, reports)
}

// formatTable renders a value for the table: integers exactly, other values
// with up to 4 decimals, "-" for undefined.
func formatTable(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', -1, 64)
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	s := strconv.FormatFloat(v, 'f', 4, 64)
	s = strings.TrimRight(s, "0")
	if s == "-0." {
		return "0"
	}
	return strings.TrimSuffix(s, ".")
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

func writeTable(w io.Writer, o *options, traces []*trace, reports []*stats.Report) error {
	fmt.Fprintln(w, "# swfstat")
	for _, s := range settings(o) {
		if s.text != "" {
			fmt.Fprintf(w, "# %s\n", s.text)
		}
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "input\tfile\tjobs read\tmeasured\tmachine")
	for i, t := range traces {
		machine := "unknown (no MaxProcs/MaxNodes; give --procs)"
		if t.machine.Procs > 0 {
			machine = fmt.Sprintf("%d processors (%s)", t.machine.Procs, t.machine.Source)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\n", t.label, t.display, reports[i].JobsRead, reports[i].Measured, machine)
	}
	tw.Flush()
	for _, n := range oversubscribed(o, traces, reports) {
		fmt.Fprintf(w, "note: %s\n", n)
	}

	fmt.Fprintln(w, "\nexcluded (a job can count under several reasons; every other job is in every metric)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "input\tjobs\treason\tleft out of")
	none := true
	for i, rep := range reports {
		for _, e := range rep.Excluded {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", traces[i].label, e.Jobs, e.Reason, e.Affects)
			none = false
		}
	}
	if none {
		fmt.Fprintln(tw, "-\t0\tnone\t-")
	}
	tw.Flush()

	list, values := sections(reports)
	for _, s := range list {
		fmt.Fprintf(w, "\n%s\n", s.title())
		head := append([]string{"metric", "statistic"}, labels(traces)...)
		for i, t := range traces {
			if o.baseline >= 0 && i != o.baseline {
				head = append(head, t.label+" vs "+traces[o.baseline].label)
			}
		}
		cells := [][]string{head}
		for _, k := range s.keys {
			line := []string{k.metric, k.stat}
			for _, v := range values[k] {
				line = append(line, formatTable(v))
			}
			for i, v := range values[k] {
				if o.baseline >= 0 && i != o.baseline {
					line = append(line, formatChange(changePct(v, values[k][o.baseline])))
				}
			}
			cells = append(cells, line)
		}
		writeAligned(w, cells, 2)
	}
	return nil
}

// CSVHeader is the CSV column list; it does not change between versions.
// change_pct is empty without --baseline, for the baseline itself, and where
// the baseline's value is 0 or undefined.
var CSVHeader = []string{"label", "file", "by1", "group1", "by2", "group2", "metric", "statistic", "value", "jobs", "change_pct"}

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

func writeCSV(w io.Writer, o *options, traces []*trace, reports []*stats.Report) error {
	cw := csv.NewWriter(w)
	cw.Write(CSVHeader)
	base := baselineValues(o, reports)
	for i, rep := range reports {
		t := traces[i]
		rec := func(metric, stat string, v float64, jobs int) {
			cw.Write([]string{t.label, t.display, "", "", "", "", metric, stat, formatExact(v), strconv.Itoa(jobs), ""})
		}
		for _, s := range settings(o) {
			if s.name != "" {
				rec("setting", s.name, s.value, 0)
			}
		}
		rec("input", "jobs_read", float64(rep.JobsRead), rep.JobsRead)
		rec("input", "measured", float64(rep.Measured), rep.Measured)
		for _, e := range rep.Excluded {
			rec("excluded", e.Reason+" (left out of: "+e.Affects+")", float64(e.Jobs), e.Jobs)
		}
		for _, row := range rep.Rows {
			cw.Write([]string{t.label, t.display, row.By1, row.Group1, row.By2, row.Group2, row.Metric, row.Statistic,
				formatExact(row.Value), strconv.Itoa(row.Jobs), formatExact(change(o, base, i, row))})
		}
	}
	cw.Flush()
	return cw.Error()
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

// JSONDoc is the JSON output.
type JSONDoc struct {
	Settings map[string]any `json:"settings"`
	Notes    []string       `json:"notes"`
	Inputs   []JSONInput    `json:"inputs"`
	Rows     []JSONRow      `json:"rows"`
}

// JSONInput describes one input.
type JSONInput struct {
	Label        string          `json:"label"`
	File         string          `json:"file"`
	JobsRead     int             `json:"jobs_read"`
	Measured     int             `json:"measured"`
	MachineProcs int64           `json:"machine_procs"`
	MachineFrom  string          `json:"machine_procs_source"`
	Excluded     []JSONExclusion `json:"excluded"`
}

// JSONExclusion is one reason jobs were left out.
type JSONExclusion struct {
	Reason    string `json:"reason"`
	LeftOutOf string `json:"left_out_of"`
	Jobs      int    `json:"jobs"`
}

// JSONRow has the CSV columns.
type JSONRow struct {
	Label     string    `json:"label"`
	File      string    `json:"file"`
	By1       string    `json:"by1"`
	Group1    string    `json:"group1"`
	By2       string    `json:"by2"`
	Group2    string    `json:"group2"`
	Metric    string    `json:"metric"`
	Statistic string    `json:"statistic"`
	Value     jsonValue `json:"value"`
	Jobs      int       `json:"jobs"`
	ChangePct jsonValue `json:"change_pct"`
}

func writeJSON(w io.Writer, o *options, traces []*trace, reports []*stats.Report) error {
	doc := JSONDoc{Settings: map[string]any{}, Inputs: []JSONInput{}, Rows: []JSONRow{}}
	base := baselineValues(o, reports)
	if o.baseline >= 0 {
		doc.Settings["baseline"] = traces[o.baseline].label
	}
	for _, s := range settings(o) {
		if s.text != "" {
			doc.Notes = append(doc.Notes, s.text)
		}
		name, choice, byName := strings.Cut(s.name, "=")
		switch {
		case s.name == "": // a note only
		case byName:
			doc.Settings[name] = choice // the CSV says "name=choice" with value 1
		default:
			doc.Settings[s.name] = jsonValue(s.value)
		}
	}
	doc.Notes = append(doc.Notes, oversubscribed(o, traces, reports)...)
	for i, rep := range reports {
		t := traces[i]
		in := JSONInput{Label: t.label, File: t.display, JobsRead: rep.JobsRead, Measured: rep.Measured,
			MachineProcs: t.machine.Procs, MachineFrom: t.machine.Source, Excluded: []JSONExclusion{}}
		for _, e := range rep.Excluded {
			in.Excluded = append(in.Excluded, JSONExclusion{e.Reason, e.Affects, e.Jobs})
		}
		doc.Inputs = append(doc.Inputs, in)
		for _, row := range rep.Rows {
			doc.Rows = append(doc.Rows, JSONRow{t.label, t.display, row.By1, row.Group1, row.By2, row.Group2, row.Metric, row.Statistic,
				jsonValue(row.Value), row.Jobs, jsonValue(change(o, base, i, row))})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
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
		notes = append(notes, fmt.Sprintf("%s: up to %g processors in use on a %d-processor machine, so utilization can exceed 100%% (%s)",
			traces[i].label, peak.Value, traces[i].machine.Procs, hint))
	}
	return notes
}

// formatChange renders a relative change for the table: "+50%", "-3.25%", "-".
func formatChange(c float64) string {
	if math.IsNaN(c) {
		return "-"
	}
	sign := ""
	if c > 0 {
		sign = "+"
	}
	return sign + formatTable(math.Round(c*100)/100) + "%"
}
