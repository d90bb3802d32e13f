//go:build unix

package statcli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
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
// CPU seconds per run (on a shared machine wall time mostly measures the
// other users) and the
// peak heap (live and unswept objects, sampled every 10 ms) next to the largest input's.
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
		cpu := cpuTime()
		for range b.N {
			stop := testutil.PeakHeap(&peak)
			var e bytes.Buffer
			code := Run(append([]string{"swfstat", "--csv", out}, files...), nil, io.Discard, &e)
			stop()
			if code != 0 {
				b.Fatalf("swfstat: exit %d: %s", code, e.String())
			}
		}
		b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
		b.ReportMetric(float64(peak)/(1<<20), "MB-peak-heap")
		b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "workers")
	})
	b.Run("swfstat-one-input", func(b *testing.B) {
		var peak uint64
		for range b.N {
			stop := testutil.PeakHeap(&peak)
			Run([]string{"swfstat", "--csv", out, files[0]}, nil, io.Discard, io.Discard)
			stop()
		}
		b.ReportMetric(float64(peak)/(1<<20), "MB-peak-heap")
	})
	b.Run("swfclean-rules-none", func(b *testing.B) {
		cpu := cpuTime()
		defer func() { b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op") }()
		for range b.N {
			for _, f := range files {
				if code := cleancli.Run([]string{"swfclean", "--rules", "none", "-q", f}, nil, io.Discard, io.Discard); code != 0 {
					b.Fatalf("swfclean: exit %d", code)
				}
			}
		}
	})
}

// cpuTime is the process's user and system CPU time so far: on a shared
// machine it compares two runs better than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
