package statcli

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	augmentcli "github.com/swfkit/swfkit/internal/cli/augment"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	"github.com/swfkit/swfkit/internal/testutil"
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
	o := &options{sweep: sweepSpec{metric: "bsld"}}
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

	// Drawn apart by trace, the warning goes.
	o.sweep.series, o.sweep.seriesGiven = []string{"swfsim.policy", "swfaugment.input"}, true
	if sw, err = buildSweep(o, traces, ic); err != nil {
		t.Fatal(err)
	}
	if len(sw.fig.Series) != 3 || sw.fig.Series[2].Name != "fcfs, kth" || len(sw.warnings) != 1 {
		t.Errorf("series %+v, warnings %q", sw.fig.Series, sw.warnings)
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
