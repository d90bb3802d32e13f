package statcli

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/stats"
)

// The CSV and JSON summaries are one long ("tidy") table, the same in both:
// one row per number per input, with the fixed columns SummaryColumns, then
// the input columns (--tag KEY, then TOOL.FLAG from the inputs' Provenance
// lines). An undefined value is empty in CSV and null in JSON; a breakdown
// key that does not apply (overall rows, the second key of a one-key
// breakdown) is "all" in both.

// SummaryColumns are the fixed columns of the CSV and JSON summaries, in
// order. They do not change between versions; new ones are added at the end.
var SummaryColumns = []string{
	"label", "file", "by1", "group1", "by2", "group2", "metric", "statistic", "value", "jobs", "change_pct",
	"warning", "percentile_method", "bsld_threshold_s", "procs_from", "category_runtime_s", "category_procs",
	"trial_s", "uqos_factor", "uqos_lower_s", "uqos_upper_s", "uqos_bounds_from",
}

// NoGroup is the breakdown key and group of rows a breakdown does not split.
const NoGroup = "all"

// cell is one value of the tidy table: a string, or a number (NaN when
// undefined); null marks an absent value.
type cell struct {
	text   string
	number bool
	null   bool
}

func str(s string) cell { return cell{text: s} }

func num(v float64) cell {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return cell{number: true, null: true}
	}
	return cell{text: formatExact(v), number: true}
}

func optStr(s string) cell {
	if s == "" {
		return cell{null: true}
	}
	return cell{text: s}
}

// tidyTable is the summary in long form.
type tidyTable struct {
	columns []string
	rows    [][]cell
}

// metricSelected reports whether --metrics selects metric (all without it).
func (o *options) metricSelected(metric string) bool {
	if len(o.metrics) == 0 {
		return true
	}
	for _, p := range o.metrics {
		if ok, _ := path.Match(p, metric); ok {
			return true
		}
	}
	return false
}

// checkMetrics refuses a --metrics pattern that selects no metric of any
// input: a misspelt name would otherwise give an empty table.
func (o *options) checkMetrics(traces []*trace) error {
	names := []string{"input", "excluded"}
	seen := map[string]bool{"input": true, "excluded": true}
	for _, t := range traces {
		for _, row := range t.report.Rows {
			if !seen[row.Metric] {
				seen[row.Metric] = true
				names = append(names, row.Metric)
			}
		}
	}
	for _, p := range o.metrics {
		found := false
		for _, n := range names {
			if ok, _ := path.Match(p, n); ok {
				found = true
				break
			}
		}
		if !found {
			return cmdio.Usagef("--metrics %s: no such metric in the inputs (they have %s)", p, strings.Join(names, ", "))
		}
	}
	return nil
}

func group(by, g string) (cell, cell) {
	if by == "" {
		return str(NoGroup), str(NoGroup)
	}
	return str(by), str(g)
}

func buildTidy(o *options, traces []*trace, ic *inputColumns) *tidyTable {
	tt := &tidyTable{columns: append(append([]string{}, SummaryColumns...), ic.names...)}
	reports := make([]*stats.Report, len(traces))
	for i, t := range traces {
		reports[i] = t.report
	}
	base := baselineValues(o, reports)
	note := map[string]bool{}
	for _, l := range o.uqosNote {
		note[l] = true
	}
	uqosFrom := func(t *trace) string {
		from := t.label
		switch {
		case o.cfg.UQoSLowerBound > 0 && o.cfg.UQoSUpperBound > 0:
			return "--rt-lower-bound and --rt-upper-bound"
		case t.uqosFrom != "":
			from = t.uqosFrom
		}
		if note[from] {
			from += " (swfaugment bounds Note)"
		}
		return from
	}
	for i, t := range traces {
		settings := []cell{str("nearest_rank"), num(o.cfg.BSLDThreshold), str(o.cfg.ProcsFrom.String()),
			num(float64(o.cfg.ShortRuntime)), num(float64(o.cfg.NarrowProcs)), num(float64(o.cfg.TrialRuntime)),
			num(o.cfg.UQoSFactor), num(t.uqosLower), num(t.uqosUpper), str(uqosFrom(t))}
		inputs := make([]cell, len(ic.names))
		for j, v := range ic.values(i) {
			if ic.present[i][j] {
				inputs[j] = str(v)
			} else {
				inputs[j] = cell{null: true}
			}
		}
		add := func(by1, g1, by2, g2, metric, stat string, value float64, jobs int, change float64) {
			if !o.metricSelected(metric) {
				return
			}
			b1, gr1 := group(by1, g1)
			b2, gr2 := group(by2, g2)
			row := []cell{str(t.label), str(t.display), b1, gr1, b2, gr2, str(metric), str(stat),
				num(value), num(float64(jobs)), num(change), optStr(t.warning)}
			row = append(row, settings...)
			tt.rows = append(tt.rows, append(row, inputs...))
		}
		rep := t.report
		add("", "", "", "", "input", "jobs_read", float64(rep.JobsRead), rep.JobsRead, math.NaN())
		add("", "", "", "", "input", "measured", float64(rep.Measured), rep.Measured, math.NaN())
		for _, e := range rep.Excluded {
			add("", "", "", "", "excluded", e.Reason+" (left out of: "+e.Affects+")", float64(e.Jobs), e.Jobs, math.NaN())
		}
		for _, row := range rep.Rows {
			if settingRow(row) {
				continue
			}
			add(row.By1, row.Group1, row.By2, row.Group2, row.Metric, row.Statistic, row.Value, row.Jobs, change(o, base, i, row))
		}
	}
	return tt
}

