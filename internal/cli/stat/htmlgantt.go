package statcli

import (
	"errors"
	"fmt"
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
	refOf := workloadRefs(o, traces)
	windows := map[int]sharedWindow{}
	var firstErr error
	drawable := false // some workload's window has jobs
	for _, r := range refOf {
		if _, done := windows[r]; done {
			continue
		}
		var w sharedWindow
		// A reference without jobs to draw leaves each input its own
		// window (gantt's default) and the reason in its own place.
		if jobs, err := ganttJobs(o, traces[r]); err == nil {
			w.from, w.to, w.start, w.err = ganttWindow(o, traces[r], jobs)
		}
		if w.err == nil {
			drawable = true
		} else if firstErr == nil {
			firstErr = w.err
		}
		windows[r] = w
	}
	if firstErr != nil && !drawable {
		if len(windows) > 1 {
			return nil, cmdio.Usagef("%v; it misses the jobs of every input", firstErr)
		}
		return nil, firstErr
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
	mainRef := refOf[main]
	var figures []report.Figure
	for i, t := range traces {
		ref, w := traces[refOf[i]], windows[refOf[i]]
		caption := fmt.Sprintf("Jobs of %s colored by %s; processors are assigned first fit in start order, since SWF records no processor ids.", t.label, o.ganttColor)
		id, heading := "gantt-"+strconv.Itoa(i+1), "Schedule of "+t.label
		if mw := windows[mainRef]; refOf[i] != mainRef && mw.err == nil {
			if jobs, err := ganttJobs(o, t); err == nil {
				title := mw.start
				if o.window == "" && title != "" {
					title += " of " + plot.ShortLabel(traces[mainRef].label)
				}
				if p, err := ganttOf(o, t, jobs, mw.from, mw.to, title); err == nil {
					figures = append(figures, htmlFigure(id, heading, caption, p, nil, o.plotSize))
					continue
				}
			}
		}
		if w.err != nil { // --window misses this workload, not every one
			figures = append(figures, htmlFigure(id, heading, caption, nil, w.err, o.plotSize))
			continue
		}
		title := w.start
		if o.window == "" && t != ref && title != "" {
			title += " of " + plot.ShortLabel(ref.label) // the window is ref's busiest day (or span), not t's
		}
		jobs, err := ganttJobs(o, t)
		var p plot.Drawer
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
