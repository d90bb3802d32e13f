package statcli

import (
	"bytes"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	cleancli "github.com/swfkit/swfkit/internal/cli/clean"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/swf"
)

// htmlFigureIDs are the figures every report has, for two inputs, and the
// sweep figure writeReport asks for.
var htmlFigureIDs = []string{"fig-wait-cdf", "fig-bsld-cdf", "fig-utilization", "fig-queue-length", "fig-category", "fig-sweep", "fig-gantt-1", "fig-gantt-2"}

// writeReport writes the report of hand.swf against itself, with a sweep
// figure against the offered load, and returns its path.
func writeReport(t *testing.T) string {
	t.Helper()
	chdirRoot(t)
	path := filepath.Join(t.TempDir(), "report.html")
	out, errOut, code := run(t, "", "--html", path, "--label", "a,b", "--baseline", "b", "--window", "0:2000", "--sweep-x", "offered_load", hand, hand)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "overall") {
		t.Error("--html does not keep the summary on standard output")
	}
	return path
}

func TestHTMLReport(t *testing.T) {
	data, err := os.ReadFile(writeReport(t))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, id := range htmlFigureIDs {
		i := strings.Index(page, `<figure id="`+id+`">`)
		if i < 0 {
			t.Errorf("no figure %s", id)
			continue
		}
		if end := strings.Index(page[i:], "</figure>"); end < 0 || !strings.Contains(page[i:i+end], "<svg") {
			t.Errorf("figure %s has no SVG", id)
		}
	}
	for _, want := range []string{
		`id="table-overall"`, `id="table-category-SN"`, "a vs b", // tables, with the baseline column
		"; Note: five jobs whose every metric is worked out by hand", // provenance
		"20% of the jobs (1) were killed at their requested time",    // warnings
		"Schedule of a from t=0 s (0.5556 h)",                        // the --window, the same for both inputs
		"Schedule of b from t=0 s (0.5556 h)",
		"requested time unknown (field 9 &lt;= 0)", // exclusions
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Count(page, "@font-face") != 1 {
		t.Errorf("the font is embedded %d times, want once", strings.Count(page, "@font-face"))
	}
}

// The header Notes that say jobs were left out of the file: swfclean's
// accounting of what its rules, filters and flurry removal took out are
// notes; malformed lines skipped (by any tool), jobs swfsim could not
// simulate and another program's Note are warnings; the rest is neither.
func TestLeftOutNotes(t *testing.T) {
	hdr, err := swf.NewReader(strings.NewReader(`; Note: swfclean rule no_procs: 1 job removed
; Note: swfclean rule too_big: no jobs affected
; Note: swfclean filter user=2: 12 jobs removed
; Note: swfclean flurry user=3 and job>=10 and job<=400 (391 jobs removed; in its windows, 86400 s, 391 of 500 submissions, 78%, were the user's, first to last in 3600 s)
; Note: swfclean rule runtime_from_cpu: 4 jobs changed
; Note: cleaned by swfclean: 20 records read, 17 written, 3 dropped (0 malformed)
; Note: cleaned by swfclean: 20 records read, 16 written, 4 dropped (1 malformed)
; Note: swfsim skipped 3 jobs: no processor count
; Note: swfsim skipped 2 malformed lines (--lenient; lines 7, 9)
; Note: swfaugment --lenient: 5 malformed lines skipped (not in the output); lines 3, 4, 5, 6, 7
; Note: swfsim simulated 10 jobs, 0 killed at their requested time
; Note: 40 jobs removed by the site's accounting
; Computer: skipped 5 lunches
1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1
`)).Header()
	if err != nil {
		t.Fatal(err)
	}
	warnings, notes := leftOutNotes(hdr)
	wantWarnings := []string{
		"Note: cleaned by swfclean: 20 records read, 16 written, 4 dropped (1 malformed)",
		"Note: swfsim skipped 3 jobs: no processor count",
		"Note: swfsim skipped 2 malformed lines (--lenient; lines 7, 9)",
		"Note: swfaugment --lenient: 5 malformed lines skipped (not in the output); lines 3, 4, 5, 6, 7",
		"Note: 40 jobs removed by the site's accounting",
	}
	wantNotes := []string{
		"Note: swfclean rule no_procs: 1 job removed",
		"Note: swfclean filter user=2: 12 jobs removed",
		"Note: swfclean flurry user=3 and job>=10 and job<=400 (391 jobs removed; in its windows, 86400 s, 391 of 500 submissions, 78%, were the user's, first to last in 3600 s)",
	}
	if !slices.Equal(warnings, wantWarnings) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(wantWarnings, "\n"))
	}
	if !slices.Equal(notes, wantNotes) {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(notes, "\n"), strings.Join(wantNotes, "\n"))
	}
}

