package statcli

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/plot"
	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/stats"
	"github.com/swfkit/swfkit/pkg/swf"
)

// sweepSpec is what a sweep figure draws (--sweep-x, --sweep-y,
// --sweep-series): a metric of every input against one of its columns.
type sweepSpec struct {
	x                 string // "": the default (loadColumn)
	metric, statistic string // statistic "" until resolved: the metric's first of mean, value, count
	series            []string
	seriesGiven       bool
}

// loadColumn reports whether a column is the load a grid's swfaugment set
// (swfaugment.target-load, swfaugment.load, or those of its second run in a
// pipe, swfaugment_2.*): the default x axis, and the column a metric on the
// x axis is expected to follow.
func loadColumn(name string) bool {
	tool, key, ok := strings.Cut(name, ".")
	if !ok || key != "target-load" && key != "load" {
		return false
	}
	if tool == "swfaugment" {
		return true
	}
	n, ok := strings.CutPrefix(tool, "swfaugment_")
	_, err := strconv.Atoi(n)
	return ok && err == nil
}

// inputHash reports whether a column is the hash of a run's input
// (TOOL.input-sha256): it says which bytes a run read, not how the run was
// configured (the input= column names the trace), so the sweep's grouping
// leaves it out: the hash of a pipe's bytes differs from seed to seed.
func inputHash(name string) bool {
	_, key, ok := strings.Cut(name, ".")
	return ok && key == provenance.InputSHA256
}

// sweepDefaultSeries is the line a run belongs to by default: its policy.
const sweepDefaultSeries = "swfsim.policy"

// parseSweep reads the sweep flags; they apply to --plot-kind sweep and
// to the report (--html).
func (o *options) parseSweep(get func(string) string, isSet func(string) bool) error {
	drawsSweep := o.plotKind == plot.MetricSweep || o.htmlFile != ""
	for _, name := range []string{"sweep-x", "sweep-y", "sweep-series"} {
		if isSet(name) && !drawsSweep {
			return cmdio.Usagef("--%s applies to a sweep figure: --plot-kind sweep or --html", name)
		}
	}
	s := &o.sweep
	s.x = strings.TrimSpace(get("sweep-x"))
	if isSet("sweep-x") && s.x == "" {
		return cmdio.Usagef("--sweep-x: want a column of the CSV (swfaugment.target-load) or a metric (offered_load)")
	}
	y := strings.TrimSpace(get("sweep-y"))
	s.metric, s.statistic, _ = strings.Cut(y, ":")
	if s.metric == "" || strings.Contains(s.statistic, ":") {
		return cmdio.Usagef("--sweep-y %q: want METRIC or METRIC:STATISTIC as the CSV names them (bsld, wait_s:p50)", y)
	}
	if v := get("sweep-series"); isSet("sweep-series") {
		s.seriesGiven = true
		if strings.TrimSpace(v) != "none" {
			for _, k := range strings.Split(v, ",") {
				k = strings.TrimSpace(k)
				if k == "" || slices.Contains(s.series, k) {
					return cmdio.Usagef("--sweep-series %q: want a comma list of distinct columns, or none", v)
				}
				s.series = append(s.series, k)
			}
		}
	}
	return nil
}

// sweep is a resolved sweep figure: its data and the warnings a reader
// needs to trust it.
type sweep struct {
	fig      plot.Sweep
	warnings []string
}

// errNoSweep says that the inputs are no grid to draw against the default
// column; the report then has no sweep figure.
type errNoSweep struct{ msg string }

func (e errNoSweep) Error() string { return e.msg }

// errPercentile is a percentile statistic (p99) of a metric the inputs have,
// which --percentiles did not ask for: not a metric that does not exist.
type errPercentile struct{ msg string }

func (e errPercentile) Error() string { return e.msg }

// unrequestedPercentile says how to get statistic pN of metric when it is a
// percentile that --percentiles (requested) left out and the inputs report
// the metric's requested percentiles; "" otherwise.
func unrequestedPercentile(traces []*trace, requested []float64, metric, stat string) string {
	num, ok := strings.CutPrefix(stat, "p")
	if !ok {
		return ""
	}
	p, err := swf.ParseDecimal(num)
	if err != nil || !(p >= 0 && p <= 100) || slices.Contains(requested, p) {
		return ""
	}
	hasPercentiles := slices.ContainsFunc(traces, func(t *trace) bool {
		return slices.ContainsFunc(requested, func(q float64) bool {
			_, ok := t.report.Find(metric, stats.PercentileName(q))
			return ok
		})
	})
	if !hasPercentiles {
		return ""
	}
	now := make([]string, len(requested))
	for i, q := range requested {
		now[i] = strconv.FormatFloat(q, 'f', -1, 64)
	}
	return fmt.Sprintf("percentile %s was not requested: add %s to --percentiles (now %s)",
		stats.PercentileName(p), strconv.FormatFloat(p, 'f', -1, 64), strings.Join(now, ","))
}

