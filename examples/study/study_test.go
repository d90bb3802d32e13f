package study

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/swfkit/swfkit/internal/testutil"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binaries builds the four commands once per test binary.
func binaries(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "swfkit-study-bin-")
		if err != nil {
			buildErr = err
			return
		}
		cmd := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "./cmd/...")
		cmd.Dir = testutil.RepoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
		binDir = dir
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binDir
}

// smallTraces writes two small traces (two windows of the bundled KTH-SP2
// log), so that the whole grid runs in seconds.
func smallTraces(t *testing.T, bin, dir string) []string {
	t.Helper()
	src := filepath.Join(testutil.RepoRoot(t), "testdata", "KTH-SP2-1996-2.1-cln.swf.gz")
	var paths []string
	for name, keep := range map[string]string{"kth-a": "job<=150", "kth-b": "job>5000 and job<=5150"} {
		path := filepath.Join(dir, name+".swf")
		run(t, nil, filepath.Join(bin, "swfclean"), "-q", "--rules", "none", "--keep", keep, src, "-o", path)
		paths = append(paths, path)
	}
	sort.Strings(paths)
	return paths
}

func run(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out.String())
	}
	return out.String()
}

// grid is the test's study: 2 traces x 3 policies x 2 loads x 2 seeds.
type grid struct {
	traces                 []string
	policies, loads, seeds []string
}

func (g grid) env(bin, runs, csvPath string) []string {
	return []string{"TRACES=" + strings.Join(g.traces, " "), "POLICIES=" + strings.Join(g.policies, " "),
		"LOADS=" + strings.Join(g.loads, " "), "SEEDS=" + strings.Join(g.seeds, " "),
		"RUNS=" + runs, "LOGS=" + filepath.Join(filepath.Dir(runs), "logs"), "STUDY_CSV=" + csvPath, "SWFKIT_BIN=" + bin}
}

// checkRunsOnlyPoints checks that runs/ holds the points' files and nothing
// else, so that the aggregation as the issue and the README write it,
// "swfstat --csv study.csv runs/*", reads every point and only points.
func checkRunsOnlyPoints(t *testing.T, bin, runs string, g grid) {
	t.Helper()
	all, _ := filepath.Glob(filepath.Join(runs, "*"))
	if len(all) != len(g.points()) {
		t.Errorf("runs/* is %d entries, want the %d points: %v", len(all), len(g.points()), all)
	}
	out := filepath.Join(filepath.Dir(runs), "runs-star.csv")
	run(t, nil, filepath.Join(bin, "swfstat"), append([]string{"--csv", out, "-o", os.DevNull}, all...)...)
}

func (g grid) points() []string {
	var out []string
	for _, tr := range g.traces {
		for _, p := range g.policies {
			for _, l := range g.loads {
				for _, s := range g.seeds {
					out = append(out, strings.Join([]string{tr, p, l, s}, " "))
				}
			}
		}
	}
	return out
}

// checkStudy reads the aggregated CSV and checks that its rows carry every
// grid point exactly once, recovered from the provenance columns alone.
func checkStudy(t *testing.T, csvPath string, g grid) {
	t.Helper()
	data, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", csvPath, err)
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	for _, name := range []string{"label", "metric", "statistic", "value", "swfaugment.input", "swfsim.policy", "swfaugment.target-load", "swfaugment.seed", "swfsim.seed"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("study CSV has no column %s: %v", name, recs[0])
		}
	}
	perPoint := map[string]string{} // grid point -> label
	for _, r := range recs[1:] {
		if r[col["metric"]] != "bsld" || r[col["statistic"]] != "mean" || r[col["by1"]] != "all" {
			continue
		}
		if r[col["swfaugment.seed"]] != r[col["swfsim.seed"]] {
			t.Errorf("%s: seeds differ: %v", r[col["label"]], r)
		}
		point := strings.Join([]string{r[col["swfaugment.input"]], r[col["swfsim.policy"]], r[col["swfaugment.target-load"]], r[col["swfaugment.seed"]]}, " ")
		if prev, dup := perPoint[point]; dup {
			t.Errorf("grid point %s twice: %s and %s", point, prev, r[col["label"]])
		}
		perPoint[point] = r[col["label"]]
		if r[col["value"]] == "" {
			t.Errorf("%s: no mean bounded slowdown", point)
		}
	}
	var got []string
	for p := range perPoint {
		got = append(got, p)
	}
	sort.Strings(got)
	want := g.points()
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("grid points in the study CSV:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The study's figure beside the table: bsld against load, a line per
	// policy and trace, each point the mean over the seeds; none for a grid
	// of one load.
	figure := strings.TrimSuffix(csvPath, ".csv") + ".svg"
	svg, err := os.ReadFile(figure)
	if len(g.loads) < 2 {
		if err == nil {
			t.Errorf("%s drawn for a grid of one load", figure)
		}
		return
	}
	if err != nil {
		t.Fatalf("the study's figure: %v", err)
	}
	wants := []string{"swfsim.policy, swfaugment.input:", "swfaugment.target-load", fmt.Sprintf("mean of %d runs a point", len(g.seeds))}
	for _, p := range g.policies {
		for _, tr := range g.traces {
			name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(tr), ".gz"), ".swf")
			wants = append(wants, ">"+p+", "+name+"<")
		}
	}
	for _, w := range wants {
		if !bytes.Contains(svg, []byte(w)) {
			t.Errorf("%s lacks %q", figure, w)
		}
	}
}

func modTimes(t *testing.T, runs string) map[string]time.Time {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(runs, "*.swf.gz"))
	m := map[string]time.Time{}
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		m[f] = st.ModTime()
	}
	return m
}