// The report of a schedule made by swfclean and swfsim shows, in its input's
// row, the jobs swfclean's filter and rule removed as notes (class "note",
// not the warnings' red) and the job swfsim could not simulate and the
// malformed line it skipped as warnings (class "warning").
func TestHTMLNotesAndWarnings(t *testing.T) {
	dir := t.TempDir()
	trace := "; MaxProcs: 4\n" +
		"1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"2 5 -1 10 2 -1 -1 2 20 -1 1 2 1 -1 -1 -1 -1 -1\n" + // user 2: --filter
		"3 6 -1 10 8 -1 -1 8 20 -1 1 1 1 -1 -1 -1 -1 -1\n" + // 8 of 4 processors: too_big
		"4 7 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 -1 -1 -1 -1\n" + // 4 of swfsim's 2: skipped
		"5 8 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n" // wide (--category-procs 1): no category warning
	var cleaned, errb bytes.Buffer
	if code := cleancli.Run([]string{"swfclean", "-q", "--filter", "user=2"}, strings.NewReader(trace), &cleaned, &errb); code != 0 {
		t.Fatalf("swfclean: exit %d: %s", code, errb.String())
	}
	cleaned.WriteString("6 9 x\n") // malformed: swfsim --lenient skips it
	schedule := filepath.Join(dir, "schedule.swf")
	if code := simcli.Run([]string{"swfsim", "--policy", "easy", "--procs", "2", "--lenient", "-o", schedule}, &cleaned, io.Discard, &errb); code != 0 {
		t.Fatalf("swfsim: exit %d: %s", code, errb.String())
	}
	html := filepath.Join(dir, "report.html")
	if _, errOut, code := run(t, "", "--html", html, "--category-procs", "1", "--label", "s", schedule); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?s)<tr><td class="label">s</td>.*?</tr>`).FindString(string(data))
	cell := regexp.MustCompile(`(?s)<td class="warn">(.*?)</td>`).FindStringSubmatch(row)
	if cell == nil {
		t.Fatalf("no warnings cell in the input's row:\n%s", row)
	}
	var got []string
	for _, m := range regexp.MustCompile(`<div class="(\w+)">(.*?)</div>`).FindAllStringSubmatch(cell[1], -1) {
		text, _, _ := strings.Cut(m[2], " (--lenient; lines ") // the line number counts swfclean's header lines
		got = append(got, m[1]+": "+text)
	}
	want := []string{
		"warning: Note: swfsim skipped 1 jobs: wider than the machine",
		"warning: Note: swfsim skipped 1 malformed lines",
		"note: Note: swfclean filter user=2: 1 job removed",
		"note: Note: swfclean rule too_big: 1 job removed",
	}
	if !slices.Equal(got, want) {
		t.Errorf("the input's warnings and notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The page's style colors the warnings only.
	if page := string(data); !strings.Contains(page, "td.warn div.warning { color: #8a1c00; }") || strings.Contains(page, "td.warn div {") {
		t.Error("the style does not tell warnings from notes")
	}
}

func TestGanttWindowDates(t *testing.T) {
	rc, err := cmdio.Open(filepath.Join(testutil.RepoRoot(t), "testdata/KTH-SP2-1996-2.1-cln.swf.gz"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	hdr, err := swf.NewReader(rc).Header()
	if err != nil {
		t.Fatal(err)
	}
	c := clockOf(hdr) // UnixStartTime 843480031 = 1996-09-23 14:00:31 CEST
	for in, want := range map[string]window{
		"1996-09-23T14:00:31:1996-09-24": {from: 0, to: 10*3600 - 31, hasFrom: true, hasTo: true},
		"100:":                           {from: 100, hasFrom: true},
		":1996-09-23 15:00":              {to: 3600 - 31, hasTo: true},
	} {
		got, err := parseWindow(in, c)
		if err != nil || got != want {
			t.Errorf("parseWindow(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	if got := c.describe(0); got != "1996-09-23 14:00 CEST" {
		t.Errorf("describe(0) = %q", got)
	}
}

// TestWindowErrorNamesTheWrongPart: a date of the right shape with a
// component out of range is reported as such, from the split of the window
// where it is a whole side, not as the first colon's "want a date"
// ("1997-03-01T10" for minute 61).
func TestWindowErrorNamesTheWrongPart(t *testing.T) {
	c := clock{origin: 843480031, loc: time.UTC, known: true}
	for in, want := range map[string]string{
		"1997-03-01T10:61:1997-03-02":       `"1997-03-01T10:61": minute 61 is out of range (00-59)`,
		"1997-03-01T24:00:1997-03-02":       `"1997-03-01T24:00": hour 24 is out of range (00-23); the end of the day is the next day's T00:00`,
		"1997-03-01T25:00:1997-03-02":       `"1997-03-01T25:00": hour 25 is out of range (00-23)`,
		"1997-03-01T10:00:61:1997-03-02":    `"1997-03-01T10:00:61": second 61 is out of range (00-59)`,
		"1997-03-01:1997-02-29":             `"1997-02-29": day 29 is out of range for February 1997 (01-28)`,
		"1997-00-01:1997-03-02":             `"1997-00-01": month 00 is out of range (01-12)`,
		"1997-03-01T10:00:1997-03-02T23:60": `"1997-03-02T23:60": minute 60 is out of range (00-59)`,
		"yesterday:today":                   `"yesterday": want seconds since the trace's start or a date`,
	} {
		_, err := parseWindow(in, c)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseWindow(%q): %v; want %q", in, err, want)
		}
	}
	// A leap day is a day.
	if _, err := parseWindow("1996-02-29:1996-03-01", c); err != nil {
		t.Error(err)
	}
}

