package statcli

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	augmentcli "github.com/swfkit/swfkit/internal/cli/augment"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	"github.com/swfkit/swfkit/internal/testutil"
)

// pipeline runs swfaugment ARGS | swfsim ARGS on the hand trace in process
// and writes the schedule to dir/name.
func pipeline(t *testing.T, dir, name string, augment, sim []string) string {
	t.Helper()
	in, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	var aug, sched, errb bytes.Buffer
	if code := augmentcli.Run(append([]string{"swfaugment"}, augment...), bytes.NewReader(in), &aug, &errb); code != 0 {
		t.Fatalf("swfaugment %v: exit %d: %s", augment, code, errb.String())
	}
	if code := simcli.Run(append([]string{"swfsim"}, sim...), &aug, &sched, &errb); code != 0 {
		t.Fatalf("swfsim %v: exit %d: %s", sim, code, errb.String())
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, sched.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readCSVFile(t *testing.T, path string) []map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return csvRows(t, recs)
}

// TestStudyColumns: the grid parameters of each input come back as TOOL.FLAG
// columns from the Provenance lines, --tag adds constant columns, --metrics
// selects, and one run writes the table, the CSV, the JSON and the per-job
// table at once, with the same rows in CSV and JSON.
func TestStudyColumns(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	easy := pipeline(t, dir, "easy.swf", []string{"--target-load", "0.9", "--seed", "3", "--procs", "8"}, []string{"-p", "easy", "--seed", "3"})
	fcfs := pipeline(t, dir, "fcfs.swf", []string{"--target-load", "0.5", "--seed", "4", "--procs", "8"}, []string{"-p", "fcfs", "--no-kill", "--seed", "4"})
	csvPath, jsonPath, jobsPath := filepath.Join(dir, "s.csv"), filepath.Join(dir, "s.json"), filepath.Join(dir, "jobs.csv.gz")
	table, errOut, code := run(t, "", "--csv", csvPath, "--json", jsonPath, "--jobs", jobsPath,
		"--tag", "study=s1", "--tag", "note=a b", "--metrics", "bsld,wait_*", easy, fcfs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(table, "\noverall\n") || strings.Contains(table, "utilization_pct") || !strings.Contains(table, "wait_s") {
		t.Errorf("table does not hold exactly the selected metrics:\n%s", table)
	}
	rows := readCSVFile(t, csvPath)
	want := map[string]map[string]string{
		"easy.swf": {"swfsim.policy": "easy", "swfsim.no-kill": "false", "swfsim.seed": "3", "swfaugment.seed": "3",
			"swfaugment.target-load": "0.9", "swfaugment.procs": "8", "study": "s1", "note": "a b"},
		"fcfs.swf": {"swfsim.policy": "fcfs", "swfsim.no-kill": "true", "swfsim.seed": "4", "swfaugment.seed": "4",
			"swfaugment.target-load": "0.5", "study": "s1"},
	}
	metrics := map[string]bool{}
	for _, r := range rows {
		for k, v := range want[r["label"]] {
			if r[k] != v {
				t.Fatalf("%s: column %s = %q, want %q", r["label"], k, r[k], v)
			}
		}
		metrics[r["metric"]] = true
	}
	if len(metrics) != 2 || !metrics["bsld"] || !metrics["wait_s"] {
		t.Errorf("--metrics bsld,wait_* selected %v", metrics)
	}
	// JSON: the same rows, null where the CSV is empty.
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Columns []string         `json:"columns"`
		Rows    []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if len(doc.Rows) != len(rows) || !slices.Contains(doc.Columns, "swfaugment.target-load") {
		t.Fatalf("JSON has %d rows and columns %v; CSV %d rows", len(doc.Rows), doc.Columns, len(rows))
	}
	for i, jr := range doc.Rows {
		for _, col := range doc.Columns {
			var s string
			switch v := jr[col].(type) {
			case nil:
			case string:
				s = v
			case float64:
				s = strconv.FormatFloat(v, 'f', -1, 64)
			}
			if s != rows[i][col] {
				t.Fatalf("row %d column %s: JSON %v, CSV %q", i, col, jr[col], rows[i][col])
			}
		}
	}
	// The per-job table: one row per simulated job, SWF names, tokens, the
	// derived values and the input columns.
	jobs := readCSVFile(t, jobsPath)
	perLabel := map[string]int{}
	for _, j := range jobs {
		perLabel[j["label"]]++
		wait, _ := strconv.ParseFloat(j["wait_time"], 64)
		run, _ := strconv.ParseFloat(j["run_time"], 64)
		if j["wait_s"] != j["wait_time"] || j["response_s"] != strconv.FormatFloat(wait+run, 'f', -1, 64) {
			t.Errorf("job %s of %s: wait_s %s response_s %s from wait %s run %s", j["job_number"], j["label"], j["wait_s"], j["response_s"], j["wait_time"], j["run_time"])
		}
		if j["swfsim.policy"] == "" || j["study"] != "s1" || j["category"] == "" {
			t.Errorf("job row lacks its input columns: %v", j)
		}
	}
	if perLabel["easy.swf"] == 0 || perLabel["fcfs.swf"] == 0 {
		t.Errorf("jobs per input %v", perLabel)
	}
	if jobs[0]["u"] != "0:10,100:10,300:0" || jobs[0]["killed"] != "" {
		t.Errorf("token columns of job 1: u=%q killed=%q", jobs[0]["u"], jobs[0]["killed"])
	}
}

// TestIntegrationPandas: the summary and per-job tables load with
// pandas.read_csv(FILE) and no options (Debian python3-pandas).
func TestIntegrationPandas(t *testing.T) {
	python := pandasPython(t)
	chdirRoot(t)
	dir := t.TempDir()
	easy := pipeline(t, dir, "easy.swf", []string{"--target-load", "0.9", "--seed", "3", "--procs", "8"}, []string{"-p", "easy"})
	csvPath, jobsPath, zstPath := filepath.Join(dir, "s.csv"), filepath.Join(dir, "jobs.csv.gz"), filepath.Join(dir, "jobs.csv.zst")
	if _, errOut, code := run(t, "", "--csv", csvPath, "--jobs", jobsPath, "--tag", "study=s1", "--by", "category", easy, hand); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, errOut, code := run(t, "", "--jobs", zstPath, easy, hand); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	jobs := len(readCSVFile(t, jobsPath))
	pandasLoads(t, python, csvPath, len(readCSVFile(t, csvPath)))
	pandasLoads(t, python, jobsPath, jobs)
	pandasLoads(t, python, zstPath, jobs)
}

// pandasLoads checks that pandas.read_csv(path) with no options reads rows
// rows, with a numeric value or wait_s column.
func pandasLoads(t *testing.T, python, path string, rows int) {
	t.Helper()
	out, err := exec.Command(python, "-c", "import sys, pandas; df = pandas.read_csv(sys.argv[1]); print(len(df)); "+
		"assert pandas.api.types.is_numeric_dtype(df[[c for c in ('value', 'wait_s') if c in df.columns][0]])", path).CombinedOutput()
	if err != nil {
		t.Fatalf("pandas.read_csv(%s): %v\n%s", path, err, out)
	}
	if got := strings.TrimSpace(string(out)); got != strconv.Itoa(rows) {
		t.Errorf("pandas read %s rows of %s, want %d", got, path, rows)
	}
}

// pandasPython returns a python3 that imports pandas; without one it skips
// loudly, or fails under make test-integration.
func pandasPython(t *testing.T) string {
	t.Helper()
	testutil.Component(t, "python3", "python3")
	candidates := []string{"/usr/bin/python3"}
	if p, err := exec.LookPath("python3"); err == nil {
		candidates = append([]string{p}, candidates...)
	}
	for _, p := range candidates {
		if exec.Command(p, "-c", "import pandas, zstandard").Run() == nil {
			return p
		}
	}
	if testutil.Integration() {
		t.Fatalf("real component missing under %s=1: python3 with pandas and zstandard (Debian packages python3-pandas python3-zstandard)", testutil.IntegrationEnv)
	}
	t.Logf("SKIPPED, real component missing: python3 with pandas and zstandard (Debian packages python3-pandas python3-zstandard; `make test-integration` installs them)")
	t.SkipNow()
	return ""
}

// TestJobsGolden: the per-job table of the hand trace, every column.
func TestJobsGolden(t *testing.T) {
	golden := chdirRoot(t)
	path := filepath.Join(t.TempDir(), "jobs.csv")
	if _, errOut, code := run(t, "", "--jobs", path, "--tag", "run=1", hand); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(golden, "jobs.golden")
	if *update {
		os.WriteFile(want, got, 0o644)
	}
	if w, _ := os.ReadFile(want); string(w) != string(got) {
		t.Errorf("--jobs differs from %s (go test -update rewrites it):\n%s", want, got)
	}
}

// TestJobsSayWhichAreMeasured: a warm-up or cool-down job keeps its values in
// the per-job table, and its excluded column says which flag left it out of
// the summary, so that the table's measured rows give the summary's numbers.
func TestJobsSayWhichAreMeasured(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	csvPath, jobsPath := filepath.Join(dir, "s.csv"), filepath.Join(dir, "jobs.csv")
	if _, errOut, code := run(t, "", "--skip-first", "1", "--skip-last", "20%", "--csv", csvPath, "--jobs", jobsPath, hand); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	jobs := readCSVFile(t, jobsPath)
	want := []string{"skip-first", "", "", "", "skip-last"}
	if len(jobs) != len(want) {
		t.Fatalf("%d job rows, want %d", len(jobs), len(want))
	}
	measured, waitSum := 0, 0.0
	for i, j := range jobs {
		ex, ok := j["excluded"]
		if !ok {
			t.Fatalf("no excluded column in %v", j)
		}
		if ex != want[i] {
			t.Errorf("job %s: excluded %q, want %q", j["job_number"], ex, want[i])
		}
		if j["wait_s"] == "" {
			t.Errorf("job %s: wait_s empty; a skipped job keeps its values", j["job_number"])
		}
		if ex == "" {
			w, _ := strconv.ParseFloat(j["wait_s"], 64)
			measured, waitSum = measured+1, waitSum+w
		}
	}
	for _, r := range readCSVFile(t, csvPath) {
		if r["metric"] == "input" && r["statistic"] == "measured" && r["value"] != strconv.Itoa(measured) {
			t.Errorf("summary measured %s, the per-job table's measured rows %d", r["value"], measured)
		}
		if r["by1"] == "all" && r["metric"] == "wait_s" && r["statistic"] == "mean" {
			if v, _ := strconv.ParseFloat(r["value"], 64); v != waitSum/float64(measured) {
				t.Errorf("summary wait_s mean %g, the per-job table's measured rows %g", v, waitSum/float64(measured))
			}
		}
	}
	// A tag cannot take the column's name.
	if _, errOut, code := run(t, "", "--tag", "excluded=x", hand); code != 2 {
		t.Errorf("--tag excluded=x: exit %d (%s), want 2", code, errOut)
	}
}

// TestSideOutputsAllOrNothing: a run that fails writes none of its outputs.
func TestSideOutputsAllOrNothing(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	csvPath, jobsPath := filepath.Join(dir, "s.csv"), filepath.Join(dir, "j.csv")
	_, _, code := run(t, "", "--csv", csvPath, "--jobs", jobsPath, hand, filepath.Join(dir, "missing.swf"))
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	for _, p := range []string{csvPath, jobsPath} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s written by a failed run", p)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("left %d files behind", len(entries))
	}
	for _, args := range [][]string{
		{"--jobs", "j.txt", hand},
		{"--tag", "label=x", hand},
		{"--tag", "a.b=x", hand},
		{"--tag", "a=1", "--tag", "a=2", hand},
		{"--tag", "A=1", "--tag", "a=2", hand}, // one column to DuckDB
		{"--tag", "Label=x", hand},
		{"--tag", "run=", hand}, // empty: reads as absent once tables are joined
		{"--metrics", "[", hand},
		{"--metrics", "bsld,bsdl", hand}, // a misspelt name selects nothing
		{"--check-capacity", "--csv", "x.csv", hand},
	} {
		if _, errOut, code := run(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errOut)
		}
	}
}

