package statcli

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/plot"
	"github.com/swfkit/swfkit/pkg/stats"
)

// sweepSpec is what a sweep figure draws (--sweep-x, --sweep-y,
// --sweep-series): a metric of every input against one of its columns.
type sweepSpec struct {
	x                 string // "" until resolved: the default
	metric, statistic string // statistic "" until resolved: the metric's first of mean, value, count
	series            []string
	seriesGiven       bool
}

// sweepDefaultX are the columns a sweep is drawn against when --sweep-x is
// not given, the first that takes two values over the inputs: the load of
// a grid made by swfaugment.
var sweepDefaultX = []string{"swfaugment.target-load", "swfaugment.load"}

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
		return cmdio.Usagef("--sweep-x: want a column (swfaugment.target-load, a --tag KEY) or a metric (offered_load)")
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

// buildSweep resolves the sweep figure over the inputs' reports and columns.
func buildSweep(o *options, traces []*trace, ic *inputColumns) (*sweep, error) {
	col := map[string]int{}
	for i, name := range ic.names {
		col[name] = i
	}
	value := func(c, i int) (string, bool) { return ic.vals[i][c], ic.present[i][c] }
	distinct := func(c int) int {
		seen := map[string]bool{}
		for i := range traces {
			v, ok := value(c, i)
			seen[fmt.Sprint(ok, v)] = true
		}
		return len(seen)
	}
	varying := func() string {
		var names []string
		for c, name := range ic.names {
			if distinct(c) > 1 {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			return "no column varies over the inputs (a study's runs carry their grid in their Provenance lines; --tag adds columns)"
		}
		return "the columns that vary over the inputs: " + strings.Join(names, ", ")
	}
	s := o.sweep
	// The metric of each input, by name and statistic.
	metricOf := func(metric, statistic string) ([]float64, string, error) {
		stat := statistic
		if stat == "" {
			for _, cand := range []string{"mean", "value", "count"} {
				for _, t := range traces {
					if _, ok := t.report.Find(metric, cand); ok {
						stat = cand
						break
					}
				}
				if stat != "" {
					break
				}
			}
		}
		ys := make([]float64, len(traces))
		found := false
		for i, t := range traces {
			ys[i] = math.NaN()
			if row, ok := t.report.Find(metric, stat); ok {
				ys[i], found = row.Value, true
			}
		}
		if !found {
			return nil, "", fmt.Errorf("no input has the metric %s", strings.TrimSuffix(metric+":"+stat, ":"))
		}
		return ys, stat, nil
	}

	// The x axis: a column, else a metric (offered_load).
	xc, xMetric := -1, []float64(nil)
	switch c, ok := col[s.x]; {
	case s.x == "":
		for _, name := range sweepDefaultX {
			if c, ok := col[name]; ok && distinct(c) > 1 {
				xc, s.x = c, name
				break
			}
		}
		if xc < 0 {
			return nil, errNoSweep{"a sweep figure needs --sweep-x (no swfaugment --target-load or --load takes two values over the inputs); " + varying()}
		}
	case ok:
		xc = c
	default:
		m, st, _ := strings.Cut(s.x, ":")
		ys, _, err := metricOf(m, st)
		if err != nil {
			return nil, cmdio.Usagef("--sweep-x %s: no such column, and %v; %s", s.x, err, varying())
		}
		xMetric = ys
	}
	ys, stat, err := metricOf(s.metric, s.statistic)
	if err != nil {
		return nil, cmdio.Usagef("--sweep-y %s: %v (the metrics are the CSV's metric column: bsld, wait_s, utilization_pct, ...; the statistic its statistic column: mean, p50, value, ...)", strings.TrimSuffix(s.metric+":"+s.statistic, ":"), err)
	}

	series := s.series
	if !s.seriesGiven {
		if c, ok := col[sweepDefaultSeries]; ok && c != xc {
			series = []string{sweepDefaultSeries}
		}
	}
	var seriesCols []int
	for _, name := range series {
		c, ok := col[name]
		if !ok {
			return nil, cmdio.Usagef("--sweep-series: no column %s; %s", name, varying())
		}
		if c == xc {
			return nil, cmdio.Usagef("--sweep-series %s is the x axis (--sweep-x)", name)
		}
		seriesCols = append(seriesCols, c)
	}

	var runs []stats.SweepRun
	var out []int // inputs left out: no value of the parameter
	used := make([]bool, len(traces))
	for i := range traces {
		var x string
		if xc >= 0 {
			v, ok := value(xc, i)
			if !ok {
				out = append(out, i)
				continue
			}
			x = v
		} else {
			if math.IsNaN(xMetric[i]) {
				out = append(out, i)
				continue
			}
			x = strconv.FormatFloat(xMetric[i], 'g', -1, 64)
		}
		var names []string
		for _, c := range seriesCols {
			v, ok := value(c, i)
			switch {
			case !ok:
				v = "(none)"
			case strings.HasSuffix(ic.names[c], ".input") || ic.names[c] == "input":
				v = traceName(v) // a trace's path: its name says which
			}
			names = append(names, v)
		}
		runs = append(runs, stats.SweepRun{Series: strings.Join(names, ", "), X: x, Y: ys[i]})
		used[i] = true
	}
	sw := &sweep{}
	for _, i := range out {
		sw.warnings = append(sw.warnings, fmt.Sprintf("%s has no %s: left out of the sweep figure", traces[i].display, s.x))
	}
	if len(runs) == 0 {
		return nil, cmdio.Usagef("--sweep-x %s: no input has a value of it; %s", s.x, varying())
	}
	// The columns a point may average over (the seeds) and those that
	// say nothing of the runs (swfstat's own).
	ignored := func(c int) bool {
		name := ic.names[c]
		return c == xc || slices.Contains(seriesCols, c) || strings.HasSuffix(name, ".seed") || strings.HasPrefix(name, "swfstat.")
	}
	valueKey := func(c, i int) string {
		v, ok := value(c, i)
		return fmt.Sprint(ok, "\x00", v)
	}
	inputs := make([]int, 0, len(runs)) // the input of each run
	for i := range traces {
		if used[i] {
			inputs = append(inputs, i)
		}
	}
	if xc < 0 {
		// A metric on the x axis differs from run to run: the runs of one
		// configuration (all columns alike but the seeds) are one point,
		// at the mean of their x.
		config := func(i int) string {
			var b strings.Builder
			for c := range ic.names {
				if !ignored(c) {
					b.WriteString(valueKey(c, i))
					b.WriteByte(0)
				}
			}
			return b.String()
		}
		sum, n := map[string]float64{}, map[string]int{}
		keys := make([]string, len(runs))
		for k, i := range inputs {
			keys[k] = runs[k].Series + "\x00" + config(i)
			sum[keys[k]] += xMetric[i]
			n[keys[k]]++
		}
		for k := range runs {
			runs[k].X = strconv.FormatFloat(sum[keys[k]]/float64(n[keys[k]]), 'g', -1, 64)
		}
	}
	// A point averages the runs of one series and x: say which columns
	// other than the seeds differ among them, since those runs are then
	// not repetitions of one configuration. With a metric on the x axis,
	// a line joins configurations: say which columns other than the load
	// differ along a line.
	for c, name := range ic.names {
		if ignored(c) {
			continue
		}
		along := xc < 0 && !slices.Contains(sweepDefaultX, name)
		first := map[string]string{}
		values := map[string]bool{}
		differs := false
		for k, i := range inputs {
			group := runs[k].Series
			if xc >= 0 {
				group += "\x00" + runs[k].X
			}
			vk := valueKey(c, i)
			values[vk] = true
			if f, seen := first[group]; seen && f != vk {
				differs = true
			} else if !seen {
				first[group] = vk
			}
		}
		switch {
		case differs && xc >= 0:
			sw.warnings = append(sw.warnings, fmt.Sprintf("a point of the sweep figure averages runs that differ in %s (%d values over the inputs): name it in --sweep-series to draw them apart", name, len(values)))
		case differs && along:
			sw.warnings = append(sw.warnings, fmt.Sprintf("a line of the sweep figure joins runs that differ in %s (%d values over the inputs) besides the load: name it in --sweep-series to draw a line for each", name, len(values)))
		}
	}
	sw.fig = plot.Sweep{Metric: s.metric + " " + stat, Parameter: s.x}
	sw.fig.Series, sw.fig.Xs, sw.fig.Numeric = stats.Sweep(runs)
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
