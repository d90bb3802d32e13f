package statcli

import (
	"bufio"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/plot"
	"github.com/swfkit/swfkit/pkg/report"
	"github.com/swfkit/swfkit/pkg/stats"
	"github.com/swfkit/swfkit/pkg/swf"
)

// htmlFigures are the comparison figures of the report, in page order; a
// Gantt chart per input follows them.
var htmlFigures = []struct {
	kind           plot.Kind
	title, caption string
}{
	{plot.WaitCDF, "Wait time", "Empirical CDF of the wait, one curve per input; log axis, waits under 1 s drawn at 1 s."},
	{plot.BSLDCDF, "Bounded slowdown", "Empirical CDF of the bounded slowdown, one curve per input; log axis."},
	{plot.Utilization, "Utilization", "Processors in use in percent of the machine, averaged over 400 equal time bins."},
	{plot.QueueLength, "Queue length", "Jobs waiting (submitted, not started), averaged over 400 equal time bins."},
	{plot.Category, "Bounded slowdown by category", "Mean bounded slowdown of short/long (S/L) and narrow/wide (N/W) jobs; log axis."},
}

// writeHTML writes the --html report.
func writeHTML(o *options, traces []*trace, reports []*stats.Report, sw *sweep, files *cmdio.Files) (err error) {
	doc := &report.Report{
		Title:     "swfstat: " + strings.Join(labels(traces), " vs "),
		Generator: "swfstat " + cmdio.BuildVersion(),
	}
	many := len(traces) > maxTableInputs // a study's runs, not a comparison
	if many {
		doc.Title = fmt.Sprintf("swfstat: %d inputs", len(traces))
	}
	if doc.FontCSS, err = plot.FontCSS(); err != nil {
		return err
	}
	doc.Notes = append(doc.Notes, settings(o)...)
	oversub := oversubscribed(o, traces, reports)
	for i, t := range traces {
		doc.Inputs = append(doc.Inputs, htmlInput(t, reports[i], oversub))
	}
	doc.Tables = htmlTables(o, traces, reports)
	if sw != nil {
		doc.Tables = append([]report.Table{sweepTable(sw)}, doc.Tables...)
	}
	// Over a study's many runs a curve per input is unreadable: the sweep
	// figure and table stand for them when there is one that can be drawn
	// (with every job skipped, say, it has no value to draw).
	var swPlot plot.Drawer
	var swErr error
	if sw != nil {
		swPlot, swErr = plot.SweepFigure(sw.fig)
	}
	perInput := !(many && sw != nil && swErr == nil)
	figures := htmlFigures
	if !perInput {
		figures = nil
	}
	for _, f := range figures {
		p, err := figure(o, f.kind, traces)
		doc.Figures = append(doc.Figures, htmlFigure(string(f.kind), f.title, f.caption, p, err, o.plotSize))
		if err != nil && !errors.Is(err, plot.ErrNoData) && !errors.Is(err, plot.ErrNoMachine) {
			return err
		}
	}
	if sw != nil {
		p, err := swPlot, swErr
		lines := "one line per " + sw.fig.Legend
		if sw.fig.Legend == "" {
			lines = "one line"
		}
		caption := fmt.Sprintf("%s of every input against %s, %s; a point is the mean of the runs that share its line and x value, its bar their range.",
			sw.fig.Metric, sw.fig.Parameter, lines)
		if len(sw.warnings) > 0 {
			caption += " Warning: " + strings.Join(sw.warnings, "; ") + "."
		}
		// A figure that cannot be drawn says why in its place (values
		// beyond what an axis can span); --plot-kind sweep fails on it.
		doc.Figures = append(doc.Figures, htmlFigure(string(plot.MetricSweep), "Sweep: "+sw.fig.Metric+" against "+sw.fig.Parameter, caption, p, err, o.plotSize))
	}
	if many {
		left := "no Gantt chart per input (swfstat --plot FILE --plot-kind gantt INPUT draws one)"
		if !perInput {
			left = "no figure of a curve or bar per input (CDFs, utilization, queue, categories; swfstat --plot FILE --plot-kind KIND INPUTS draws one) and " + left + "; the sweep figure and table summarize the runs"
		}
		doc.Notes = append(doc.Notes, fmt.Sprintf("%d inputs: %s", len(traces), left))
		return writeReportFile(doc, o, files)
	}
	gantts, err := ganttFigures(o, traces)
	if err != nil {
		return err
	}
	doc.Figures = append(doc.Figures, gantts...)
	return writeReportFile(doc, o, files)
}

