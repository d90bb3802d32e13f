package statcli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	"github.com/swfkit/swfkit/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const hand = "pkg/stats/testdata/hand.swf" // relative to the repo root; see its README.md

// run runs swfstat from the repository root.
func run(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(append([]string{"swfstat"}, args...), strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func chdirRoot(t *testing.T) string {
	t.Helper()
	root := testutil.RepoRoot(t)
	golden, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	return golden
}

// TestGolden compares whole outputs on the hand-computed trace, whose every
// number is derived in pkg/stats/testdata/README.md.
func TestGolden(t *testing.T) {
	golden := chdirRoot(t)
	cases := []struct {
		name string
		args []string
	}{
		{"table", []string{hand}},
		{"csv", []string{"--format", "csv", hand}},
		{"json", []string{"--format", "json", hand}},
		{"by-category", []string{"--by", "category", hand}},
		{"cross", []string{"--by", "short", "--by", "status", "--format", "csv", hand}},
		{"two-inputs", []string{"--label", "a,b", "--percentiles", "50,90", hand, hand}},
		{"skip", []string{"--skip-first", "1", "--skip-last", "20%", "--uqos-factor", "2", hand}},
		{"capacity-ok", []string{"--check-capacity", hand}},
		{"capacity-allocated", []string{"--check-capacity", "--procs-from", "allocated", hand}},
		{"capacity-violation", []string{"--check-capacity", "pkg/stats/testdata/oversubscribed.swf"}},
		{"allocated", []string{"--procs-from", "allocated", "--format", "csv", hand}},
		{"capacity-procs", []string{"--check-capacity", "--procs", "5", "pkg/stats/testdata/oversubscribed.swf"}},
		{"procs-override", []string{"--procs", "64", "--label", "hand,over", hand, "pkg/stats/testdata/oversubscribed.swf"}},
		{"baseline", []string{"--baseline", "over", "--label", "hand,over", hand, "pkg/stats/testdata/oversubscribed.swf"}},
		{"csv-tag-metrics", []string{"--format", "csv", "--tag", "study=s1", "--tag", "trace=hand", "--metrics", "bsld,jobs", "--by", "category", hand}},
		{"json-tag-metrics", []string{"--format", "json", "--tag", "study=s1", "--metrics", "wait_s", hand}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := run(t, "", tc.args...)
			got := out + "exit " + strconv.Itoa(code) + "\n" + errOut
			path := filepath.Join(golden, tc.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (go test -update rewrites it):\n%s", path, got)
			}
		})
	}
}

// TestHandValuesInTable spot-checks hand-computed numbers in the table, so
// that a wrong golden file cannot be accepted by -update unnoticed.
func TestHandValuesInTable(t *testing.T) {
	chdirRoot(t)
	out, _, code := run(t, "", hand)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	tab := parseTable(t, out, 1)
	for key, want := range map[string]float64{
		"overall/wait_s/mean": 231, "overall/bsld/mean": 4.4935, "overall/uqos/mean": 55.5935,
		"overall/uqos/delta_s": 0.6, "overall/utility/sum": 37.325, "overall/start_value_earned_pct/p50": 76,
		"overall/utilization_pct/value": 18.6806, "overall/fairness/pct_gt_4": 40,
		"overall/under_20pct_of_request/percent": 25, "overall/request_inaccuracy_pct/mean": 39.1667,
	} {
		if got := tab[key]; len(got) != 1 || got[0] != want {
			t.Errorf("%s = %v, want %v", key, got, want)
		}
	}
}

// parseTable reads the metric sections of a table into section/metric/stat ->
// one value per input (NaN for "-").
func parseTable(t *testing.T, out string, inputs int) map[string][]float64 {
	t.Helper()
	res := map[string][]float64{}
	blocks := strings.Split(out, "\n\n")
	for _, b := range blocks {
		lines := strings.Split(strings.TrimRight(b, "\n"), "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[1], "metric ") {
			continue
		}
		section := lines[0]
		for _, l := range lines[2:] {
			f := strings.Fields(l)
			if len(f) != 2+inputs {
				t.Fatalf("table line %q: %d fields, want %d", l, len(f), 2+inputs)
			}
			var vals []float64
			for _, s := range f[2:] {
				v := math.NaN()
				if s != "-" {
					var err error
					if v, err = strconv.ParseFloat(s, 64); err != nil {
						t.Fatalf("table value %q: %v", s, err)
					}
				}
				vals = append(vals, v)
			}
			res[section+"/"+f[0]+"/"+f[1]] = vals
		}
	}
	return res
}

// A breakdown key that does not apply is NoGroup ("all") in CSV and JSON.
func sectionOf(by1, g1, by2, g2 string) string {
	if by1 == NoGroup {
		return "overall"
	}
	s := by1 + "=" + g1
	if by2 != NoGroup {
		s += ", " + by2 + "=" + g2
	}
	return s
}

// agree reports whether an exact value and its table rendering (4 decimals)
// are the same number.
func agree(exact, shown float64) bool {
	if math.IsNaN(exact) || math.IsNaN(shown) {
		return math.IsNaN(exact) && math.IsNaN(shown)
	}
	return math.Abs(exact-shown) <= 0.00005+1e-12*math.Abs(exact)
}

// TestFormatsAgree parses the CSV with encoding/csv and the JSON with
// encoding/json and checks that every number equals the table's.
func TestFormatsAgree(t *testing.T) {
	chdirRoot(t)
	for _, args := range [][]string{
		{hand, hand},
		{"--by", "category", "--by", "queue", hand},
		{"--by", "user", "--uqos-factor", "0.5", hand},
	} {
		labels := []string{"hand.swf"}
		if len(args) == 2 {
			labels = []string{"hand.swf", "pkg/stats/testdata/hand.swf"} // duplicate base names: full path
		}
		table, _, code := run(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		tab := parseTable(t, table, len(labels))
		index := map[string]int{}
		for i, l := range labels {
			index[l] = i
		}

		csvOut, _, _ := run(t, "", append([]string{"--format", "csv"}, args...)...)
		records, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
		if err != nil {
			t.Fatalf("CSV does not parse: %v", err)
		}
		// The fixed columns, then swfstat's own flags that change the
		// numbers (ownColumns; these inputs have no Provenance lines),
		// then the hash of each row's input.
		wantHeader := SummaryColumns
		for _, k := range ownColumns {
			wantHeader = append(slices.Clone(wantHeader), "swfstat."+k)
		}
		wantHeader = append(wantHeader, "swfstat.input-sha256")
		if strings.Join(records[0], ",") != strings.Join(wantHeader, ",") {
			t.Fatalf("CSV header %v", records[0])
		}
		var wantBy []string
		for i, a := range args {
			if a == "--by" {
				wantBy = append(wantBy, args[i+1])
			}
		}
		for _, r := range records[1:] {
			if by := r[slices.Index(records[0], "swfstat.by")]; by != strings.Join(wantBy, ",") {
				t.Fatalf("%v: swfstat.by column %q", args, by)
			}
		}
		checked, other := 0, 0
		for _, r := range records[1:] {
			if r[2] == "" || r[3] == "" || r[4] == "" || r[5] == "" {
				t.Fatalf("CSV row with an empty breakdown key: %v", r)
			}
			if r[6] == "input" || r[6] == "excluded" {
				other++
				continue
			}
			exact := math.NaN()
			if r[8] != "" {
				if exact, err = strconv.ParseFloat(r[8], 64); err != nil {
					t.Fatalf("CSV value %q", r[8])
				}
			}
			key := sectionOf(r[2], r[3], r[4], r[5]) + "/" + r[6] + "/" + r[7]
			shown, ok := tab[key]
			if !ok {
				t.Fatalf("CSV row %s not in the table", key)
			}
			if !agree(exact, shown[index[r[0]]]) {
				t.Errorf("%s %s: CSV %v, table %v", r[0], key, exact, shown[index[r[0]]])
			}
			checked++
		}

		jsonOut, _, _ := run(t, "", append([]string{"--format", "json"}, args...)...)
		var doc struct {
			Inputs []JSONInput `json:"inputs"`
			Rows   []struct {
				Label, By1, Group1, By2, Group2, Metric, Statistic string
				Value                                              *float64
				Jobs                                               int
			} `json:"rows"`
		}
		if err := json.Unmarshal([]byte(jsonOut), &doc); err != nil {
			t.Fatalf("JSON does not parse: %v", err)
		}
		if len(doc.Inputs) != len(labels) || len(doc.Rows) != checked+other {
			t.Errorf("JSON: %d inputs and %d rows, CSV: %d inputs and %d rows", len(doc.Inputs), len(doc.Rows), len(labels), checked+other)
		}
		for _, r := range doc.Rows {
			if r.Metric == "input" || r.Metric == "excluded" {
				continue
			}
			exact := math.NaN()
			if r.Value != nil {
				exact = *r.Value
			}
			key := sectionOf(r.By1, r.Group1, r.By2, r.Group2) + "/" + r.Metric + "/" + r.Statistic
			if shown := tab[key]; !agree(exact, shown[index[r.Label]]) {
				t.Errorf("%s %s: JSON %v, table %v", r.Label, key, exact, shown[index[r.Label]])
			}
		}
	}
}

func TestExitCodes(t *testing.T) {
	chdirRoot(t)
	for _, tc := range []struct {
		args    []string
		stdin   string
		code    int
		message string
	}{
		{[]string{"--format", "xml", hand}, "", 2, "--format"},
		{[]string{"--by", "colour", hand}, "", 2, "unknown breakdown"},
		{[]string{"--by", "user", "--by", "queue", "--by", "status", hand}, "", 2, "at most twice"},
		{[]string{"--percentiles", "50,101", hand}, "", 2, "--percentiles"},
		// Twice (in two spellings) would be two p50 rows in the CSV and JSON.
		{[]string{"--percentiles", "25,50,50.0", hand}, "", 2, "percentile p50 given twice"},
		{[]string{"--skip-first", "ten", hand}, "", 2, "--skip-first"},
		{[]string{"--label", "a,b", hand}, "", 2, "--label"},
		{[]string{"--plot", "x.jpg", hand}, "", 2, ".svg, .png or .pdf"},
		{[]string{"--plot-kind", "pie", "--plot", "x.svg", hand}, "", 2, "unknown plot kind"},
		{[]string{"--procs-from", "both", hand}, "", 2, "--procs-from"},
		{[]string{"--baseline", "nope", hand}, "", 2, "--baseline \"nope\" is not an input label (hand.swf)"},
		{[]string{"--rt-upper-bound", "1e300", hand}, "", 2, "--rt-upper-bound 1e+300: beyond swfkit's time bound 1099511627776 s"},
		{[]string{"no-such-file.swf"}, "", 1, "no-such-file.swf"},
		{nil, "1 2 3\n", 1, "<stdin>:1"},
		{nil, "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1 u=0:1,0:1\n", 1, "<stdin>:2: field 19 (extension token): u=0:1,0:1"},
		{[]string{"--check-capacity"}, "1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, "machine size unknown"},
		{[]string{"--check-capacity"}, "; MaxProcs: -5\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, "machine size unknown (the header's MaxProcs -5 is not a machine size; give --procs)"},
		{[]string{"--check-capacity", "--procs", "1"}, "1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n", 0, ""},
		{[]string{"--lenient"}, "1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\nbad\n", 0, "skipped 1 malformed records"},
		{[]string{"--lenient"}, "garbage\n", 1, "<stdin>: no valid SWF record: --lenient skipped its one record line as malformed; the first: <stdin>:1: "},
		{[]string{"--lenient"}, "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n", 1, "(it looks like the Alea simulator's format, in which MetaCentrum publishes its logs: convert it to SWF first, swfclean --from alea FILE -o FILE.swf)"},
		// A token the metrics read that does not parse makes the record malformed.
		{[]string{"--lenient"}, "1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n2 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1 fairstart=abc\n", 0,
			"skipped 1 malformed records (--lenient); first: <stdin>:2: field 19 (extension token): fairstart=abc"},
		{nil, "1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1 killed=2\n", 1, "killed=2: want 1"},
		{nil, "1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1 runtotal=abc\n", 1, "<stdin>:1: field 19 (extension token): runtotal=abc: not a number; want the seconds of all the job's runs, at least its runtime (field 4) 10\n"},
		{nil, "1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1 runtotal=5\n", 1, "<stdin>:1: field 19 (extension token): runtotal=5: want the seconds of all the job's runs, at least its runtime (field 4) 10\n"},
		{[]string{"--check-capacity", "pkg/stats/testdata/oversubscribed.swf"}, "", 1, "capacity check failed"},
		{[]string{"--check-capacity", "--format", "csv", hand}, "", 2, "--format does not apply to --check-capacity"},
		{[]string{"--check-capacity", "--format", "json", hand}, "", 2, "--format does not apply to --check-capacity"},
		{[]string{"--check-capacity", "--by", "category", hand}, "", 2, "--by does not apply to --check-capacity"},
		{[]string{"--check-capacity", "--percentiles", "50", hand}, "", 2, "--percentiles does not apply"},
		{[]string{"--check-capacity", "--procs-from", "allocated", "--label", "h", hand}, "", 0, ""},
		{[]string{"--check-capacity", "--html", "r.html", hand}, "", 2, "--html does not apply to --check-capacity"},
		{[]string{"--check-capacity", "--plot", "c.svg", hand}, "", 2, "--plot does not apply to --check-capacity"},
		{[]string{"--label", "a\tb", hand}, "", 2, "holds a control character"},
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", "--window", "1997-03-30T02:30:1997-03-30T04:00"},
			"; UnixStartTime: 852076800\n; TimeZoneString: Europe/Stockholm\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n", 2,
			`"1997-03-30T02:30" does not exist in the trace's time zone Europe/Stockholm (the clocks skipped it)`},
		{[]string{"--html", hand, hand}, "", 2, "--html " + hand},
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", hand, hand}, "", 2, "one input, got 2"},
		{[]string{"--window", "0:100", hand}, "", 2, "--window applies to a Gantt chart"},
		{[]string{"--gantt-color", "user", "--plot", "x.svg", hand}, "", 2, "--gantt-color applies to a Gantt chart"},
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", "--gantt-color", "queue", hand}, "", 2, "--gantt-color \"queue\""},
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", "--window", "100:50", hand}, "", 2, "the end must be after the start"},
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", "--window", "2020-01-01:2020-01-02", hand}, "", 2, "no UnixStartTime"},
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", "--window", "soon:later", hand}, "", 2, "want seconds since the trace's start or a date"},
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", "--window", "0:100000000000000", hand}, "", 2, "\"100000000000000\" is beyond swfkit's time bound (1099511627776 s from the trace's start)"},
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", "--window", "100000:200000", hand}, "", 2, "the jobs of hand.swf run from 0 to 4050 s; the window (100000 to 200000 s) lies outside them"},
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", "--window", "-5000:-100", hand}, "", 2, "lies outside them"},
		// A trace with dates says its span in dates too.
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", "--window", "2001-01-01:2001-01-02"},
			"; UnixStartTime: 946684800\n; TimeZoneString: UTC\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n", 2,
			"the jobs of stdin run from 0 to 10 s, 2000-01-01 00:00 UTC to 2000-01-01 00:00 UTC; the window (31622400 to 31708800 s, 2001-01-01 00:00 UTC to 2001-01-02 00:00 UTC) lies outside them"},
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", "--window", "1997-01-01:1997-01-02"},
			"; UnixStartTime: 852076800\n; TimeZoneString: Mars/Olympus\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n", 2,
			"TimeZoneString \"Mars/Olympus\" is no time zone this system knows"},
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", "--window", "1997-01-01:1997-01-02"},
			"; UnixStartTime: 852076800\n; TimeZone: abc\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n", 2,
			"\"1997-01-01\" is a date, but the trace's time zone is unknown: <stdin>:2: header label TimeZone: expected an integer, got \"abc\"; give seconds"},
		// "Local" would read the dates in the zone of this machine.
		{[]string{"--plot", "g.svg", "--plot-kind", "gantt", "--window", "1997-01-01:1997-01-02"},
			"; UnixStartTime: 852076800\n; TimeZoneString: Local\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n", 2,
			"\"1997-01-01\" is a date, but the header's TimeZoneString \"Local\" is the zone of whichever machine reads the log, not the log's; give an IANA name such as Europe/Stockholm, or give seconds"},
		{[]string{"--plot", "x.svg", "--plot-dpi", "300", hand}, "", 2, "--plot-dpi sets the resolution of a .png"},
		{[]string{"--plot", "x.png", "--plot-dpi", "5", hand}, "", 2, "want 36 to 1200"},
		{[]string{"--plot", "x.png", "--plot-size", "16x10", hand}, "", 2, "--plot-size"},
		{[]string{"--plot-size", "6x4in", hand}, "", 2, "--plot-size needs --plot FILE or --html FILE"},
		{[]string{"--plot-dpi", "100", hand}, "", 2, "--plot-dpi needs --plot FILE"},
		// The report of more than 8 inputs draws no Gantt chart.
		{[]string{"--html", filepath.Join(t.TempDir(), "r.html"), "--window", "0:100", hand, hand, hand, hand, hand, hand, hand, hand, hand}, "", 2,
			"--window applies to the report's Gantt charts, which --html draws for at most 8 inputs, got 9"},
		{[]string{"--html", filepath.Join(t.TempDir(), "r.html"), "--gantt-color", "user", hand, hand, hand, hand, hand, hand, hand, hand, hand}, "", 2,
			"--gantt-color applies to the report's Gantt charts"},
		// A --sweep-* flag asks for a sweep figure, which inputs that are no grid cannot give.
		{[]string{"--html", filepath.Join(t.TempDir(), "r.html"), "--sweep-y", "wait_s", hand, hand}, "", 2, "a sweep figure needs --sweep-x"},
		{[]string{"--html", filepath.Join(t.TempDir(), "r.html"), "--sweep-series", "none", hand, hand}, "", 2, "a sweep figure needs --sweep-x"},
		{[]string{"--trial", "300", hand}, "", 2, "--trial applies to --by short"},
		{[]string{"--short-threshold", "300", "--by", "category", hand}, "", 2, "--trial applies to --by short"},
		{[]string{"--trial", "300", "--by", "short", hand}, "", 0, ""},
		{[]string{"--category-procs", "4", hand}, "", 2, "--category-procs applies to the job categories"},
		{[]string{"--category-procs", "4", "--by", "user", hand}, "", 2, "--category-procs applies to the job categories"},
		{[]string{"--category-procs", "4", "--by", "user,category", hand}, "", 0, ""},
		{[]string{"--category-procs", "4", "--jobs", filepath.Join(t.TempDir(), "j.csv"), hand}, "", 0, ""},
		{[]string{"--category-procs", "4", "--plot", filepath.Join(t.TempDir(), "c.svg"), "--plot-kind", "category", hand}, "", 0, ""},
		{[]string{"--category-procs", "4", "--plot", filepath.Join(t.TempDir(), "g.svg"), "--plot-kind", "gantt", hand}, "", 0, ""},
		{[]string{"--category-procs", "4", "--plot", filepath.Join(t.TempDir(), "g.svg"), "--plot-kind", "gantt", "--gantt-color", "user", hand}, "", 2, "--category-procs applies to the job categories"},
		{[]string{"--category-procs", "4", "--plot", filepath.Join(t.TempDir(), "b.svg"), hand}, "", 2, "--category-procs applies to the job categories"},
	} {
		_, errOut, code := run(t, tc.stdin, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.message) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut, tc.code, tc.message)
		}
	}
}

