package extpolicy_test

import (
	"bufio"
	"os"
	"os/exec"
	"testing"
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
func BenchmarkPipeFloor(b *testing.B) {
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
	msg := []byte(`{"type":"round","round":1,"time":0,"free":4,"waiting":0,"running":0,"timer":-1,"arrived":[],"ended":[],"killed":[]}` + "\n")
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
	cmd.Wait()
}