// TestIntegrationStudyParallel runs the example study with GNU parallel: a
// first sweep in which every seed-2 point fails (a swfsim that refuses it),
// then the same command again, which runs only the failed points, leaves the
// finished ones untouched, and aggregates the whole grid.
func TestIntegrationStudyParallel(t *testing.T) {
	testutil.Component(t, "parallel", "parallel")
	bin := binaries(t)
	dir := t.TempDir()
	g := grid{traces: smallTraces(t, bin, dir), policies: []string{"fcfs", "easy", "conservative"},
		loads: []string{"0.7", "0.9"}, seeds: []string{"1", "2"}}
	runs, csvPath := filepath.Join(dir, "runs"), filepath.Join(dir, "study.csv")
	script := filepath.Join(testutil.RepoRoot(t), "examples", "study", "run-parallel.sh")

	// A bin directory whose swfsim fails on seed 2.
	broken := filepath.Join(dir, "broken-bin")
	os.Mkdir(broken, 0o755)
	for _, c := range []string{"swfaugment", "swfstat"} {
		os.Symlink(filepath.Join(bin, c), filepath.Join(broken, c))
	}
	os.WriteFile(filepath.Join(broken, "swfsim"), []byte("#!/bin/sh\ncase \" $* \" in *\" --seed 2 \"*) echo refused >&2; exit 1;; esac\nexec "+
		filepath.Join(bin, "swfsim")+" \"$@\"\n"), 0o755)
	cmd := exec.Command("bash", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), g.env(broken, runs, csvPath)...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "12 grid points failed") {
		t.Fatalf("first sweep: %v, want 12 failed points:\n%s", err, out)
	}
	if _, err := os.Stat(csvPath); err == nil {
		t.Fatal("a failed sweep was aggregated")
	}
	first := modTimes(t, runs)
	if len(first) != 12 {
		t.Fatalf("%d points finished after the first sweep, want 12", len(first))
	}
	if partial, _ := filepath.Glob(filepath.Join(runs, ".*")); len(partial) != 0 {
		t.Errorf("partial files left: %v", partial)
	}

	start := time.Now()
	out2 := run(t, g.env(bin, runs, csvPath), "bash", script)
	t.Logf("second sweep (12 points and the aggregation) took %v", time.Since(start))
	if strings.Count(out2, "finished already") != 12 || strings.Count(out2, "wrote "+runs) != 12 {
		t.Errorf("the second sweep did not run exactly the 12 failed points:\n%s", out2)
	}
	second := modTimes(t, runs)
	if len(second) != 24 {
		t.Fatalf("%d points after the second sweep, want 24", len(second))
	}
	for f, mt := range first {
		if !second[f].Equal(mt) {
			t.Errorf("%s was recomputed", f)
		}
	}
	checkStudy(t, csvPath, g)
	checkRunsOnlyPoints(t, bin, runs, g)

	// A sweep that fails after one that succeeded leaves no table that looks
	// current: the old one is set aside as .stale until a sweep writes it.
	failing := g
	failing.loads = []string{"0.7", "0.9", "0.8"} // load 0.8, seed 2 fails
	cmd = exec.Command("bash", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), failing.env(broken, runs, csvPath)...)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "renamed "+csvPath+".stale") {
		t.Errorf("a failing sweep after a good one: %v\n%s", err, out)
	}
	if _, err := os.Stat(csvPath); err == nil {
		t.Error("a failed sweep left the earlier table in place")
	}
	if _, err := os.Stat(csvPath + ".stale"); err != nil {
		t.Errorf("the earlier table was not set aside: %v", err)
	}
	extra, _ := filepath.Glob(filepath.Join(runs, "*_load0.8_*"))
	for _, f := range extra {
		os.Remove(f) // back to the grid g had
	}
	run(t, g.env(bin, runs, csvPath), "bash", script)
	if _, err := os.Stat(csvPath + ".stale"); err == nil {
		t.Error("the stale table outlived a sweep that wrote the table")
	}
	checkStudy(t, csvPath, g)

	// A grid that grows runs its new points, whatever numbers a job log
	// would have given them, and aggregates exactly its own points; one that
	// shrinks leaves the other files out of the table, with a word.
	grown := g
	grown.seeds = []string{"1", "2", "3"}
	out3 := run(t, grown.env(bin, runs, csvPath), "bash", script)
	if strings.Count(out3, "wrote "+runs) != 12 || !strings.Contains(out3, "(36 grid points)") {
		t.Errorf("the grown grid did not run its 12 new points:\n%s", out3)
	}
	checkStudy(t, csvPath, grown)
	out4 := run(t, g.env(bin, runs, csvPath), "bash", script)
	if !strings.Contains(out4, "12 files in "+runs+" are not points of this grid") || !strings.Contains(out4, "(24 grid points)") {
		t.Errorf("the shrunk grid:\n%s", out4)
	}
	checkStudy(t, csvPath, g)

	// Determinism: a point computed again elsewhere is byte-identical.
	other := filepath.Join(dir, "again")
	point := filepath.Join(testutil.RepoRoot(t), "examples", "study", "point.sh")
	run(t, []string{"SWFKIT_BIN=" + bin}, point, other, g.traces[0], "conservative", "0.9", "2")
	name := strings.TrimSuffix(filepath.Base(g.traces[0]), ".swf") + "_conservative_load0.9_seed2.swf.gz"
	a, _ := os.ReadFile(filepath.Join(runs, name))
	b, err := os.ReadFile(filepath.Join(other, name))
	if err != nil || !bytes.Equal(a, b) || len(a) == 0 {
		t.Errorf("%s computed twice differs (%d and %d bytes, %v)", name, len(a), len(b), err)
	}
}

// TestIntegrationStudySlurm submits the example study as a Slurm job array
// with an aggregation job (afterok), waits for it and checks the table.
func TestIntegrationStudySlurm(t *testing.T) {
	testutil.Slurm(t)
	bin := binaries(t)
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	g := grid{traces: smallTraces(t, bin, dir), policies: []string{"fcfs", "easy", "conservative"},
		loads: []string{"0.8"}, seeds: []string{"1", "2"}}
	runs, csvPath := filepath.Join(dir, "runs"), filepath.Join(dir, "study.csv")
	script := filepath.Join(testutil.RepoRoot(t), "examples", "study", "run-slurm.sh")
	// --export=NONE passed only Slurm's variables, and the tasks could not
	// find the study; --throttle caps the array alone.
	cmd := exec.Command("bash", script, "--export=NONE", "--throttle", "2")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), g.env(bin, runs, csvPath)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run-slurm.sh: %v\n%s%s", err, out, stderr.String())
	}
	ids := strings.Fields(string(out))
	if len(ids) != 2 {
		t.Fatalf("run-slurm.sh printed %q, want ARRAY AGGREGATE", out)
	}
	aggregate := ids[1]
	deadline := time.Now().Add(5 * time.Minute)
	for {
		q, _ := exec.Command("squeue", "-h", "-j", ids[0]+","+aggregate, "-o", "%i %T").CombinedOutput()
		if strings.TrimSpace(string(q)) == "" {
			break
		}
		if time.Now().After(deadline) {
			exec.Command("scancel", ids[0], aggregate).Run()
			t.Fatalf("the study did not finish in 5 minutes; still queued:\n%s", q)
		}
		time.Sleep(2 * time.Second)
	}
	// Accounting may lag behind the queue: wait for the job's final state.
	var state string
	for {
		out, _ := exec.Command("sacct", "-n", "-X", "-P", "-j", aggregate, "-o", "State").CombinedOutput()
		state = strings.TrimSpace(string(out))
		if state != "" && state != "PENDING" && state != "RUNNING" && state != "COMPLETING" || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	if state != "COMPLETED" {
		logs, _ := filepath.Glob(filepath.Join(dir, "logs", "slurm", "*"))
		var b strings.Builder
		for _, l := range logs {
			data, _ := os.ReadFile(l)
			fmt.Fprintf(&b, "== %s\n%s", l, data)
		}
		t.Fatalf("aggregation job %s: state %q\n%s", aggregate, state, b.String())
	}
	checkStudy(t, csvPath, g)
	checkRunsOnlyPoints(t, bin, runs, g)
	points, _ := filepath.Glob(filepath.Join(runs, "*.swf.gz"))
	if len(points) != len(g.points()) {
		t.Errorf("%d point files, want %d", len(points), len(g.points()))
	}
}