func TestStdinAndOutputFile(t *testing.T) {
	chdirRoot(t)
	data, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	fromStdin, _, code := run(t, string(data), "--format", "csv", "--label", "hand.swf")
	fromFile, _, _ := run(t, "", "--format", "csv", hand)
	if code != 0 || strings.ReplaceAll(fromFile, hand, "<stdin>") != fromStdin {
		t.Errorf("stdin and file outputs differ (exit %d)", code)
	}
	out := filepath.Join(t.TempDir(), "summary.csv")
	if _, _, code := run(t, "", "--format", "csv", "-o", out, hand); code != 0 {
		t.Fatalf("exit %d", code)
	}
	written, _ := os.ReadFile(out)
	if string(written) != fromFile {
		t.Error("-o output differs from stdout output")
	}
}

// TestPlots draws every kind through the command and decodes the files.
func TestPlots(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	for _, kind := range []string{"wait-cdf", "bsld-cdf", "utilization", "queue-length", "category", "gantt"} {
		for _, ext := range []string{"png", "svg", "pdf"} {
			path := filepath.Join(dir, kind+"."+ext)
			args := []string{"--plot", path, "--plot-kind", kind, "--label", "a,b", hand, hand}
			if kind == "gantt" {
				args = []string{"--plot", path, "--plot-kind", kind, "--gantt-color", "killed", "--window", ":", hand}
			}
			if _, errOut, code := run(t, "", args...); code != 0 {
				t.Fatalf("%s: exit %d: %s", path, code, errOut)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			switch ext {
			case "png":
				if _, err := png.Decode(bytes.NewReader(data)); err != nil {
					t.Errorf("%s: %v", path, err)
				}
			case "svg":
				if !bytes.Contains(data, []byte("<svg")) || !bytes.Contains(data, []byte("</svg>")) {
					t.Errorf("%s: not an SVG document", path)
				}
			case "pdf":
				if !bytes.HasPrefix(data, []byte("%PDF-")) {
					t.Errorf("%s: not a PDF", path)
				}
			}
		}
	}
}

// TestBaselineSettingsHaveNoChange: in the table, the U-QoS factor and
// runtime bounds are settings (columns, not rows, in CSV and JSON), so their
// change column is "-", while the U-QoS results beside them keep theirs.
func TestBaselineSettingsHaveNoChange(t *testing.T) {
	chdirRoot(t)
	page := filepath.Join(t.TempDir(), "r.html")
	out, errOut, code := run(t, "", "--html", page, "--baseline", "over", "--label", "hand,over", hand, "pkg/stats/testdata/oversubscribed.swf")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if row := `<td>rt_upperbound_s</td><td class="num">2000</td><td class="num">50</td><td class="num">-</td></tr>`; !strings.Contains(string(html), row) {
		t.Errorf("the HTML report's rt_upperbound_s row is not %s", row)
	}
	change := map[string]string{} // "metric statistic" of the overall section -> last column
	for _, line := range strings.Split(out, "\n") {
		if line == "" && len(change) > 0 {
			break // the end of the overall section
		}
		if f := strings.Fields(line); len(f) == 5 {
			change[f[0]+" "+f[1]] = f[4]
		}
	}
	for _, k := range []string{"uqos factor", "uqos rt_lowerbound_s", "uqos rt_upperbound_s"} {
		if change[k] != "-" {
			t.Errorf("%s: change %q, want - (a setting)", k, change[k])
		}
	}
	for _, k := range []string{"uqos mean", "uqos delta_s", "wait_s mean"} {
		if !strings.HasSuffix(change[k], "%") {
			t.Errorf("%s: change %q, want a percentage", k, change[k])
		}
	}
}

// TestBaseline checks change_pct in the CSV against the values themselves.
func TestBaseline(t *testing.T) {
	chdirRoot(t)
	out, _, code := run(t, "", "--format", "csv", "--baseline", "base", "--label", "base,other", "pkg/stats/testdata/oversubscribed.swf", hand)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	records, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	base := map[string]float64{}
	key := func(r []string) string { return strings.Join(r[2:8], "/") }
	for _, r := range records[1:] {
		if r[0] == "base" && r[8] != "" {
			base[key(r)], _ = strconv.ParseFloat(r[8], 64)
		}
		if r[0] == "base" && r[10] != "" {
			t.Errorf("baseline row %v has a change", r)
		}
	}
	checked := 0
	for _, r := range records[1:] {
		if r[0] != "other" || r[10] == "" {
			continue
		}
		v, _ := strconv.ParseFloat(r[8], 64)
		got, _ := strconv.ParseFloat(r[10], 64)
		b := base[key(r)]
		if want := 100 * (v - b) / math.Abs(b); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("%s: change %v, want %v (value %v, baseline %v)", key(r), got, want, v, b)
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("only %d rows with a change", checked)
	}
}

// TestUQoSBoundsShared: with several inputs of one workload the U-QoS
// runtime bounds come from one input (the --baseline one, else the first),
// the output says which, and that input's numbers are those it has alone.
func TestUQoSBoundsShared(t *testing.T) {
	chdirRoot(t)
	// oversubscribed.swf as another schedule of hand.swf's workload: the
	// same Computer line.
	text, err := os.ReadFile("pkg/stats/testdata/oversubscribed.swf")
	if err != nil {
		t.Fatal(err)
	}
	over := filepath.Join(t.TempDir(), "over.swf")
	if err := os.WriteFile(over, append([]byte("; Computer: hand-made test machine\n"), text...), 0o644); err != nil {
		t.Fatal(err)
	}
	values := func(args ...string) map[string]string {
		t.Helper()
		out, errOut, code := run(t, "", append([]string{"--format", "csv", "--label", "hand,over"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, r := range csvRows(t, recs) {
			if r["by1"] == NoGroup && r["metric"] == "uqos" {
				m[r["label"]+" uqos "+r["statistic"]] = r["value"]
				m[r["label"]+" uqos rt_upperbound_s"] = r["uqos_upper_s"] // a setting: a column
				m[r["label"]+" uqos_bounds_from"] = r["uqos_bounds_from"]
				m[r["label"]+" uqos_upper_s"] = r["uqos_upper_s"]
			}
		}
		return m
	}
	alone := func(label, path string) map[string]string {
		t.Helper()
		m := map[string]string{}
		out, _, _ := run(t, "", "--format", "csv", "--label", label, path)
		recs, _ := csv.NewReader(strings.NewReader(out)).ReadAll()
		for _, r := range csvRows(t, recs) {
			if r["by1"] == NoGroup && r["metric"] == "uqos" {
				m[r["label"]+" uqos "+r["statistic"]] = r["value"]
				m[r["label"]+" uqos rt_upperbound_s"] = r["uqos_upper_s"]
			}
		}
		return m
	}
	for _, tc := range []struct {
		args        []string
		ref, upper  string
		refAlone    map[string]string
		otherChange string // the other input's U-QoS bound, alone
	}{
		{[]string{hand, over}, "hand", "2000", alone("hand", hand), alone("over", over)["over uqos rt_upperbound_s"]},
		{[]string{"--baseline", "over", hand, over}, "over", "50", alone("over", over), alone("hand", hand)["hand uqos rt_upperbound_s"]},
	} {
		m := values(tc.args...)
		if m["hand uqos_bounds_from"] != tc.ref || m["over uqos_bounds_from"] != tc.ref ||
			m["hand uqos_upper_s"] != tc.upper || m["over uqos_upper_s"] != tc.upper {
			t.Errorf("%v: columns uqos_bounds_from and uqos_upper_s are not %s and %s: %v", tc.args, tc.ref, tc.upper, m)
		}
		for _, l := range []string{"hand", "over"} {
			if got := m[l+" uqos rt_upperbound_s"]; got != tc.upper {
				t.Errorf("%v: %s rt_upperbound_s %s, want %s (from %s)", tc.args, l, got, tc.upper, tc.ref)
			}
		}
		if tc.otherChange == tc.upper {
			t.Errorf("%v: the inputs have the same bounds alone; the test shows nothing", tc.args)
		}
		for k, v := range tc.refAlone {
			if m[k] != v {
				t.Errorf("%v: %s = %s, alone %s", tc.args, k, m[k], v)
			}
		}
	}
	// Both bounds given: nothing derived, nothing shared to state.
	if m := values("--uqos-lower-bound", "5", "--uqos-upper-bound", "60", hand, over); m["hand uqos_bounds_from"] != "--rt-lower-bound and --rt-upper-bound" || m["over uqos rt_upperbound_s"] != "60" {
		t.Errorf("given bounds: %v", m)
	}
}

// TestUQoSBoundsPerWorkload: inputs of different workloads (different
// Computer, Installation or UnixStartTime header lines) keep their own U-QoS
// bounds, as each has alone, so a study over two traces does not judge one
// trace's jobs by the other's bounds; inputs of one workload still share.
func TestUQoSBoundsPerWorkload(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	kth := writeHeaderCopy(t, hand, filepath.Join(dir, "kth.swf"), "")
	kth2 := writeHeaderCopy(t, "pkg/stats/testdata/oversubscribed.swf", filepath.Join(dir, "kth2.swf"), "; Computer: hand-made test machine\n")
	other := writeHeaderCopy(t, "pkg/stats/testdata/oversubscribed.swf", filepath.Join(dir, "other.swf"), "; Computer: another machine\n")
	upper := func(args ...string) map[string][2]string {
		t.Helper()
		out, errOut, code := run(t, "", append([]string{"--format", "csv"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		m := map[string][2]string{}
		for _, r := range csvRows(t, recs) {
			if r["by1"] == NoGroup && r["metric"] == "uqos" && r["statistic"] == "mean" {
				m[r["label"]] = [2]string{r["uqos_upper_s"], r["uqos_bounds_from"]}
			}
		}
		return m
	}
	alone := upper("--label", "o", other)["o"][0]
	m := upper("--label", "k,k2,o", kth, kth2, other)
	if m["k"] != [2]string{"2000", "k"} || m["k2"] != [2]string{"2000", "k"} {
		t.Errorf("one workload: %v, want k2 sharing k's upper bound 2000", m)
	}
	if m["o"] != [2]string{alone, "o"} || alone == "2000" {
		t.Errorf("another workload: %v, want its own bound %s from itself", m["o"], alone)
	}
	// --baseline picks the reference of its own workload only.
	m = upper("--label", "k,k2,o", "--baseline", "k2", kth, kth2, other)
	if m["k"][1] != "k2" || m["o"] != [2]string{alone, "o"} {
		t.Errorf("--baseline k2: %v", m)
	}
	out, _, _ := run(t, "", "--label", "k,k2,o", kth, kth2, other)
	if !strings.Contains(out, "taken for each workload") || !strings.Contains(out, "o (lower") {
		t.Errorf("the settings line does not say the bounds are per workload:\n%s", out)
	}
}

// writeHeaderCopy writes src to dst with extra header text first.
func writeHeaderCopy(t *testing.T, src, dst, extra string) string {
	t.Helper()
	text, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, append([]byte(extra), text...), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestFollowsSwfsimProcsFrom pipes swfsim --procs-from allocated into
// swfstat: without the flag swfstat uses the rule of swfsim's Note and says
// so; a different flag is warned about; the capacity check then agrees with
// the simulated machine.
func TestFollowsSwfsimProcsFrom(t *testing.T) {
	chdirRoot(t)
	var sched, simErr bytes.Buffer
	if code := simcli.Run([]string{"swfsim", "--policy", "easy", "--procs-from", "allocated", hand}, strings.NewReader(""), &sched, &simErr); code != 0 {
		t.Fatalf("swfsim: exit %d: %s", code, simErr.String())
	}
	out, errOut, code := run(t, sched.String(), "--format", "csv")
	if code != 0 || column(t, out, "procs_from") != "allocated" || errOut != "" {
		t.Errorf("no flag: exit %d, stderr %q, procs_from=allocated not taken from swfsim's Note:\n%s", code, errOut, out)
	}
	out, _, _ = run(t, sched.String())
	if !strings.Contains(out, "(--procs-from allocated, as the swfsim run that wrote the input: its Note)") {
		t.Errorf("table does not say where --procs-from comes from:\n%s", out)
	}
	out, errOut, code = run(t, sched.String(), "--check-capacity")
	if code != 0 || errOut != "" {
		t.Errorf("capacity of swfsim's own schedule: exit %d, stderr %q\n%s", code, errOut, out)
	}
	out, errOut, _ = run(t, sched.String(), "--format", "csv", "--procs-from", "requested")
	if column(t, out, "procs_from") != "requested" || !strings.Contains(errOut, "swfsim simulated with --procs-from allocated") {
		t.Errorf("flag against the Note: stderr %q", errOut)
	}
	// Inputs simulated with different rules: a warning, and the flag's default.
	var other bytes.Buffer
	simcli.Run([]string{"swfsim", "--policy", "easy", hand}, strings.NewReader(""), &other, &simErr)
	f := filepath.Join(t.TempDir(), "req.swf")
	if err := os.WriteFile(f, other.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, _ = run(t, sched.String(), "--format", "csv", "-", f)
	if column(t, out, "procs_from") != "requested" || !strings.Contains(errOut, "different --procs-from (allocated, requested)") {
		t.Errorf("mixed inputs: stderr %q", errOut)
	}
}

// csvRows returns the records after the header as maps from column name.
func csvRows(t *testing.T, recs [][]string) []map[string]string {
	t.Helper()
	if len(recs) == 0 {
		t.Fatal("CSV without a header")
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for j, name := range recs[0] {
			m[name] = r[j]
		}
		out = append(out, m)
	}
	return out
}

// column returns the value of a column that is constant over a CSV summary.
func column(t *testing.T, csvText, name string) string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows := csvRows(t, recs)
	if len(rows) == 0 {
		t.Fatalf("CSV has no rows:\n%s", csvText)
	}
	v := rows[0][name]
	for _, r := range rows {
		if r[name] != v {
			t.Fatalf("column %s is not constant: %q and %q", name, v, r[name])
		}
	}
	return v
}

// TestRuntimeBoundAliases: swfstat's U-QoS bounds carry swfaugment's names
// (--rt-lower-bound, --rt-upper-bound); the old --uqos-* names still work for
// one release and are recorded under the new ones.
func TestRuntimeBoundAliases(t *testing.T) {
	chdirRoot(t)
	out, errOut, code := run(t, "", "--format", "csv", "--uqos-lower-bound", "5", "--uqos-upper-bound", "60", hand)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := column(t, out, "uqos_upper_s"); got != "60" {
		t.Errorf("uqos_upper_s %q, want 60 from the deprecated alias", got)
	}
	js, errOut, code := run(t, "", "--format", "json", "--uqos-upper-bound", "60", hand)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(js, "rt-upper-bound=60") || strings.Contains(js, "uqos-upper-bound=") {
		t.Errorf("provenance does not record the alias under its new name:\n%s", js[:min(len(js), 600)])
	}
}

// Inputs with one base name are all labelled by the shortest ends of their
// paths that tell them apart (a path given twice gets #2); --label values are
// trimmed.
func TestDuplicateBaseNames(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	data, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(dir, "a", "x.swf"), filepath.Join(dir, "b", "x.swf")
	c, d := filepath.Join(dir, "p", "a", "y.swf"), filepath.Join(dir, "q", "a", "y.swf")
	for _, p := range []string{a, b, c, d} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, data, 0o644)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{a, b}, []string{"a/x.swf", "b/x.swf"}},
		{[]string{a, a}, []string{"x.swf", "x.swf#2"}},
		{[]string{a, b, a}, []string{"a/x.swf", "b/x.swf", "a/x.swf#2"}},
		{[]string{c, d, a}, []string{"p/a/y.swf", "q/a/y.swf", "x.swf"}},
		{[]string{"--label", " one, two", a, b}, []string{"one", "two"}},
	} {
		out, stderr, code := run(t, "", append([]string{"--format", "csv", "--metrics", "wait_s"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		labels := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
			labels[strings.Split(line, ",")[0]] = true
		}
		for _, w := range tc.want {
			if !labels[w] || len(labels) != len(tc.want) {
				t.Errorf("%v: labels %v, want %v", tc.args, labels, tc.want)
				break
			}
		}
	}
}

// One file given twice (the same path, another path to it, a symbolic or hard
// link) is warned about on stderr, naming the arguments as given, in every
// mode; it is no error (comparing a file with itself can be meant), and two
// files of the same bytes, or standard input, are not one file.
func TestSameFileWarned(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	data, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(dir, "a.swf")
	if err := os.WriteFile(a, data, 0o644); err != nil {
		t.Fatal(err)
	}
	copyOfA, sym, hard := filepath.Join(dir, "copy.swf"), filepath.Join(dir, "sym.swf"), filepath.Join(dir, "hard.swf")
	if err := os.WriteFile(copyOfA, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.swf", sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, hard); err != nil {
		t.Fatal(err)
	}
	dotted := dir + "/./a.swf" // not filepath.Join, which cleans the dot away
	const tail = " are the same file: it is read twice and every output has it twice, identical"
	modes := [][]string{
		{},
		{"--format", "csv"},
		{"--format", "json"},
		{"--csv", filepath.Join(dir, "out.csv")},
		{"--json", filepath.Join(dir, "out.json")},
		{"--jobs", filepath.Join(dir, "jobs.csv")},
		{"--html", filepath.Join(dir, "report.html"), "--label", "x,y"},
		{"--plot", filepath.Join(dir, "wait.svg"), "--label", "x,y"},
		{"--check-capacity"},
		{"--sha256"},
	}
	for _, tc := range []struct {
		name   string
		inputs []string
		warn   string // "" for no warning
	}{
		{"same path", []string{a, a}, a + " and " + a + tail},
		{"two paths", []string{a, dotted}, a + " and " + dotted + tail},
		{"symbolic link", []string{sym, a}, sym + " and " + a + tail},
		{"hard link", []string{a, hard}, a + " and " + hard + tail},
		{"same bytes", []string{a, copyOfA}, ""},
		{"standard input", []string{a, "-"}, ""},
	} {
		for _, mode := range modes {
			args := append(slices.Clone(mode), tc.inputs...)
			_, stderr, code := run(t, string(data), args...)
			if code != 0 {
				t.Errorf("%s %v: exit %d, stderr:\n%s", tc.name, args, code, stderr)
				continue
			}
			if got := strings.Count(stderr, "same file"); tc.warn == "" && got != 0 || tc.warn != "" && (got != 1 || !strings.Contains(stderr, "swfstat: warning: "+tc.warn)) {
				t.Errorf("%s %v: stderr:\n%s\nwant the same-file warning %q (none when \"\")", tc.name, args, stderr, tc.warn)
			}
		}
	}
	_, stderr, _ := run(t, "", "--format", "csv", a, copyOfA, sym, hard)
	if want := "swfstat: warning: " + a + ", " + sym + " and " + hard + " are the same file: it is read 3 times and every output has it 3 times"; !strings.Contains(stderr, want) {
		t.Errorf("three names of one file: stderr:\n%s\nwant %q", stderr, want)
	}
}

// A header MaxProcs of 0 is no machine size, and the summary says so
// rather than that the header has none.
func TestMachineSizeZero(t *testing.T) {
	out, _, code := run(t, "; MaxProcs: 0\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n")
	if code != 0 || !strings.Contains(out, "unknown (the header's MaxProcs 0 is not a machine size; give --procs)") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// Partial-execution records are summarized one by one, with a warning that
// says so and how to merge them.
func TestPartialExecutionWarning(t *testing.T) {
	in := "; MaxProcs: 4\n; Preemption: Yes\n" +
		"1 0 0 10 1 -1 -1 1 -1 -1 2 1 1 -1 -1 -1 -1 -1\n" +
		"1 0 20 10 1 -1 -1 1 -1 -1 3 1 1 -1 -1 -1 -1 -1\n" +
		"2 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
	_, stderr, code := run(t, in)
	if code != 0 || !strings.Contains(stderr, "warning: <stdin>: 2 records are parts of partially executed jobs") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, stderr, _ := run(t, "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"); stderr != "" {
		t.Errorf("whole jobs only, yet stderr %q", stderr)
	}
}

// A figure that fails fails the run before the summary reaches standard
// output: no table of a run that exits 2.
func TestFailedFigureLeavesNoSummary(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--plot", filepath.Join(dir, "g.svg"), "--plot-kind", "gantt", "--window", "100000:200000", hand},
		{"--html", filepath.Join(dir, "r.html"), "--window", "-5000:-100", hand},
	} {
		out, stderr, code := run(t, "", args...)
		if code != 2 || out != "" || !strings.Contains(stderr, "lies outside them") {
			t.Errorf("%v: exit %d, %d bytes on stdout, stderr %q", args, code, len(out), stderr)
		}
	}
	assertNoFiles(t, dir)
}

func assertNoFiles(t *testing.T, dir string) {
	t.Helper()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%s holds %d files after failed runs", dir, len(entries))
	}
}

// A swfstat Provenance line in an input's header (swfstat writes none into
// an SWF) is left out with a warning, so that the columns of this run's own
// configuration (swfstat.*) are not given twice; a line no tool wrote is
// left out too; the lines of the tools that write SWF stay.
func TestProvenanceLinesOfNoSWFToolLeftOut(t *testing.T) {
	in := "; MaxProcs: 4\n; Provenance: swfstat version=9.9 by=user window=1:2\n; Provenance: made by hand\n" +
		"; Provenance: swfsim version=0.1.0-dev policy=easy seed=3\n" +
		"1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	out, errs, code := run(t, in, "--format", "csv", "--by", "category")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, name := range rows[0] {
		if seen[name] {
			t.Errorf("column %s twice: %v", name, rows[0])
		}
		seen[name] = true
	}
	col := func(name string) string { return rows[1][slices.Index(rows[0], name)] }
	if !seen["swfsim.policy"] || col("swfsim.policy") != "easy" || col("swfstat.by") != "category" || col("swfstat.version") == "9.9" {
		t.Errorf("swfsim.policy %v, swfstat.by %q, swfstat.version %q", seen["swfsim.policy"], col("swfstat.by"), col("swfstat.version"))
	}
	for _, want := range []string{"1 swfstat Provenance line(s) in its header", "<stdin>:3: a Provenance line no swfkit tool wrote"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

// TestReplayOtherPrograms: --replay names another program's run where it
// stood (it cannot replay it) and leaves a swfstat line out, with warnings.
func TestReplayOtherPrograms(t *testing.T) {
	in := "; Version: 2.2\n; MaxProcs: 4\n" +
		"; Provenance: mytool version=1 scale=2 input=-\n" +
		"; Provenance: swfstat version=" + cmdio.Version + " input=y\n" +
		"; Provenance: swfsim version=" + cmdio.Version + " policy=fcfs input=-\n" +
		"1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	out, errs, code := run(t, in, "--replay", "-")
	want := "# <stdin>\n# not replayed, another program's run: mytool version=1 scale=2 input=-\n" +
		"# run it on its input, writing replay-0-out\nswfsim --policy=fcfs replay-0-out\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, stderr %q, output\n%s\nwant\n%s", code, errs, out, want)
	}
	for _, w := range []string{"provenance line 1: mytool is not a swfkit tool", "provenance line 2: swfstat writes no trace: left out"} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errs)
		}
	}
}

// TestReplayChecksInput: --replay hashes the file a run read, at the path
// as recorded, and says when it is not the one the run read (a comment in
// the commands and a warning, with both hashes); the same file passes
// quietly, and a file that cannot be read is a comment.
func TestReplayChecksInput(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "t.swf")
	trace := "; Version: 2.2\n; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	if err := os.WriteFile(input, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	made := filepath.Join(dir, "out.swf")
	var errb bytes.Buffer
	if code := simcli.Run([]string{"swfsim", "-p", "fcfs", "--no-progress", "-o", made, input}, nil, io.Discard, &errb); code != 0 {
		t.Fatalf("swfsim: exit %d: %s", code, errb.String())
	}
	out, errs, code := run(t, "", "--replay", made)
	if code != 0 || errs != "" || strings.Count(out, "#") != 1 {
		t.Errorf("the same file: exit %d, stderr %q, output\n%s", code, errs, out)
	}
	if err := os.WriteFile(input, []byte(trace+"2 5 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = run(t, "", "--replay", made)
	const what = "is not the one the run read: its bytes (decompressed) have sha256 "
	if code != 0 || !strings.Contains(out, "# the file at "+input+" "+what) || !strings.Contains(errs, "swfstat: warning: "+made+": the file at "+input+" "+what) {
		t.Errorf("a changed file: exit %d, stderr %q, output\n%s", code, errs, out)
	}
	os.Remove(input)
	out, errs, code = run(t, "", "--replay", made)
	if code != 0 || !strings.Contains(out, "# "+input+" cannot be read here") || errs != "" {
		t.Errorf("a file that is gone: exit %d, stderr %q, output\n%s", code, errs, out)
	}
}

// TestCategoryWarning: when every job falls on one side of --category-procs
// (8 on a machine whose jobs take 32 or more), two categories are empty and
// swfstat says so wherever it shows categories; not otherwise.
func TestCategoryWarning(t *testing.T) {
	in := "; MaxProcs: 64\n1 0 0 10 32 -1 -1 32 10 -1 1 1 1 -1 1 -1 -1 -1\n2 0 0 5000 64 -1 -1 64 5000 -1 1 1 1 -1 1 -1 -1 -1\n"
	const want = "swfstat: warning: <stdin>: every job is wide (more than --category-procs 8 processors): categories SN and LN are empty"
	for _, tt := range []struct {
		args []string
		warn bool
	}{
		{[]string{"--by", "category"}, true},
		{[]string{"--by", "category", "--category-procs", "32"}, false},
		{nil, false},
		{[]string{"--by", "user"}, false},
	} {
		_, errs, code := run(t, in, tt.args...)
		if code != 0 || strings.Contains(errs, want) != tt.warn {
			t.Errorf("%v: exit %d, stderr %q; want the warning %v", tt.args, code, errs, tt.warn)
		}
	}
	html := filepath.Join(t.TempDir(), "r.html")
	if _, errs, code := run(t, in, "--html", html); code != 0 || !strings.Contains(errs, want) {
		t.Errorf("--html: exit %d, stderr %q", code, errs)
	} else if b, err := os.ReadFile(html); err != nil || !strings.Contains(string(b), "every job is wide (more than --category-procs 8 processors)") {
		t.Errorf("the report does not carry the warning (%v)", err)
	}
	narrow := "; MaxProcs: 64\n1 0 0 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	if _, errs, _ := run(t, narrow, "--by", "category"); !strings.Contains(errs, "every job is narrow (at most --category-procs 8 processors): categories SW and LW are empty") {
		t.Errorf("all narrow: stderr %q", errs)
	}
}

// A label with characters the figures' font lacks (CJK, a snowman) gets a
// warning for a PNG or PDF figure, which draws nothing in their place; an SVG
// (a browser draws them from another font) and plain labels get none.
func TestUndrawableLabelWarning(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	for _, c := range []struct {
		file, labels string
		warn         bool
	}{
		{"f.png", "日本語 run,Ωμέγα", true},
		{"f.pdf", "a,snow ☃", true},
		{"f.svg", "日本語 run,Ωμέγα", false},
		{"f.png", "easy,Ωμέγα Жук", false},
	} {
		_, stderr, code := run(t, "", "--plot", filepath.Join(dir, c.file), "--label", c.labels, hand, hand)
		if code != 0 || strings.Contains(stderr, "cannot draw") != c.warn {
			t.Errorf("%s %q: exit %d, warning %v:\n%s", c.file, c.labels, code, c.warn, stderr)
		}
	}
}

// TestNoInfiniteMetrics: flags that could make a metric infinite are usage
// errors naming the flag and the range accepted (a bounded-slowdown floor
// below SWF's 1 s resolution, a U-QoS factor whose delta under- or
// overflows); a tiny U-QoS lower bound, which a flag or a swfaugment Note
// can still give, leaves U-QoS undefined with the reason instead of +Inf.
// No output then holds an infinite number: the table's "+Inf" was CSV's
// and JSON's undefined, and the plots failed on it.
func TestNoInfiniteMetrics(t *testing.T) {
	const in = "; MaxProcs: 10\n1 0 10000000000 0 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1\n2 0 5 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--bsld-threshold", "1e-300"}, "--bsld-threshold 1e-300: want 1 to 1099511627776 seconds"},
		{[]string{"--bsld-threshold", "0.5"}, "--bsld-threshold 0.5: want 1 to"},
		{[]string{"--bsld-threshold", "2e12"}, "--bsld-threshold 2e+12: want 1 to"},
		{[]string{"--uqos-factor", "1e-320"}, "--uqos-factor 1e-320: want 1e-06 to 1e+06"},
		{[]string{"--uqos-factor", "1e7"}, "--uqos-factor 1e+07: want 1e-06 to 1e+06"},
	} {
		_, errOut, code := run(t, in, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--bsld-threshold", "1"},
		{"--uqos-factor", "1e-6"},
		{"--uqos-factor", "1e6"},
		{"--rt-lower-bound", "1e-300"},
	} {
		for _, format := range []string{"table", "csv", "json"} {
			out, errOut, code := run(t, in, append([]string{"--format", format}, args...)...)
			if code != 0 {
				t.Fatalf("%v %s: exit %d: %s", args, format, code, errOut)
			}
			if strings.Contains(strings.ToLower(out), "inf") && !strings.Contains(out, "inf.swf") || strings.Contains(out, "NaN") {
				t.Errorf("%v %s: an infinite or NaN value in the output:\n%s", args, format, out)
			}
		}
		for _, kind := range []string{"wait-cdf", "bsld-cdf"} {
			if _, errOut, code := run(t, in, append([]string{"--plot", filepath.Join(dir, kind+".svg"), "--plot-kind", kind}, args...)...); code != 0 {
				t.Errorf("%v --plot-kind %s: exit %d: %s", args, kind, code, errOut)
			}
		}
	}
	out, _, _ := run(t, in, "--rt-lower-bound", "1e-300")
	if !strings.Contains(out, "U-QoS undefined: delta = factor x phi x rt_lowerbound = 5e-301 s is out of range") {
		t.Errorf("no reason for the undefined U-QoS:\n%s", out)
	}
}

