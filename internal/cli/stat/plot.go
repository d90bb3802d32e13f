package statcli

import (
	"bufio"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/plot"
	"github.com/swfkit/swfkit/pkg/stats"
)

// ganttColorKeys are the values of --gantt-color.
var ganttColorKeys = []string{"category", "user", "status", "killed"}

// figure draws one figure of the given kind over traces (a Gantt chart
// draws traces[0]).
func figure(o *options, kind plot.Kind, traces []*trace) (plot.Drawer, error) {
	if kind == plot.Gantt {
		return gantt(o, traces[0], 0, 0, "")
	}
	inputs := make([]plot.Input, len(traces))
	for i, t := range traces {
		in := plot.Input{Label: t.label}
		switch kind {
		case plot.WaitCDF, plot.BSLDCDF:
			// The summary's report has them (the lists do not depend
			// on --by); a capacity check makes none.
			rep := t.report
			if rep == nil {
				rep = t.collector.Report(t.label)
			}
			in.Waits, in.BoundedSlowdowns = rep.Waits, rep.BoundedSlowdowns
		case plot.Utilization, plot.QueueLength:
			in.Timeline = t.collector.Timeline(plot.TimelineBins)
		case plot.Category:
			in.CategoryBSLD = map[string]float64{}
			for _, row := range t.categoryReport().Rows {
				if row.By1 == "category" && row.Metric == "bsld" && row.Statistic == "mean" {
					in.CategoryBSLD[row.Group1] = row.Value
				}
			}
		}
		inputs[i] = in
	}
	p, err := plot.New(kind, inputs)
	if errors.Is(err, plot.ErrNoData) {
		names := make([]string, len(traces))
		for i, t := range traces {
			names[i] = t.display
		}
		return nil, fmt.Errorf("%w (%s of %s)", err, kind, strings.Join(names, ", "))
	}
	if err != nil {
		return nil, err // not a nil *plot.Plot in a non-nil Drawer
	}
	return p, nil
}

// noSpansError is a Gantt chart's input without a job to draw: an
// ErrNoData that speaks of its one input, not of "no input".
type noSpansError struct{ display string }

func (e noSpansError) Error() string {
	return e.display + ": no job to draw (none has a known submit time, wait, runtime and processor count)"
}

func (e noSpansError) Is(target error) bool { return target == plot.ErrNoData }

// ganttJobs are the jobs of t for a Gantt chart, grouped by --gantt-color.
func ganttJobs(o *options, t *trace) ([]plot.GanttJob, error) {
	spans := t.collector.Spans()
	if len(spans) == 0 {
		return nil, noSpansError{t.display}
	}
	jobs := make([]plot.GanttJob, len(spans))
	for i, s := range spans {
		jobs[i] = plot.GanttJob{Submit: s.Submit, Start: s.Start, End: s.End, Procs: s.Procs, Group: ganttGroup(o.ganttColor, s)}
	}
	return jobs, nil
}

