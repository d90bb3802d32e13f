package statcli

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/plot"
	"github.com/swfkit/swfkit/pkg/report"
)

// sharedWindow is the window the Gantt charts of one workload share, or why
// it cannot be drawn.
type sharedWindow struct {
	from, to int64
	start    string // how the charts' titles name its start
	err      error
}

// ganttFigures are the report's Gantt charts, one per input. Every input is
// drawn over the same window where it has jobs in it, so that they compare:
// --window, else the busiest day of the --baseline input, else of the first.
// An input of another workload (workloadOf) with no job in that window gets
// its workload's own window instead, and a --window that misses one
// workload's jobs leaves its charts undrawn with a note; it is a usage error
// only when it misses every workload's, as with one input.
func ganttFigures(o *options, traces []*trace) ([]report.Figure, error) {
	return newGanttPlan(o, traces).figures()
}

func (g *ganttPlan) figures() ([]report.Figure, error) {
	o, traces := g.o, g.traces
	if err := g.checkWindow(); err != nil {
		return nil, err
	}
	// The main workload is the first input's, or --baseline's: its window
	// stays the one every input is drawn over where it has jobs there (two
	// schedules of one trace can count as two workloads: a trace without
	// workload header lines read from a file and from standard input), and
	// another workload gets its own only where that window misses it.
	main := 0
	if o.baseline >= 0 {
		main = o.baseline
	}
	mainRef := g.refOf[main]
	mw := g.window(mainRef)
	var figures []report.Figure
	for i, t := range traces {
		caption := fmt.Sprintf("Jobs of %s colored by %s; processors are assigned first fit in start order, since SWF records no processor ids.", t.label, o.ganttColor)
		id, heading := "gantt-"+strconv.Itoa(i+1), "Schedule of "+t.label
		jobs, jobsErr := g.jobsOf(i)
		if g.refOf[i] != mainRef && mw.err == nil && jobsErr == nil {
			title := mw.start
			if o.window == "" && title != "" {
				title += " of " + plot.ShortLabel(traces[mainRef].label)
			}
			if p, err := ganttOf(o, t, jobs, mw.from, mw.to, title); err == nil {
				figures = append(figures, htmlFigure(id, heading, caption, p, nil, o.plotSize))
				continue
			}
		}
		ref, w := traces[g.refOf[i]], g.window(g.refOf[i])
		if w.err != nil { // --window misses this workload, not every one
			figures = append(figures, htmlFigure(id, heading, caption, nil, w.err, o.plotSize))
			continue
		}
		title := w.start
		if o.window == "" && t != ref && title != "" {
			title += " of " + plot.ShortLabel(ref.label) // the window is ref's busiest day (or span), not t's
		}
		var p plot.Drawer
		err := jobsErr
		if err == nil {
			p, err = ganttOf(o, t, jobs, w.from, w.to, title)
			if errors.Is(err, plot.ErrNoData) { // no job of t runs in the window
				err = emptyWindow(o, t, ref, w)
			}
		}
		figures = append(figures, htmlFigure(id, heading, caption, p, err, o.plotSize))
		if err != nil && !errors.Is(err, plot.ErrNoData) && !errors.Is(err, errEmptyWindow) {
			return nil, err
		}
	}
	return figures, nil
}

// ganttPlan holds what the report's Gantt charts need, each computed once
// and only when asked for: an input's jobs, and a workload's window (its
// busiest day is needed only for an input the main window misses).
type ganttPlan struct {
	o       *options
	traces  []*trace
	refOf   []int // workloadRefs
	jobs    map[int]ganttJobsResult
	windows map[int]sharedWindow
}

type ganttJobsResult struct {
	jobs []plot.GanttJob
	err  error
}

func newGanttPlan(o *options, traces []*trace) *ganttPlan {
	return &ganttPlan{o: o, traces: traces, refOf: workloadRefs(o, traces),
		jobs: map[int]ganttJobsResult{}, windows: map[int]sharedWindow{}}
}

// jobsOf is ganttJobs of input i.
func (g *ganttPlan) jobsOf(i int) ([]plot.GanttJob, error) {
	r, done := g.jobs[i]
	if !done {
		r.jobs, r.err = ganttJobs(g.o, g.traces[i])
		g.jobs[i] = r
	}
	return r.jobs, r.err
}

// window is the window of the workload whose reference input is r.
func (g *ganttPlan) window(r int) sharedWindow {
	w, done := g.windows[r]
	if !done {
		// A reference without jobs to draw leaves each input its own
		// window (gantt's default) and the reason in its own place.
		if jobs, err := g.jobsOf(r); err == nil {
			w.from, w.to, w.start, w.err = ganttWindow(g.o, g.traces[r], jobs)
		}
		g.windows[r] = w
	}
	return w
}

// checkWindow is the usage error of a --window that misses the jobs of
// every workload. Only a --window can miss (the busiest day is in the
// trace), so without one no window is computed here.
func (g *ganttPlan) checkWindow() error {
	if g.o.window == "" {
		return nil
	}
	var firstErr error
	workloads := 0
	for i, r := range g.refOf {
		if slices.Contains(g.refOf[:i], r) {
			continue // a workload seen before
		}
		workloads++
		w := g.window(r)
		if w.err == nil {
			return nil
		}
		if firstErr == nil {
			firstErr = w.err
		}
	}
	if workloads > 1 {
		return cmdio.Usagef("%v; it misses the jobs of every input", firstErr)
	}
	return firstErr
}

// errEmptyWindow is a Gantt chart of the report with no job in its window.
var errEmptyWindow = errors.New("no job runs in the window")

// emptyWindow says that no job of t runs in the window w of ref's workload,
// naming both; when the window is another input's, how to draw t over its
// own (windows cut from one log are one workload). Without a shared window
// (ref has no job to draw) t's chart was over its own --window.
func emptyWindow(o *options, t, ref *trace, w sharedWindow) error {
	if w.from >= w.to {
		return fmt.Errorf("%s: %w (--window %s)", t.label, errEmptyWindow, o.window)
	}
	c := clockOf(ref.hdr)
	span := fmt.Sprintf("%s to %s", c.describe(w.from), c.describe(w.to))
	if t == ref {
		return fmt.Errorf("%s: %w (%s)", t.label, errEmptyWindow, span)
	}
	return fmt.Errorf("%s: %w (%s), which is that of %s, an input of the same workload (the same Computer, Installation and UnixStartTime header lines); give %s its own Computer line (swfclean --rules none --set Computer=NAME) to draw it over its own busiest day",
		t.label, errEmptyWindow, span, ref.label, t.label)
}
