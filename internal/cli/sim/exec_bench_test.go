//go:build unix

package simcli

import (
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/swfkit/swfkit/internal/testutil"
)

// BenchmarkExecLANL is the goal of issue 16 measured end to end: whole
// LANL-CM5 (122,057 jobs) through swfsim with the built-in easy, and with
// examples/policies/easy-go over the exec protocol: as it comes (start_head
// and quiet_ends, both sides polling 200 µs before they sleep), without
// polling (--exec-spin 0, -spin 0), with start_head only, and asked for
// every decision. Each op is one whole run as the
// command does it (read, simulate, write); cpu-s/op is user+system time of
// swfsim and the program together, which the machine's load moves less than
// the wall time:
//
//	go test ./internal/cli/sim -run XXX -bench ExecLANL -benchtime 5x
func BenchmarkExecLANL(b *testing.B) {
	trace := testutil.Trace(b, "LANL-CM5-1994-4.1-cln.swf.gz")
	client := buildGoClient(b)
	for _, bc := range []struct {
		name, policy, exec string
		more               []string
	}{
		{"builtin", "easy", "", nil},
		{"easy-go", "exec", client, nil},
		{"easy-go-no-spin", "exec", client + " -spin 0", []string{"--exec-spin", "0"}},
		{"easy-go-start-head-only", "exec", client + " -quiet-ends=false", nil},
		{"easy-go-every-decision", "exec", client + " -start-head=false -quiet-ends=false", nil},
	} {
		b.Run(bc.name, func(b *testing.B) {
			args := append([]string{"swfsim", "--no-progress", "-p", bc.policy, trace}, bc.more...)
			if bc.exec != "" {
				args = append(args, "--exec", bc.exec)
			}
			cpu0 := cpuTime()
			for b.Loop() {
				if code := Run(args, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// cpuTime is the user and system time of this process and of its waited-for
// children.
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}
