package clean

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/swf"
)

// openTrace returns a Reader over a (possibly compressed) trace.
func openTrace(t testing.TB, path string) (*swf.Reader, func()) {
	t.Helper()
	in, err := cmdio.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := swf.NewReader(in)
	r.Name = filepath.Base(path)
	return r, func() { in.Close() }
}

var fullSweep = flag.Bool("full", false, "read every record of the large traces (default: the first 40,000)")

// prefixLimit is how many records of a large trace (over 1 MB compressed) the
// default tests read: -race makes a full sweep of RICC take 20 s. make bench
// and -full sweep them whole.
const prefixLimit = 40000

// cleanTrace checks and cleans one trace with the default rules, streaming, and
// returns the check result, the report and the cleaned body. limit > 0 stops
// after that many records.
func cleanTrace(t testing.TB, path string, limit int) (*CheckResult, Report, []byte) {
	r, done := openTrace(t, path)
	defer done()
	r.ReuseRecord = true
	hdr, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	checker := NewChecker(hdr)
	c, err := New(hdr, Config{Rules: DefaultRules()})
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	w := swf.NewWriter(&body)
	var j swf.Job
	for n := 0; limit <= 0 || n < limit; n++ {
		j, err = r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		checker.Check(&j)
		if c.Apply(&j) {
			w.Write(&j)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return checker.Result(), c.Report(0), body.Bytes()
}

// fixedByDefault are the anomalies the default rules remove.
var fixedByDefault = []string{"end_undef", "wait_neg", "run_neg", "proc_zero",
	"cpu_zero", "mem_zero", "proc_req_zero", "run_req_zero", "mem_req_zero"}

// TestEveryTrace reads, checks and cleans every archive trace: the accounting
// must balance, and the cleaned output must read back with none of the
// anomalies the default rules fix.
func TestEveryTrace(t *testing.T) {
	for _, path := range testutil.Traces(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			limit := 0
			if !*fullSweep && fileSize(t, path) > 1<<20 {
				limit = prefixLimit
			}
			res, rep, body := cleanTrace(t, path, limit)
			if res.Records == 0 {
				t.Fatal("no records read")
			}
			if rep.RecordsRead != res.Records || rep.RecordsRead != rep.Written+rep.Dropped {
				t.Fatalf("accounting %+v for %d records", rep, res.Records)
			}
			again := NewChecker(nil)
			r := swf.NewReader(bytes.NewReader(body))
			n := 0
			for {
				j, err := r.Read()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("cleaned output does not read back: %v", err)
				}
				again.Check(&j)
				n++
			}
			if n != rep.Written {
				t.Errorf("read back %d records, report says %d written", n, rep.Written)
			}
			fired := map[string]int{}
			for _, f := range again.Result().Fired {
				fired[f.Name] = f.Count
			}
			for _, name := range fixedByDefault {
				if fired[name] > 0 {
					t.Errorf("cleaned output still has %d %s", fired[name], name)
				}
			}
			t.Logf("%d records, %d written, %d anomaly checks fired", res.Records, rep.Written, len(res.Fired))
		})
	}
}

