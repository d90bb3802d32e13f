package clean

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	_ "time/tzdata" // the zone database, so date tests do not depend on the system's

	"github.com/swfkit/swfkit/pkg/swf"
)

// job builds a record from its 18 fields, as a Reader would.
func job(t testing.TB, line string) swf.Job {
	t.Helper()
	r := swf.NewReader(strings.NewReader(line + "\n"))
	j, err := r.Read()
	if err != nil {
		t.Fatalf("job(%q): %v", line, err)
	}
	return j
}

func TestFilterMatch(t *testing.T) {
	//                 job sub wait run procs cpu mem rproc rtime rmem st user grp app q part prev think
	j := job(t, "20000 1000 50 3600 32 3000.5 -1 64 7200 -1 1 374 7 12 2 1 19999 30")
	tests := []struct {
		expr string
		want bool
	}{
		{"user=374 and job>14968 and job<28553", true},
		{"user=374 and job>14968 and job<20000", false},
		{"user=4 and (job>=3874 and job<=5925)", false},
		{"user=3 or user=374", true},
		{"user=3 or user=4", false},
		{"user=3 and proc=1 and app=1", false},
		{"procs==32 && req_procs!=32", true},
		{"procs<>32", false},
		{"not user=374", false},
		{"!(user=374)", false},
		{"cpu>3000 and cpu<3001", true},
		{"wait=50 and run=3600 and mem=-1 and req_time=7200 and req=7200 and estimate=7200", true},
		{"req_mem=-1 and status=1 and group=7 and exe=12 and queue=2 and partition=1", true},
		{"prev=19999 and think=30 and submit=1000", true},
		{"start=1050 and end=4650", true},
		{"USER=374 AND JOB>=20000 Or user=1", true},
		{"user=1 or user=374 and job=1", false}, // and binds tighter than or
		{"(user=1 or user=374) and job=20000", true},
		{"job>-5", true},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			f, err := ParseFilter(tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Match(&j); got != tt.want {
				t.Errorf("Match = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFilterUnknownStartEnd(t *testing.T) {
	j := job(t, "1 1000 -1 3600 32 -1 -1 64 7200 -1 1 374 7 12 2 1 -1 -1")
	for _, expr := range []string{"start=-1", "end=-1"} {
		f, err := ParseFilter(expr)
		if err != nil {
			t.Fatal(err)
		}
		if !f.Match(&j) {
			t.Errorf("%s: want a match when the wait is unknown", expr)
		}
	}
}

func TestFilterErrors(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"", "empty expression"},
		{"user", "expected a comparison operator"},
		{"user=", "expected a number"},
		{"usr=3", `unknown field "usr"`},
		{"user=3 and", "unexpected end of expression"},
		{"(user=3", `expected ")"`},
		{"user=3)", `unexpected ")"`},
		{"user=3 job=4", `unexpected "job"`},
		{"user=3 # x", "unexpected character"},
		{"user=1.2.3", "is not a number"},
		{"and user=3", `unexpected "and"`},
		{"procs<req_procs", "expected a number"}, // fields compare with numbers only
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			_, err := ParseFilter(tt.expr)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseFilter(%q) error = %v, want it to contain %q", tt.expr, err, tt.want)
			}
		})
	}
}

func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"user=374 and job>14968 and job<28553", "user=4 and (job>=3874 and job<=5925)",
		"not (a=1 or b!=2)", "cpu>=1.5e3", "!(x<>1)&&y==2||z<3"} {
		f.Add(s)
	}
	j := job(f, "1 0 1 2 3 4 5 6 7 8 1 9 10 11 12 13 -1 -1")
	f.Fuzz(func(t *testing.T, src string) {
		flt, err := ParseFilter(src)
		if err != nil {
			return
		}
		flt.Match(&j) // must not panic
		if flt.String() != src {
			t.Fatalf("String() = %q, want %q", flt.String(), src)
		}
	})
}

func ExampleParseFilter() {
	f, err := ParseFilter("user=374 and job>14968 and job<28553")
	if err != nil {
		panic(err)
	}
	r := swf.NewReader(strings.NewReader(
		"20000 1000 50 3600 32 -1 -1 32 7200 -1 1 374 7 -1 -1 -1 -1 -1\n" +
			"20001 1010 50 3600 32 -1 -1 32 7200 -1 1 12 7 -1 -1 -1 -1 -1\n"))
	for {
		j, err := r.Read()
		if err != nil {
			break
		}
		fmt.Println(j.JobNumber, f.Match(&j))
	}
	// Output:
	// 20000 true
	// 20001 false
}

