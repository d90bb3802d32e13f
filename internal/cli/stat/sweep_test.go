package statcli

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	augmentcli "github.com/swfkit/swfkit/internal/cli/augment"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/stats"
)

// grid makes inputs as a study's runs look to buildSweep: each with its
// columns and its metrics (bsld mean, offered_load value).
func grid(names []string, runs [][]string, bsld, load []float64) ([]*trace, *inputColumns) {
	ic := &inputColumns{names: names}
	var traces []*trace
	for i, vals := range runs {
		present := make([]bool, len(vals))
		for k, v := range vals {
			present[k] = v != "-"
		}
		ic.vals, ic.present = append(ic.vals, vals), append(ic.present, present)
		rep := &stats.Report{Rows: []stats.Row{{Metric: "bsld", Statistic: "mean", Value: bsld[i]}}}
		if load != nil {
			rep.Rows = append(rep.Rows, stats.Row{Metric: "offered_load", Statistic: "value", Value: load[i]})
		}
		traces = append(traces, &trace{display: "run" + string(rune('A'+i)), report: rep})
	}
	return traces, ic
}

// TestSweepPoints works the figure's points and warnings out by hand.
func TestSweepPoints(t *testing.T) {
	names := []string{"swfaugment.seed", "swfaugment.target-load", "swfaugment.input", "swfsim.policy", "swfstat.version"}
	traces, ic := grid(names, [][]string{
		{"1", "0.7", "lanl.swf", "easy", "v"},
		{"2", "0.7", "lanl.swf", "easy", "v"},
		{"1", "0.9", "lanl.swf", "easy", "v"},
		{"1", "0.7", "lanl.swf", "fcfs", "v"},
		{"1", "0.9", "kth.swf", "fcfs", "v"}, // another trace in the fcfs 0.9 point
		{"2", "0.9", "lanl.swf", "fcfs", "v"},
		{"1", "-", "lanl.swf", "fcfs", "v"}, // no load: left out
	}, []float64{3, 5, 20, 40, 1000, 2000, 7}, nil)
	// One line per policy, over both traces (the default draws a line per
	// trace too: below).
	o := &options{sweep: sweepSpec{metric: "bsld", series: []string{"swfsim.policy"}, seriesGiven: true}}
	sw, err := buildSweep(o, traces, ic)
	if err != nil {
		t.Fatal(err)
	}
	f := sw.fig
	if f.Parameter != "swfaugment.target-load" || f.Metric != "bsld mean" || f.Legend != "swfsim.policy" || !f.Numeric {
		t.Errorf("figure %+v", f)
	}
	want := map[string][]string{"easy": {"0.7 4 3 5 2", "0.9 20 20 20 1"}, "fcfs": {"0.7 40 40 40 1", "0.9 1500 1000 2000 2"}}
	for _, s := range f.Series {
		var got []string
		for _, p := range s.Points {
			got = append(got, strings.Join([]string{p.X, ftoa(p.Mean), ftoa(p.Min), ftoa(p.Max), strconv.Itoa(p.N)}, " "))
		}
		if strings.Join(got, "|") != strings.Join(want[s.Name], "|") {
			t.Errorf("%s: %q, want %q", s.Name, got, want[s.Name])
		}
		delete(want, s.Name)
	}
	if len(want) > 0 {
		t.Errorf("series missing: %v", want)
	}
	warn := strings.Join(sw.warnings, "\n")
	for _, w := range []string{"runG has no swfaugment.target-load: left out", "averages runs that differ in swfaugment.input (2 values"} {
		if !strings.Contains(warn, w) {
			t.Errorf("warnings %q lack %q", warn, w)
		}
	}
	if strings.Contains(warn, "seed") || strings.Contains(warn, "swfstat.") {
		t.Errorf("warnings name seeds or swfstat's own columns: %q", warn)
	}

	// Drawn apart by trace, the warning goes; the default does that.
	for _, series := range [][]string{{"swfsim.policy", "swfaugment.input"}, nil} {
		o.sweep.series, o.sweep.seriesGiven = series, series != nil
		if sw, err = buildSweep(o, traces, ic); err != nil {
			t.Fatal(err)
		}
		if len(sw.fig.Series) != 3 || sw.fig.Series[2].Name != "fcfs, kth" || len(sw.warnings) != 1 || sw.fig.Legend != "swfsim.policy, swfaugment.input" {
			t.Errorf("--sweep-series %q: legend %q, series %+v, warnings %q", series, sw.fig.Legend, sw.fig.Series, sw.warnings)
		}
	}
}