// writeReportFile writes the page to --html.
func writeReportFile(doc *report.Report, o *options, files *cmdio.Files) error {
	out, err := files.Create(o.htmlFile)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	if err := report.Write(bw, doc); err != nil {
		return err
	}
	return bw.Flush()
}

// sweepTable is the sweep figure's points as a table: per line and value
// of the parameter, the mean over its runs, their least and greatest
// value, and how many they are.
func sweepTable(sw *sweep) report.Table {
	f := sw.fig
	line := f.Legend
	if line == "" {
		line = "line"
	}
	t := report.Table{ID: "sweep", Title: fmt.Sprintf("Sweep: %s against %s, the mean over the runs of each point", f.Metric, f.Parameter),
		Head: []string{line, f.Parameter, "mean", "least", "greatest", "runs"}, Numeric: 2}
	for _, ser := range f.Series {
		for _, p := range ser.Points {
			runs := strconv.Itoa(p.N)
			if p.Undefined > 0 {
				runs += fmt.Sprintf(" (+%d undefined)", p.Undefined)
			}
			t.Rows = append(t.Rows, []string{ser.Name, p.X, formatTable(p.Mean), formatTable(p.Min), formatTable(p.Max), runs})
		}
	}
	return t
}

func htmlFigure(id, title, caption string, p plot.Drawer, err error, size plot.Size) report.Figure {
	f := report.Figure{ID: "fig-" + id, Title: title, Caption: caption}
	if err != nil {
		f.Missing = err.Error()
		return f
	}
	if f.SVG, err = plot.InlineSVG(p, size); err != nil {
		f.SVG, f.Missing = nil, err.Error()
	}
	return f
}

// htmlInput is one input's facts, warnings and provenance.
func htmlInput(t *trace, rep *stats.Report, oversub []string) report.Input {
	in := report.Input{Label: t.label, File: t.display}
	in.SHA256, _ = t.digest.Sum()
	machine := "unknown"
	if t.machine.Procs > 0 {
		machine = fmt.Sprintf("%d (%s)", t.machine.Procs, t.machine.Source)
	}
	in.Facts = []report.Fact{
		{Name: "jobs read", Value: strconv.Itoa(rep.JobsRead)},
		{Name: "measured", Value: strconv.Itoa(rep.Measured)},
		{Name: "machine processors", Value: machine},
	}
	if t.headerOnly != "" {
		in.Warnings = append(in.Warnings, t.headerOnly)
	}
	if t.machine.Procs <= 0 {
		// What needs the machine size, and only that: the queue length
		// and the Gantt chart's jobs do not.
		in.Warnings = append(in.Warnings, "machine size unknown (give --procs): no machine_procs, utilization_pct or offered_load, no curve in the utilization figure, no machine line in the Gantt chart")
	}
	// Every input has the killed column, so that the Inputs table's cells
	// stay under the heads the first input gives.
	killed := "none"
	if row, ok := rep.Find("killed", "percent"); ok && row.Value > 0 {
		count, _ := rep.Find("killed", "count")
		killed = fmt.Sprintf("%s%% (%s jobs)", formatTable(row.Value), formatTable(count.Value))
		if t.warning != "" { // over --kill-warn, as on stderr and in the tables
			in.Warnings = append(in.Warnings, fmt.Sprintf("%s%% of the jobs (%s) were killed at their requested time", formatTable(row.Value), formatTable(count.Value)))
		}
	}
	in.Facts = append(in.Facts, report.Fact{Name: "killed at the requested time", Value: killed})
	if t.partial > 0 {
		in.Warnings = append(in.Warnings, partialWarning(t.partial))
	}
	if t.malformed > 0 {
		in.Warnings = append(in.Warnings, fmt.Sprintf("%d malformed records skipped (--lenient); first: %v", t.malformed, t.firstMalformed))
	}
	if t.unterminated > 0 {
		in.Warnings = append(in.Warnings, fmt.Sprintf("line %d: %s", t.unterminated, cmdio.UnterminatedText))
	}
	for _, e := range rep.Excluded {
		in.Excluded = append(in.Excluded, report.Exclusion{Jobs: e.Jobs, Reason: e.Reason, LeftOutOf: e.Affects})
		if strings.HasPrefix(e.Reason, "submit, wait, runtime or processors unknown") {
			in.Warnings = append(in.Warnings, fmt.Sprintf("%d jobs left out of the machine metrics and figures (submit, wait, runtime or processors unknown)", e.Jobs))
		}
	}
	for _, n := range oversub {
		if strings.HasPrefix(n, t.label+": ") {
			in.Warnings = append(in.Warnings, strings.TrimPrefix(n, t.label+": "))
		}
	}
	warnings, notes := leftOutNotes(t.hdr)
	in.Warnings = append(in.Warnings, warnings...)
	in.Notes = notes
	if t.categoryWarning != "" {
		in.Warnings = append(in.Warnings, t.categoryWarning)
	}
	for _, l := range t.hdr.Lines {
		in.Provenance = append(in.Provenance, l.Raw)
	}
	return in
}

