package augmentcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
)

// riccJobs is RICC-2010-2's job count.
const riccJobs = 447794

// BenchmarkAugmentRICCMemory runs swfaugment over the whole of RICC-2010-2
// for every operation, and some together, writing to a file, and reports
// the peak heap (testutil.PeakHeap) in MB and in bytes per job: the memory
// a run needs. The trace is streamed, not held: it is read twice when an
// operation needs numbers of the whole trace first, and the peak is a few
// MB but for the 8 bytes a job the checkpoint model keeps and the 24 of the
// bounds (--error-quant, --error-qual). The "stdin-" cases read standard
// input, which is copied to a temporary file for the second pass. Holding
// the trace, swfaugment needed 500 to 620 MB of heap here (1.2 to 1.5 KB a
// job) whatever the operation (docs/swfaugment.md has the figures).
//
//	go test ./internal/cli/augment -run XXX -bench AugmentRICCMemory -benchtime 1x -benchmem
func BenchmarkAugmentRICCMemory(b *testing.B) {
	trace := testutil.Trace(b, "RICC-2010-2.swf.gz")
	cases := []struct{ name, args string }{
		{"utility", "--utility"},
		{"checkpoint", "--checkpoint"},
		{"error-quant", "--error-quant 100 --error-stdev 20 --error-category 11"},
		{"error-qual", "--error-qual both --error-percent 50"},
		{"estimate", "--estimate uniform:1,3"},
		{"target-load", "--target-load 0.9"},
		{"all", "--utility --checkpoint --error-quant 400 --error-stdev 60 --error-category 11 --target-load 0.9 --seed 7"},
		{"stdin-utility", "--utility"},
		{"stdin-checkpoint", "--checkpoint"},
	}
	out := filepath.Join(b.TempDir(), "out.swf")
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			args := append([]string{"swfaugment"}, strings.Fields(c.args)...)
			args = append(args, "-o", out)
			stdin := strings.HasPrefix(c.name, "stdin-")
			if !stdin {
				args = append(args, trace)
			}
			b.ReportAllocs()
			var peak uint64
			for range b.N {
				var in *os.File
				if stdin {
					var err error
					if in, err = os.Open(trace); err != nil {
						b.Fatal(err)
					}
				}
				var errb bytes.Buffer
				stop := testutil.PeakHeap(&peak)
				code := Run(args, in, os.Stdout, &errb)
				stop()
				if in != nil {
					in.Close()
				}
				if code != 0 {
					b.Fatalf("exit %d: %s", code, errb.String())
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "MB-peak-heap")
			b.ReportMetric(float64(peak)/riccJobs, "B-peak-heap/job")
		})
	}
}
