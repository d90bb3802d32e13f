package simcli

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
)

// BenchmarkCommandRICC times the command end to end on the whole of
// RICC-2010-2 (447,794 jobs, gzip): opening and decompressing the trace,
// parsing it, simulating and writing the schedule to a file, as issue 17's
// targets measure it (easy under 1 s, conservative under 5 s):
//
//	go test -run XXX -bench CommandRICC -benchtime 1x -cpuprofile cpu.out ./internal/cli/sim
func BenchmarkCommandRICC(b *testing.B) {
	trace := testutil.Trace(b, "RICC-2010-2.swf.gz")
	for _, policy := range []string{"easy", "conservative", "fcfs"} {
		b.Run(policy, func(b *testing.B) {
			out := filepath.Join(b.TempDir(), "out.swf")
			b.ReportAllocs()
			for range b.N {
				if code := Run([]string{"swfsim", "--no-progress", "-p", policy, trace, "-o", out}, nil, io.Discard, io.Discard); code != 0 {
					b.Fatalf("swfsim -p %s: exit status %d", policy, code)
				}
			}
		})
	}
}