// TestKillWarning: an input whose killed share passes --kill-warn is named
// on stderr and in the warning column; under the threshold it is not.
func TestKillWarning(t *testing.T) {
	chdirRoot(t)
	out, errOut, _ := run(t, "", "--format", "csv", hand) // 1 of 5 jobs killed
	if !strings.Contains(errOut, "20% of jobs (1 of 5) killed at their requested time (over --kill-warn 5%)") ||
		!strings.HasPrefix(column(t, out, "warning"), "20% of jobs (1 of 5) killed") {
		t.Errorf("no kill warning: stderr %q", errOut)
	}
	out, errOut, _ = run(t, "", "--format", "csv", "--kill-warn", "0.2", hand)
	if strings.Contains(errOut, "killed") || column(t, out, "warning") != "" {
		t.Errorf("warning at exactly the threshold: %q", errOut)
	}
	// One meaning in swfsim and swfstat: a share or a percentage above
	// which to warn, 0 at any kill, off never.
	for _, tc := range []struct {
		value string
		warns bool
	}{{"0", true}, {"19.9%", true}, {"20%", false}, {"off", false}} {
		out, errOut, code := run(t, "", "--format", "csv", "--kill-warn", tc.value, hand)
		if code != 0 || strings.Contains(errOut, "killed") != tc.warns || (column(t, out, "warning") != "") != tc.warns {
			t.Errorf("--kill-warn %s (20%% killed): exit %d, want a warning %v: %q", tc.value, code, tc.warns, errOut)
		}
	}
	out, errOut, _ = run(t, "", "--format", "json", "--kill-warn", "off", hand)
	if !strings.Contains(out, `"kill_warn": "off"`) {
		t.Errorf("--kill-warn off: the JSON settings lack kill_warn \"off\": %s", errOut)
	}
	if _, errOut, code := run(t, "", "--kill-warn", "2", hand); code != 2 || !strings.Contains(errOut, "--kill-warn 2: want a share of jobs from 0 to 1 (0.05), a percentage (5%), or off") {
		t.Errorf("--kill-warn 2: exit %d, %q", code, errOut)
	}
}