// TestReplayDamagedFile: --replay reads the replayed file to its end, so a
// file cut short after its header (a killed copy, a full disk), compressed
// or not, is a warning and a comment before the commands, which still come
// from its header; before, only the header was read and a truncated gzip
// file passed for whole, silently.
func TestReplayDamagedFile(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "t.swf")
	var trace strings.Builder
	trace.WriteString("; Version: 2.2\n; MaxProcs: 4\n")
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&trace, "%d %d 0 %d 1 -1 -1 1 100000 -1 1 %d 1 -1 1 -1 -1 -1\n", i, i*7, 10+i%50, 1+i%13)
	}
	if err := os.WriteFile(input, []byte(trace.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"out.swf.gz", "out.swf"} {
		made := filepath.Join(dir, name)
		var errb bytes.Buffer
		if code := simcli.Run([]string{"swfsim", "-p", "fcfs", "--no-progress", "-o", made, input}, nil, io.Discard, &errb); code != 0 {
			t.Fatalf("swfsim: exit %d: %s", code, errb.String())
		}
		whole, _, code := run(t, "", "--replay", made)
		if code != 0 {
			t.Fatalf("%s: exit %d", name, code)
		}
		data, err := os.ReadFile(made)
		if err != nil {
			t.Fatal(err)
		}
		cut := filepath.Join(dir, "cut-"+name)
		if err := os.WriteFile(cut, data[:len(data)*2/3], 0o644); err != nil {
			t.Fatal(err)
		}
		out, errs, code := run(t, "", "--replay", cut)
		const what = "this file cannot be read to its end ("
		if code != 0 || !strings.Contains(out, "# "+what) || !strings.Contains(errs, "swfstat: warning: "+cut+": "+what) {
			t.Errorf("%s cut short: exit %d, stderr %q, output\n%s", name, code, errs, out)
		}
		if cmds := strings.TrimPrefix(whole, "# "+made+"\n"); !strings.HasSuffix(out, cmds) {
			t.Errorf("%s cut short: the commands differ from the whole file's:\n%s\nwant\n%s", name, out, cmds)
		}
	}
	// A plain file cut inside its last field reads to its end: its missing
	// final newline is said, as every other mode says it.
	made := filepath.Join(dir, "out.swf")
	data, err := os.ReadFile(made)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut-field.swf")
	if err := os.WriteFile(cut, data[:len(data)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	line := strconv.Itoa(bytes.Count(data, []byte("\n")))
	if _, errs, code := run(t, "", "--replay", cut); code != 0 || !strings.Contains(errs, "swfstat: warning: "+cut+":"+line+": "+unterminatedWarning) {
		t.Errorf("cut inside the last field: exit %d, stderr %q; want 0 and the warning", code, errs)
	}
}

// TestStrictFormatHint: without --lenient, a Slurm sacct dump or an Alea log
// fails at its first record line with the hint a --lenient read gives when
// it skips every line (how to convert it), and a malformed SWF line keeps
// its message, with the question whether the file is SWF only at the first
// record line: after records that parsed, it is.
func TestStrictFormatHint(t *testing.T) {
	const (
		sacct = "JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode\n1|x|p|a|2|COMPLETED|0:0\n"
		alea  = "; MaxProcs: 64\n" + "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n"
	)
	for _, args := range [][]string{{}, {"--by", "user"}} {
		for _, tc := range []struct{ name, stdin, stderr string }{
			{"sacct", sacct, "swfstat: <stdin>:1: field 1 (Job Number): expected a number, got \"JobID|JobName|Partition|Account|AllocCPU\"... (it looks like a Slurm `sacct --parsable2` dump: convert it to SWF first, swfclean --from sacct --timezone ZONE FILE -o FILE.swf)\n"},
			{"alea", alea, "swfstat: <stdin>:2: field 19 (extension token): expected a key=value extension token after the 18 SWF fields, got \"{1241,1241}\" (it looks like the Alea simulator's format, in which MetaCentrum publishes its logs: convert it to SWF first, swfclean --from alea FILE -o FILE.swf)\n"},
			{"SWF", "1 2 3\n", "swfstat: <stdin>:1: expected 18 whitespace-separated fields, got 3: fields 4 (Run Time) to 18 are missing (is <stdin> an SWF trace? each record needs 18 numeric fields, then key=value tokens)\n"},
			{"SWF after records", "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n2 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n1 2 3\n",
				"swfstat: <stdin>:3: expected 18 whitespace-separated fields, got 3: fields 4 (Run Time) to 18 are missing\n"},
		} {
			t.Run(fmt.Sprint(tc.name, args), func(t *testing.T) {
				_, errOut, code := run(t, tc.stdin, args...)
				if code != 1 || errOut != tc.stderr {
					t.Errorf("exit %d, stderr\n%s\nwant exit 1, stderr\n%s", code, errOut, tc.stderr)
				}
			})
		}
	}
}

// TestMetricsEveryFormat: --metrics keeps the same metrics in the table,
// the CSV and the HTML report's tables; input and excluded are metric names
// (their table sections go with their CSV rows).
func TestMetricsEveryFormat(t *testing.T) {
	var in strings.Builder
	in.WriteString("; MaxProcs: 4\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&in, "%d %d %d 100 1 -1 -1 1 200 -1 1 1 1 -1 1 -1 -1 -1\n", i, i, i)
	}
	dir := t.TempDir()
	trace := filepath.Join(dir, "h.swf")
	if err := os.WriteFile(trace, []byte(in.String()), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		metrics             string
		input, excluded, bs bool // sections and rows expected
	}{
		{"wait_s", false, false, false},
		{"wait_s,input", true, false, false},
		{"excluded,bsld", false, true, true},
		{"*", true, true, true},
	} {
		html := filepath.Join(dir, "r.html")
		args := []string{"--metrics", tc.metrics, "--skip-first", "2", trace}
		table, stderr, code := run(t, "", append([]string{"--html", html}, args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.metrics, code, stderr)
		}
		csv, _, _ := run(t, "", append([]string{"--format", "csv"}, args...)...)
		page := readFileString(t, html)
		for _, c := range []struct {
			what string
			has  bool
			want bool
		}{
			{"table input section", strings.Contains(table, "\ninput  file"), tc.input},
			{"table excluded section", strings.Contains(table, "\nexcluded ("), tc.excluded},
			{"table bsld rows", strings.Contains(table, "\nbsld "), tc.bs},
			{"csv input rows", strings.Contains(csv, ",input,jobs_read,"), tc.input},
			{"csv excluded rows", strings.Contains(csv, ",excluded,"), tc.excluded},
			{"csv bsld rows", strings.Contains(csv, ",bsld,"), tc.bs},
			{"html bsld rows", strings.Contains(page, "<td>bsld</td>"), tc.bs},
			{"html uqos rows", strings.Contains(page, "<td>uqos</td>"), tc.metrics == "*"},
			{"html wait rows", strings.Contains(page, "<td>wait_s</td>"), strings.Contains(tc.metrics, "wait") || tc.metrics == "*"},
		} {
			if c.has != c.want {
				t.Errorf("--metrics %s: %s: %v, want %v", tc.metrics, c.what, c.has, c.want)
			}
		}
	}
}

func readFileString(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPercentileMinusZero: -0 is the 0th percentile, named p0.
func TestPercentileMinusZero(t *testing.T) {
	chdirRoot(t)
	out, errOut, code := run(t, "", "--percentiles", "-0,50", "--metrics", "wait_s", "--format", "csv", hand)
	if code != 0 || !strings.Contains(out, ",wait_s,p0,") || strings.Contains(out, "p-0") {
		t.Errorf("exit %d %s\n%s", code, errOut, out)
	}
	if _, errOut, code := run(t, "", "--percentiles", "0,-0", hand); code != 2 || !strings.Contains(errOut, "percentile p0 given twice") {
		t.Errorf("0,-0: exit %d %s", code, errOut)
	}
}

// TestTableFileNameControlCharacters: a file name with a line break is
// quoted in the table's file column, which it would otherwise split.
func TestTableFileNameControlCharacters(t *testing.T) {
	chdirRoot(t)
	name := filepath.Join(t.TempDir(), "nl\nname.swf")
	data, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o666); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "", "--label", "x", "--metrics", "input", name)
	if code != 0 || !strings.Contains(out, strconv.Quote(name)) || strings.Contains(out, "nl\nname") {
		t.Errorf("exit %d %s\n%s", code, errOut, out)
	}
}

// TestStdinBesideAFileNamedStdin: standard input and a file whose base name
// is stdin get labels that tell them apart ("-" as given, and "stdin"),
// instead of the same default label and a usage error.
func TestStdinBesideAFileNamedStdin(t *testing.T) {
	chdirRoot(t)
	data, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(t.TempDir(), "stdin")
	if err := os.WriteFile(named, data, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, string(data), "--format", "csv", "-", named)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"\n-,", "\nstdin,"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no row labelled %q:\n%s", strings.TrimSpace(want), stdout)
		}
	}
}

