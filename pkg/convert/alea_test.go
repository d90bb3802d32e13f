package convert

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/clean"
	"github.com/swfkit/swfkit/pkg/swf"
)

func alea(t *testing.T, text string, cfg Config) (*Result, error) {
	t.Helper()
	if cfg.Name == "" {
		cfg.Name = "log.alea"
	}
	return ReadAlea(strings.NewReader(text), cfg)
}

func TestAleaFields(t *testing.T) {
	// Job ids from 0, Unix submit times, memory in bytes (4 GiB on 4 processors),
	// 7 in field 14 on every line (kept: three lines are too few to call it a
	// placeholder), one broken run time.
	text := "" +
		"0 1000 5 100 4 1 1024 4 3600 4294967296 1 62 1 7 -1 1 1 1 {11,11,12,12} q_1d 2:ppn=2\n" +
		"1 900 0 50 1 1 1024 1 600 1073741824 1 63 2 7 -1 1 1 1 {13} q_2h 1:ppn=1:brno\n" +
		"\n" +
		"2 1000 1 -1000 1 1 1024 1 0 1073741824 0 62 2 7 -1 1 1 1 {13} q_1d 1:ppn=1\n"
	res, err := alea(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		// Field 17 is job 1 on every line, job 1's own included: a
		// placeholder (a job cannot precede itself), -1 with field 18.
		"1 0 0 50 1 1 1024 1 600 1048576 1 63 2 7 1 1 -1 -1 jobid=1 nodes=13 props=1:ppn=1:brno",
		"2 100 5 100 4 1 1024 4 3600 1048576 1 62 1 7 2 1 -1 -1 jobid=0 nodes=11*2,12*2 props=2:ppn=2",
		"3 100 1 -1000 1 1 1024 1 0 1048576 0 62 2 7 2 1 -1 -1 jobid=2 nodes=13 props=1:ppn=1",
	}
	for i, w := range want {
		if got := string(res.Jobs[i].AppendCanonical(nil)); got != w {
			t.Errorf("job %d:\n got %s\nwant %s", i+1, got, w)
		}
	}
	a := res.Accounting
	if a.Lines != 4 || a.BlankLines != 1 || a.JobLines != 3 || a.Jobs != 3 || !a.Balanced() {
		t.Errorf("accounting %+v", a)
	}
	notes := strings.Join(res.Header.GetAll("Note"), "\n")
	for _, s := range []string{"in bytes", "6 (Average CPU Time Used) was 1", "14 (Executable Number) was 7",
		"17 (Preceding Job Number) was 1 on every line, job 1's own line included (a job cannot precede itself)"} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes lack %q:\n%s", s, notes)
		}
	}
	if strings.Contains(notes, "(User ID)") || strings.Contains(notes, "(Status)") || strings.Contains(notes, "placeholders, written -1") {
		t.Errorf("a field was called a placeholder in three lines:\n%s", notes)
	}
	if q := res.Header.Queues(); len(q) != 2 || q[0].Name != "q_2h" || q[1].Name != "q_1d" {
		t.Errorf("queues %+v", q)
	}
	if v, _ := res.Header.Get("UnixStartTime"); v != "900" {
		t.Errorf("UnixStartTime %s", v)
	}
	// The node lists name nodes 11, 12 and 13: MaxNodes is 3, more than the
	// largest job's two, a lower bound with a warning, as for MaxProcs.
	if v, _ := res.Header.Get("MaxNodes"); v != "3" || len(res.Warnings) != 2 ||
		!strings.Contains(res.Warnings[0], "MaxNodes 3 is the number of nodes the node lists name (the largest job's: 2)") {
		t.Errorf("MaxNodes %q, warnings %q; want 3 and a warning for MaxNodes and MaxProcs", v, res.Warnings)
	}
}