// TestSweepMetricX: with a metric on the x axis, the runs of one
// configuration (alike but the seeds) are one point at their mean x.
func TestSweepMetricX(t *testing.T) {
	names := []string{"swfaugment.seed", "swfaugment.target-load", "swfsim.policy"}
	traces, ic := grid(names, [][]string{
		{"1", "0.7", "easy"}, {"2", "0.7", "easy"}, {"1", "0.9", "easy"},
	}, []float64{3, 5, 20}, []float64{0.6, 0.7, 0.8})
	o := &options{sweep: sweepSpec{x: "offered_load", metric: "bsld"}}
	sw, err := buildSweep(o, traces, ic)
	if err != nil {
		t.Fatal(err)
	}
	pts := sw.fig.Series[0].Points
	if len(pts) != 2 || math.Abs(mustFloat(t, pts[0].X)-0.65) > 1e-12 || pts[0].Mean != 4 || pts[0].N != 2 || pts[1].X != "0.8" || pts[1].Mean != 20 {
		t.Errorf("points %+v", pts)
	}
	if len(sw.warnings) != 0 {
		t.Errorf("warnings %q", sw.warnings)
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSweepStudy draws a real grid end to end: KTH-SP2 at two loads under
// two policies with two seeds each, simulated in process.
func TestSweepStudy(t *testing.T) {
	root := testutil.RepoRoot(t)
	kth := filepath.Join(root, "..", "shared", "data", "KTH-SP2-1996-2.1-cln.swf.gz")
	if _, err := os.Stat(kth); err != nil {
		t.Skipf("shared traces absent: %v", err)
	}
	in, err := os.ReadFile(kth)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	for _, load := range []string{"0.6", "0.9"} {
		for _, policy := range []string{"easy", "fcfs"} {
			for _, seed := range []string{"1", "2"} {
				var aug, sched, errb bytes.Buffer
				if code := augmentcli.Run([]string{"swfaugment", "--estimate", "uniform:1,3", "--target-load", load, "--seed", seed}, bytes.NewReader(in), &aug, &errb); code != 0 {
					t.Fatalf("swfaugment: %s", errb.String())
				}
				if code := simcli.Run([]string{"swfsim", "--no-progress", "-p", policy, "--seed", seed}, &aug, &sched, &errb); code != 0 {
					t.Fatalf("swfsim: %s", errb.String())
				}
				path := filepath.Join(dir, policy+load+seed+".swf")
				if err := os.WriteFile(path, sched.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, path)
			}
		}
	}
	svg := filepath.Join(dir, "sweep.svg")
	html := filepath.Join(dir, "study.html")
	_, errOut, code := run(t, "", append([]string{"--plot", svg, "--plot-kind", "sweep", "--html", html}, files...)...)
	if code != 0 || strings.Contains(errOut, "sweep") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bsld mean (mean of 2 runs a point", "swfsim.policy:", ">easy<", ">fcfs<", "swfaugment.target-load"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("figure lacks %q", want)
		}
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte(`id="fig-sweep"`)) {
		t.Error("the report has no sweep figure")
	}

	// Usage errors name what there is to choose from.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--plot", svg, "--plot-kind", "sweep", "--sweep-x", "nosuch"}, "swfaugment.target-load, swfsim.policy"},
		{[]string{"--plot", svg, "--plot-kind", "sweep", "--sweep-y", "nosuch:p50"}, "no input has the metric nosuch:p50"},
		{[]string{"--plot", svg, "--plot-kind", "sweep", "--sweep-series", "swfaugment.target-load"}, "is the x axis"},
		{[]string{"--sweep-x", "swfsim.policy"}, "--sweep-x applies to a sweep figure"},
	} {
		_, errOut, code := run(t, "", append(c.args, files...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
	// One trace alone is no grid: the report has no sweep figure and says
	// nothing of it; --plot-kind sweep says what is missing.
	_, errOut, code = run(t, "", "--html", html, files[0])
	if page, _ = os.ReadFile(html); code != 0 || bytes.Contains(page, []byte(`id="fig-sweep"`)) {
		t.Errorf("one input: exit %d %s, sweep figure drawn", code, errOut)
	}
	if _, errOut, code = run(t, "", "--plot", svg, "--plot-kind", "sweep", files[0]); code != 2 || !strings.Contains(errOut, "needs --sweep-x") {
		t.Errorf("one input, --plot-kind sweep: exit %d %q", code, errOut)
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// TestSweepFromAdversary holds the cases an adversarial test found.
func TestSweepFromAdversary(t *testing.T) {
	o := func() *options { return &options{sweep: sweepSpec{metric: "bsld"}} }
	warned := func(sw *sweep, want string) bool { return strings.Contains(strings.Join(sw.warnings, "\n"), want) }

	// Two traces of one file name in different directories are two lines,
	// named by their paths.
	names := []string{"swfaugment.target-load", "swfaugment.input", "swfsim.policy"}
	traces, ic := grid(names, [][]string{
		{"0.6", "ta/trace.swf.gz", "easy"}, {"0.8", "ta/trace.swf.gz", "easy"},
		{"0.6", "tb/trace.swf.gz", "easy"}, {"0.8", "tb/trace.swf.gz", "easy"},
	}, []float64{1, 2, 3, 4}, nil)
	op := o()
	op.sweep.series, op.sweep.seriesGiven = []string{"swfsim.policy", "swfaugment.input"}, true
	sw, err := buildSweep(op, traces, ic)
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.fig.Series) != 2 || sw.fig.Series[0].Name != "easy, ta/trace.swf.gz" || sw.fig.Series[1].Name != "easy, tb/trace.swf.gz" {
		t.Errorf("series %+v", sw.fig.Series)
	}

	// A trace beside one run of it is no load grid: one value of the load
	// over the inputs that have it.
	traces, ic = grid(names, [][]string{{"-", "-", "-"}, {"0.7", "t.swf", "easy"}}, []float64{1, 2}, nil)
	if _, err := buildSweep(o(), traces, ic); !errors.As(err, new(errNoSweep)) {
		t.Errorf("a trace and its run: err = %v, want errNoSweep", err)
	}

	// swfsim reading swfaugment's per-run file: its input names an
	// intermediate file, not a parameter, and warns of nothing.
	names = []string{"swfaugment.target-load", "swfaugment.seed", "swfaugment.input", "swfsim.policy", "swfsim.input"}
	rows := [][]string{{"0.6", "1", "t.swf", "easy", "aug-0.6-1"}, {"0.6", "2", "t.swf", "easy", "aug-0.6-2"}, {"0.8", "1", "t.swf", "easy", "aug-0.8-1"}}
	traces, ic = grid(names, rows, []float64{1, 2, 3}, nil)
	for i, tr := range traces {
		tr.provenance = []provenance.Record{
			{Tool: "swfaugment", Fields: []provenance.Field{{Key: "target-load", Value: rows[i][0]}, {Key: "seed", Value: rows[i][1]}, {Key: "input", Value: rows[i][2]}}},
			{Tool: "swfsim", Fields: []provenance.Field{{Key: "policy", Value: rows[i][3]}, {Key: "input", Value: rows[i][4]}}},
		}
	}
	if sw, err = buildSweep(o(), traces, ic); err != nil || len(sw.warnings) != 0 {
		t.Errorf("intermediate inputs: %v, warnings %q", err, sw.warnings)
	}

	// The load of swfaugment's second run in a pipe is the default x.
	names = []string{"swfaugment.target-load", "swfaugment_2.target-load", "swfsim.policy"}
	traces, ic = grid(names, [][]string{{"0", "0.6", "easy"}, {"0", "0.8", "easy"}}, []float64{1, 2}, []float64{0.6, 0.8})
	if sw, err = buildSweep(o(), traces, ic); err != nil || sw.fig.Parameter != "swfaugment.target-load" || len(sw.fig.Series[0].Points) != 2 {
		t.Errorf("second swfaugment: %v, %+v", err, sw)
	}
	op = o()
	op.sweep.x = "offered_load"
	if sw, err = buildSweep(op, traces, ic); err != nil || len(sw.warnings) != 0 {
		t.Errorf("second swfaugment, offered_load: %v, warnings %q", err, sw.warnings)
	}

	// A metric on the x axis: two configurations of one offered load are
	// two points, and the line joining them is named.
	names = []string{"swfaugment.estimate", "swfsim.policy"}
	traces, ic = grid(names, [][]string{{"uniform:1,3", "easy"}, {"uniform:1,10", "easy"}}, []float64{1, 5}, []float64{0.6, 0.6})
	if sw, err = buildSweep(op, traces, ic); err != nil || len(sw.fig.Series[0].Points) != 2 || !warned(sw, "joins runs that differ in swfaugment.estimate") {
		t.Errorf("configurations at one x: %v, %+v", err, sw)
	}

	// One run given twice, and a metric some inputs lack.
	names = []string{"swfaugment.target-load", "swfaugment.seed", "swfsim.policy"}
	traces, ic = grid(names, [][]string{{"0.6", "1", "easy"}, {"0.6", "1", "easy"}, {"0.8", "1", "easy"}}, []float64{1, 1, 2}, nil)
	traces[2].report.Rows = append(traces[2].report.Rows, stats.Row{Metric: "utility", Statistic: "mean", Value: 3})
	if sw, err = buildSweep(o(), traces, ic); err != nil || !warned(sw, "runA and runB are alike in every column, seeds included") {
		t.Errorf("one run twice: %v, %+v", err, sw)
	}
	op = o()
	op.sweep.metric = "utility"
	if sw, err = buildSweep(op, traces, ic); err != nil || !warned(sw, "--sweep-y: 2 of 3 inputs have no utility:mean (runA, runB)") {
		t.Errorf("metric in some inputs: %v, %+v", err, sw)
	}

	// Three copies of one run are one warning, not one per pair.
	traces, ic = grid(names, [][]string{{"0.6", "1", "easy"}, {"0.6", "1", "easy"}, {"0.6", "1", "easy"}, {"0.8", "1", "easy"}}, []float64{1, 1, 1, 2}, nil)
	sw, err = buildSweep(o(), traces, ic)
	n := 0
	for _, w := range sw.warnings {
		n += strings.Count(w, "alike in every column")
	}
	if err != nil || n != 1 || !warned(sw, "runA, runB and runC are alike in every column, seeds included: one configuration given 3 times") {
		t.Errorf("one run three times: %v, %q", err, sw.warnings)
	}
}

// TestWideTableNote: over more than maxTableInputs inputs, the table
// format points to the CSV and the sweep figure, unless one is asked for.
func TestWideTableNote(t *testing.T) {
	chdirRoot(t)
	args := make([]string, maxTableInputs+1)
	for i := range args {
		args[i] = hand
	}
	_, errOut, code := run(t, "", args...)
	if code != 0 || !strings.Contains(errOut, "swfstat: note: 9 inputs side by side make a table 9 columns wide") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	_, errOut, _ = run(t, "", append([]string{"--csv", filepath.Join(t.TempDir(), "s.csv")}, args...)...)
	if strings.Contains(errOut, "note:") {
		t.Errorf("with --csv: %q", errOut)
	}
	_, errOut, _ = run(t, "", args[:maxTableInputs]...)
	if strings.Contains(errOut, "note:") {
		t.Errorf("8 inputs: %q", errOut)
	}
}

// TestSweepDefaultSeriesSplitsTraces: by default a line is a policy on one
// trace: the input of the first tool (swfclean here) is added to the
// series when it varies, and nothing is averaged over traces.
func TestSweepDefaultSeriesSplitsTraces(t *testing.T) {
	names := []string{"swfclean.input", "swfaugment.target-load", "swfaugment.input", "swfsim.policy"}
	rows := [][]string{
		{"/d/hpc2n.swf.gz", "0.6", "-", "easy"}, {"/d/hpc2n.swf.gz", "0.9", "-", "easy"},
		{"/d/nasa.swf.gz", "0.6", "-", "easy"}, {"/d/nasa.swf.gz", "0.9", "-", "easy"},
	}
	traces, ic := grid(names, rows, []float64{1, 2, 3, 4}, nil)
	for i, tr := range traces {
		tr.provenance = []provenance.Record{
			{Tool: "swfclean", Fields: []provenance.Field{{Key: "input", Value: rows[i][0]}}},
			{Tool: "swfaugment", Fields: []provenance.Field{{Key: "target-load", Value: rows[i][1]}, {Key: "input", Value: "-"}}},
			{Tool: "swfsim", Fields: []provenance.Field{{Key: "policy", Value: "easy"}}},
		}
	}
	sw, err := buildSweep(&options{sweep: sweepSpec{metric: "bsld"}}, traces, ic)
	if err != nil {
		t.Fatal(err)
	}
	if sw.fig.Legend != "swfsim.policy, swfclean.input" || len(sw.fig.Series) != 2 || sw.fig.Series[0].Name != "easy, hpc2n" || len(sw.warnings) != 0 {
		t.Errorf("legend %q, series %+v, warnings %q", sw.fig.Legend, sw.fig.Series, sw.warnings)
	}
}

// TestSweepKilledRuns: runs with the kill warning, drawn at their target
// load, are named in a warning that points to offered_load.
func TestSweepKilledRuns(t *testing.T) {
	names := []string{"swfaugment.target-load", "swfsim.policy"}
	traces, ic := grid(names, [][]string{{"0.6", "easy"}, {"0.9", "easy"}}, []float64{1, 2}, []float64{0.6, 0.8})
	traces[1].warning = "20% of jobs (1 of 5) killed"
	o := &options{sweep: sweepSpec{metric: "bsld"}, killWarn: cmdio.KillWarn{Share: 0.05}}
	sw, err := buildSweep(o, traces, ic)
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(sw.warnings, "\n"); !strings.Contains(w, "1 of 2 runs drawn had more than --kill-warn 5% of their jobs killed") {
		t.Errorf("warnings %q", w)
	}
	o.sweep.x = "offered_load"
	if sw, err = buildSweep(o, traces, ic); err != nil || len(sw.warnings) != 0 {
		t.Errorf("x offered_load: %v, warnings %q", err, sw.warnings)
	}
}

// TestSweepTracesRunOnce: three traces run once each are three lines, not
// one point of a configuration given three times: the first tool's input
// names the trace even when every run has its own.
func TestSweepTracesRunOnce(t *testing.T) {
	names := []string{"swfclean.input", "swfsim.policy", "swfsim.input"}
	rows := [][]string{{"kth.swf", "easy", "-"}, {"hpc2n.swf", "easy", "-"}, {"lanl.swf", "easy", "-"}}
	traces, ic := grid(names, rows, []float64{1, 2, 3}, []float64{0.5, 0.6, 0.7})
	for i, tr := range traces {
		tr.provenance = []provenance.Record{
			{Tool: "swfclean", Fields: []provenance.Field{{Key: "input", Value: rows[i][0]}}},
			{Tool: "swfsim", Fields: []provenance.Field{{Key: "policy", Value: "easy"}, {Key: "input", Value: "-"}}},
		}
	}
	sw, err := buildSweep(&options{sweep: sweepSpec{x: "offered_load", metric: "bsld"}}, traces, ic)
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.fig.Series) != 3 || sw.fig.Legend != "swfsim.policy, swfclean.input" || len(sw.warnings) != 0 {
		t.Errorf("legend %q, series %+v, warnings %q", sw.fig.Legend, sw.fig.Series, sw.warnings)
	}
}

// TestSweepGridsFromAdversary2 holds the cases of a second adversarial test.
func TestSweepGridsFromAdversary2(t *testing.T) {
	warned := func(sw *sweep, want string) bool { return strings.Contains(strings.Join(sw.warnings, "\n"), want) }
	opt := func() *options { return &options{sweep: sweepSpec{metric: "bsld"}} }

	// One swfaugment file per load and seed, read by every policy: those
	// files are no trace, and each point averages the seeds.
	names := []string{"swfaugment.target-load", "swfaugment.seed", "swfaugment.input", "swfsim.policy", "swfsim.input"}
	var rows [][]string
	for _, l := range []string{"0.6", "0.9"} {
		for _, sd := range []string{"1", "2"} {
			for _, p := range []string{"easy", "fcfs"} {
				rows = append(rows, []string{l, sd, "hpc2n.swf", p, "aug_" + l + "_" + sd + ".swf"})
			}
		}
	}
	traces, ic := grid(names, rows, []float64{1, 2, 3, 4, 5, 6, 7, 8}, nil)
	sw, err := buildSweep(opt(), traces, ic)
	if err != nil {
		t.Fatal(err)
	}
	if sw.fig.Legend != "swfsim.policy" || len(sw.fig.Series) != 2 || sw.fig.Series[0].Points[0].N != 2 || len(sw.warnings) != 0 {
		t.Errorf("shared per-point files: legend %q, series %+v, warnings %q", sw.fig.Legend, sw.fig.Series, sw.warnings)
	}

	// --load runs beside --target-load runs: x is the target load (0 is
	// "not set"), and the --load runs are left out with a word.
	names = []string{"swfaugment.load", "swfaugment.target-load", "swfsim.policy"}
	traces, ic = grid(names, [][]string{{"1.2", "0", "easy"}, {"1.5", "0", "easy"}, {"0", "0.6", "easy"}, {"0", "0.8", "easy"}}, []float64{1, 2, 3, 4}, nil)
	if sw, err = buildSweep(opt(), traces, ic); err != nil || sw.fig.Parameter != "swfaugment.target-load" || len(sw.fig.Series[0].Points) != 2 || !warned(sw, "runA has no swfaugment.target-load") {
		t.Errorf("--load beside --target-load: %v, %+v", err, sw)
	}

	// A grid whose load is set by swfaugment's first run for some inputs
	// and its second (after --bounds) for others: each at its load.
	names = []string{"swfaugment.target-load", "swfaugment_2.target-load", "swfsim.policy"}
	traces, ic = grid(names, [][]string{{"0.6", "-", "easy"}, {"0.8", "-", "easy"}, {"0", "0.6", "easy"}, {"0", "0.8", "easy"}}, []float64{1, 2, 3, 4}, nil)
	if sw, err = buildSweep(opt(), traces, ic); err != nil || len(sw.fig.Series[0].Points) != 2 || sw.fig.Series[0].Points[0].N != 2 || len(sw.warnings) != 0 {
		t.Errorf("load set by either run: %v, %+v", err, sw)
	}

	// An input without the y metric is left out whole: no undefined run in
	// its point, no warning about what sets it apart.
	names = []string{"swfaugment.target-load", "swfaugment.utility", "swfsim.policy"}
	traces, ic = grid(names, [][]string{{"0.6", "true", "ga"}, {"0.8", "true", "ga"}, {"0.6", "false", "ga"}}, []float64{1, 2, 3}, nil)
	traces[0].report.Rows = append(traces[0].report.Rows, stats.Row{Metric: "utility", Statistic: "mean", Value: 5})
	traces[1].report.Rows = append(traces[1].report.Rows, stats.Row{Metric: "utility", Statistic: "mean", Value: 6})
	o := opt()
	o.sweep.metric = "utility"
	if sw, err = buildSweep(o, traces, ic); err != nil || sw.fig.Series[0].Points[0].Undefined != 0 || warned(sw, "differ in swfaugment.utility") || !warned(sw, "1 of 3 inputs have no utility") {
		t.Errorf("metric in some inputs: %v, %+v", err, sw)
	}

	// One configuration run through a pipe and through a per-run file:
	// the same run twice, and the inputs are no parameter.
	names = []string{"swfaugment.target-load", "swfaugment.seed", "swfsim.policy", "swfsim.input"}
	traces, ic = grid(names, [][]string{{"0.6", "1", "easy", "-"}, {"0.6", "1", "easy", "run-0.6-1.swf"}, {"0.8", "1", "easy", "-"}, {"0.8", "1", "easy", "run-0.8-1.swf"}}, []float64{1, 1, 2, 2}, nil)
	if sw, err = buildSweep(opt(), traces, ic); err != nil || warned(sw, "differ in swfsim.input") || !warned(sw, "runA and runB are alike in every column") {
		t.Errorf("piped and file-fed: %v, %+v", err, sw)
	}

	// Runs of two pipelines in one point: one warning for the tool some
	// ran, not one per flag of it.
	names = []string{"swfaugment.target-load", "swfaugment_2.estimate", "swfaugment_2.seed", "swfaugment_2.points", "swfsim.policy"}
	traces, ic = grid(names, [][]string{{"0.6", "-", "-", "-", "easy"}, {"0.6", "exact", "1", "4", "easy"}, {"0.8", "-", "-", "-", "easy"}}, []float64{1, 2, 3}, nil)
	if sw, err = buildSweep(opt(), traces, ic); err != nil || len(sw.warnings) != 1 || !warned(sw, "some ran swfaugment_2, others did not") {
		t.Errorf("two pipelines: %v, warnings %q", err, sw.warnings)
	}
}

// TestSweepPercentileNotRequested: a percentile left out of --percentiles is
// not "no such metric": the error says to request it, for either axis.
func TestSweepPercentileNotRequested(t *testing.T) {
	names := []string{"swfaugment.target-load", "swfsim.policy"}
	traces, ic := grid(names, [][]string{{"0.6", "easy"}, {"0.9", "easy"}}, []float64{1, 2}, nil)
	for _, tr := range traces {
		tr.report.Rows = append(tr.report.Rows, stats.Row{Metric: "wait_s", Statistic: "p50", Value: 10})
	}
	for _, tc := range []struct {
		spec sweepSpec
		want string
	}{
		{sweepSpec{metric: "wait_s", statistic: "p99"}, "--sweep-y wait_s:p99: percentile p99 was not requested: add 99 to --percentiles (now 25,50,75,98,100)"},
		{sweepSpec{x: "wait_s:p99.9", metric: "bsld"}, "--sweep-x wait_s:p99.9: percentile p99.9 was not requested: add 99.9 to --percentiles (now 25,50,75,98,100)"},
		{sweepSpec{metric: "nosuch", statistic: "p99"}, "no input has the metric nosuch:p99"},
	} {
		o := &options{sweep: tc.spec}
		o.cfg.Percentiles = []float64{25, 50, 75, 98, 100}
		_, err := buildSweep(o, traces, ic)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.spec, err, tc.want)
		}
	}
}

// TestSweepTraceChanged: runs that name one trace path but read different
// bytes of it (input-sha256) get a warning naming the path; the same bytes,
// or a pipe's hashes (which differ by seed), none.
func TestSweepTraceChanged(t *testing.T) {
	names := []string{"swfaugment.target-load", "swfaugment.input", "swfaugment.input-sha256", "swfsim.policy", "swfsim.input", "swfsim.input-sha256"}
	for _, c := range []struct {
		hashes [4]string
		warn   bool
		stdin  bool
	}{
		{[4]string{"aa", "aa", "aa", "aa"}, false, false},
		{[4]string{"aa", "aa", "bb", "bb"}, true, false},
		{[4]string{"aa", "-", "aa", "aa"}, false, false},
		{[4]string{"aa", "aa", "bb", "bb"}, false, true}, // read from standard input
	} {
		var rows [][]string
		for i, h := range c.hashes {
			load := []string{"0.6", "0.9"}[i%2]
			path := "/d/kth.swf"
			if c.stdin {
				path = "-"
			}
			rows = append(rows, []string{load, path, h, "easy", "-", fmt.Sprintf("pipe%d", i)})
		}
		traces, ic := grid(names, rows, []float64{1, 2, 3, 4}, nil)
		for i, tr := range traces {
			tr.provenance = []provenance.Record{
				{Tool: "swfaugment", Fields: []provenance.Field{{Key: "target-load", Value: rows[i][0]}, {Key: "input", Value: rows[i][1]}}},
				{Tool: "swfsim", Fields: []provenance.Field{{Key: "policy", Value: "easy"}, {Key: "input", Value: "-"}}},
			}
		}
		sw, err := buildSweep(&options{sweep: sweepSpec{metric: "bsld"}}, traces, ic)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(strings.Join(sw.warnings, "\n"), "read 2 different contents of it (swfaugment.input-sha256)")
		if got != c.warn {
			t.Errorf("hashes %v: warned %v, want %v: %q", c.hashes, got, c.warn, sw.warnings)
		}
	}
}