func fileSize(t testing.TB, path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// TestHPC2NIsUnclean pins what the truncated raw HPC2N file must report.
func TestHPC2NIsUnclean(t *testing.T) {
	res, rep, _ := cleanTrace(t, testutil.Trace(t, "HPC2N-2002-2-first3170.swf.gz"), 0)
	fired := map[string]int{}
	for _, f := range res.Fired {
		fired[f.Name] = f.Count
	}
	for _, name := range []string{"header_maxjobs", "header_maxrecords", "end_undef"} {
		if fired[name] == 0 {
			t.Errorf("%s did not fire", name)
		}
	}
	if res.Records != 3170 {
		t.Errorf("%d records, want 3170", res.Records)
	}
	var unknown int
	for _, s := range rep.Steps {
		if s.Name == "unknown_runtime" {
			unknown = s.Dropped
		}
	}
	if unknown != fired["end_undef"] {
		t.Errorf("unknown_runtime dropped %d, end_undef counted %d", unknown, fired["end_undef"])
	}
}

func TestNotSWFRejected(t *testing.T) {
	r, done := openTrace(t, testutil.NotSWF(t))
	defer done()
	_, err := r.Read()
	var pe *swf.ParseError
	if !errors.As(err, &pe) || pe.Line != 1 || pe.Field == 0 || pe.File == "" {
		t.Fatalf("error %v, want a ParseError naming file, line 1 and a field", err)
	}
}

// TestStreamEqualsWhole cleans a real trace both ways: the per-record path and
// the whole-trace path must agree byte for byte.
func TestStreamEqualsWhole(t *testing.T) {
	path := testutil.Trace(t, "KTH-SP2-1996-2-unfiltered.swf.gz")
	_, _, streamed := cleanTrace(t, path, 0)
	r, done := openTrace(t, path)
	defer done()
	hdr, _ := r.Header()
	var jobs []swf.Job
	for {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	c, _ := New(hdr, Config{Rules: DefaultRules()})
	var body bytes.Buffer
	w := swf.NewWriter(&body)
	for _, j := range c.ApplyAll(jobs) {
		w.Write(&j)
	}
	w.Flush()
	if !bytes.Equal(body.Bytes(), streamed) {
		t.Error("ApplyAll and Apply disagree")
	}
}

// BenchmarkEveryTrace reads, checks and cleans (default rules, streaming) every
// whole archive trace: the full sweep the default tests cut short.
func BenchmarkEveryTrace(b *testing.B) {
	for _, path := range testutil.Traces(b) {
		b.Run(filepath.Base(path), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				res, rep, _ := cleanTrace(b, path, 0)
				if rep.RecordsRead != res.Records || rep.RecordsRead != rep.Written+rep.Dropped {
					b.Fatalf("accounting %+v for %d records", rep, res.Records)
				}
			}
		})
	}
}

// BenchmarkApply measures the per-record path of the default rules plus the
// checks: it must not allocate.
func BenchmarkApply(b *testing.B) {
	hdr := header(b, "; MaxProcs: 128")
	j := job(b, "7 1000 0 3600 0 0 -1 64 7200 -1 1 374 7 12 2 1 -1 -1")
	c, _ := New(hdr, Config{Rules: DefaultRules()})
	checker := NewChecker(hdr)
	b.ReportAllocs()
	b.ResetTimer()
	var k swf.Job // outside the loop: &k escapes into the rules' function values
	for i := 0; i < b.N; i++ {
		k = j
		checker.Check(&k)
		c.Apply(&k)
	}
}

// TestArchiveDateFilter replays the first filter of the cleaned LLNL-Atlas log,
// "submit<=2006-12-18 00:00:00": its first kept job was submitted at 12:19 PST
// on 2006-12-18, so nothing in the cleaned log matches up to noon, Pacific time.
func TestArchiveDateFilter(t *testing.T) {
	path := testutil.Trace(t, "LLNL-Atlas-2006-2.1-cln.swf.gz")
	for _, tt := range []struct {
		expr string
		some bool
	}{
		{"submit<=2006-12-18 00:00:00", false},
		{"submit<=2006-12-18 12:19:00", false},
		{"submit<=2006-12-18 12:20:00", true},
	} {
		r, done := openTrace(t, path)
		hdr, _ := r.Header()
		f, err := ParseFilter(tt.expr)
		if err != nil {
			t.Fatal(err)
		}
		c, err := New(hdr, Config{Drop: []*Filter{f}})
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < 100; n++ {
			j, err := r.Read()
			if err != nil {
				t.Fatal(err)
			}
			c.Apply(&j)
		}
		done()
		if dropped := c.Report(0).Dropped; (dropped > 0) != tt.some {
			t.Errorf("%s dropped %d of the first 100 jobs", tt.expr, dropped)
		}
	}
}