func TestAleaMemoryInKB(t *testing.T) {
	// 2 GiB per job in KB: plausible, kept as KB.
	text := "0 1000 5 100 2 1 1024 2 3600 2097152 1 62 1 1 -1 1 1 1 {1,1} q 1:ppn=2\n" +
		"1 1001 5 100 1 1 1024 1 3600 1048576 1 63 1 1 -1 1 1 1 {2} q 1:ppn=1\n"
	res, err := alea(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs[0].RequestedMemory != 1048576 || res.Jobs[1].RequestedMemory != 1048576 {
		t.Errorf("requested memory %d, %d, want 1048576 KB per processor", res.Jobs[0].RequestedMemory, res.Jobs[1].RequestedMemory)
	}
	if notes := strings.Join(res.Header.GetAll("Note"), "\n"); !strings.Contains(notes, "total in KB") {
		t.Errorf("notes lack the unit:\n%s", notes)
	}
}

func TestAleaErrors(t *testing.T) {
	const good = "0 1000 5 100 4 1 1024 4 3600 4294967296 1 62 1 7 -1 1 1 1 {11} q_1d 2:ppn=2\n"
	tests := []struct{ name, text, message string }{
		{"SWF", "1 0 0 100 4 -1 -1 4 3600 -1 1 62 1 7 -1 1 -1 -1\n", "log.alea:1: 18 columns, expected 21"},
		{"not a number", strings.Replace(good, " 100 ", " ten ", 1), `log.alea:1: column 4 (run time): expected a whole number, got "ten"`},
		{"fraction", strings.Replace(good, " 100 ", " 1.5 ", 1), `column 4 (run time): expected a whole number, got "1.5"`},
		{"node list", strings.Replace(good, "{11}", "[11]", 1), `column 19 (node list): expected {node,node,...}, got "[11]"`},
		{"node name", strings.Replace(good, "{11}", "{a,b}", 1), `column 19 (node list): expected node numbers`},
		{"truncated", good + "1 1000 5", "log.alea:2: 3 columns, expected 21 (18 SWF fields, {node list}, queue name, properties) (the last line, without a newline"},
		// 21 columns, but no newline: cut, maybe inside the properties
		// (it converted, props=2:ppn=2 taken for whole).
		{"no final newline", strings.TrimSuffix(good, "\n"), "log.alea:1: the last line has no newline: the file was cut short"},
		{"cut in the properties", good + strings.TrimSuffix(strings.Replace(good, "0 ", "1 ", 1), "pn=2\n"),
			"log.alea:2: the last line has no newline"},
		{"empty", "", "no job could be converted"},
		{"job twice", good + good, "log.alea:2: column 1 (job id): job 0 is also on line 1"},
		// One notion of identity: the numeric value, as field 17 (preceding
		// job) finds a job by it.
		{"job twice, written two ways", strings.Replace(good, "0 ", "5 ", 1) + strings.Replace(good, "0 ", "05 ", 1),
			"log.alea:2: column 1 (job id): job 05 is also on line 1 (as 5)"},
		{"job twice, as a float", strings.Replace(good, "0 ", "7 ", 1) + strings.Replace(good, "0 ", "7.0 ", 1),
			"log.alea:2: column 1 (job id): job 7.0 is also on line 1 (as 7)"},
		// Read through float64, 2^53 + 1 would be 2^53: another user, or
		// another job taken for this one.
		{"user past 2^53", strings.Replace(good, " 62 ", " 9007199254740993 ", 1), `column 12 (user): "9007199254740993" is beyond 2^53 - 1`},
		{"user at 2^53", strings.Replace(good, " 62 ", " 9007199254740992 ", 1), `column 12 (user): "9007199254740992" is beyond 2^53 - 1`},
		{"job id past 2^53", strings.Replace(good, "0 ", "9007199254740993 ", 1), `column 1 (job id): "9007199254740993" is beyond 2^53 - 1`},
		{"memory past 2^53", strings.Replace(good, " 1024 ", " 9007199254740993 ", 1), `"9007199254740993" is beyond 2^53 - 1 KB`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := alea(t, tt.text, Config{})
			var pe *swf.ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.message) {
				t.Errorf("error %v, want a ParseError with %q", err, tt.message)
			}
		})
	}
	second := strings.Replace(good, "0 ", "1 ", 1) // job 1, else as job 0
	res, err := alea(t, good+"x\n"+second, Config{Lenient: true})
	if err != nil || res.Accounting.Malformed != 1 || res.Accounting.Jobs != 2 || !res.Accounting.Balanced() {
		t.Errorf("lenient: %v %+v", err, res)
	}
}