// TestToolTwiceInPipeline: swfaugment | swfaugment keeps both Provenance
// lines, and swfstat names the second one's columns swfaugment_2.FLAG.
func TestToolTwiceInPipeline(t *testing.T) {
	chdirRoot(t)
	in, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	var once, twice, errb bytes.Buffer
	if augmentcli.Run([]string{"swfaugment", "--estimate", "scale:2", "--seed", "5"}, bytes.NewReader(in), &once, &errb) != 0 ||
		augmentcli.Run([]string{"swfaugment", "--load", "2", "--seed", "6"}, &once, &twice, &errb) != 0 {
		t.Fatalf("swfaugment: %s", errb.String())
	}
	if n := strings.Count(twice.String(), "\n; Provenance: swfaugment "); n != 2 {
		t.Fatalf("%d Provenance lines, want 2:\n%s", n, twice.String())
	}
	out, errOut, code := run(t, twice.String(), "--format", "csv", "--metrics", "jobs")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for col, want := range map[string]string{"swfaugment.seed": "5", "swfaugment.estimate": "scale:2", "swfaugment.load": "0",
		"swfaugment_2.seed": "6", "swfaugment_2.load": "2", "swfaugment_2.estimate": "", "swfaugment_2.input": "-"} {
		if got := column(t, out, col); got != want {
			t.Errorf("%s = %q, want %q", col, got, want)
		}
	}
}

