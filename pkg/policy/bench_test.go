package policy

import (
	"fmt"
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

func benchTrace(b *testing.B, trace, name string) { benchPrefix(b, trace, name, 0) }

// benchPrefix simulates the first n jobs of a trace (all with n = 0).
func benchPrefix(b *testing.B, trace, name string, n int) {
	tr := simtest.Load(b, testutil.Trace(b, trace), false)
	if n > 0 && n < len(tr.Jobs) {
		tr.Jobs = tr.Jobs[:n]
	}
	info, ok := Lookup(name)
	if !ok {
		b.Fatal(name)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		jobs := tr.Clone()
		b.StartTimer()
		s, err := sim.New(sim.Config{Procs: tr.Procs}, jobs)
		if err != nil {
			b.Fatal(err)
		}
		p, err := info.New(Params{}, len(jobs))
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Run(p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(tr.Jobs)), "jobs")
}

// BenchmarkRICC simulates the whole RICC-2010-2 trace (447,794 jobs); the
// issue's targets on one core: easy under 3 s, conservative under 20 s.
func BenchmarkRICC(b *testing.B) {
	for _, name := range []string{"fcfs", "easy", "conservative", "priofifo", "sjf", "lxf", "lxfw"} {
		b.Run(name, func(b *testing.B) { benchTrace(b, "RICC-2010-2.swf.gz", name) })
	}
}

func BenchmarkKTH(b *testing.B) {
	for _, name := range []string{"fcfs", "easy", "conservative", "priofifo", "sjf", "lxf", "lxfw"} {
		b.Run(name, func(b *testing.B) { benchTrace(b, "KTH-SP2-1996-2.1-cln.swf.gz", name) })
	}
}

// BenchmarkRICCPrefix shows how cost grows with trace length.
func BenchmarkRICCPrefix(b *testing.B) {
	for _, name := range []string{"easy", "conservative"} {
		for _, n := range []int{25000, 50000, 100000} {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) { benchPrefix(b, "RICC-2010-2.swf.gz", name, n) })
		}
	}
}