// TestStudySameTraceName: two traces whose file names differ only in their
// directory would share their points' file names, and the second trace's
// points would pass for finished (point.sh skips an existing file): the
// scripts refuse such a grid before running anything.
func TestStudySameTraceName(t *testing.T) {
	dir := t.TempDir()
	for _, script := range []string{"run-parallel.sh", "run-slurm.sh"} {
		cmd := exec.Command("bash", filepath.Join(testutil.RepoRoot(t), "examples", "study", script))
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), grid{traces: []string{"/a/kth.swf.gz", "/b/kth.swf"}, policies: []string{"easy"},
			loads: []string{"0.8"}, seeds: []string{"1"}}.env(filepath.Join(dir, "bin"), filepath.Join(dir, "runs"), filepath.Join(dir, "s.csv"))...)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "two traces named kth") {
			t.Errorf("%s with two traces named kth: %v\n%s", script, err, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "runs")); err == nil {
			t.Errorf("%s ran (made runs/) before refusing", script)
		}
	}
}

// TestStudyMissingTrace: a trace that cannot be read (a path with a blank,
// which TRACES splits in two) is refused before anything runs, not failed
// point by point.
func TestStudyMissingTrace(t *testing.T) {
	dir := t.TempDir()
	for _, script := range []string{"run-parallel.sh", "run-slurm.sh"} {
		cmd := exec.Command("bash", filepath.Join(testutil.RepoRoot(t), "examples", "study", script))
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), grid{traces: []string{"/no such/kth.swf.gz"}, policies: []string{"easy"},
			loads: []string{"0.8"}, seeds: []string{"1"}}.env(filepath.Join(dir, "bin"), filepath.Join(dir, "runs"), filepath.Join(dir, "s.csv"))...)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "trace /no in TRACES cannot be read") {
			t.Errorf("%s with a trace path holding a blank: %v\n%s", script, err, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "runs")); err == nil {
			t.Errorf("%s ran (made runs/) before refusing", script)
		}
	}
}

// TestStudyPointOfAnotherStudy: neither the estimate model nor the trace's
// folder is in a point's file name, so a study run again in the same RUNS
// with another ESTIMATE, or with another trace of the same name, finds the
// earlier files; point.sh reads their Provenance and refuses them instead
// of passing them for its own points.
func TestStudyPointOfAnotherStudy(t *testing.T) {
	bin := binaries(t)
	dir := t.TempDir()
	traces := smallTraces(t, bin, dir)
	other := filepath.Join(dir, "other", filepath.Base(traces[0]))
	os.Mkdir(filepath.Dir(other), 0o755)
	data, _ := os.ReadFile(traces[1])
	os.WriteFile(other, data, 0o644)
	point := filepath.Join(testutil.RepoRoot(t), "examples", "study", "point.sh")
	runs := filepath.Join(dir, "runs")
	env := []string{"SWFKIT_BIN=" + bin, "ESTIMATE=uniform:1,3"}
	run(t, env, point, runs, traces[0], "easy", "0.8", "1")
	if out := run(t, env, point, runs, traces[0], "easy", "0.8", "1"); !strings.Contains(out, "finished already") {
		t.Errorf("the same point again:\n%s", out)
	}
	for _, c := range []struct {
		what, estimate, trace string
	}{{"another estimate model", "exact", traces[0]}, {"another trace of the same name", "uniform:1,3", other}} {
		cmd := exec.Command(point, runs, c.trace, "easy", "0.8", "1")
		cmd.Env = append(os.Environ(), "SWFKIT_BIN="+bin, "ESTIMATE="+c.estimate)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "is not this point's") {
			t.Errorf("%s: %v, want a refusal:\n%s", c.what, err, out)
		}
	}
	// A point's file damaged after it was made does not pass for finished.
	files, _ := filepath.Glob(filepath.Join(runs, "*.swf.gz"))
	data, _ = os.ReadFile(files[0])
	os.WriteFile(files[0], data[:len(data)*3/4], 0o644)
	cmd := exec.Command(point, runs, traces[0], "easy", "0.8", "1")
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "is damaged") {
		t.Errorf("a damaged point: %v, want a refusal:\n%s", err, out)
	}
}

// TestStudyAggregateFails: an aggregation that fails (a point's file
// damaged after it was made) writes none of the table, the summary and the
// figure, so that nothing looks current; the summary was an empty file.
func TestStudyAggregateFails(t *testing.T) {
	bin := binaries(t)
	dir := t.TempDir()
	g := grid{traces: smallTraces(t, bin, dir), policies: []string{"easy"}, loads: []string{"0.7", "0.9"}, seeds: []string{"1"}}
	runs, csvPath := filepath.Join(dir, "runs"), filepath.Join(dir, "study.csv")
	study := filepath.Join(testutil.RepoRoot(t), "examples", "study")
	env := g.env(bin, runs, csvPath)
	for _, p := range g.points() {
		run(t, env, filepath.Join(study, "point.sh"), append([]string{runs}, strings.Fields(p)...)...)
	}
	points, _ := filepath.Glob(filepath.Join(runs, "*.swf.gz"))
	data, _ := os.ReadFile(points[0])
	os.WriteFile(points[0], data[:len(data)/2], 0o644)
	os.Mkdir(filepath.Join(dir, "logs"), 0o755)
	cmd := exec.Command("bash", "-c", `set -euo pipefail; . "$1/study.env"; aggregate`, "bash", study) // as run-parallel.sh
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "truncated") {
		t.Fatalf("aggregating a damaged point: %v\n%s", err, out)
	}
	for _, f := range []string{csvPath, filepath.Join(dir, "study.svg"), filepath.Join(dir, "logs", "summary.txt")} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("a failed aggregation left %s", f)
		}
	}
}

