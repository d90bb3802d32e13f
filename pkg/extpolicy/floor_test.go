package extpolicy_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/swfkit/swfkit/pkg/extpolicy"
)

// TestMain lets the test binary serve as the echo process of
// BenchmarkPipeFloor.
func TestMain(m *testing.M) {
	if os.Getenv("EXTPOLICY_ECHO") == "1" {
		in := bufio.NewReader(os.Stdin)
		for {
			if _, err := in.ReadSlice('\n'); err != nil {
				os.Exit(0)
			}
			if _, err := os.Stdout.Write([]byte("{\"start\":[]}\n")); err != nil {
				os.Exit(0)
			}
		}
	}
	os.Exit(m.Run())
}

// BenchmarkPipeFloor is the floor under any program policy on this machine:
// one short line to another process and one back, over pipes, with nothing
// decoded or decided (the other process is this test binary echoing). A
// whole run costs at least this per round message.
//
//   - engine: the pipes swfsim uses (StartProcess: on Linux blocking
//     descriptors and plain system calls, with deadlines as swfsim sets them);
//   - os: os/exec's pipes, in Go's network poller (what swfsim used before).
func BenchmarkPipeFloor(b *testing.B) {
	msg := []byte(`{"type":"round","round":1,"time":0,"free":4,"waiting":0,"running":0,"timer":-1,"arrived":[],"ended":[],"killed":[]}` + "\n")
	b.Run("engine", func(b *testing.B) {
		b.Setenv("EXTPOLICY_ECHO", "1")
		p, err := extpolicy.StartProcess([]string{os.Args[0]}, nil, "")
		if err != nil {
			b.Fatal(err)
		}
		in, out := p.Stdin(), p.Stdout()
		r := bufio.NewReader(out)
		type deadlines interface {
			SetReadDeadline(time.Time) error
			SetWriteDeadline(time.Time) error
		}
		din, _ := in.(deadlines)
		dout, _ := out.(deadlines)
		b.ResetTimer()
		for b.Loop() {
			if din != nil {
				din.SetWriteDeadline(time.Now().Add(time.Minute))
			}
			if _, err := in.Write(msg); err != nil {
				b.Fatal(err)
			}
			if dout != nil {
				dout.SetReadDeadline(time.Now().Add(time.Minute))
			}
			if _, err := r.ReadSlice('\n'); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		in.Close()
		p.Stop(time.Minute)
	})
	b.Run("os", func(b *testing.B) {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "EXTPOLICY_ECHO=1")
		in, err := cmd.StdinPipe()
		if err != nil {
			b.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		r := bufio.NewReader(out)
		b.ResetTimer()
		for b.Loop() {
			if _, err := in.Write(msg); err != nil {
				b.Fatal(err)
			}
			if _, err := r.ReadSlice('\n'); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		in.Close()
		io.Copy(io.Discard, out)
		cmd.Wait()
	})
}