func TestRunLength(t *testing.T) {
	for in, want := range map[string]string{"": "", "5": "5", "1,1,1,2": "1*3,2", "3,1,3,3": "3,1,3*2"} {
		if got, ok := runLength(in); !ok || got != want {
			t.Errorf("runLength(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := runLength("1,,2"); ok {
		t.Error("runLength accepted an empty node")
	}
}

// TestAleaMetaCentrum converts the log MetaCentrum publishes: every line becomes
// a job, and the result reads back as SWF whose header agrees with its records.
func TestAleaMetaCentrum(t *testing.T) {
	path := testutil.NotSWF(t)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ReadAlea(z, Config{Name: path})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Accounting
	if a.Lines != 17900 || a.Jobs != 17900 || !a.Balanced() {
		t.Errorf("accounting %s", a.String())
	}
	var buf bytes.Buffer
	w := swf.NewWriter(&buf)
	w.WriteHeader(res.Header)
	for i := range res.Jobs {
		w.Write(&res.Jobs[i])
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	r := swf.NewReader(&buf)
	hdr, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	checker := clean.NewChecker(hdr)
	n := 0
	for {
		job, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("converted record does not read back: %v", err)
		}
		checker.Check(&job)
		n++
	}
	if n != 17900 {
		t.Errorf("%d records read back", n)
	}
	for _, fired := range checker.Result().Fired {
		if strings.HasPrefix(fired.Name, "header_") {
			t.Errorf("header check %s fired %d times", fired.Name, fired.Count)
		}
	}
	if q := hdr.Queues(); len(q) != 11 {
		t.Errorf("%d queues, want MetaCentrum's 11", len(q))
	}
}

// FuzzReadAlea: any input either fails with a ParseError or converts with every
// line accounted for.
func FuzzReadAlea(f *testing.F) {
	f.Add("0 1000 5 100 4 1 1024 4 3600 4294967296 1 62 1 7 -1 1 1 1 {11,11,12,12} q_1d 2:ppn=2\n")
	f.Add("0 1000 5 100 4 1 1024 4 3600 4294967296 1 62 1 7 -1 1 1 1 {} q 1\n1 1000 -1 -1 0 1 1024 0 0 0 1 62 1 7 -1 1 1 1 {1} q 1\n")
	f.Add("0 99999999999 5 1e300 99999999999 1e300 1e300 -99999999999 1e19 1e300 1 1e300 1 1 -1 1 1 -1e300 {1} q 1\n")
	f.Fuzz(func(t *testing.T, text string) {
		res, err := ReadAlea(strings.NewReader(text), Config{Name: "f", Lenient: true})
		if err != nil {
			var pe *swf.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		if !res.Accounting.Balanced() || res.Accounting.Jobs != len(res.Jobs) {
			t.Fatalf("accounting %+v for %d jobs", res.Accounting, len(res.Jobs))
		}
		readsBack(t, res)
	})
}

// TestAleaNodeListLength: a node list with another number of entries than the
// job's processors contradicts field 5; both are kept, and a Note and a
// warning say how many jobs and which first.
func TestAleaNodeListLength(t *testing.T) {
	text := "0 1000 5 100 4 1 1024 4 3600 4096 1 62 1 7 -1 1 -1 -1 {11,11,12,12} q 2:ppn=2\n" +
		"1 1001 5 100 4 1 1024 4 3600 4096 1 62 1 7 -1 1 -1 -1 {13,13} q 2:ppn=2\n" +
		"2 1002 5 100 1 1 1024 1 3600 4096 1 62 1 7 -1 1 -1 -1 {14,14,14} q 1:ppn=1\n" +
		// An empty list: of a job that ran on 2 processors it contradicts
		// field 5; of one that never started (wait -1) it says nothing.
		"3 1003 5 100 2 1 1024 2 3600 4096 1 62 1 7 -1 1 -1 -1 {} q 1:ppn=2\n" +
		"4 1004 -1 -1 2 1 1024 2 3600 4096 5 62 1 7 -1 1 -1 -1 {} q 1:ppn=2\n"
	res, err := alea(t, text, Config{Procs: 16, Nodes: 4})
	if err != nil {
		t.Fatal(err)
	}
	const want = "3 jobs have a node list whose length is not their number of processors (field 5), first line 2, jobid=1: 2 entries for 4 processors"
	if notes := strings.Join(res.Header.GetAll("Note"), "\n"); !strings.Contains(notes, want) {
		t.Errorf("notes lack %q:\n%s", want, notes)
	}
	if w := strings.Join(res.Warnings, "\n"); !strings.Contains(w, want) {
		t.Errorf("warnings lack %q:\n%s", want, w)
	}
	if res.Jobs[1].AllocatedProcs != 4 || res.Jobs[2].AllocatedProcs != 1 {
		t.Errorf("processors changed: %d, %d", res.Jobs[1].AllocatedProcs, res.Jobs[2].AllocatedProcs)
	}
	good, err := alea(t, text[:strings.Index(text, "\n")+1], Config{Procs: 16, Nodes: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(good.Warnings) != 0 {
		t.Errorf("warnings for a consistent node list: %q", good.Warnings)
	}
}

// aleaSerialJobs is n one-processor jobs, one a minute, alike but for the submit
// time: every field but 1 and 2 holds one value on every line.
func aleaSerialJobs(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%d %d 0 600 1 1 1024 1 3600 1073741824 1 62 1 7 -1 1 1 1 {5} q_1d 1:ppn=1\n", i, 1000+60*i)
	}
	return b.String()
}

// TestAleaPlaceholders: only the fields Alea's format does not use (6, 7, 14,
// 16, 17, 18) can be placeholders, and only in a file of at least
// AleaPlaceholderMinJobs job lines; processors, times, limits, memory, status,
// user and group are always kept.
func TestAleaPlaceholders(t *testing.T) {
	tests := []struct {
		name        string
		text        string
		want        string // the first job
		placeholder bool
	}{
		{"two lines", "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n" +
			"2 1356998549 0 54578 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1240,1240} q_1d 1:ppn=64\n",
			// Field 17 is job 1 on both lines, which is not in the log: -1,
			// with field 18.
			"1 0 0 56011 64 1 1024 64 86400 1048576 1 62 1 1 1 1 -1 -1 jobid=0 nodes=1241*2 props=1:ppn=64", false},
		{"50 serial jobs", aleaSerialJobs(50),
			// Job 1 on every line, its own included: a placeholder, -1.
			"1 0 0 600 1 1 1024 1 3600 1048576 1 62 1 7 1 1 -1 -1 jobid=0 nodes=5 props=1:ppn=1", false},
		{"100 serial jobs", aleaSerialJobs(AleaPlaceholderMinJobs),
			"1 0 0 600 1 -1 -1 1 3600 1048576 1 62 1 -1 1 -1 -1 -1 jobid=0 nodes=5 props=1:ppn=1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := alea(t, tt.text, Config{})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.Jobs[0].AppendCanonical(nil)); got != tt.want {
				t.Errorf("first job\n got %s\nwant %s", got, tt.want)
			}
			notes := strings.Join(res.Header.GetAll("Note"), "\n")
			if got := strings.Contains(notes, "are placeholders, written -1"); got != tt.placeholder {
				t.Errorf("placeholder note %v, want %v:\n%s", got, tt.placeholder, notes)
			}
			if !tt.placeholder && !strings.Contains(notes, "kept as values") {
				t.Errorf("notes do not say why constant fields were kept:\n%s", notes)
			}
			// Fields 17 and 18 end -1 in every case here: no Note may say
			// they were kept.
			for _, n := range res.Header.GetAll("Note") {
				if strings.Contains(n, "kept as values") && strings.Contains(n, "(Preceding Job Number)") {
					t.Errorf("a Note says field 17 was kept:\n%s", n)
				}
			}
			for _, never := range []string{"(Number of Allocated Processors)", "(Requested Time)", "(User ID)", "(Group ID)", "(Status)", "(Requested Memory)"} {
				if strings.Contains(notes, never) {
					t.Errorf("notes call %s a placeholder:\n%s", never, notes)
				}
			}
		})
	}
}

// readsBack fails unless the converted log reads back as SWF without an error:
// every error must be found by the conversion, at the log's own line.
func readsBack(t *testing.T, res *Result) {
	t.Helper()
	var buf bytes.Buffer
	w := swf.NewWriter(&buf)
	w.WriteHeader(res.Header)
	for i := range res.Jobs {
		w.Write(&res.Jobs[i])
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	r := swf.NewReader(&buf)
	for {
		if _, err := r.Read(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the converted log does not read back: %v", err)
		}
	}
}

// TestAleaPrecedingJob: field 17 names a job by the log's id; jobs are
// renumbered in submit order, so the reference follows its job to the new
// number, and one to a job not written before (later, not in the log) becomes
// -1 with its think time, as swfclean's renumber rule does.
// TestAleaJobIdentity: a job id is its numeric value both for the duplicate
// check and for field 17, so "05" written once is found by a preceding job 5.
func TestAleaJobIdentity(t *testing.T) {
	text := "05 1000 0 100 1 1 1024 1 200 1024 1 1 1 1 -1 1 -1 -1 {5} q 1:ppn=1\n" +
		"6 1050 5 100 1 1 1024 1 200 1024 1 1 1 1 -1 1 5 20 {5} q 1:ppn=1\n"
	res, err := alea(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if j := res.Jobs[1]; j.PrecedingJob != 1 || j.ThinkTime != 20 || res.Jobs[0].Extra[0] != "jobid=05" {
		t.Errorf("job 6 after job 05: fields 17, 18 = %d %d (want 1 20), first job's %s", j.PrecedingJob, j.ThinkTime, res.Jobs[0].Extra[0])
	}
	// The same job written 5 and 05 is one job listed twice, not two jobs
	// of which field 17 could name either.
	_, err = alea(t, text+strings.Replace(text[:strings.Index(text, "\n")+1], "05 ", "5 ", 1), Config{})
	if err == nil || !strings.Contains(err.Error(), "log.alea:3: column 1 (job id): job 5 is also on line 1 (as 05)") {
		t.Errorf("5 after 05: error %v, want the duplicate named", err)
	}
}

func TestAleaPrecedingJob(t *testing.T) {
	text := "0 1000 0 100 1 1 1024 1 200 1024 1 1 1 1 -1 1 -1 -1 {5} q 1:ppn=1\n" +
		"1 1050 5 100 1 1 1024 1 200 1024 1 1 1 1 -1 1 0 20 {5} q 1:ppn=1\n" +
		"7 1010 5 100 2 1 2048 2 200 1024 1 2 1 1 -1 1 1 30 {5,6} q 1:ppn=2\n" +
		"8 1060 5 100 2 1 2048 2 200 1024 1 2 1 1 -1 1 7 40 {5,6} q 1:ppn=2\n" +
		"9 1070 5 100 2 1 2048 2 200 1024 1 2 1 1 -1 1 -7 50 {5,6} q 1:ppn=2\n"
	res, err := alea(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	// New numbers: id 0 -> 1, 7 -> 2, 1 -> 3, 8 -> 4, 9 -> 5.
	want := [][2]int64{{-1, -1}, {-1, -1}, {1, 20}, {2, 40}, {-7, 50}}
	for i, w := range want {
		j := res.Jobs[i]
		if j.PrecedingJob != w[0] || j.ThinkTime != w[1] {
			t.Errorf("job %d (%s): fields 17, 18 = %d %d, want %d %d", j.JobNumber, j.Extra[0], j.PrecedingJob, j.ThinkTime, w[0], w[1])
		}
	}
	const note = "field 17 (preceding job): rewritten to the new job numbers (2 jobs); 1 jobs whose preceding job is not written before them"
	if notes := strings.Join(res.Header.GetAll("Note"), "\n"); !strings.Contains(notes, note) || !strings.Contains(notes, "first line 3, job 7: preceding job 1") {
		t.Errorf("notes lack %q:\n%s", note, notes)
	}
	if w := strings.Join(res.Warnings, "\n"); !strings.Contains(w, note) {
		t.Errorf("warnings lack %q:\n%s", note, w)
	}
}

// TestAleaRunTimeWithoutWait: fields 3 and 4 are independent; a known run
// time beside an unknown wait is kept (it was written -1, and the default
// rules then dropped the job as of unknown run time).
func TestAleaRunTimeWithoutWait(t *testing.T) {
	text := "0 1000 -1 500 2 -1 -1 2 3600 2048 1 1 1 -1 -1 -1 -1 -1 {1,1} q x\n" +
		"1 1100 5 200 2 -1 -1 2 3600 2048 1 1 1 -1 -1 -1 -1 -1 {1,1} q x\n" +
		"2 1200 -1 -1 2 -1 -1 2 3600 2048 1 1 1 -1 -1 -1 -1 -1 {1,1} q x\n"
	res, err := ReadAlea(strings.NewReader(text), Config{Name: "log.txt"})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][2]int64{{-1, 500}, {5, 200}, {-1, -1}} {
		if j := res.Jobs[i]; j.WaitTime != want[0] || j.RunTime != want[1] {
			t.Errorf("job %d: wait %d run %d, want %d and %d", i+1, j.WaitTime, j.RunTime, want[0], want[1])
		}
	}
}

// TestMachineLowerBoundPeak: without --procs, MaxProcs is at least the most
// processors the jobs held at once, not only the largest job's (a log of
// serial jobs converted to MaxProcs 1 made every tool downstream see a
// machine the log overfills); a job ending at t frees its processors at t.
func TestMachineLowerBoundPeak(t *testing.T) {
	text := "0 0 0 100 2 -1 -1 2 3600 -1 1 1 1 -1 -1 -1 -1 -1 {1,1} q x\n" +
		"1 0 10 100 3 -1 -1 3 3600 -1 1 1 1 -1 -1 -1 -1 -1 {2,2,2} q x\n" + // 10-110: 5 with job 0
		"2 0 100 50 4 -1 -1 4 3600 -1 1 1 1 -1 -1 -1 -1 -1 {3,3,3,3} q x\n" + // 100-150: 3+4 = 7, job 0 ended at 100
		"3 0 150 10 1 -1 -1 1 3600 -1 1 1 1 -1 -1 -1 -1 -1 {1} q x\n"
	res, err := ReadAlea(strings.NewReader(text), Config{Name: "log.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := res.Header.Get("MaxProcs"); v != "7" {
		t.Errorf("MaxProcs %s, want 7", v)
	}
	res, err = ReadAlea(strings.NewReader(text), Config{Name: "log.txt", Procs: 16})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := res.Header.Get("MaxProcs"); v != "16" {
		t.Errorf("MaxProcs %s with --procs 16, want 16", v)
	}
}
