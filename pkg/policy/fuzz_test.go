package policy

import (
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// FuzzReference decodes bytes into a small workload (machine size from the
// first byte, then 4 bytes a job: submit step, runtime, estimate, processors)
// and checks easy and conservative against the reference implementation,
// with and without kills.
func FuzzReference(f *testing.F) {
	f.Add([]byte{4, 0, 10, 10, 3, 1, 5, 5, 4, 1, 8, 8, 1})
	f.Add([]byte{2, 0, 0, 0, 1, 0, 5, 5, 1, 0, 20, 10, 2, 12, 1, 1, 1})
	f.Add([]byte{6, 0, 10, 10, 2, 0, 10, 10, 2, 1, 5, 5, 4, 1, 50, 50, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 || len(data) > 1+4*60 {
			return
		}
		procs := int64(data[0]%16) + 1
		var jobs []sim.Job
		var submit int64
		for b := data[1:]; len(b) >= 4; b = b[4:] {
			submit += int64(b[0] % 8)
			jobs = append(jobs, sim.Job{Submit: submit, Runtime: int64(b[1] % 40), Estimate: int64(b[2] % 40),
				Procs: int32(int64(b[3])%procs) + 1, Queue: -1})
		}
		for _, name := range []string{"easy", "conservative"} {
			for _, noKill := range []bool{false, true} {
				want := refRun(toRef(jobs), procs, noKill, name)
				got := runPolicy(t, name, procs, noKill, append([]sim.Job(nil), jobs...))
				for i := range got {
					if got[i].Start != want[i] {
						t.Fatalf("%s no-kill=%v job %d: start %d, reference %d", name, noKill, i, got[i].Start, want[i])
					}
				}
			}
		}
	})
}