// leftOut matches a tool's Note that jobs or lines were left out of the file:
// swfsim's "skipped N jobs: reason", swfclean's "rule R: N jobs removed" (and
// its filters' and flurries'), any tool's count of malformed lines skipped.
var leftOut = regexp.MustCompile(`\bskipped [1-9]|\b[1-9][0-9]* (jobs?|records?|lines?) (removed|dropped)|` + malformedCount.String())

// malformedCount matches a count of malformed lines skipped (--lenient):
// swfsim's "skipped N malformed lines", swfaugment's "N malformed lines
// skipped", swfclean's "(N malformed)", the converters' "+ N malformed".
var malformedCount = regexp.MustCompile(`\b[1-9][0-9]* malformed\b`)

// leftOutNotes are the header Notes that say jobs were left out of the file
// by the tools that made it (the file does not hold the whole log), split as
// docs/swfstat.md states: swfclean's accounting of the jobs its rules,
// filters and flurry removal took out (a Note that begins "swfclean " and
// counts no malformed line) is what the cleaning was asked to do, a note;
// jobs a tool could not read or simulate (malformed lines, swfsim's skipped
// jobs), or a Note of another program's, are warnings.
func leftOutNotes(hdr *swf.Header) (warnings, notes []string) {
	for _, l := range hdr.Lines {
		if l.Continuation || !strings.EqualFold(l.Label, "Note") || !leftOut.MatchString(l.Value) {
			continue
		}
		text := strings.TrimSpace(l.Value)
		if strings.HasPrefix(text, "swfclean ") && !malformedCount.MatchString(text) {
			notes = append(notes, "Note: "+text)
		} else {
			warnings = append(warnings, "Note: "+text)
		}
	}
	return warnings, notes
}

// htmlTables are the side-by-side tables of the summary, plus the category
// breakdown when --by did not ask for it.
func htmlTables(o *options, traces []*trace, reports []*stats.Report) []report.Table {
	all := slices.Clone(reports)
	if !slices.Contains(o.cfg.By, stats.ByCategory) {
		for i, t := range traces {
			byCat := t.categoryReport()
			for _, row := range byCat.Rows {
				if row.By1 == "category" {
					all[i] = withRow(all[i], row)
				}
			}
		}
	}
	list, values := sections(all)
	var tables []report.Table
	for _, s := range list {
		t := report.Table{ID: tableID(s), Title: s.title(), Head: append([]string{"metric", "statistic"}, labels(traces)...), Numeric: 2}
		for i, tr := range traces {
			if o.baseline >= 0 && i != o.baseline {
				t.Head = append(t.Head, tr.label+" vs "+traces[o.baseline].label)
			}
		}
		for _, k := range s.keys {
			if !o.metricSelected(k.metric) {
				continue
			}
			line := []string{k.metric, k.stat}
			for _, v := range values[k] {
				line = append(line, formatTable(v))
			}
			line = append(line, changeCells(o, k, values[k])...)
			t.Rows = append(t.Rows, line)
		}
		if len(t.Rows) > 0 {
			tables = append(tables, t)
		}
	}
	return tables
}

// withRow returns a copy of rep with row appended; rep is not changed.
func withRow(rep *stats.Report, row stats.Row) *stats.Report {
	c := *rep
	c.Rows = append(slices.Clip(rep.Rows), row)
	return &c
}

func tableID(s *section) string {
	if s.by1 == "" {
		return "overall"
	}
	id := s.by1 + "-" + s.g1
	if s.by2 != "" {
		id += "-" + s.by2 + "-" + s.g2
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, id)
}
