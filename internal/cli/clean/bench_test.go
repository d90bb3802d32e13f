package cleancli

import (
	"io"
	"runtime"
	"strconv"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
)

// syntheticTrace generates an SWF trace of n records on the fly, without
// holding it, so that a run's memory can be compared across trace lengths.
// Every tenth record has fields the default rules change or drop.
type syntheticTrace struct {
	n, i int
	buf  []byte
	pos  int
}

func newSyntheticTrace(n int) *syntheticTrace {
	return &syntheticTrace{n: n, buf: []byte("; Version: 2.2\n; MaxProcs: 128\n; MaxJobs: 0\n; MaxRecords: 0\n;\n")}
}

func (s *syntheticTrace) Read(p []byte) (int, error) {
	for s.pos == len(s.buf) {
		if s.i == s.n {
			return 0, io.EOF
		}
		s.i++
		s.buf, s.pos = s.buf[:0], 0
		b := strconv.AppendInt(s.buf, int64(s.i), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(s.i*37), 10)
		switch s.i % 10 {
		case 0: // zero processors: zero_to_unknown, then no_procs
			b = append(b, " 5 600 0 -1 -1 0 3600 -1 1 "...)
		case 5: // cancelled before starting
			b = append(b, " -1 0 -1 -1 -1 -1 -1 -1 5 "...)
		default:
			b = append(b, " 12 600 16 550.25 -1 16 3600 -1 1 "...)
		}
		b = strconv.AppendInt(b, int64(1+s.i%97), 10)
		b = append(b, " 1 -1 1 -1 -1 -1\n"...)
		s.buf = b
	}
	n := copy(p, s.buf[s.pos:])
	s.pos += n
	return n, nil
}

// allocated returns the bytes allocated while running swfclean on an
// n-record synthetic trace.
func allocated(tb testing.TB, n int, args ...string) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	code := Run(append([]string{"swfclean", "-q"}, args...), newSyntheticTrace(n), io.Discard, io.Discard)
	runtime.ReadMemStats(&after)
	if code != 0 {
		tb.Fatalf("exit %d", code)
	}
	return after.TotalAlloc - before.TotalAlloc
}

// minAllocated is the least of three allocated measurements.
func minAllocated(tb testing.TB, n int, args ...string) uint64 {
	least := allocated(tb, n, args...)
	for i := 0; i < 2; i++ {
		least = min(least, allocated(tb, n, args...))
	}
	return least
}

// TestMemoryDoesNotGrowWithTraceLength: with streaming rules, a ten times
// longer trace allocates almost nothing more (the job-number bitmap, one bit per
// job; about 1 B per record measured, more under -race). Holding the records
// would cost over 400 bytes each (swf.Job is 376 bytes before its raw line).
func TestMemoryDoesNotGrowWithTraceLength(t *testing.T) {
	for _, args := range [][]string{{"--rules", "default"}, {"--rules", "none"}, {"--check"}, {"--drop-flurries"},
		{"--filter", "user=3", "--rules", "default,renumber"}} {
		// The least of three runs: sync.Pool buffers dropped by a collection
		// are allocated again, so one run's total varies by some 40 B a record.
		small := minAllocated(t, 5000, args...)
		large := minAllocated(t, 50000, args...)
		perRecord := (float64(large) - float64(small)) / 45000
		// renumber keeps a map from old to new number, and the flurry pass 32
		// bytes per record (plus slice growth): allow them, and check the rest tightly.
		limit := 32.0
		switch args[len(args)-1] {
		case "default,renumber":
			limit = 150
		case "--drop-flurries":
			// 32 B points, allocated about 5 times over by append growth (150-170 B
			// measured); holding the records would be over 400.
			limit = 250
		}
		if perRecord > limit {
			t.Errorf("%v: %d B for 5,000 records, %d B for 50,000: %.1f B per extra record, want <= %.0f",
				args, small, large, perRecord, limit)
		}
		t.Logf("%v: %d B for 5,000 records, %d B for 50,000 (%.2f B per extra record)", args, small, large, perRecord)
	}
}

// BenchmarkCleanMemory reports the bytes allocated per run for growing trace
// lengths: B/op stays flat for the default (streaming) rules, and grows with
// the trace for sort_submit, which holds it.
func BenchmarkCleanMemory(b *testing.B) {
	for _, rules := range []string{"default", "default,sort_submit"} {
		for _, n := range []int{10000, 100000, 1000000} {
			b.Run(rules+"/records="+strconv.Itoa(n), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if code := Run([]string{"swfclean", "-q", "--rules", rules}, newSyntheticTrace(n), io.Discard, io.Discard); code != 0 {
						b.Fatalf("exit %d", code)
					}
				}
			})
		}
	}
}

// BenchmarkCheckRICC is swfclean --check on RICC-2010-2 (447,794 records,
// gzip); the target is under 2 s.
func BenchmarkCheckRICC(b *testing.B) {
	path := testutil.Trace(b, "RICC-2010-2.swf.gz")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if code := Run([]string{"swfclean", "--check", path}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkCleanRICC is the default cleaning of RICC-2010-2 to a discarded output.
func BenchmarkCleanRICC(b *testing.B) {
	path := testutil.Trace(b, "RICC-2010-2.swf.gz")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if code := Run([]string{"swfclean", "-q", path}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