// settingRow reports the rows of a report that are settings, not results:
// the U-QoS factor and runtime bounds, which the tidy table has as the
// columns uqos_factor, uqos_lower_s and uqos_upper_s (the text table lists
// them in its U-QoS section, with no change against the baseline).
func settingRow(r stats.Row) bool { return isSetting(r.Metric, r.Statistic) }

func isSetting(metric, statistic string) bool {
	return metric == "uqos" && (statistic == "factor" || statistic == "rt_lowerbound_s" || statistic == "rt_upperbound_s")
}

func (tt *tidyTable) writeCSV(w io.Writer) error {
	cw := newCSVWriter(w)
	cw.Write(tt.columns)
	rec := make([]string, len(tt.columns))
	for _, row := range tt.rows {
		for j, c := range row {
			rec[j] = c.text
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// appendJSON appends the cell as a JSON value.
func (c cell) appendJSON(b []byte) []byte {
	switch {
	case c.null:
		return append(b, "null"...)
	case c.number:
		return append(b, c.text...)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(c.text)
	return append(b, bytes.TrimRight(buf.Bytes(), "\n")...)
}

// writeJSONRows writes the rows as a JSON array of objects whose keys are
// the columns in table order (encoding/json would sort map keys).
func (tt *tidyTable) writeJSONRows(w *bufio.Writer) {
	keys := make([][]byte, len(tt.columns))
	for j, c := range tt.columns {
		k, _ := json.Marshal(c)
		keys[j] = k
	}
	var b []byte
	w.WriteString("[")
	for i, row := range tt.rows {
		b = b[:0]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    {"...)
		for j, c := range row {
			if j > 0 {
				b = append(b, ", "...)
			}
			b = append(b, keys[j]...)
			b = append(b, ": "...)
			b = c.appendJSON(b)
		}
		b = append(b, '}')
		w.Write(b)
	}
	if len(tt.rows) > 0 {
		w.WriteString("\n  ")
	}
	w.WriteString("]")
}

// writeTidyJSON writes {"provenance", "settings", "notes", "inputs",
// "columns", "rows"}: the metadata first, then the rows of the CSV as
// objects keyed by column.
func writeTidyJSON(w io.Writer, o *options, traces []*trace, ic *inputColumns, tt *tidyTable) error {
	meta := struct {
		Provenance string         `json:"provenance"`
		Settings   map[string]any `json:"settings"`
		Notes      []string       `json:"notes"`
		Inputs     []JSONInput    `json:"inputs"`
		Columns    []string       `json:"columns"`
	}{Provenance: o.provenance.Format(), Settings: map[string]any{}, Inputs: []JSONInput{}, Columns: tt.columns}
	if o.baseline >= 0 {
		meta.Settings["baseline"] = traces[o.baseline].label
	}
	meta.Settings["percentile_method"] = "nearest_rank"
	meta.Settings["percentiles"] = o.cfg.Percentiles
	meta.Settings["bsld_threshold_s"] = o.cfg.BSLDThreshold
	meta.Settings["procs_from"] = o.cfg.ProcsFrom.String()
	meta.Settings["procs_from_swfsim_note"] = o.procsFromNote
	meta.Settings["category_runtime_s"] = o.cfg.ShortRuntime
	meta.Settings["category_procs"] = o.cfg.NarrowProcs
	meta.Settings["trial_s"] = o.cfg.TrialRuntime
	meta.Settings["uqos_factor"] = o.cfg.UQoSFactor
	if o.uqosFrom != "" {
		meta.Settings["uqos_bounds_from"] = o.uqosFrom
		meta.Settings["uqos_lower_s"] = jsonValue(o.uqosLower)
		meta.Settings["uqos_upper_s"] = jsonValue(o.uqosUpper)
	}
	if o.killWarn.Off {
		meta.Settings["kill_warn"] = "off"
	} else {
		meta.Settings["kill_warn"] = o.killWarn.Share
	}
	meta.Notes = append(meta.Notes, settings(o)...)
	reports := make([]*stats.Report, len(traces))
	for i, t := range traces {
		reports[i] = t.report
	}
	meta.Notes = append(meta.Notes, oversubscribed(o, traces, reports)...)
	for i, t := range traces {
		rep := t.report
		in := JSONInput{Label: t.label, File: t.display, JobsRead: rep.JobsRead, Measured: rep.Measured,
			MachineProcs: t.machine.Procs, MachineFrom: t.machine.Source, Excluded: []JSONExclusion{},
			Columns: map[string]string{}, Provenance: []string{}}
		if t.warning != "" {
			in.Warning = &t.warning
		}
		for _, e := range rep.Excluded {
			in.Excluded = append(in.Excluded, JSONExclusion{e.Reason, e.Affects, e.Jobs})
		}
		for j, name := range ic.names {
			if ic.present[i][j] {
				in.Columns[name] = ic.vals[i][j]
			}
		}
		for _, r := range t.provenance {
			in.Provenance = append(in.Provenance, r.Format())
		}
		meta.Inputs = append(meta.Inputs, in)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(meta); err != nil {
		return err
	}
	head := bytes.TrimRight(buf.Bytes(), "\n")
	bw := bufio.NewWriter(w)
	bw.Write(head[:len(head)-2]) // without "\n}": the rows follow
	bw.WriteString(",\n  \"rows\": ")
	tt.writeJSONRows(bw)
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// JSONInput describes one input of the JSON summary.
type JSONInput struct {
	Label        string          `json:"label"`
	File         string          `json:"file"`
	JobsRead     int             `json:"jobs_read"`
	Measured     int             `json:"measured"`
	MachineProcs int64           `json:"machine_procs"`
	MachineFrom  string          `json:"machine_procs_source"`
	Excluded     []JSONExclusion `json:"excluded"`
	// Warning is the kill warning, null when none (as in the rows).
	Warning *string `json:"warning"`
	// Columns are the input's --tag and TOOL.FLAG columns.
	Columns map[string]string `json:"columns"`
	// Provenance are its header's Provenance lines, in order.
	Provenance []string `json:"provenance"`
}

// JSONExclusion is one reason jobs were left out.
type JSONExclusion struct {
	Reason    string `json:"reason"`
	LeftOutOf string `json:"left_out_of"`
	Jobs      int    `json:"jobs"`
}

// csvWriter writes UTF-8 CSV: a byte that is not UTF-8 (in a token, a label,
// a file name) becomes U+FFFD, as in the JSON output, so that
// pandas.read_csv reads every table with no options.
type csvWriter struct {
	*csv.Writer
	clean []string
}

func newCSVWriter(w io.Writer) *csvWriter { return &csvWriter{Writer: csv.NewWriter(w)} }

func (w *csvWriter) Write(rec []string) error {
	for i, v := range rec {
		if !utf8.ValidString(v) {
			if w.clean == nil {
				w.clean = make([]string, 0, len(rec))
			}
			w.clean = append(w.clean[:0], rec...)
			for j := i; j < len(rec); j++ {
				w.clean[j] = strings.ToValidUTF8(rec[j], "\uFFFD")
			}
			return w.Writer.Write(w.clean)
		}
	}
	return w.Writer.Write(rec)
}
