package swf_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/swf"
)

func gunzip(tb testing.TB, path string) []byte {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// copyTrace reads and writes a whole trace, returning the output and job count.
func copyTrace(tb testing.TB, name string, data []byte, reuse bool) ([]byte, int) {
	tb.Helper()
	r := swf.NewReader(bytes.NewReader(data))
	r.Name = name
	r.ReuseRecord = reuse
	var out bytes.Buffer
	out.Grow(len(data))
	w := swf.NewWriter(&out)
	h, err := r.Header()
	if err != nil {
		tb.Fatal(err)
	}
	w.WriteHeader(h)
	n := 0
	for {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		w.Write(&j)
		n++
	}
	w.WriteTrailer(r.Trailer())
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes(), n
}

// Every archive trace is read and written back byte-identical.
func TestTracesRoundTrip(t *testing.T) {
	want := map[string]int{
		"KTH-SP2-1996-2.1-cln.swf.gz":    28476,
		"LANL-CM5-1994-4.1-cln.swf.gz":   122060,
		"RICC-2010-2.swf.gz":             447794,
		"HPC2N-2002-2-first3170.swf.gz":  3170,
		"CEA-Curie-2011-sample.swf.gz":   29998,
		"LCG-2005-1.swf.gz":              188041,
		"lublin_256.swf.gz":              10000,
		"NASA-iPSC-1993-3.1-cln.swf.gz":  18239,
		"LLNL-Atlas-2006-2.1-cln.swf.gz": 43778,
	}
	for _, path := range testutil.Traces(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data := gunzip(t, path)
			out, n := copyTrace(t, name, data, true)
			if !bytes.Equal(out, data) {
				t.Errorf("output differs from input")
			}
			if w, ok := want[name]; ok && n != w {
				t.Errorf("%d jobs, want %d", n, w)
			}
		})
	}
}

func TestNotSWFRejected(t *testing.T) {
	data := gunzip(t, testutil.NotSWF(t))
	r := swf.NewReader(bytes.NewReader(data))
	r.Name = "MetaCentrum.gz"
	_, err := r.Read()
	var pe *swf.ParseError
	if !errors.As(err, &pe) || pe.Line != 1 || pe.Field != 19 || !errors.Is(err, swf.ErrExtraToken) {
		t.Fatalf("got %v, want a field-19 extension-token error at line 1", err)
	}
}

func BenchmarkReadWrite(b *testing.B) {
	data := gunzip(b, testutil.Trace(b, "LANL-CM5-1994-4.1-cln.swf.gz"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := swf.NewReader(bytes.NewReader(data))
		r.ReuseRecord = true
		w := swf.NewWriter(io.Discard)
		h, _ := r.Header()
		w.WriteHeader(h)
		for {
			j, err := r.Read()
			if err != nil {
				break
			}
			w.Write(&j)
		}
		w.Flush()
	}
}

// BenchmarkWriteCanonical measures records that changed (written field by field).
func BenchmarkWriteCanonical(b *testing.B) {
	data := gunzip(b, testutil.Trace(b, "KTH-SP2-1996-2.1-cln.swf.gz"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := swf.NewReader(bytes.NewReader(data))
		r.ReuseRecord = true
		w := swf.NewWriter(io.Discard)
		for {
			j, err := r.Read()
			if err != nil {
				break
			}
			j.WaitTime++
			w.Write(&j)
		}
		w.Flush()
	}
}

// BenchmarkReadRecord reports allocations per record on the hot path (expect 0).
func BenchmarkReadRecord(b *testing.B) {
	line := []byte("  123  45678  90  3600  32  3500.25  -1  32  7200  -1  1  12  3  -1  2  -1  -1  -1\n")
	data := bytes.Repeat(line, 1000)
	b.ReportAllocs()
	b.ResetTimer()
	var r *swf.Reader
	for i := 0; i < b.N; i++ {
		if i%1000 == 0 {
			r = swf.NewReader(bytes.NewReader(data))
			r.ReuseRecord = true
		}
		if _, err := r.Read(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadRICC parses the whole of RICC-2010-2 (447,794 records, 45 MB
// decompressed) from memory: the reading that every tool does, and swfsim
// twice (once to simulate, once to write).
func BenchmarkReadRICC(b *testing.B) {
	data := gunzip(b, testutil.Trace(b, "RICC-2010-2.swf.gz"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		r := swf.NewReader(bytes.NewReader(data))
		r.ReuseRecord = true
		for {
			if _, err := r.Read(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}

// BenchmarkWriteCanonicalRICC writes every RICC-2010-2 record changed, as
// swfsim does (its wait and runtime are the simulation's), so in canonical
// form; the reading is included.
func BenchmarkWriteCanonicalRICC(b *testing.B) {
	data := gunzip(b, testutil.Trace(b, "RICC-2010-2.swf.gz"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		r := swf.NewReader(bytes.NewReader(data))
		r.ReuseRecord = true
		w := swf.NewWriter(io.Discard)
		for {
			j, err := r.Read()
			if err != nil {
				break
			}
			j.WaitTime++
			w.Write(&j)
		}
		w.Flush()
	}
}

// TestAverageCPUTimeCanonical holds field 6's integer shortcut to what
// strconv.AppendFloat writes.
func TestAverageCPUTimeCanonical(t *testing.T) {
	for _, v := range []float64{0, math.Copysign(0, -1), -1, 1, 489, 3500.25, 1e15, 1<<53 - 1, 1 << 53, -(1 << 53), 1e21, 0.1, -2.5e-7, 123456789012345} {
		j := swf.Job{AverageCPUTime: v}
		got := string(j.AppendCanonical(nil))
		fields := strings.Fields(got)
		if want := strconv.FormatFloat(v, 'f', -1, 64); fields[5] != want {
			t.Errorf("%v: field 6 written %q, want %q", v, fields[5], want)
		}
	}
}