// TestIntegrationStudySlurmFailedPoint: when a task of the array fails, the
// aggregation job can never run (afterok); it is cancelled rather than left
// pending for ever with DependencyNeverSatisfied, so that squeue empties and
// sacct says what happened.
func TestIntegrationStudySlurmFailedPoint(t *testing.T) {
	testutil.Slurm(t)
	bin := binaries(t)
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	broken := filepath.Join(dir, "broken-bin")
	os.Mkdir(broken, 0o755)
	for _, c := range []string{"swfaugment", "swfstat"} {
		os.Symlink(filepath.Join(bin, c), filepath.Join(broken, c))
	}
	os.WriteFile(filepath.Join(broken, "swfsim"), []byte("#!/bin/sh\necho refused >&2\nexit 1\n"), 0o755)
	g := grid{traces: smallTraces(t, bin, dir)[:1], policies: []string{"easy"}, loads: []string{"0.8"}, seeds: []string{"1"}}
	cmd := exec.Command("bash", filepath.Join(testutil.RepoRoot(t), "examples", "study", "run-slurm.sh"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), g.env(broken, filepath.Join(dir, "runs"), filepath.Join(dir, "study.csv"))...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	ids := strings.Fields(string(out))
	if err != nil || len(ids) != 2 {
		t.Fatalf("run-slurm.sh: %v\n%s%s", err, out, stderr.String())
	}
	// The study's folder shows only that nothing was written: the script
	// says where to look, and what it says finds the failed task.
	hint := "sacct -j " + ids[0] + "," + ids[1] + " -X --format=JobID,State,ExitCode"
	taskLog := filepath.Join(dir, "logs", "slurm", "point-"+ids[0]+"_0.out")
	if !strings.Contains(stderr.String(), hint) || !strings.Contains(stderr.String(), filepath.Join(dir, "logs", "slurm", "point-"+ids[0]+"_N.out")) {
		t.Errorf("run-slurm.sh does not say how to find what failed:\n%s", stderr.String())
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		q, _ := exec.Command("squeue", "-h", "-j", ids[0]+","+ids[1], "-o", "%i %T %r").CombinedOutput()
		if strings.TrimSpace(string(q)) == "" {
			break
		}
		if time.Now().After(deadline) {
			exec.Command("scancel", ids[0], ids[1]).Run()
			t.Fatalf("still queued 2 minutes after its point failed:\n%s", q)
		}
		time.Sleep(2 * time.Second)
	}
	// Accounting may lag behind the queue.
	var states string
	for {
		b, _ := exec.Command("sacct", "-n", "-P", "-j", ids[0]+","+ids[1], "-X", "--format=JobID,State,ExitCode").CombinedOutput()
		states = string(b)
		if strings.Contains(states, ids[0]+"_0|FAILED|1:0") || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	if !strings.Contains(states, ids[0]+"_0|FAILED|1:0") {
		t.Errorf("the hint's sacct command does not name the failed task %s_0:\n%s", ids[0], states)
	}
	if b, err := os.ReadFile(taskLog); err != nil || !strings.Contains(string(b), "refused") || !strings.Contains(string(b), "point.sh: point ") {
		t.Errorf("the failed task's log %s: %v\n%s", taskLog, err, b)
	}
}

// TestStudyTraceChanged: a point's file name says which trace it was made
// from by name only, and its Provenance by path; a trace replaced by other
// content under the same path would leave every finished point of it
// standing for a trace that is no longer there. point.sh compares the
// input-sha256 its swfaugment run recorded with the trace's bytes as they
// are now (decompressed, as the tools hash them: the trace may change its
// compression and stay the same trace) and refuses the point when they
// differ.
func TestStudyTraceChanged(t *testing.T) {
	bin := binaries(t)
	dir := t.TempDir()
	traces := smallTraces(t, bin, dir)
	a, _ := os.ReadFile(traces[0])
	b, _ := os.ReadFile(traces[1])
	trace := filepath.Join(dir, "kth.swf")
	point := filepath.Join(testutil.RepoRoot(t), "examples", "study", "point.sh")
	runs := filepath.Join(dir, "runs")
	env := []string{"SWFKIT_BIN=" + bin, "ESTIMATE=uniform:1,3"}
	rerun := func(what string) (string, error) {
		t.Helper()
		cmd := exec.Command(point, runs, trace, "easy", "0.8", "1")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, format := range []struct {
		name     string
		compress func(testing.TB, string) []byte
	}{{"gzip", testutil.Gzip}, {"zstd", testutil.Zstd}} {
		os.RemoveAll(runs)
		os.WriteFile(trace, format.compress(t, string(a)), 0o644)
		run(t, env, point, runs, trace, "easy", "0.8", "1")
		// The same trace compressed otherwise is the same trace.
		os.WriteFile(trace, a, 0o644)
		if out, err := rerun("the same trace, plain"); err != nil || !strings.Contains(out, "finished already") {
			t.Errorf("%s: the same trace decompressed: %v, want the point finished:\n%s", format.name, err, out)
		}
		os.WriteFile(trace, format.compress(t, string(b)), 0o644)
		out, err := rerun("another trace under the same path")
		if err == nil || !strings.Contains(out, "the trace changed since") || !strings.Contains(out, "remove it to compute the point again") {
			t.Errorf("%s: a trace replaced by other content: %v, want a refusal:\n%s", format.name, err, out)
		}
	}
	// A point whose input-sha256= is damaged (not 64 hexadecimal digits)
	// is not an old point that cannot be checked: it is refused, named.
	files, _ := filepath.Glob(filepath.Join(runs, "*.swf.gz"))
	good, _ := os.ReadFile(files[0])
	run(t, nil, "sh", "-c", `gzip -dc "$1" | sed 's/ input-sha256=\([0-9a-f]*\)/ input-sha256=\1zz/' | gzip > "$1.new" && mv "$1.new" "$1"`, "sh", files[0])
	if out, err := rerun("a damaged hash"); err == nil || !strings.Contains(out, "is damaged: its swfaugment Provenance line has an input-sha256= that is not 64 hexadecimal digits") {
		t.Errorf("a point with input-sha256=HASHzz: %v, want a refusal:\n%s", err, out)
	}
	os.WriteFile(files[0], good, 0o644)
	// A point made before the tools recorded input-sha256 cannot be
	// checked: it passes, with a word.
	run(t, nil, "sh", "-c", `gzip -dc "$1" | sed 's/ input-sha256=[0-9a-f]*//' | gzip > "$1.new" && mv "$1.new" "$1"`, "sh", files[0])
	if out, err := rerun("an old point"); err != nil || !strings.Contains(out, "finished already") || !strings.Contains(out, "no input-sha256") {
		t.Errorf("a point without input-sha256: %v, want it finished, with a note:\n%s", err, out)
	}
}

// TestIntegrationStudyTraceChanged: a sweep run again after one of its
// traces was replaced by other content under the same path fails that
// trace's finished points, saying so, instead of aggregating them as the
// new trace's; removed as the message says, they are computed again.
func TestIntegrationStudyTraceChanged(t *testing.T) {
	testutil.Component(t, "parallel", "parallel")
	bin := binaries(t)
	dir := t.TempDir()
	g := grid{traces: smallTraces(t, bin, dir), policies: []string{"easy"}, loads: []string{"0.8"}, seeds: []string{"1", "2"}}
	runs, csvPath := filepath.Join(dir, "runs"), filepath.Join(dir, "study.csv")
	script := filepath.Join(testutil.RepoRoot(t), "examples", "study", "run-parallel.sh")
	run(t, g.env(bin, runs, csvPath), "bash", script)
	other := filepath.Join(testutil.RepoRoot(t), "testdata", "KTH-SP2-1996-2.1-cln.swf.gz")
	run(t, nil, filepath.Join(bin, "swfclean"), "-q", "--rules", "none", "--keep", "job>200 and job<=350", other, "-o", g.traces[0])
	cmd := exec.Command("bash", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), g.env(bin, runs, csvPath)...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "2 grid points failed") || strings.Count(string(out), "the trace changed since") != 2 {
		t.Fatalf("a sweep after its trace changed: %v, want its 2 points refused:\n%s", err, out)
	}
	if _, err := os.Stat(csvPath); err == nil {
		t.Error("the sweep was aggregated over the stale points")
	}
	stale, _ := filepath.Glob(filepath.Join(runs, point_name(g.traces[0])+"_*"))
	for _, f := range stale {
		os.Remove(f)
	}
	out2 := run(t, g.env(bin, runs, csvPath), "bash", script)
	if strings.Count(out2, "wrote "+runs) != 2 {
		t.Errorf("the removed points were not computed again:\n%s", out2)
	}
	checkStudy(t, csvPath, g)
}

// point_name is the trace's part of a point's file name (study.env's).
func point_name(trace string) string {
	return strings.TrimSuffix(strings.TrimSuffix(filepath.Base(trace), ".gz"), ".swf")
}

// TestIntegrationStudyConcurrentSweeps: two sweeps of one grid into one
// RUNS at once (started twice by mistake, or two grids that share points)
// both succeed: each point is computed once, by whichever sweep comes
// first, and the other finds it finished; no temporary file is left. A
// slowed swfsim makes the two meet on every point.
func TestIntegrationStudyConcurrentSweeps(t *testing.T) {
	testutil.Component(t, "parallel", "parallel")
	bin := binaries(t)
	dir := t.TempDir()
	g := grid{traces: smallTraces(t, bin, dir), policies: []string{"easy"}, loads: []string{"0.7", "0.9"}, seeds: []string{"1", "2"}}
	runs, csvPath := filepath.Join(dir, "runs"), filepath.Join(dir, "study.csv")
	script := filepath.Join(testutil.RepoRoot(t), "examples", "study", "run-parallel.sh")
	slow := filepath.Join(dir, "slow-bin")
	os.Mkdir(slow, 0o755)
	for _, c := range []string{"swfaugment", "swfstat"} {
		os.Symlink(filepath.Join(bin, c), filepath.Join(slow, c))
	}
	os.WriteFile(filepath.Join(slow, "swfsim"), []byte("#!/bin/sh\nsleep 0.5\nexec "+filepath.Join(bin, "swfsim")+" \"$@\"\n"), 0o755)
	outs := make([]bytes.Buffer, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range outs {
		cmd := exec.Command("bash", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), g.env(slow, runs, csvPath)...)
		cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = cmd.Run()
		}()
	}
	wg.Wait()
	wrote := 0
	for i := range outs {
		if errs[i] != nil {
			t.Errorf("sweep %d of 2: %v\n%s", i+1, errs[i], outs[i].String())
		}
		wrote += strings.Count(outs[i].String(), "wrote "+runs)
	}
	if n := len(g.points()); wrote != n {
		t.Errorf("the two sweeps wrote %d points, want each of the %d once:\n%s\n---\n%s", wrote, n, outs[0].String(), outs[1].String())
	}
	if partial, _ := filepath.Glob(filepath.Join(runs, ".*partial*")); len(partial) != 0 {
		t.Errorf("temporary files left: %v", partial)
	}
	checkStudy(t, csvPath, g)
	checkRunsOnlyPoints(t, bin, runs, g)
}

// TestIntegrationStudyBlankInRuns: a study folder whose path holds a blank
// and a non-ASCII letter ("my study é", the default RUNS being $PWD/runs)
// runs and aggregates like any other. GNU parallel joins a command's words
// into one shell line, so run-parallel.sh must quote them (-q): without it
// RUNS arrived in point.sh in two pieces and every point failed with
// point.sh's usage line.
func TestIntegrationStudyBlankInRuns(t *testing.T) {
	testutil.Component(t, "parallel", "parallel")
	bin := binaries(t)
	dir := t.TempDir()
	g := grid{traces: smallTraces(t, bin, dir), policies: []string{"fcfs", "easy"}, loads: []string{"0.7", "0.9"}, seeds: []string{"1", "2"}}
	study := filepath.Join(dir, "my study é")
	if err := os.Mkdir(study, 0o755); err != nil {
		t.Fatal(err)
	}
	runs, csvPath := filepath.Join(study, "runs"), filepath.Join(study, "study.csv")
	script := filepath.Join(testutil.RepoRoot(t), "examples", "study", "run-parallel.sh")
	cmd := exec.Command("bash", script)
	cmd.Dir = study
	cmd.Env = append(os.Environ(), g.env(bin, runs, csvPath)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sweep in %q: %v\n%s", study, err, out)
	}
	if n := strings.Count(string(out), "wrote "+runs+"/"); n != len(g.points()) {
		t.Errorf("wrote %d points into %q, want %d:\n%s", n, runs, len(g.points()), out)
	}
	checkStudy(t, csvPath, g)
	checkRunsOnlyPoints(t, bin, runs, g)
}

// TestStudyDefaultTracesCanonical: the default TRACES name the shared
// traces without "..". Each point records its trace's path as given
// (swfaugment's input=), so "/clone/../shared/data/T" made the files of one
// study differ from one clone of the repository to another, against the
// determinism guarantee, and joining two clones' runs gave two values of
// swfaugment.input for one trace.
func TestStudyDefaultTracesCanonical(t *testing.T) {
	env := filepath.Join(testutil.RepoRoot(t), "examples", "study", "study.env")
	cmd := exec.Command("bash", "-c", `unset TRACES; . "$1"; printf '%s\n' "$TRACES"`, "bash", env)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	traces := strings.Fields(string(out))
	if len(traces) != 2 {
		t.Fatalf("default TRACES %q: want 2 paths", out)
	}
	for _, p := range traces {
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			t.Errorf("default trace %q is not a clean absolute path (want %q)", p, filepath.Clean(p))
		}
	}
}

