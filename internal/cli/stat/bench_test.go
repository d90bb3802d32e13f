package statcli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	cleancli "github.com/swfkit/swfkit/internal/cli/clean"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	"github.com/swfkit/swfkit/internal/testutil"
)

// BenchmarkAggregateLANL aggregates N swfsim outputs of LANL-CM5 (122k jobs
// each; N from SWFKIT_BENCH_INPUTS, default 20; the figure is 200)
// into one CSV with swfstat, and reads the same files with swfclean --rules
// none, one after the other, for comparison. The inputs are one easy
// schedule simulated once and linked N times under different names (the
// work per file is the same as for N different schedules). It reports the
// peak heap in use (sampled every 20 ms) next to the largest input's.
//
//	SWFKIT_BENCH_INPUTS=200 go test ./internal/cli/stat -run XXX -bench AggregateLANL -benchtime 1x
func BenchmarkAggregateLANL(b *testing.B) {
	trace := testutil.Trace(b, "LANL-CM5-1994-4.1-cln.swf.gz")
	n := 20
	if s := os.Getenv("SWFKIT_BENCH_INPUTS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			b.Fatalf("SWFKIT_BENCH_INPUTS=%q", s)
		}
	}
	dir := b.TempDir()
	first := filepath.Join(dir, "easy-000.swf.gz")
	var errb bytes.Buffer
	if code := simcli.Run([]string{"swfsim", "--policy", "easy", "--no-progress", trace, "-o", first}, nil, io.Discard, &errb); code != 0 {
		b.Fatalf("swfsim: %s", errb.String())
	}
	files := []string{first}
	for i := 1; i < n; i++ {
		f := filepath.Join(dir, fmt.Sprintf("easy-%03d.swf.gz", i))
		if err := os.Link(first, f); err != nil {
			b.Fatal(err)
		}
		files = append(files, f)
	}
	out := filepath.Join(dir, "study.csv")

	b.Run("swfstat", func(b *testing.B) {
		var peak uint64
		for range b.N {
			stop := sampleHeap(&peak)
			var e bytes.Buffer
			code := Run(append([]string{"swfstat", "--csv", out}, files...), nil, io.Discard, &e)
			stop()
			if code != 0 {
				b.Fatalf("swfstat: exit %d: %s", code, e.String())
			}
		}
		b.ReportMetric(float64(peak)/(1<<20), "MB-peak-heap")
		b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "workers")
	})
	b.Run("swfstat-one-input", func(b *testing.B) {
		var peak uint64
		for range b.N {
			stop := sampleHeap(&peak)
			Run([]string{"swfstat", "--csv", out, files[0]}, nil, io.Discard, io.Discard)
			stop()
		}
		b.ReportMetric(float64(peak)/(1<<20), "MB-peak-heap")
	})
	b.Run("swfclean-rules-none", func(b *testing.B) {
		for range b.N {
			for _, f := range files {
				if code := cleancli.Run([]string{"swfclean", "--rules", "none", "-q", f}, nil, io.Discard, io.Discard); code != 0 {
					b.Fatalf("swfclean: exit %d", code)
				}
			}
		}
	})
}

// sampleHeap records the largest heap in use until the returned stop is called.
func sampleHeap(peak *uint64) (stop func()) {
	runtime.GC()
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for !done.Load() {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > *peak {
				*peak = m.HeapInuse
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	return func() { done.Store(true); wg.Wait() }
}