// TestTagValueVerbatim: a --tag value is one value, kept byte for byte:
// commas, spaces at either end, quotes, '=' and non-ASCII text do not split
// or trim it (a study's notes and parameter lists hold them).
func TestTagValueVerbatim(t *testing.T) {
	chdirRoot(t)
	tags := map[string]string{"list": "a,b", "padded": "  x y  ", "q": `say "hi", it's=1`, "u": "ünï cödé"}
	args := []string{"--format", "csv", "--metrics", "jobs"}
	for _, k := range []string{"list", "padded", "q", "u"} {
		args = append(args, "--tag", k+"="+tags[k])
	}
	out, errOut, code := run(t, "", append(args, hand)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range csvRows(t, recs) {
		for k, v := range tags {
			if r[k] != v {
				t.Fatalf("--tag %s=%q: column %s = %q", k, v, k, r[k])
			}
		}
	}
	// --by still takes a comma list (it always has), besides being repeatable.
	a, _, _ := run(t, "", "--format", "csv", "--metrics", "jobs", "--by", "category,status", hand)
	b, _, _ := run(t, "", "--format", "csv", "--metrics", "jobs", "--by", "category", "--by", "status", hand)
	if a == "" || a != b {
		t.Errorf("--by category,status differs from --by category --by status")
	}
}

// TestSettingsAreNotMetricRows: the settings the numbers were computed with
// (U-QoS factor and runtime bounds) are columns of the tidy table
// (uqos_factor, uqos_lower_s, uqos_upper_s), never rows posing as a metric's
// statistic, in CSV and JSON alike; the table keeps them in its U-QoS section.
func TestSettingsAreNotMetricRows(t *testing.T) {
	chdirRoot(t)
	for _, format := range []string{"csv", "json"} {
		out, errOut, code := run(t, "", "--format", format, "--by", "category", hand)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		for _, s := range []string{"factor", "rt_lowerbound_s", "rt_upperbound_s"} {
			if strings.Contains(out, `"statistic": "`+s+`"`) || strings.Contains(out, ",uqos,"+s+",") {
				t.Errorf("%s: a uqos %s row: the setting is a column", format, s)
			}
		}
		if !strings.Contains(out, "uqos_upper_s") || !strings.Contains(out, "delta_s") {
			t.Errorf("%s: lost the uqos_upper_s column or the delta_s row", format)
		}
	}
	table, _, _ := run(t, "", hand)
	if !strings.Contains(table, "rt_upperbound_s") {
		t.Errorf("the table lost its U-QoS bounds:\n%s", table)
	}
}

// TestJSONInputWarningNull: an input without a kill warning has warning null
// in the JSON inputs, as in its rows (and empty in the CSV), not "".
func TestJSONInputWarningNull(t *testing.T) {
	chdirRoot(t)
	out, errOut, code := run(t, "", "--format", "json", "--kill-warn", "0.5", "--metrics", "jobs", hand)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Inputs []map[string]any `json:"inputs"`
		Rows   []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if w, ok := doc.Inputs[0]["warning"]; !ok || w != nil || doc.Rows[0]["warning"] != nil {
		t.Errorf("no warning: inputs[0].warning = %#v, rows[0].warning = %#v, want null", w, doc.Rows[0]["warning"])
	}
}

// TestCSVIsUTF8: a token (or label, or file name) that is not UTF-8 is
// written with U+FFFD in the CSV tables, as in JSON, so every CSV reads as
// UTF-8.
func TestCSVIsUTF8(t *testing.T) {
	dir := t.TempDir()
	jobs, sum := filepath.Join(dir, "jobs.csv"), filepath.Join(dir, "sum.csv")
	const in = "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1 x=\xff\xfe\n"
	if _, errOut, code := run(t, in, "--jobs", jobs, "--csv", sum, "--label", "l\xff", "-o", os.DevNull); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{jobs, sum} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(b) || !strings.Contains(string(b), "l\uFFFD") {
			t.Errorf("%s is not UTF-8 or lost the label:\n%q", f, b)
		}
	}
	b, _ := os.ReadFile(jobs)
	rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("%v: %q", err, b)
	}
	if x := slices.Index(rows[0], "x"); x < 0 || rows[1][x] != "\uFFFD" {
		t.Errorf("the token x is not U+FFFD:\n%q", b)
	}
}