// TestStudySlurmGridTooLarge: a grid of more points than Slurm's
// MaxArraySize cannot be one job array; run-slurm.sh says so, with the
// limit and what to do, before it submits or sets anything aside (sbatch
// alone said "Invalid job array specification"). Fake scontrol and sbatch
// stand for a Slurm whose MaxArraySize is 10.
func TestStudySlurmGridTooLarge(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake-slurm")
	os.Mkdir(fake, 0o755)
	os.WriteFile(filepath.Join(fake, "scontrol"), []byte("#!/bin/sh\necho 'MaxArraySize            = 10'\n"), 0o755)
	os.WriteFile(filepath.Join(fake, "sbatch"), []byte("#!/bin/sh\necho \"$*\" >> "+filepath.Join(dir, "sbatch-calls")+
		"\necho 'sbatch: error: Batch job submission failed: Invalid job array specification' >&2\nexit 1\n"), 0o755)
	trace := filepath.Join(dir, "t.swf")
	os.WriteFile(trace, []byte("; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"), 0o644)
	g := grid{traces: []string{trace}, policies: []string{"fcfs", "easy"}, loads: []string{"0.7", "0.9"}, seeds: []string{"1", "2", "3"}}
	runs, csvPath := filepath.Join(dir, "runs"), filepath.Join(dir, "study.csv")
	os.WriteFile(csvPath, []byte("an earlier table\n"), 0o644)
	cmd := exec.Command("bash", filepath.Join(testutil.RepoRoot(t), "examples", "study", "run-slurm.sh"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append(g.env(binaries(t), runs, csvPath), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"))...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "the grid has 12 points, more than one job array may hold here (MaxArraySize 10") {
		t.Errorf("12 points, MaxArraySize 10: %v\n%s", err, out)
	}
	if calls, err := os.ReadFile(filepath.Join(dir, "sbatch-calls")); err == nil {
		t.Errorf("sbatch was called: %s", calls)
	}
	if _, err := os.Stat(csvPath); err != nil {
		t.Errorf("the earlier table was set aside by a sweep that did not start: %v", err)
	}
}

// TestIntegrationStudyDryRun: parallel's --dry-run prints the points'
// commands and runs none, so the sweep must leave the study as it was: it
// set the earlier table aside as stale and then aggregated, reporting every
// point missing.
func TestIntegrationStudyDryRun(t *testing.T) {
	testutil.Component(t, "parallel", "parallel")
	bin := binaries(t)
	dir := t.TempDir()
	g := grid{traces: smallTraces(t, bin, dir), policies: []string{"fcfs"}, loads: []string{"0.7"}, seeds: []string{"1", "2"}}
	runs, csvPath := filepath.Join(dir, "runs"), filepath.Join(dir, "study.csv")
	if err := os.WriteFile(csvPath, []byte("an earlier table\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(testutil.RepoRoot(t), "examples", "study", "run-parallel.sh")
	// parallel takes --dry for --dry-run: so does the script.
	for _, flag := range []string{"--dry-run", "--dry"} {
		cmd := exec.Command("bash", script, flag)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), g.env(bin, runs, csvPath)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", flag, err, out)
		}
		if n := strings.Count(string(out), "point.sh"); n != len(g.points()) {
			t.Errorf("--dry-run printed %d point commands, want %d:\n%s", n, len(g.points()), out)
		}
		if got, err := os.ReadFile(csvPath); err != nil || string(got) != "an earlier table\n" {
			t.Errorf("study.csv after --dry-run: %q, %v; want it as it was", got, err)
		}
		if _, err := os.Stat(csvPath + ".stale"); err == nil {
			t.Error("--dry-run set the table aside as stale")
		}
		if points, _ := filepath.Glob(filepath.Join(runs, "*")); len(points) != 0 {
			t.Errorf("--dry-run made points: %v", points)
		}
	}
}

// TestStudyPointMadeHereCanonical: a point whose Provenance names its trace
// another way (through "..", as the default TRACES did before 28 November
// 2026) is this trace's point, so a study begun then is resumed, not refused;
// a point of another trace of the same name stays refused.
func TestStudyPointMadeHereCanonical(t *testing.T) {
	env := filepath.Join(testutil.RepoRoot(t), "examples", "study", "study.env")
	dir := t.TempDir()
	for _, sub := range []string{"data", "clone", "other"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	trace := filepath.Join(dir, "data", "T.swf.gz")
	for _, tc := range []struct {
		recorded string
		want     bool
	}{
		{trace, true},
		// Joined by hand: filepath.Join would clean the "..".
		{dir + "/clone/../data/T.swf.gz", true},
		{dir + "/clone/../data/T.swf.gz input-sha256=" + strings.Repeat("a", 64), true},
		{filepath.Join(dir, "other", "T.swf.gz"), false},
		{dir + "/clone/../other/T.swf.gz", false},
	} {
		point := filepath.Join(dir, "point.swf.gz")
		text := "; Provenance: swfaugment version=0.1.0-dev estimate=user input=" + tc.recorded + "\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
		cmd := exec.Command("bash", "-c", `printf '%s' "$3" | gzip > "$4" && export ESTIMATE=user && . "$1" && point_made_here "$4" "$2"`, "bash", env, trace, text, point)
		cmd.Dir = dir
		err := cmd.Run()
		if got := err == nil; got != tc.want {
			t.Errorf("recorded %q, trace %q: made here %v (%v), want %v", tc.recorded, trace, got, err, tc.want)
		}
	}
}

// TestStudyFailedPointNamed: a point that fails says which grid point it
// is; the tools' own messages name the trace or the option, not the point,
// and a sweep interleaves many points' messages.
func TestStudyFailedPointNamed(t *testing.T) {
	bin := binaries(t)
	dir := t.TempDir()
	g := grid{traces: smallTraces(t, bin, dir), policies: []string{"bogus"}, loads: []string{"0.7"}, seeds: []string{"3"}}
	runs := filepath.Join(dir, "runs")
	cmd := exec.Command("bash", filepath.Join(testutil.RepoRoot(t), "examples", "study", "point.sh"), runs, g.traces[0], "bogus", "0.7", "3")
	cmd.Env = append(os.Environ(), g.env(bin, runs, filepath.Join(dir, "study.csv"))...)
	out, err := cmd.CombinedOutput()
	want := "point.sh: point " + g.traces[0] + " bogus load 0.7 seed 3 failed"
	if err == nil || !strings.Contains(string(out), want) || !strings.Contains(string(out), `unknown policy "bogus"`) {
		t.Errorf("bad policy: %v\n%s\nwant the tool's message and %q", err, out, want)
	}
	if points, _ := filepath.Glob(filepath.Join(runs, "*")); len(points) != 0 {
		t.Errorf("a failed point left files: %v", points)
	}
}

// TestStudyResumeOddHeaders: a point made from a trace with CRLF line
// endings, or with a blank line in its header, is found finished when the
// sweep runs again (the tools keep both; the scripts read past them), and
// ESTIMATE= (set, empty) runs the users' own estimates, a study of its own.
func TestStudyResumeOddHeaders(t *testing.T) {
	bin := binaries(t)
	dir := t.TempDir()
	traces := smallTraces(t, bin, dir)
	data, err := os.ReadFile(traces[0])
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if strings.HasSuffix(traces[0], ".gz") {
		t.Fatalf("smallTraces gave a compressed trace: %s", traces[0])
	}
	crlf := filepath.Join(dir, "crlf.swf")
	os.WriteFile(crlf, []byte(strings.ReplaceAll(text, "\n", "\r\n")), 0o644)
	blank := filepath.Join(dir, "blank.swf")
	first, rest, _ := strings.Cut(text, "\n")
	os.WriteFile(blank, []byte(first+"\n\n"+rest), 0o644)
	point := filepath.Join(testutil.RepoRoot(t), "examples", "study", "point.sh")
	runs := filepath.Join(dir, "runs")
	for _, c := range []struct{ trace, estimate string }{{crlf, "uniform:1,3"}, {blank, "uniform:1,3"}, {traces[0], ""}} {
		env := []string{"SWFKIT_BIN=" + bin, "ESTIMATE=" + c.estimate}
		run(t, env, point, runs, c.trace, "easy", "0.8", "1")
		if out := run(t, env, point, runs, c.trace, "easy", "0.8", "1"); !strings.Contains(out, "finished already") {
			t.Errorf("%s, ESTIMATE=%q, again: not found finished:\n%s", c.trace, c.estimate, out)
		}
	}
	// The users' estimates' point is not another model's.
	cmd := exec.Command(point, runs, traces[0], "easy", "0.8", "1")
	cmd.Env = append(os.Environ(), "SWFKIT_BIN="+bin, "ESTIMATE=uniform:1,3")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "is not this point's") {
		t.Errorf("ESTIMATE=uniform:1,3 over the users' estimates' point: %v, want a refusal:\n%s", err, out)
	}
}

// TestIntegrationStudyLinkedTable: a study.csv that is a symbolic link (to a
// paper's folder) stays a link across a sweep, and the table it names is
// the new one: the sweep does not rename it aside, and swfstat writes
// through it.
func TestIntegrationStudyLinkedTable(t *testing.T) {
	testutil.Component(t, "parallel", "parallel")
	bin := binaries(t)
	dir := t.TempDir()
	g := grid{traces: smallTraces(t, bin, dir), policies: []string{"fcfs"}, loads: []string{"0.7"}, seeds: []string{"1"}}
	runs, csvPath := filepath.Join(dir, "runs"), filepath.Join(dir, "study.csv")
	script := filepath.Join(testutil.RepoRoot(t), "examples", "study", "run-parallel.sh")
	sweep := func() string {
		cmd := exec.Command("bash", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), g.env(bin, runs, csvPath)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("sweep: %v\n%s", err, out)
		}
		return string(out)
	}
	sweep()
	paper := filepath.Join(dir, "paper", "study.csv")
	os.Mkdir(filepath.Dir(paper), 0o755)
	if err := os.Rename(csvPath, paper); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("paper/study.csv", csvPath); err != nil {
		t.Fatal(err)
	}
	g.seeds = []string{"1", "2"}
	sweep()
	if fi, err := os.Lstat(csvPath); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("study.csv after the sweep: %v, %v; want the link kept", fi, err)
	}
	checkStudy(t, paper, g)
}

// TestStudySlurmNothingSubmitted: an sbatch option that submits nothing
// (--version, --help, --test-only) left the earlier table set aside as
// stale, with nothing to write it again, and printed sbatch's text as the
// job ids; and a % in the study's folder reached sbatch's --output, which
// expands it (%u: the user), so no task could open its log. Fake sbatch
// and scontrol record what they are given.
func TestStudySlurmNothingSubmitted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "load%u")
	os.Mkdir(dir, 0o755)
	fake := filepath.Join(dir, "fake-slurm")
	os.Mkdir(fake, 0o755)
	calls := filepath.Join(dir, "sbatch-calls")
	os.WriteFile(filepath.Join(fake, "scontrol"), []byte("#!/bin/sh\necho 'MaxArraySize            = 1001'\n"), 0o755)
	trace := filepath.Join(dir, "t.swf")
	os.WriteFile(trace, []byte("; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"), 0o644)
	g := grid{traces: []string{trace}, policies: []string{"fcfs"}, loads: []string{"0.7"}, seeds: []string{"1"}}
	runs, csvPath := filepath.Join(dir, "runs"), filepath.Join(dir, "study.csv")
	run := func(sbatch string) (string, error) {
		os.WriteFile(filepath.Join(fake, "sbatch"), []byte("#!/bin/sh\nprintf '%s\\n' \"$*\" >> "+calls+"\n"+sbatch), 0o755)
		os.WriteFile(csvPath, []byte("an earlier table\n"), 0o644)
		cmd := exec.Command("bash", filepath.Join(testutil.RepoRoot(t), "examples", "study", "run-slurm.sh"))
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), append(g.env(binaries(t), runs, csvPath), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"))...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("echo 'slurm-wlm 22.05.8'\n") // as sbatch --version does
	if err == nil || !strings.Contains(out, "sbatch submitted no job array (it printed: slurm-wlm 22.05.8)") {
		t.Errorf("sbatch --version: %v\n%s", err, out)
	}
	if _, err := os.Stat(csvPath); err != nil {
		t.Errorf("the earlier table was set aside though nothing was submitted: %v", err)
	}
	out, err = run("echo 42\n")
	if err != nil || strings.TrimSpace(out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]) != "42 42" {
		t.Errorf("a submitted sweep: %v\n%s", err, out)
	}
	if _, err := os.Stat(csvPath + ".stale"); err != nil {
		t.Errorf("a submitted sweep left the earlier table current: %v", err)
	}
	b, _ := os.ReadFile(calls)
	if !strings.Contains(string(b), "--output="+strings.ReplaceAll(dir, "%", "%%")+"/logs/slurm/point-%A_%a.out") {
		t.Errorf("sbatch was given:\n%s\nwant the folder's %% written %%%%", b)
	}
}

