package statcli

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/swfkit/swfkit/internal/cli/cmdio"

	"github.com/swfkit/swfkit/pkg/stats"
)

// summarize reads every input and computes its report, up to GOMAXPROCS
// inputs at a time. Each input's per-job records are dropped once its report
// is made (unless --plot, --html or --check-capacity needs them), so memory is
// bounded by the largest inputs being read at once, not by their sum.
//
// An input whose header has swfaugment's bounds Note takes the U-QoS bounds
// not given by flag from it (useAugmentBounds). With several inputs and
// bounds not both given, every report uses the bounds of one input, the
// --baseline one or else the first: it is read first, and the others wait
// for its bounds before reporting, so that all schedules are compared under
// one definition of large and short jobs.
//
// The result does not depend on the number of workers; the error returned is
// that of the first failing input in argument order.
func summarize(o *options, traces []*trace, files *cmdio.Files, jobs *jobsExport) error {
	shared := len(traces) > 1 && !(o.cfg.UQoSLowerBound > 0 && o.cfg.UQoSUpperBound > 0)
	ref := max(o.baseline, 0)
	refDone := make(chan struct{})
	var refLower, refUpper float64
	refFailed := false

	process := func(i int) error {
		t := traces[i]
		var jw *jobWriter
		if jobs != nil {
			var err error
			if jw, err = jobs.open(i); err != nil {
				return err
			}
		}
		err := t.readBody(o, files, jw)
		if err == nil && jw != nil {
			err = jw.finish()
		}
		if err == nil {
			t.uqosFromNote = useAugmentBounds(o, t)
		}
		if shared && i == ref {
			if err == nil {
				refLower, refUpper = t.collector.UQoSBounds()
				if !(refUpper > 0) || !(refLower > 0) {
					refLower, refUpper = math.NaN(), math.NaN() // undefined for every column, not re-derived per file
				}
			} else {
				refFailed = true
			}
			close(refDone)
		}
		if err != nil {
			return err
		}
		if shared {
			<-refDone
			if refFailed {
				return nil // the reference input's error is reported
			}
			t.collector.SetUQoSBounds(refLower, refUpper)
			t.uqosLower, t.uqosUpper = refLower, refUpper
		} else {
			t.uqosLower, t.uqosUpper = t.collector.UQoSBounds()
		}
		if !o.checkCap {
			t.report = t.collector.Report(t.label)
			if t.malformed > 0 {
				skipped := stats.Exclusion{Reason: "malformed record skipped (--lenient)", Affects: "everything (not read)", Jobs: t.malformed}
				t.report.Excluded = append([]stats.Exclusion{skipped}, t.report.Excluded...)
			}
			t.warning = killWarning(o, t.report)
		}
		if !o.keepRecords() {
			// The per-job records and the sorted waits and bounded slowdowns
			// (kept for plots) are no longer needed: what stays per input is
			// its rows, so memory does not grow with the number of inputs.
			t.collector = nil
			if t.report != nil {
				t.report.Waits, t.report.BoundedSlowdowns = nil, nil
			}
		}
		return nil
	}

	order := make([]int, 0, len(traces))
	order = append(order, ref)
	for i := range traces {
		if i != ref {
			order = append(order, i)
		}
	}
	errs := make([]error, len(traces))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(traces)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				errs[i] = process(i)
			}
		}()
	}
	for _, i := range order {
		work <- i
	}
	close(work)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	for i, t := range traces {
		switch {
		case !t.uqosFromNote:
		case shared && i != ref:
			// Its Note's bounds were replaced by the reference input's.
			o.uqosNoteUnused = append(o.uqosNoteUnused, t.label)
		default:
			o.uqosNote = append(o.uqosNote, t.label)
		}
	}
	if shared {
		o.uqosFrom, o.uqosLower, o.uqosUpper = traces[ref].label, refLower, refUpper
	}
	return nil
}

// killWarning is the warning for an input in which more than --kill-warn of
// the measured jobs were killed at their requested time ("" when none): its
// simulated machine then ran less work than was offered, which makes every
// metric look better than the load it was meant to show.
func killWarning(o *options, rep *stats.Report) string {
	row, ok := rep.Find("killed", "percent")
	if !ok || math.IsNaN(row.Value) || row.Value <= 100*o.killWarn {
		return ""
	}
	return fmt.Sprintf("%s%% of jobs (%s of %d) killed at their requested time (over --kill-warn %s%%)",
		formatTable(math.Round(row.Value*10)/10), countOf(rep), row.Jobs, formatTable(100*o.killWarn))
}

// killHint follows the kill warning on stderr and in the table.
const killHint = "the simulated machine ran less work than was offered (swfsim's offered-load Note gives both loads), " +
	"which flatters every metric; rerun swfsim with --no-kill to compare at the offered load"

func countOf(rep *stats.Report) string {
	if row, ok := rep.Find("killed", "count"); ok {
		return formatTable(row.Value)
	}
	return "?"
}

// keepRecords reports whether the per-job records are needed after the
// reports: by the figures (--plot, --html) and the capacity check.
func (o *options) keepRecords() bool {
	return o.plotFile != "" || o.htmlFile != "" || o.checkCap
}