// TestKillWarningSummary: over more than maxWarningLines inputs with the kill
// warning, stderr gives one line with the count and the range; the CSV
// still warns on every input's rows.
func TestKillWarningSummary(t *testing.T) {
	chdirRoot(t)
	args := []string{"--format", "csv", "--label", "a,b,c,d"}
	out, errOut, code := run(t, "", append(args, hand, hand, hand, hand)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Count(errOut, "killed") != 1 || !strings.Contains(errOut, "4 of 4 inputs had more than --kill-warn 5% of their jobs killed at their requested time, each 20%;") ||
		!strings.Contains(errOut, "rerun swfsim with --no-kill") {
		t.Errorf("stderr %q", errOut)
	}
	rows := csvRows(t, mustCSV(t, out))
	for _, r := range rows {
		if !strings.HasPrefix(r["warning"], "20% of jobs (1 of 5) killed") {
			t.Fatalf("row of %s without its warning: %q", r["label"], r["warning"])
		}
	}
	// Three inputs: one line each, the hint after the last.
	_, errOut, _ = run(t, "", "--format", "csv", "--label", "a,b,c", hand, hand, hand)
	if strings.Count(errOut, "20% of jobs (1 of 5) killed") != 3 || strings.Count(errOut, "--no-kill") != 1 {
		t.Errorf("three inputs: stderr %q", errOut)
	}
}

func mustCSV(t *testing.T, text string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestJobsTokenColumnsUnique: a token key that is another column's name gets
// the prefix "token_"; a trace that also carries that prefixed key as a token
// of its own (wait_s= and token_wait_s=) must not get two columns of one name,
// which pandas would rename and a reader by name would confuse.
func TestJobsTokenColumnsUnique(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.swf")
	if err := os.WriteFile(trace, []byte("; MaxProcs: 10\n1 0 5 100 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1 wait_s=3 token_wait_s=4 token_token_wait_s=6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "jobs.csv")
	if _, errOut, code := run(t, "", "--jobs", path, trace); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	seen := map[string]string{}
	for i, name := range rows[0] {
		if _, dup := seen[name]; dup {
			t.Errorf("column %q twice in %v", name, rows[0])
		}
		seen[name] = rows[1][i]
	}
	if seen["wait_s"] != "5" {
		t.Errorf("wait_s = %q, want the job's wait 5", seen["wait_s"])
	}
	// The tokens that collide with nothing keep their names.
	if seen["token_wait_s"] != "4" || seen["token_token_wait_s"] != "6" {
		t.Errorf("token_wait_s = %q, token_token_wait_s = %q; want the tokens' own values 4 and 6", seen["token_wait_s"], seen["token_token_wait_s"])
	}
	values := map[string]bool{}
	for name, v := range seen {
		if strings.HasPrefix(name, "token_") {
			values[v] = true
		}
	}
	if !values["3"] {
		t.Errorf("the wait_s=3 token has no column: %v", rows[0])
	}
}
