package extpolicy_test

import (
	"bufio"
	"bytes"
	"io"
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/pkg/extpolicy"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/sim"
)

// BenchmarkRound measures the protocol's cost per round message on the whole
// bundled KTH-SP2 trace (28,475 jobs, 31,802 round messages), easy, beside
// the built-in easy:
//
//   - client: the in-process Go client decodes every message with
//     encoding/json and decides (what a Go program costs, without pipes
//     between processes);
//   - engine: a client that replays recorded replies without decoding
//     anything, so that what is measured is the engine's side: encoding,
//     io.Pipe transfer, parsing and checking the reply.
func BenchmarkRound(b *testing.B) {
	tr := simtest.Load(b, "../../testdata/KTH-SP2-1996-2.1-cln.swf.gz", false)
	b.Run("builtin", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, _ := sim.New(sim.Config{Procs: tr.Procs}, tr.Clone())
			if err := s.Run(&policy.EASY{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("client", func(b *testing.B) {
		b.ReportAllocs()
		var rounds int64
		for b.Loop() {
			p, err := runInProcess(tr.Procs, false, tr.Clone(), true, false)
			if err != nil {
				b.Fatal(err)
			}
			rounds = p.Rounds()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*rounds), "ns/round")
	})
	b.Run("engine", func(b *testing.B) {
		replies := recordReplies(b, tr)
		recs := recordsOf(tr.Jobs)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			p, err := replay(tr.Procs, tr.Clone(), recs, replies)
			if err != nil {
				b.Fatal(err)
			}
			if p.Rounds() != int64(len(replies)-1) {
				b.Fatalf("%d rounds, %d replies", p.Rounds(), len(replies)-1)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*int64(len(replies)-1)), "ns/round")
	})
}

// recordReplies runs the in-process easy client once and returns every line
// it wrote.
func recordReplies(b *testing.B, tr *simtest.Trace) [][]byte {
	toClientR, toClientW := io.Pipe()
	fromClientR, fromClientW := io.Pipe()
	var log bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- serve(toClientR, io.MultiWriter(fromClientW, &log), true, false, "")
		fromClientW.Close()
	}()
	p := extpolicy.New(fromClientR, toClientW, extpolicy.Options{Records: recordsOf(tr.Jobs)})
	s, _ := sim.New(sim.Config{Procs: tr.Procs}, tr.Clone())
	if err := p.Finish(s, s.Run(p)); err != nil {
		b.Fatal(err)
	}
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	return bytes.SplitAfter(bytes.TrimSuffix(log.Bytes(), []byte("\n")), []byte("\n"))
}

// replay answers each engine line with the next recorded reply.
func replay(procs int64, jobs []sim.Job, recs *extpolicy.Records, replies [][]byte) (*extpolicy.Policy, error) {
	toClientR, toClientW := io.Pipe()
	fromClientR, fromClientW := io.Pipe()
	go func() {
		in := bufio.NewReaderSize(toClientR, 1<<16)
		for _, r := range replies {
			if _, err := in.ReadSlice('\n'); err != nil {
				break
			}
			r = append(bytes.TrimSuffix(r, []byte("\n")), '\n')
			if _, err := fromClientW.Write(r); err != nil {
				break
			}
		}
		in.ReadSlice('\n') // the end
		fromClientW.Close()
	}()
	p := extpolicy.New(fromClientR, toClientW, extpolicy.Options{Records: recs})
	s, _ := sim.New(sim.Config{Procs: procs}, jobs)
	return p, p.Finish(s, s.Run(p))
}