// TestFilesFrom: --files-from reads input paths from a file, one a line
// (blank lines and a carriage return before the newline ignored), after
// those given as arguments, and gives the table the arguments would; the
// list is an input that no output may replace; an empty list is an error.
func TestFilesFrom(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf")
	data, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(a, data, 0o644)
	os.WriteFile(b, data, 0o644)
	list := filepath.Join(dir, "list")
	os.WriteFile(list, []byte(b+"\r\n\n"), 0o644)
	want, _, code := run(t, "", "--format", "csv", a, b)
	if code != 0 {
		t.Fatal("arguments: exit", code)
	}
	got, stderr, code := run(t, "", "--format", "csv", "--files-from", list, a)
	// The Provenance line too: every input and its hash, as if given as
	// arguments (the list itself may be gone, as the study's is).
	if code != 0 || got != want {
		t.Errorf("--files-from: exit %d %s\n%s\nwant the rows of\n%s", code, stderr, got, want)
	}
	if _, stderr, code := run(t, "", "--files-from", list, "-o", list); code != 2 || !strings.Contains(stderr, "would overwrite the input --files-from") {
		t.Errorf("-o onto the list: exit %d, %s", code, stderr)
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n\n"), 0o644)
	if _, stderr, code := run(t, "", "--files-from", empty); code != 2 || !strings.Contains(stderr, "names no input") {
		t.Errorf("an empty list: exit %d, %s", code, stderr)
	}
	// Also beside inputs given as arguments (a failed find's empty list
	// would leave a study aggregated from those alone).
	if _, stderr, code := run(t, "", "--files-from", empty, a); code != 2 || !strings.Contains(stderr, "names no input") {
		t.Errorf("an empty list beside an argument: exit %d, %s", code, stderr)
	}
}

// TestJobsExtensionCase: --jobs takes .csv, .csv.gz and .csv.zst in any
// case, as every output takes .gz and .zst (J.CSV.GZ was a usage error);
// another name still is one.
func TestJobsExtensionCase(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	for _, name := range []string{"J.CSV.GZ", "j.Csv", "J.csv.ZST"} {
		path := filepath.Join(dir, name)
		if _, stderr, code := run(t, "", "--jobs", path, hand); code != 0 {
			t.Errorf("--jobs %s: exit %d, %s", name, code, stderr)
			continue
		}
		data, err := os.ReadFile(path)
		gz := strings.HasSuffix(strings.ToLower(name), ".gz")
		if err != nil || gz != bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			t.Errorf("--jobs %s: %v, gzip %v, want %v", name, err, !gz, gz)
		}
	}
	if _, stderr, code := run(t, "", "--jobs", filepath.Join(dir, "j.txt"), hand); code != 2 || !strings.Contains(stderr, "want a .csv") {
		t.Errorf("--jobs j.txt: exit %d, %s", code, stderr)
	}
}