func TestFilterDates(t *testing.T) {
	// 1000000000 is 2001-09-09 01:46:40 UTC, 2001-09-09 03:46:40 in Stockholm (CEST).
	hdr := header(t, "; UnixStartTime: 1000000000", "; TimeZoneString: Europe/Stockholm")
	j := job(t, "1 3600 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1") // submitted 04:46:40 local
	tests := []struct {
		expr string
		want bool
	}{
		{"submit<=2001-09-09 04:46:40", true},
		{"submit<2001-09-09 04:46:40", false},
		{"submit>=2001-09-09 04:46", true},
		{"submit<2001-09-10 and end>2001-09-09 04:46:45", true},
		{"submit<2001-09-09", false},
		{"user=1 and (submit<=2001-09-09 04:00:00 or job=1)", true},
	}
	for _, tt := range tests {
		f, err := ParseFilter(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		if !f.HasDates() {
			t.Fatalf("%s: no dates found", tt.expr)
		}
		if err := f.Bind(hdr); err != nil {
			t.Fatal(err)
		}
		if got := f.Match(&j); got != tt.want {
			t.Errorf("%s: Match = %v, want %v", tt.expr, got, tt.want)
		}
	}
	// 2001-03-25 02:30 does not exist in Stockholm: the clocks went from 02:00 to 03:00.
	f, _ := ParseFilter("submit<2001-03-25 02:30")
	if err := f.Bind(hdr); err == nil || !strings.Contains(err.Error(), "the clocks skipped it") {
		t.Errorf("a time in the spring gap: %v", err)
	}
	f, _ = ParseFilter("submit<=2001-09-09")
	if err := f.Bind(header(t, "; MaxProcs: 4")); err == nil || !strings.Contains(err.Error(), "UnixStartTime") {
		t.Errorf("Bind without UnixStartTime: %v", err)
	}
	// The deprecated TimeZone label: seconds east of UTC.
	f, _ = ParseFilter("submit=2001-09-09 03:46:40")
	if err := f.Bind(header(t, "; UnixStartTime: 1000000000", "; TimeZone: 3600")); err != nil || !f.Match(&j) {
		t.Errorf("TimeZone 3600: err %v, match %v", err, f.Match(&j))
	}
	if _, err := ParseFilter("run<2001-09-09"); err == nil || !strings.Contains(err.Error(), "a date compares with submit") {
		t.Errorf("date with run: %v", err)
	}
	// A date that is no calendar date is the user's mistake whatever the
	// trace: ParseFilter rejects it, so the command reports a usage error.
	for _, expr := range []string{"submit<2001-19-09", "submit<2001-02-30", "end>2001-01-01 24:00", "start=2001-01-01 10:00:61"} {
		if _, err := ParseFilter(expr); err == nil || !strings.Contains(err.Error(), "is not a date of the form YYYY-MM-DD[ HH:MM[:SS]]") {
			t.Errorf("ParseFilter(%q) error = %v, want a bad date", expr, err)
		}
	}
}

// A UnixStartTime near int64's ends (a hostile header) used to make the date
// minus UnixStartTime wrap: with -9223372036854775808 a date of 2001 came out
// far in the past, and submit<=2001-01-01 matched nothing.
func TestFilterDatesExtremeUnixStartTime(t *testing.T) {
	j := job(t, "1 50 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1")
	for _, tt := range []struct {
		start         string
		before, after bool // submit<=2001-01-01, end>=2001-01-01
	}{
		{"-9223372036854775808", true, false},
		{"9223372036854775807", false, true},
	} {
		hdr := header(t, "; UnixStartTime: "+tt.start)
		for expr, want := range map[string]bool{"submit<=2001-01-01": tt.before, "end>=2001-01-01": tt.after} {
			f, err := ParseFilter(expr)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Bind(hdr); err != nil {
				t.Fatal(err)
			}
			if got := f.Match(&j); got != want {
				t.Errorf("UnixStartTime %s: %s matched %v, want %v", tt.start, expr, got, want)
			}
		}
	}
}

// Integer fields compare exactly with integer literals: beyond 2^53 float64
// would merge neighbours (job=9007199254740993 matched 9007199254740992).
func TestFilterComparesIntegersExactly(t *testing.T) {
	tests := []struct {
		expr string
		job  int64
		want bool
	}{
		{"job=9007199254740993", 9007199254740993, true},
		{"job=9007199254740993", 9007199254740992, false},
		{"job>9007199254740992", 9007199254740993, true},
		{"job<9223372036854775807", 9223372036854775806, true},
		{"job>=99999999999999999999", 9223372036854775807, false},
		{"job<99999999999999999999", 9223372036854775807, true},
		{"job>1.5", 2, true},
		{"end=9007199254740993", 9007199254740993, true},
		{"end=9007199254740993", 9007199254740992, false},
	}
	for _, tt := range tests {
		f, err := ParseFilter(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		j := swf.Job{JobNumber: tt.job, SubmitTime: tt.job - 10, WaitTime: 4, RunTime: 6}
		if got := f.Match(&j); got != tt.want {
			t.Errorf("%s on %d: %v, want %v", tt.expr, tt.job, got, tt.want)
		}
	}
}

// TestFilterNamesJobNumbers: a filter names job numbers when it compares
// job, or prev with a number above 0 (any case, anywhere in the
// expression), not other ids: a prev of 0 or below is no job's number,
// and rule renumber keeps it as read.
func TestFilterNamesJobNumbers(t *testing.T) {
	for src, want := range map[string]bool{
		"job<=14":                           true,
		"user=4 and (JOB>=3874 or queue=1)": true,
		"not prev=12":                       true,
		"prev=-1 or prev=12":                true,
		"job=-1":                            true, // an input's job -1 gets a number
		"prev=-1":                           false,
		"not PREV<=-1 and prev!=0":          false,
		"prev>-1 and think>=0":              false,
		"user=4 and submit<1000":            false,
		"app=7 or queue=2 or procs>=128":    false,
	} {
		if got := mustFilter(t, src).NamesJobNumbers(); got != want {
			t.Errorf("%q: NamesJobNumbers %v, want %v", src, got, want)
		}
	}
}

// TestFilterDateInLocalZone: a header whose TimeZoneString is "Local" names no
// zone (its dates would mean other times on other machines): a date filter
// says so instead of reading the dates in this machine's zone.
func TestFilterDateInLocalZone(t *testing.T) {
	hdr := header(t, "; UnixStartTime: 1000000000", "; TimeZoneString: Local")
	f, err := ParseFilter("submit<2001-09-10")
	if err != nil {
		t.Fatal(err)
	}
	err = f.Bind(hdr)
	if err == nil || !strings.Contains(err.Error(), `TimeZoneString "Local" is the zone of whichever machine reads the log`) {
		t.Fatalf("got %v", err)
	}
}

// TestFilterDateMalformedTimeZone: without TimeZoneString a date is read in
// the TimeZone offset; one that is no offset is an error, not UTC (which
// would select other jobs without a word).
func TestFilterDateMalformedTimeZone(t *testing.T) {
	for value, want := range map[string]string{
		"abc":   `header label TimeZone: expected an integer, got "abc"`,
		"99999": "within a day (±86400), got 99999",
	} {
		f, err := ParseFilter("submit<2001-09-09 02:00")
		if err != nil {
			t.Fatal(err)
		}
		err = f.Bind(header(t, "; UnixStartTime: 1000000000", "; TimeZone: "+value))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("TimeZone %s: got %v, want an error with %q", value, err, want)
		}
	}
	// 3600: the date is 01:00 UTC, 3600 s before UnixStartTime's 01:46:40.
	f, _ := ParseFilter("submit<2001-09-09 02:00")
	if err := f.Bind(header(t, "; UnixStartTime: 1000000000", "; TimeZone: 3600")); err != nil {
		t.Fatal(err)
	}
	if j := job(t, "1 -3000 1 1 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1"); !f.Match(&j) {
		t.Error("submit -3000 (00:56:40 UTC) should be before 02:00 at UTC+1")
	}
	if j := job(t, "1 -2000 1 1 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1"); f.Match(&j) {
		t.Error("submit -2000 (01:13:20 UTC) should not be before 02:00 at UTC+1")
	}
}

// TestFilterWarnsOfUnknowns: a filter comparing a field that is unknown (-1)
// compares -1, as documented; the run counts those records per name (once a
// record, however often the name appears), in the step's detail, its Note
// and a warning, and warns when a filter removed every record it saw.
func TestFilterWarnsOfUnknowns(t *testing.T) {
	hdr, jobs := readAll(t, "; UnixStartTime: 0\n"+
		"1 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"2 5 -1 10 1 -1 -1 1 -1 -1 1 2 1 -1 1 -1 -1 -1\n")
	f, err := ParseFilter("start<=1970-01-02 or (start>5 and wait>0)")
	if err != nil {
		t.Fatal(err)
	}
	keep, err := ParseFilter("user=1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Drop: []*Filter{f}, Keep: []*Filter{keep}}
	// The first pass of a two-pass run counts nothing.
	c, err := New(hdr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		c.Filter(&jobs[i])
	}
	if r := c.Report(0); len(r.Warnings) != 0 || r.Steps[0].Detail != "" {
		t.Fatalf("first pass counted: %+v", r)
	}
	c, _, notes := annotated(t, hdr, jobs, cfg, "filter ")
	want := []string{"filter start<=1970-01-02 or (start>5 and wait>0): 2 jobs removed; 2 records compared with start unknown (-1)"}
	if !reflect.DeepEqual(notes, want) {
		t.Errorf("notes %q\nwant  %q", notes, want)
	}
	wantWarn := []string{
		"filter start<=1970-01-02 or (start>5 and wait>0): 2 records compared with start unknown (-1), which compares as -1",
		"filter start<=1970-01-02 or (start>5 and wait>0) removed every record it saw (2)",
	}
	if got := c.Report(0).Warnings; !reflect.DeepEqual(got, wantWarn) {
		t.Errorf("warnings %q\nwant     %q", got, wantWarn)
	}
	// keep user=1 saw no record: no warning for it.
	if d := c.Report(0).Steps[1]; d.Detail != "" || d.Dropped != 0 {
		t.Errorf("keep step %+v", d)
	}
}