// buildSweep resolves the sweep figure over the inputs' reports and columns.
func buildSweep(o *options, traces []*trace, ic *inputColumns) (*sweep, error) {
	col := map[string]int{}
	for i, name := range ic.names {
		col[name] = i
	}
	value := func(c, i int) (string, bool) { return ic.vals[i][c], ic.present[i][c] }
	valueKey := func(c, i int) string {
		v, ok := value(c, i)
		return fmt.Sprint(ok, "\x00", v)
	}
	// values counts the values a column takes over the inputs that have it.
	values := func(c int) int {
		seen := map[string]bool{}
		for i := range traces {
			if v, ok := value(c, i); ok {
				seen[v] = true
			}
		}
		return len(seen)
	}
	varying := func() string {
		var names []string
		for c, name := range ic.names {
			if values(c) > 1 && !inputHash(name) {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			return "no column takes two values over the inputs (a study's runs carry their grid in their Provenance lines)"
		}
		return "the columns that vary over the inputs: " + strings.Join(names, ", ")
	}
	s := o.sweep
	sw := &sweep{}
	// The metric of each input, by name and statistic; NaN where the input
	// has no such row or its value is undefined.
	var xAbsent, yAbsent []int // inputs without the metric's row (metricOf warned)
	metricOf := func(flag, metric, statistic string) ([]float64, string, error) {
		stat := statistic
		if stat == "" {
			for _, cand := range []string{"mean", "value", "count"} {
				if slices.ContainsFunc(traces, func(t *trace) bool { _, ok := t.report.Find(metric, cand); return ok }) {
					stat = cand
					break
				}
			}
		}
		ys := make([]float64, len(traces))
		var absent []string
		for i, t := range traces {
			ys[i] = math.NaN()
			if row, ok := t.report.Find(metric, stat); ok {
				ys[i] = row.Value
			} else {
				absent = append(absent, t.display)
				if flag == "--sweep-x" {
					xAbsent = append(xAbsent, i)
				} else {
					yAbsent = append(yAbsent, i)
				}
			}
		}
		name := strings.TrimSuffix(metric+":"+stat, ":")
		switch {
		case len(absent) == len(traces):
			if msg := unrequestedPercentile(traces, o.cfg.Percentiles, metric, stat); msg != "" {
				return nil, "", errPercentile{msg}
			}
			return nil, "", fmt.Errorf("no input has the metric %s", name)
		case len(absent) > 0:
			sw.warnings = append(sw.warnings, fmt.Sprintf("%s: %d of %d inputs have no %s (%s): left out of the sweep figure", flag, len(absent), len(traces), name, strings.Join(absent, ", ")))
		}
		return ys, stat, nil
	}

	// The x axis: a column, else a metric (offered_load). By default the
	// grid's load: swfaugment's --target-load (else --load) as the last
	// swfaugment run of each input's pipeline set it (swfaugment_2.* when
	// a first run prepared the trace; 0 is "not set").
	var xCols []int // the columns x is read from
	xv := make([]string, len(traces))
	xok := make([]bool, len(traces))
	var xMetric []float64
	switch c, ok := col[s.x]; {
	case s.x == "":
		for _, key := range []string{"target-load", "load"} {
			var cols []int
			for c, name := range ic.names {
				if loadColumn(name) && strings.HasSuffix(name, "."+key) {
					cols = append(cols, c)
				}
			}
			seen := map[string]bool{}
			for i := range traces {
				xv[i], xok[i] = "", false
				for _, c := range cols {
					if v, ok := value(c, i); ok && v != "0" {
						xv[i], xok[i] = v, true
					}
				}
				if xok[i] {
					seen[xv[i]] = true
				}
			}
			if len(seen) > 1 {
				xCols, s.x = cols, "swfaugment."+key
				break
			}
		}
		if xCols == nil {
			return nil, errNoSweep{"a sweep figure needs --sweep-x (no swfaugment --target-load or --load takes two values over the inputs); " + varying()}
		}
	case ok:
		xCols = []int{c}
		for i := range traces {
			xv[i], xok[i] = value(c, i)
		}
	default:
		m, st, _ := strings.Cut(s.x, ":")
		ys, _, err := metricOf("--sweep-x", m, st)
		if errors.As(err, new(errPercentile)) {
			return nil, cmdio.Usagef("--sweep-x %s: %v", s.x, err)
		} else if err != nil {
			return nil, cmdio.Usagef("--sweep-x %s: no such column, and %v; %s", s.x, err, varying())
		}
		xMetric = ys
	}
	xIsColumn := xMetric == nil
	isX := func(c int) bool { return slices.Contains(xCols, c) }
	// xKey is what tells apart the grid points a trace is run at: x, or
	// with a metric on the x axis the load column that drives it.
	driver := -1 // with a metric on x: the first load column that varies
	if !xIsColumn {
		for c, name := range ic.names {
			if loadColumn(name) && values(c) > 1 {
				driver = c
				break
			}
		}
	}
	xKey := func(i int) string {
		if xIsColumn {
			return xv[i]
		}
		if driver < 0 {
			return ""
		}
		v, _ := value(driver, i)
		return v
	}
	noKey := !xIsColumn && xKey(0) == "" // nothing tells grid points apart
	// nameTraces reports whether an input column names the trace a run was
	// made from: two files or more (a pipe, "-", names none) of which one
	// at least is run at two grid points. A file made for one grid point
	// (swfaugment's output for a load and seed, read by swfsim) is an
	// intermediate file, not a parameter.
	nameTraces := func(c int) bool {
		at := map[string]map[string]bool{}
		for i := range traces {
			if v, ok := value(c, i); ok && v != "-" {
				if at[v] == nil {
					at[v] = map[string]bool{}
				}
				at[v][xKey(i)] = true
			}
		}
		if len(at) < 2 {
			return false
		}
		for _, keys := range at {
			if len(keys) > 1 || noKey {
				return true
			}
		}
		return false
	}
	// traceLike is nameTraces of an input column, worked out once.
	isTrace := map[int]bool{}
	traceLike := func(c int) bool {
		if !strings.HasSuffix(ic.names[c], ".input") {
			return false
		}
		if t, done := isTrace[c]; done {
			return t
		}
		t := nameTraces(c)
		isTrace[c] = t
		return t
	}
	ys, stat, err := metricOf("--sweep-y", s.metric, s.statistic)
	if errors.As(err, new(errPercentile)) {
		return nil, cmdio.Usagef("--sweep-y %s: %v", strings.TrimSuffix(s.metric+":"+s.statistic, ":"), err)
	} else if err != nil {
		return nil, cmdio.Usagef("--sweep-y %s: %v (the metrics are the CSV's metric column: bsld, wait_s, utilization_pct, ...; the statistic its statistic column: mean, p50, value, ...)", strings.TrimSuffix(s.metric+":"+s.statistic, ":"), err)
	}

	series := s.series
	if !s.seriesGiven {
		if c, ok := col[sweepDefaultSeries]; ok && !isX(c) {
			series = []string{sweepDefaultSeries}
		}
		// The trace a run was made from, when the inputs come from
		// several: the first input column, in pipeline order, that names
		// traces.
		for c, name := range ic.names {
			if !isX(c) && traceLike(c) {
				series = append(series, name)
				break
			}
		}
	}
	var seriesCols []int
	for _, name := range series {
		c, ok := col[name]
		if !ok {
			return nil, cmdio.Usagef("--sweep-series: no column %s; %s", name, varying())
		}
		if isX(c) {
			return nil, cmdio.Usagef("--sweep-series %s is the x axis (--sweep-x)", name)
		}
		seriesCols = append(seriesCols, c)
	}

	// The inputs drawn, with their x and series.
	var inputs []int
	var xs []string
	for i, t := range traces {
		if slices.Contains(yAbsent, i) {
			continue // left out, and said, by metricOf
		}
		var x string
		if xIsColumn {
			if !xok[i] {
				sw.warnings = append(sw.warnings, fmt.Sprintf("%s has no %s: left out of the sweep figure", t.display, s.x))
				continue
			}
			x = xv[i]
		} else {
			if math.IsNaN(xMetric[i]) {
				if !slices.Contains(xAbsent, i) {
					sw.warnings = append(sw.warnings, fmt.Sprintf("%s has no value of %s (no job to measure): left out of the sweep figure", t.display, s.x))
				}
				continue
			}
			x = strconv.FormatFloat(xMetric[i], 'g', 4, 64)
		}
		inputs, xs = append(inputs, i), append(xs, x)
	}
	if len(inputs) == 0 {
		return nil, cmdio.Usagef("--sweep-x %s: no input has a value of it; %s", s.x, varying())
	}
	// Runs with many jobs killed at their requested time ran less work
	// than the load they are drawn at.
	if xIsColumn && loadColumn(s.x) {
		killed := 0
		for _, i := range inputs {
			if traces[i].warning != "" {
				killed++
			}
		}
		if killed > 0 {
			sw.warnings = append(sw.warnings, fmt.Sprintf("%d of %d runs drawn had more than --kill-warn %s%% of their jobs killed at their requested time: they ran less work than the load they are drawn at (--sweep-x offered_load draws the load each ran; swfsim --no-kill keeps it)", killed, len(inputs), formatTable(100*o.killWarn.Share)))
		}
	}
	// A series is keyed by its columns' whole values; its name shows a
	// trace's path by the file's name when that tells the traces apart.
	seriesKey := func(i int, short bool) string {
		var names []string
		for _, c := range seriesCols {
			v, ok := value(c, i)
			switch {
			case !ok:
				v = "(none)"
			case short && strings.HasSuffix(ic.names[c], ".input"):
				v = traceName(v)
			}
			names = append(names, v)
		}
		return strings.Join(names, ", ")
	}
	short := true
	byName := map[string]string{}
	for _, i := range inputs {
		name, key := seriesKey(i, true), seriesKey(i, false)
		if k, ok := byName[name]; ok && k != key {
			short = false // two traces of one name in different directories
		}
		byName[name] = key
	}

	// Columns that say nothing of a run's configuration: swfstat's own,
	// an input that names no trace (a pipe, or an intermediate file made
	// for one grid point: traceLike), and the hash of the bytes an input
	// held (input-sha256), which its input= column names: the hash of what
	// a pipe carried differs from seed to seed.
	ignored := map[int]bool{}
	for c, name := range ic.names {
		if strings.HasPrefix(name, "swfstat.") || strings.HasSuffix(name, ".input") && !traceLike(c) || inputHash(name) {
			ignored[c] = true
		}
	}
	seed := func(c int) bool { return strings.HasSuffix(ic.names[c], ".seed") }

	// The same trace path read as different bytes by different runs: the
	// trace changed (or another file took its path) between them, and the
	// figure would mix the two as one trace.
	for c, name := range ic.names {
		h, ok := col[strings.TrimSuffix(name, ".input")+"."+provenance.InputSHA256]
		if !strings.HasSuffix(name, ".input") || !ok {
			continue
		}
		hashes := map[string]map[string]bool{} // path -> hashes read
		var paths []string
		for _, i := range inputs {
			p, okp := value(c, i)
			x, okx := value(h, i)
			if !okp || !okx || x == "" || p == "-" {
				continue // standard input names no file
			}
			if hashes[p] == nil {
				hashes[p] = map[string]bool{}
				paths = append(paths, p)
			}
			hashes[p][x] = true
		}
		for _, p := range paths {
			if n := len(hashes[p]); n > 1 {
				sw.warnings = append(sw.warnings, fmt.Sprintf("the runs that read %s (%s) read %d different contents of it (%s.%s): it changed between them, and the sweep figure joins them as one trace",
					p, name, n, strings.TrimSuffix(name, ".input"), provenance.InputSHA256))
			}
		}
	}

	// Repetitions: inputs alike in every column, seeds included, are one
	// run given twice.
	seen := map[string]int{} // configuration key -> index in copies
	var copies [][]int       // the inputs of each configuration, by first appearance
	for _, i := range inputs {
		var b strings.Builder
		described := false // some column says how the run was made
		for c := range ic.names {
			if !ignored[c] {
				b.WriteString(valueKey(c, i))
				b.WriteByte(0)
				_, ok := value(c, i)
				described = described || ok
			}
		}
		if !described {
			continue
		}
		if k, ok := seen[b.String()]; ok {
			copies[k] = append(copies[k], i)
			continue
		}
		seen[b.String()] = len(copies)
		copies = append(copies, []int{i})
	}
	for _, cp := range copies {
		if len(cp) < 2 {
			continue
		}
		names := make([]string, len(cp))
		for k, i := range cp {
			names[k] = traces[i].display
		}
		list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
		times := "twice"
		if len(cp) > 2 {
			times = fmt.Sprintf("%d times", len(cp))
		}
		sw.warnings = append(sw.warnings, fmt.Sprintf("%s are alike in every column, seeds included: one configuration given %s, each counted in its point", list, times))
	}

	// The points: the runs of one series and x; with a metric on the x
	// axis, the runs of one configuration (alike in every column but the
	// seeds), at the mean of their x.
	runs := make([]stats.SweepRun, len(inputs))
	for k, i := range inputs {
		runs[k] = stats.SweepRun{Series: seriesKey(i, false), X: xs[k], Y: ys[i]}
	}
	if !xIsColumn {
		config := func(i int) string {
			var b strings.Builder
			for c := range ic.names {
				if !ignored[c] && !seed(c) && !slices.Contains(seriesCols, c) {
					b.WriteString(valueKey(c, i))
					b.WriteByte(0)
				}
			}
			return b.String()
		}
		sum, n := map[string]float64{}, map[string]int{}
		for k, i := range inputs {
			runs[k].Key = config(i)
			sum[runs[k].Series+"\x00"+runs[k].Key] += xMetric[i]
			n[runs[k].Series+"\x00"+runs[k].Key]++
		}
		for k := range runs {
			g := runs[k].Series + "\x00" + runs[k].Key
			runs[k].X = strconv.FormatFloat(sum[g]/float64(n[g]), 'g', 4, 64)
		}
	}

	// A point averages the runs of one series and x: say which columns
	// other than the seeds differ among them, since those runs are then
	// not repetitions of one configuration. With a metric on the x axis,
	// a line joins configurations: say which columns other than the load
	// differ along a line.
	groupOf := func(k int) string {
		if xIsColumn {
			return runs[k].Series + "\x00" + runs[k].X
		}
		return runs[k].Series
	}
	// A tool run in some pipelines of a point and not in others (a second
	// swfaugment that prepared some traces) is one warning, not one per
	// flag of it.
	toolOf := func(name string) string { tool, _, _ := strings.Cut(name, "."); return tool }
	partTools := map[string]bool{}
	var partOrder []string
	for c, name := range ic.names {
		if ignored[c] || isX(c) {
			continue
		}
		has, lacks := map[string]bool{}, map[string]bool{}
		for k, i := range inputs {
			if _, ok := value(c, i); ok {
				has[groupOf(k)] = true
			} else {
				lacks[groupOf(k)] = true
			}
		}
		for g := range has {
			if lacks[g] && !partTools[toolOf(name)] {
				partTools[toolOf(name)] = true
				partOrder = append(partOrder, toolOf(name))
				break
			}
		}
	}
	for _, tool := range partOrder {
		sw.warnings = append(sw.warnings, fmt.Sprintf("a point or line of the sweep figure joins runs whose pipelines differ: some ran %s, others did not; give every run of a study the same preparation (docs/study.md)", tool))
	}
	for c, name := range ic.names {
		if ignored[c] || seed(c) || isX(c) || slices.Contains(seriesCols, c) || partTools[toolOf(name)] {
			continue
		}
		first := map[string]string{}
		vals := map[string]bool{}
		differs := false
		for k, i := range inputs {
			group := groupOf(k)
			vk := valueKey(c, i)
			vals[vk] = true
			if f, seen := first[group]; seen && f != vk {
				differs = true
			} else if !seen {
				first[group] = vk
			}
		}
		switch {
		case differs && xIsColumn:
			sw.warnings = append(sw.warnings, fmt.Sprintf("a point of the sweep figure averages runs that differ in %s (%d values over the inputs): name it in --sweep-series to draw them apart", name, len(vals)))
		case differs && !loadColumn(name):
			sw.warnings = append(sw.warnings, fmt.Sprintf("a line of the sweep figure joins runs that differ in %s (%d values over the inputs) besides the load: name it in --sweep-series to draw a line for each", name, len(vals)))
		}
	}
	sw.fig = plot.Sweep{Metric: s.metric + " " + stat, Parameter: s.x}
	sw.fig.Series, sw.fig.Xs, sw.fig.Numeric = stats.Sweep(runs)
	if short {
		for k := range sw.fig.Series {
			for _, i := range inputs {
				if seriesKey(i, false) == sw.fig.Series[k].Name {
					sw.fig.Series[k].Name = seriesKey(i, true)
					break
				}
			}
		}
	}
	if len(series) > 0 {
		sw.fig.Legend = strings.Join(series, ", ")
	}
	return sw, nil
}

// traceName is a trace's file name without its directory and its .swf and
// compression suffixes, as a legend shows it.
func traceName(path string) string {
	name := filepath.Base(path)
	for _, ext := range []string{".gz", ".zst", ".bz2", ".xz"} {
		name = strings.TrimSuffix(name, ext)
	}
	if base := strings.TrimSuffix(name, ".swf"); base != "" {
		name = base
	}
	return name
}
