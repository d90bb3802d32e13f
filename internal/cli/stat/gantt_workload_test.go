package statcli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	cleancli "github.com/swfkit/swfkit/internal/cli/clean"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/stats"
	"github.com/swfkit/swfkit/pkg/swf"
)

// ganttCharts returns, per Gantt figure of the report at path in page
// order, the chart's start as its title gives it ("1997-02-15 11:38 CET,
// the busiest day") or the figure's "Not drawn" note.
func ganttCharts(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	figure := regexp.MustCompile(`(?s)<figure id="fig-gantt-\d+">(.*?)</figure>`)
	start := regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d [A-Z]+, the busiest day[^<(]*`)
	missing := regexp.MustCompile(`<p class="missing">([^<]*)`)
	var charts []string
	for _, f := range figure.FindAllStringSubmatch(string(data), -1) {
		switch {
		case missing.MatchString(f[1]):
			charts = append(charts, missing.FindStringSubmatch(f[1])[1])
		case strings.Contains(f[1], "<svg"):
			charts = append(charts, strings.TrimSpace(start.FindString(f[1])))
		default:
			t.Fatalf("a Gantt figure with neither a chart nor a note: %.300s", f[1])
		}
	}
	return charts
}

// Inputs of different workloads share no time: each gets the Gantt chart of
// its own busiest day (the one --plot-kind gantt draws for it alone), and a
// --window that misses one of them leaves a note naming it and the window,
// not a usage error; one that misses every input still is.
func TestGanttWindowPerWorkload(t *testing.T) {
	kth := testutil.Trace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	hpc2n := testutil.Trace(t, "HPC2N-2002-2-first3170.swf.gz")
	path := filepath.Join(t.TempDir(), "two.html")

	if _, errOut, code := run(t, "", "--html", path, kth, hpc2n); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := []string{"1997-02-15 11:38 CET, the busiest day", "2002-09-19 09:04 CEST, the busiest day"}
	if got := ganttCharts(t, path); !slices.Equal(got, want) {
		t.Errorf("Gantt charts: %q, want %q", got, want)
	}

	if _, errOut, code := run(t, "", "--html", path, "--window", "2002-09-19:2002-09-20", kth, hpc2n); code != 0 {
		t.Fatalf("--window inside HPC2N only: exit %d: %s", code, errOut)
	}
	got := ganttCharts(t, path)
	if len(got) != 2 || !strings.HasPrefix(got[0], "Not drawn: --window 2002-09-19:2002-09-20: the jobs of KTH-SP2-1996-2.1-cln.swf.gz run from") ||
		!strings.Contains(got[0], "lies outside them") || strings.HasPrefix(got[1], "Not drawn") {
		t.Errorf("--window inside HPC2N only: %q, want KTH's chart not drawn, naming it and the window, and HPC2N's drawn", got)
	}

	_, errOut, code := run(t, "", "--html", path, "--window", "2012-09-19:2012-09-20", kth, hpc2n)
	if code != 2 || !strings.Contains(errOut, "it misses the jobs of every input") {
		t.Errorf("--window outside both: exit %d, %q; want a usage error", code, errOut)
	}
}

// The schedules of one workload under two policies are compared over one
// window, the busiest day of the first (or --baseline) input; windows cut
// from one log are one workload too, and a cut that has no job in the
// shared window says so and how to draw it over its own.
func TestGanttWindowSharedByWorkload(t *testing.T) {
	root := testutil.RepoRoot(t)
	kth, err := os.ReadFile(filepath.Join(root, "testdata", "KTH-SP2-1996-2.1-cln.swf.gz"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var schedules []string
	for _, policy := range []string{"fcfs", "easy"} {
		var out, errb bytes.Buffer
		if code := simcli.Run([]string{"swfsim", "--no-progress", "-p", policy}, bytes.NewReader(kth), &out, &errb); code != 0 {
			t.Fatalf("swfsim -p %s: %s", policy, errb.String())
		}
		schedules = append(schedules, write(policy+".swf", out.Bytes()))
	}
	path := filepath.Join(dir, "policies.html")
	if _, errOut, code := run(t, "", append([]string{"--html", path, "--label", "fcfs,easy"}, schedules...)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := []string{"1997-01-04 11:38 CET, the busiest day", "1997-01-04 11:38 CET, the busiest day of fcfs"}
	if got := ganttCharts(t, path); !slices.Equal(got, want) {
		t.Errorf("two policies: %q, want %q", got, want)
	}
	if _, errOut, code := run(t, "", append([]string{"--html", path, "--label", "fcfs,easy", "--baseline", "easy"}, schedules...)...); code != 0 {
		t.Fatalf("--baseline easy: exit %d: %s", code, errOut)
	}
	if got := ganttCharts(t, path); len(got) != 2 || !strings.HasSuffix(got[0], " of easy") || strings.TrimSuffix(got[0], " of easy") != got[1] {
		t.Errorf("--baseline easy: %q, want easy's busiest day for both", got)
	}

	var cuts []string
	for _, keep := range []string{"job<=5000", "job>20000"} {
		var out, errb bytes.Buffer
		if code := cleancli.Run([]string{"swfclean", "--rules", "none", "--keep", keep}, bytes.NewReader(kth), &out, &errb); code != 0 {
			t.Fatalf("swfclean --keep %s: %s", keep, errb.String())
		}
		cuts = append(cuts, write(strings.NewReplacer("<=", "-to-", ">", "-from-").Replace(keep)+".swf", out.Bytes()))
	}
	if _, errOut, code := run(t, "", append([]string{"--html", path, "--label", "first,last"}, cuts...)...); code != 0 {
		t.Fatalf("cuts: exit %d: %s", code, errOut)
	}
	if got := ganttCharts(t, path); len(got) != 2 || got[0] != "1996-12-07 11:38 CET, the busiest day" ||
		got[1] != "Not drawn: last: no job runs in the window (1996-12-07 11:38 CET to 1996-12-08 11:38 CET), which is that of first, an input of the same workload (the same Computer, Installation and UnixStartTime header lines); give last its own Computer line (swfclean --rules none --set Computer=NAME) to draw it over its own busiest day" {
		t.Errorf("cuts of one log: %q", got)
	}
}

// TestGanttWindowSharedWithoutHeader: two schedules of one trace without
// workload header lines, one simulated from a file and one from standard
// input, count as two workloads (their Provenance inputs differ), yet the
// second has jobs in the first's busiest day: both are drawn over it, as
// before charts got windows per workload.
func TestGanttWindowSharedWithoutHeader(t *testing.T) {
	dir := t.TempDir()
	trace := "; MaxProcs: 4\n"
	for i := range 40 {
		trace += fmt.Sprintf("%d %d -1 %d 2 -1 -1 2 %d -1 1 1 1 -1 1 -1 -1 -1\n", i+1, i*3000, 5000, 6000)
	}
	in := filepath.Join(dir, "hl.swf")
	os.WriteFile(in, []byte(trace), 0o644)
	a, b := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf")
	if code := simcli.Run([]string{"swfsim", "-p", "easy", in, "-o", a}, nil, io.Discard, io.Discard); code != 0 {
		t.Fatal("swfsim easy failed")
	}
	if code := simcli.Run([]string{"swfsim", "-p", "fcfs", "-o", b}, strings.NewReader(trace), io.Discard, io.Discard); code != 0 {
		t.Fatal("swfsim fcfs failed")
	}
	html := filepath.Join(dir, "r.html")
	var stderr strings.Builder
	if code := Run([]string{"swfstat", "--html", html, a, b}, nil, io.Discard, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	page, _ := os.ReadFile(html)
	if !strings.Contains(string(page), "the busiest day of a.swf") {
		t.Errorf("b.swf's chart is not over a.swf's window:\n%s", regexp.MustCompile(`>Schedule of [^<]*<`).FindAllString(string(page), -1))
	}
}

// A workload's own window (its busiest day) is computed only for an input
// the main window misses, and each input's jobs once: the report's charts of
// 8 runs of one long log would otherwise find each run's busiest day.
func TestGanttWindowsComputedWhenNeeded(t *testing.T) {
	const day = 86400
	input := func(label, workload string, first int64) *trace {
		c := stats.NewCollector(stats.Config{}, stats.Machine{Procs: 8})
		for k := int64(0); k < 30; k++ {
			// Three days of jobs, the third the busiest.
			j := &swf.Job{JobNumber: k + 1, SubmitTime: first + k*day/10, WaitTime: 0, RunTime: 3600 * (1 + k/20),
				AllocatedProcs: 2, RequestedProcs: 2, RequestedTime: 7200 * 3, Status: 1, UserID: 1, GroupID: -1, Executable: -1,
				Queue: -1, Partition: -1, PrecedingJob: -1, ThinkTime: -1, UsedMemory: -1, RequestedMemory: -1, AverageCPUTime: -1}
			if err := c.Add(j); err != nil {
				t.Fatal(err)
			}
		}
		return &trace{label: label, display: label, workload: workload, hdr: &swf.Header{}, collector: c, machine: stats.Machine{Procs: 8}}
	}
	o := &options{baseline: -1, ganttColor: "category"}
	traces := []*trace{input("main", "a", 0), input("other", "b", day), input("far", "c", 1000*day)}
	g := newGanttPlan(o, traces)
	figures, err := g.figures()
	if err != nil {
		t.Fatal(err)
	}
	if len(figures) != 3 {
		t.Fatalf("%d figures, want 3", len(figures))
	}
	for i, want := range []string{"the busiest day (", "the busiest day of main (", "the busiest day ("} {
		if f := figures[i]; f.Missing != "" || !bytes.Contains(f.SVG, []byte(want)) {
			t.Errorf("%s: missing %q, want a chart titled %q", f.Title, f.Missing, want)
		}
	}
	// "other" has jobs in main's window: its workload's window is not
	// needed; "far" has none there and gets its own.
	var computed []int
	for r := range g.windows {
		computed = append(computed, r)
	}
	slices.Sort(computed)
	if !slices.Equal(computed, []int{0, 2}) {
		t.Errorf("windows computed for inputs %v, want [0 2] (main's and far's)", computed)
	}
	if len(g.jobs) != 3 {
		t.Errorf("jobs computed for %d inputs, want 3", len(g.jobs))
	}
}