// TestStudySlurmOptions: the user's sbatch options went to both sbatch
// calls, so --array=0-3%2 made the aggregation job an array too (each task
// rewriting study.csv), and --export=NONE dropped STUDY_DIR, so every task
// failed. --array is refused (the script makes the array; --throttle N gives
// its %N, on the array call only), and the study's variables are added to an
// --export list. Fake sbatch and scontrol record what they are given.
func TestStudySlurmOptions(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake-slurm")
	os.Mkdir(fake, 0o755)
	calls := filepath.Join(dir, "sbatch-calls")
	os.WriteFile(filepath.Join(fake, "scontrol"), []byte("#!/bin/sh\necho 'MaxArraySize            = 1001'\n"), 0o755)
	os.WriteFile(filepath.Join(fake, "sbatch"), []byte("#!/bin/sh\nprintf '%s\\n' \"$*\" >> "+calls+"\necho 42\n"), 0o755)
	trace := filepath.Join(dir, "t.swf")
	os.WriteFile(trace, []byte("; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"), 0o644)
	g := grid{traces: []string{trace}, policies: []string{"fcfs"}, loads: []string{"0.7"}, seeds: []string{"1", "2"}}
	runs, csvPath := filepath.Join(dir, "runs"), filepath.Join(dir, "study.csv")
	submit := func(args ...string) (sbatch []string, out string, err error) {
		os.Remove(calls)
		cmd := exec.Command("bash", append([]string{filepath.Join(testutil.RepoRoot(t), "examples", "study", "run-slurm.sh")}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), append(g.env(binaries(t), runs, csvPath), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"))...)
		b, err := cmd.CombinedOutput()
		c, _ := os.ReadFile(calls)
		return strings.Split(strings.TrimSpace(string(c)), "\n"), string(b), err
	}
	for _, arg := range []string{"--array=0-3%2", "--arr=0-1", "-a0-1", "-a"} {
		sb, out, err := submit("--partition=debug", arg)
		if err == nil || !strings.Contains(out, "the script makes the job array itself") || !strings.Contains(out, "--throttle N") {
			t.Errorf("%s: %v, want a refusal naming --throttle:\n%s", arg, err, out)
		}
		if sb[0] != "" {
			t.Errorf("%s: sbatch was called: %q", arg, sb)
		}
	}
	vars := "STUDY_DIR,TRACES,POLICIES,LOADS,SEEDS,ESTIMATE,RUNS,LOGS,STUDY_CSV,STUDY_FIGURE,SWFKIT_BIN"
	sb, out, err := submit("--throttle", "2", "--export=NONE", "--partition=debug")
	if err != nil || len(sb) != 2 {
		t.Fatalf("--throttle 2 --export=NONE: %v, sbatch calls %q\n%s", err, sb, out)
	}
	if !strings.Contains(sb[0], "--array=0-1%2 ") || strings.Contains(sb[1], "--array") {
		t.Errorf("--throttle 2: sbatch was given\n%s\nwant --array=0-1%%2 on the array call only", strings.Join(sb, "\n"))
	}
	for _, c := range sb {
		if !strings.Contains(c, "--export="+vars+" ") || strings.Contains(c, "NONE") || !strings.Contains(c, "--partition=debug") {
			t.Errorf("--export=NONE: sbatch was given %q, want --export=%s and the user's --partition", c, vars)
		}
	}
	if !strings.Contains(out, "sacct -j 42,42") || !strings.Contains(out, filepath.Join(dir, "logs", "slurm", "point-42_N.out")) {
		t.Errorf("no word on where to find what failed:\n%s", out)
	}
	sb, out, err = submit("--export=HOME,OMP_NUM_THREADS=1")
	if err != nil || len(sb) != 2 || !strings.Contains(sb[0], "--export=HOME,OMP_NUM_THREADS=1,"+vars+" ") || !strings.Contains(sb[1], "--export=HOME,OMP_NUM_THREADS=1,"+vars+" ") {
		t.Errorf("--export=HOME,OMP_NUM_THREADS=1: %v, sbatch was given %q\n%s", err, sb, out)
	}
	// A dependency is the study's: the aggregation job keeps its afterok.
	for _, dep := range [][]string{{"--dependency=afterok:7"}, {"--dependency", "afterok:7"}, {"-d", "afterok:7"}, {"-dafterok:7"}, {"--dep=afterok:7"}} {
		sb, out, err := submit(append([]string{"--partition=debug"}, dep...)...)
		if err != nil || len(sb) != 2 {
			t.Errorf("%q: %v, sbatch calls %q\n%s", dep, err, sb, out)
			continue
		}
		if !strings.Contains(sb[0], "afterok:7") || strings.Contains(sb[1], "afterok:7") || !strings.Contains(sb[1], "--dependency=afterok:42 ") {
			t.Errorf("%q: sbatch was given\n%s\nwant afterok:7 on the array call only, afterok:42 on the aggregation", dep, strings.Join(sb, "\n"))
		}
	}
	for _, arg := range []string{"--output=x.out", "-o", "-ox.out", "--out=x", "--error=x.err", "-e", "--err=x"} {
		sb, out, err := submit(arg, "x.out")
		if err == nil || !strings.Contains(out, "writes each task's log to $LOGS/slurm") || sb[0] != "" {
			t.Errorf("%s: %v, sbatch calls %q, want a refusal naming $LOGS/slurm:\n%s", arg, err, sb, out)
		}
	}
	for _, bad := range []string{"0", "x", "-1"} {
		if _, out, err := submit("--throttle=" + bad); err == nil || !strings.Contains(out, "expected a number of tasks") {
			t.Errorf("--throttle=%s: %v\n%s", bad, err, out)
		}
	}
}
