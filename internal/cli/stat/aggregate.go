package statcli

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/plot"

	"github.com/swfkit/swfkit/pkg/stats"
)

// summarize reads every input and computes its report, up to GOMAXPROCS
// inputs at a time. Each input's per-job records are dropped once its report
// is made (unless --plot, --html or --check-capacity needs them), so memory is
// bounded by the largest inputs being read at once, not by their sum.
//
// An input whose header has swfaugment's bounds Note takes the U-QoS bounds
// not given by flag from it (useAugmentBounds). With several inputs and
// bounds not both given, the inputs of one workload (workloadOf: the same
// trace, however simulated) all use the bounds of one of them, the --baseline
// input or else the workload's first: it is read first, and the others wait
// for its bounds before reporting, so that all schedules of a trace are
// compared under one definition of large and short jobs, and each trace of a
// study under its own.
//
// The result does not depend on the number of workers; the error returned is
// that of the first failing input in argument order.
func summarize(o *options, traces []*trace, files *cmdio.Files, jobs *jobsExport) error {
	shared := len(traces) > 1 && !(o.cfg.UQoSLowerBound > 0 && o.cfg.UQoSUpperBound > 0)
	refOf := workloadRefs(o, traces)
	type refState struct {
		done         chan struct{}
		lower, upper float64
		failed       bool
	}
	refs := map[int]*refState{}
	for _, r := range refOf {
		if refs[r] == nil {
			refs[r] = &refState{done: make(chan struct{})}
		}
	}

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
		ref := refs[refOf[i]]
		if shared && refOf[i] == i {
			if err == nil {
				ref.lower, ref.upper = t.collector.UQoSBounds()
				if !(ref.upper > 0) || !(ref.lower > 0) {
					ref.lower, ref.upper = math.NaN(), math.NaN() // undefined for every column, not re-derived per file
				}
			} else {
				ref.failed = true
			}
			close(ref.done)
		}
		if err != nil {
			return err
		}
		if shared {
			<-ref.done
			if ref.failed {
				return nil // the reference input's error is reported
			}
			t.collector.SetUQoSBounds(ref.lower, ref.upper)
			t.uqosLower, t.uqosUpper = ref.lower, ref.upper
			t.uqosFrom = traces[refOf[i]].label
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
			if o.showsCategories() {
				t.categoryWarning = categoryWarning(t, o.cfg)
			}
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

	// Every reference input is handed out before any input that waits for
	// one, so no worker waits for an input that no worker has taken.
	order := make([]int, 0, len(traces))
	if o.baseline >= 0 {
		order = append(order, o.baseline)
	}
	for i := range traces {
		if refOf[i] == i && i != o.baseline {
			order = append(order, i)
		}
	}
	for i := range traces {
		if refOf[i] != i {
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
		case shared && i != refOf[i]:
			// Its Note's bounds were replaced by the reference input's.
			o.uqosNoteUnused = append(o.uqosNoteUnused, t.label)
		default:
			o.uqosNote = append(o.uqosNote, t.label)
		}
	}
	if shared {
		for r := range refs {
			o.uqosRefs = append(o.uqosRefs, r)
		}
		slices.Sort(o.uqosRefs)
		if len(refs) == 1 {
			r := o.uqosRefs[0]
			o.uqosFrom, o.uqosLower, o.uqosUpper = traces[r].label, refs[r].lower, refs[r].upper
		} else {
			for _, r := range o.uqosRefs {
				o.uqosShared = append(o.uqosShared, fmt.Sprintf("%s (lower %g s, upper %g s)", traces[r].label, refs[r].lower, refs[r].upper))
			}
		}
	}
	return nil
}

// workloadRefs gives, for each input, the index of the input whose U-QoS
// bounds it shares: the --baseline input for the inputs of its workload,
// else the first input of the workload.
func workloadRefs(o *options, traces []*trace) []int {
	first := map[string]int{}
	if o.baseline >= 0 {
		first[traces[o.baseline].workload] = o.baseline
	}
	refOf := make([]int, len(traces))
	for i, t := range traces {
		r, ok := first[t.workload]
		if !ok {
			r = i
			first[t.workload] = i
		}
		refOf[i] = r
	}
	return refOf
}

// killWarning is the warning for an input in which more than --kill-warn of
// the measured jobs were killed at their requested time ("" when none): its
// simulated machine then ran less work than was offered, which makes every
// metric look better than the load it was meant to show.
func killWarning(o *options, rep *stats.Report) string {
	row, ok := rep.Find("killed", "percent")
	if !ok || math.IsNaN(row.Value) || !o.killWarn.Warns(row.Value/100) {
		return ""
	}
	return fmt.Sprintf("%s%% of jobs (%s of %d) killed at their requested time (over --kill-warn %s%%)",
		formatTable(math.Round(row.Value*10)/10), countOf(rep), row.Jobs, formatTable(100*o.killWarn.Share))
}

// lastKillWarning is the index of the last input with the kill warning, -1
// when none has it: the long hint follows that one only, on stderr and in the
// table, however many inputs are warned about.
func lastKillWarning(traces []*trace) int {
	last := -1
	for i, t := range traces {
		if t.warning != "" {
			last = i
		}
	}
	return last
}

// maxWarningLines is the most inputs a warning (the kill warning, one
// category warning) is given for one by one on stderr; over more (a study's
// 32 runs at a load with kills), one line says how many, and the table's and
// the CSV's warning column give each.
const maxWarningLines = 3

// killWarningSummary is that one line, "" when maxWarningLines or fewer inputs
// have the kill warning.
func killWarningSummary(o *options, traces []*trace) string {
	var warned []*trace
	for _, t := range traces {
		if t.warning != "" {
			warned = append(warned, t)
		}
	}
	if len(warned) <= maxWarningLines {
		return ""
	}
	pct := func(t *trace) float64 {
		row, _ := t.report.Find("killed", "percent")
		return row.Value
	}
	lo, hi := warned[0], warned[0]
	for _, t := range warned {
		if pct(t) < pct(lo) {
			lo = t
		}
		if pct(t) > pct(hi) {
			hi = t
		}
	}
	least, most := formatTable(math.Round(pct(lo)*10)/10), formatTable(math.Round(pct(hi)*10)/10)
	span := fmt.Sprintf("from %s%% (%s) to %s%% (%s)", least, lo.display, most, hi.display)
	if least == most {
		span = "each " + least + "%"
	}
	return fmt.Sprintf("%d of %d inputs had more than --kill-warn %s%% of their jobs killed at their requested time, %s; the table and the CSV/JSON warning column give each: %s",
		len(warned), len(traces), formatTable(100*o.killWarn.Share), span, killHint)
}

// killWarningText is t's kill warning, with the hint when hint is set.
func killWarningText(t *trace, hint bool) string {
	if hint {
		return t.warning + ": " + killHint
	}
	return t.warning
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
// reports: by the figures (--plot, --html; a sweep figure reads the reports
// only) and the capacity check.
func (o *options) keepRecords() bool {
	return o.plotFile != "" && o.plotKind != plot.MetricSweep || o.htmlFile != "" || o.checkCap
}
