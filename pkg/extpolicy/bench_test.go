package extpolicy_test

import (
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/sim"
)

// BenchmarkRound measures the protocol's cost per round message: easy over
// the whole bundled KTH-SP2 trace through the in-process client (messages
// encoded, sent through an io.Pipe, decoded by the client, replies decoded
// and checked), reported per round message beside the built-in easy.
func BenchmarkRound(b *testing.B) {
	tr := simtest.Load(b, "../../testdata/KTH-SP2-1996-2.1-cln.swf.gz", false)
	b.Run("builtin-easy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, _ := sim.New(sim.Config{Procs: tr.Procs}, tr.Clone())
			if err := s.Run(&policy.EASY{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("protocol-easy", func(b *testing.B) {
		b.ReportAllocs()
		var rounds int64
		for b.Loop() {
			p, err := runInProcess(tr.Procs, false, tr.Clone(), true)
			if err != nil {
				b.Fatal(err)
			}
			rounds = p.Rounds()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*rounds), "ns/round")
		b.ReportMetric(float64(rounds), "rounds")
	})
}