// ganttWindow resolves --window for the jobs of t: by default the busiest
// day, the one with the most processor-seconds used, or the whole trace
// when it spans less than a day. It returns the window
// and how the chart's title names its start.
func ganttWindow(o *options, t *trace, jobs []plot.GanttJob) (from, to int64, start string, err error) {
	const day = 86400
	c := clockOf(t.hdr)
	if o.window == "" {
		first, last := jobs[0].Submit, jobs[0].End
		for _, j := range jobs {
			first, last = min(first, j.Submit), max(last, j.End)
		}
		if last-first < day {
			// A trace shorter than a day is drawn whole: a day's window
			// would show it as a sliver.
			return first, max(last, first+1), c.describe(first) + ", the whole trace", nil
		}
		from, _ = plot.BusiestWindow(jobs, day)
		return from, from + day, c.describe(from) + ", the busiest day", nil
	}
	w, err := parseWindow(o.window, c)
	if err != nil {
		return 0, 0, "", cmdio.Usagef("%v", err)
	}
	first, last := jobs[0].Submit, jobs[0].End
	for _, j := range jobs {
		first, last = min(first, j.Submit), max(last, j.End)
	}
	from, to = first, last
	if w.hasFrom {
		from = w.from
	}
	if w.hasTo {
		to = w.to
	}
	// The span in the trace's dates too, when it has them: the window may
	// have been given in dates.
	span := func(a, b int64) string {
		if !c.known {
			return fmt.Sprintf("%d to %d s", a, b)
		}
		return fmt.Sprintf("%d to %d s, %s to %s", a, b, c.describe(a), c.describe(b))
	}
	switch {
	case from >= to:
		return 0, 0, "", cmdio.Usagef("--window %s: the jobs of %s run from %s; the window is empty", o.window, t.label, span(first, last))
	case to <= first || from >= last:
		// Before the trace or after it: the same mistake either side.
		return 0, 0, "", cmdio.Usagef("--window %s: the jobs of %s run from %s; the window (%s) lies outside them", o.window, t.label, span(first, last), span(from, to))
	}
	return from, to, c.describe(from), nil
}

// gantt draws the schedule of one trace over [from, to), or over --window
// when to <= from.
func gantt(o *options, t *trace, from, to int64, start string) (plot.Drawer, error) {
	jobs, err := ganttJobs(o, t)
	if err != nil {
		return nil, err
	}
	return ganttOf(o, t, jobs, from, to, start)
}

// ganttOf draws the schedule of jobs, those of t, as gantt does.
func ganttOf(o *options, t *trace, jobs []plot.GanttJob, from, to int64, start string) (plot.Drawer, error) {
	if to <= from {
		var err error
		if from, to, start, err = ganttWindow(o, t, jobs); err != nil {
			return nil, err
		}
	}
	g := plot.Schedule{Label: t.label, Machine: t.machine.Procs, ColorBy: o.ganttColor, Jobs: jobs, From: from, To: to, Start: start}
	switch o.ganttColor {
	case "category":
		g.Groups = append(slices.Clone(plot.Categories), stats.Unknown)
	case "killed":
		g.Groups = []string{"no", "yes"}
	case "status":
		// SWF status codes: completed, failed, cancelled, then the parts
		// of partial executions; each keeps its color in every chart.
		g.Groups = []string{"1", "0", "5", "2", "3", "4", stats.Unknown}
	}
	p, err := plot.NewGantt(g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.display, err)
	}
	return p, nil
}

func ganttGroup(key string, s stats.Span) string {
	switch key {
	case "user":
		return idOrUnknown(s.User)
	case "status":
		return idOrUnknown(s.Status)
	case "killed":
		if s.Killed {
			return "yes"
		}
		return "no"
	}
	return s.Category
}

func idOrUnknown(v int64) string {
	if v < 0 {
		return stats.Unknown
	}
	return strconv.FormatInt(v, 10)
}

// writePlot draws the --plot figure with one curve or bar group per input,
// or the sweep sw over them.
func writePlot(o *options, traces []*trace, sw *sweep, files *cmdio.Files) error {
	var p plot.Drawer
	var err error
	if o.plotKind == plot.MetricSweep {
		p, err = plot.SweepFigure(sw.fig)
		if errors.Is(err, plot.ErrNoData) {
			err = fmt.Errorf("%w (sweep of %d inputs: every run's %s undefined)", err, len(traces), sw.fig.Metric)
		}
	} else {
		p, err = figure(o, o.plotKind, traces)
	}
	if err != nil {
		// The figure's file, as every error of an output names it.
		return fmt.Errorf("%s: %w", o.plotFile, err)
	}
	out, err := files.Create(o.plotFile)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(out)
	if err := plot.Write(p, o.plotFmt, o.plotSize, bw); err != nil {
		return err
	}
	return bw.Flush()
}