// BenchmarkGantt is the target: the Gantt chart of the whole of a
// small trace, and of a day of RICC-2010-2 (447,794 jobs), each under 2 s.
func BenchmarkGantt(b *testing.B) {
	root := testutil.RepoRoot(b)
	cases := map[string]func(b *testing.B) []string{
		"KTH-whole": func(*testing.B) []string {
			return []string{"--window", ":", filepath.Join(root, "testdata/KTH-SP2-1996-2.1-cln.swf.gz")}
		},
		"RICC-day": func(b *testing.B) []string {
			return []string{"--window", "2010-06-01:2010-06-02", "--procs-from", "allocated", testutil.Trace(b, "RICC-2010-2.swf.gz")}
		},
	}
	for name, argsOf := range cases {
		b.Run(name, func(b *testing.B) {
			args := argsOf(b)
			path := filepath.Join(b.TempDir(), "g.png")
			for b.Loop() {
				var errb bytes.Buffer
				if code := Run(append([]string{"swfstat", "--plot", path, "--plot-kind", "gantt"}, args...), nil, io.Discard, &errb); code != 0 {
					b.Fatalf("exit %d: %s", code, errb.String())
				}
			}
			f, _ := os.Open(path)
			defer f.Close()
			if _, err := png.Decode(f); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// Without --window every chart shows the reference input's busiest day (its
// whole trace when shorter than a day), and the other inputs' titles say
// whose it is.
func TestBusiestDayIsNamed(t *testing.T) {
	chdirRoot(t)
	path := filepath.Join(t.TempDir(), "report.html")
	if _, errOut, code := run(t, "", "--html", path, "--label", "a,b", "--baseline", "b", hand, hand); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// hand.swf spans less than a day: the window is the reference's whole trace.
	if html := string(data); !strings.Contains(html, "the whole trace of b") || strings.Count(html, "the whole trace") != 2 {
		t.Errorf("Gantt titles: %d times 'the whole trace', 'of b' %v", strings.Count(html, "the whole trace"), strings.Contains(html, "the whole trace of b"))
	}
}

// The report warns about killed jobs over --kill-warn only, as stderr and the
// tables do; below it the share is a plain fact.
func TestKilledShareWarnsOverKillWarn(t *testing.T) {
	chdirRoot(t)
	path := filepath.Join(t.TempDir(), "report.html")
	if _, errOut, code := run(t, "", "--html", path, "--kill-warn", "0.5", hand); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(path)
	if html := string(data); strings.Contains(html, "were killed at their requested time") || !strings.Contains(html, "killed at the requested time") {
		t.Error("20% killed under --kill-warn 0.5: want a fact, not a warning")
	}
}

// Every row of the Inputs table has the header's cells: an input with no
// killed job, or with its killed share among the warnings (over --kill-warn),
// still fills the killed column, so that the warnings stay under their head.
func TestHTMLInputsColumnsAlign(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.swf") // no job killed
	if err := os.WriteFile(clean, []byte("; MaxProcs: 8\n"+
		"1 0 1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--kill-warn", "0.5", hand, clean}, // a fact, then no kill
		{clean, hand},                       // no kill, then a warning
	} {
		path := filepath.Join(dir, "report.html")
		if _, errOut, code := run(t, "", append([]string{"--html", path}, args...)...); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errOut)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		table := regexp.MustCompile(`(?s)<table class="inputs">(.*?)</table>`).FindStringSubmatch(string(data))
		if table == nil {
			t.Fatalf("%q: no Inputs table", args)
		}
		head := strings.Count(regexp.MustCompile(`(?s)<thead>.*</thead>`).FindString(table[1]), "<th>")
		for _, row := range regexp.MustCompile(`(?s)<tbody>.*</tbody>`).FindAllString(table[1], -1) {
			for _, tr := range strings.Split(row, "</tr>") {
				if cells := strings.Count(tr, "<td"); cells > 0 && cells != head {
					t.Errorf("%q: a row of %d cells under %d heads: %s", args, cells, head, tr)
				}
			}
		}
	}
}

// The exclusions are left out, in the table and in the HTML report, when no
// input leaves a job out of any metric (they were a placeholder row "- 0
// none -" and an empty table), and kept when one input of several does.
func TestExclusionsOnlyWhenSome(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.swf") // every job with runtime, request and processors
	if err := os.WriteFile(clean, []byte("; MaxProcs: 8\n"+
		"1 0 1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"+
		"2 5 1 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		inputs []string
		want   bool
	}{
		{"nothing excluded", []string{clean}, false},
		{"one of two excludes", []string{clean, hand}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			html := filepath.Join(dir, "report.html")
			out, errOut, code := run(t, "", append([]string{"--html", html, "--label", strings.Join([]string{"c", "h"}[:len(tc.inputs)], ",")}, tc.inputs...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got := strings.Contains(out, "\nexcluded ("); got != tc.want {
				t.Errorf("table has the excluded section: %v, want %v:\n%s", got, tc.want, out)
			}
			if regexp.MustCompile(`\n-\s+0\s+none\s+-\n`).MatchString(out) {
				t.Errorf("table has a placeholder row:\n%s", out)
			}
			if tc.want && !strings.Contains(out, "\nh      1     runtime 0") {
				t.Errorf("table lacks hand's exclusions:\n%s", out)
			}
			page, err := os.ReadFile(html)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(page), `<section id="exclusions">`); got != tc.want {
				t.Errorf("report has the exclusions section: %v, want %v", got, tc.want)
			}
			if tc.want && !strings.Contains(string(page), `<td class="label">h</td><td class="num">1</td><td>runtime 0</td>`) {
				t.Error("report lacks hand's exclusions")
			}
		})
	}
}

// An input with a header and no job line is warned about in the HTML report,
// in its own row's warnings, as on stderr; the other input's row has none of it.
func TestHTMLHeaderOnlyWarning(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.swf")
	if err := os.WriteFile(empty, []byte("; MaxProcs: 8\n; Note: every job dropped\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	html := filepath.Join(dir, "report.html")
	_, errOut, code := run(t, "", "--html", html, "--label", "e,h", empty, hand)
	const warning = "no job lines (header only): 2 comment or blank lines and no job"
	if code != 0 || !strings.Contains(errOut, "swfstat: warning: "+empty+": "+warning) {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	data, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	rowE := regexp.MustCompile(`(?s)<tr><td class="label">e</td>.*?</tr>`).FindString(page)
	rowH := regexp.MustCompile(`(?s)<tr><td class="label">h</td>.*?</tr>`).FindString(page)
	if !strings.Contains(rowE, `<td class="warn">`) || !strings.Contains(rowE, `<div class="warning">`+warning) {
		t.Errorf("input e's row lacks the header-only warning:\n%s", rowE)
	}
	if rowH == "" || strings.Contains(rowH, "header only") {
		t.Errorf("input h's row has the header-only warning, or is missing:\n%s", rowH)
	}
}

// TestHTMLManyInputs: over more than maxTableInputs inputs the report is a
// study's: titled by the count, without a Gantt chart per input, and, when
// a sweep figure stands for the runs, with its table first and without the
// figures of a curve per input.
func TestHTMLManyInputs(t *testing.T) {
	chdirRoot(t)
	inputs := make([]string, maxTableInputs+1)
	for i := range inputs {
		inputs[i] = hand
	}
	path := filepath.Join(t.TempDir(), "r.html")
	for _, c := range []struct {
		args         []string
		want, absent []string
	}{
		{[]string{"--sweep-x", "offered_load"},
			[]string{"<title>swfstat: 9 inputs", `id="fig-sweep"`, `id="table-sweep"`, "9 inputs: no figure of a curve or bar per input"},
			[]string{`id="fig-wait-cdf"`, `id="fig-gantt-1"`}},
		{nil,
			[]string{"<title>swfstat: 9 inputs", `id="fig-wait-cdf"`, "9 inputs: no Gantt chart per input"},
			[]string{`id="fig-sweep"`, `id="fig-gantt-1"`}},
		// A sweep with nothing to draw (every job skipped) stands for
		// nothing: the figures per input stay, and the Note does not
		// say the sweep summarizes the runs.
		{[]string{"--sweep-x", "offered_load", "--skip-first", "100%"},
			[]string{`id="fig-sweep"`, `id="fig-wait-cdf"`, "9 inputs: no Gantt chart per input (swfstat --plot FILE --plot-kind gantt INPUT draws one)<"},
			[]string{"summarize the runs", `id="fig-gantt-1"`}},
	} {
		_, errOut, code := run(t, "", append(append([]string{"--html", path}, c.args...), inputs...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errOut)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !bytes.Contains(data, []byte(w)) {
				t.Errorf("%v: the report lacks %q", c.args, w)
			}
		}
		for _, w := range c.absent {
			if bytes.Contains(data, []byte(w)) {
				t.Errorf("%v: the report has %q", c.args, w)
			}
		}
	}
}

// TestCategoryWarningOnce: the same category warning over many inputs is
// one stderr line with the count.
func TestCategoryWarningOnce(t *testing.T) {
	wide := filepath.Join(t.TempDir(), "wide.swf")
	if err := os.WriteFile(wide, []byte("; MaxProcs: 64\n1 0 0 100 32 -1 -1 32 100 -1 1 1 1 -1 1 -1 -1 -1\n2 5 0 100 32 -1 -1 32 100 -1 1 1 1 -1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := run(t, "", "--by", "category", "--label", "a,b,c,d", wide, wide, wide, wide)
	if code != 0 || strings.Count(errOut, "every job is wide") != 1 || !strings.Contains(errOut, "swfstat: warning: 4 inputs ("+wide+" and 3 more): every job is wide") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestNoMachineLeavesOthersDrawn: one input without a machine size leaves
// the utilization figure to the others, its legend naming it (both --plot
// and --html failed or left the figure out for every input), and the
// report's warning names what is left out, not the queue figure, which is
// drawn.
func TestNoMachineLeavesOthersDrawn(t *testing.T) {
	chdirRoot(t)
	dir := t.TempDir()
	nomax := filepath.Join(dir, "nomax.swf")
	if err := os.WriteFile(nomax, []byte("1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	svg, html := filepath.Join(dir, "util.svg"), filepath.Join(dir, "report.html")
	_, errOut, code := run(t, "", "--plot", svg, "--plot-kind", "utilization", "--html", html, "--label", "h,n", hand, nomax)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	fig, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fig), "h (") || !strings.Contains(string(fig), "n (machine size unknown: not drawn)") {
		t.Error("the utilization figure does not draw h and name n as not drawn")
	}
	data, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	i := strings.Index(page, `<figure id="fig-utilization">`)
	if i < 0 || !strings.Contains(page[i:i+strings.Index(page[i:], "</figure>")], "<svg") {
		t.Error("the report's utilization figure is not drawn")
	}
	const warning = "machine size unknown (give --procs): no machine_procs, utilization_pct or offered_load, no curve in the utilization figure, no machine line in the Gantt chart"
	rowN := regexp.MustCompile(`(?s)<tr><td class="label">n</td>.*?</tr>`).FindString(page)
	if !strings.Contains(rowN, warning) {
		t.Errorf("input n's row lacks %q:\n%s", warning, rowN)
	}
	// With no input that has a machine size, --plot fails naming them.
	_, errOut, code = run(t, "", "--plot", svg, "--plot-kind", "utilization", nomax)
	if code != 1 || !strings.Contains(errOut, "machine size unknown") {
		t.Errorf("no machine size: exit %d, %s", code, errOut)
	}
}

// TestPlotErrorsNameFiles: a figure with nothing to draw names its file and
// its inputs (and a Gantt chart its window); the message named neither.
func TestPlotErrorsNameFiles(t *testing.T) {
	dir := t.TempDir()
	empty, zero := filepath.Join(dir, "empty.swf"), filepath.Join(dir, "zero.swf")
	if err := os.WriteFile(empty, []byte("; MaxProcs: 8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(zero, []byte("; MaxProcs: 8\n1 0 5 0 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n2 3 5 0 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	svg := filepath.Join(dir, "x.svg")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{empty}, "swfstat: " + svg + ": no input has data for this figure (wait-cdf of " + empty + ")\n"},
		{[]string{"--plot-kind", "gantt", zero}, "swfstat: " + svg + ": " + zero + ": no job of zero.swf runs in the window, 0 to 8 s (a job of runtime 0 holds no processor)\n"},
		{[]string{"--plot-kind", "gantt", empty}, "swfstat: " + svg + ": " + empty + ": no job to draw (none has a known submit time, wait, runtime and processor count)\n"},
		{[]string{"--plot-kind", "gantt", "--label", "zero", zero}, "swfstat: " + svg + ": " + zero + ": no job of zero runs in the window, 0 to 8 s (a job of runtime 0 holds no processor)\n"},
	} {
		_, errOut, code := run(t, "", append([]string{"--plot", svg}, c.args...)...)
		if code != 1 || !strings.HasSuffix(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant it to end %q", c.args, code, errOut, c.want)
		}
	}
}
