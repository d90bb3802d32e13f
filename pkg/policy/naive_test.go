package policy

import (
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

// The conservative pruning (skip compressions that cannot move a job, skip
// jobs that cannot start before their reservation) must not change schedules.
func TestConservativePruningExact(t *testing.T) {
	for _, name := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "HPC2N-2002-2-first3170.swf.gz", "lublin_256.swf.gz"} {
		t.Run(name, func(t *testing.T) {
			tr := simtest.Load(t, testutil.Trace(t, name), false)
			if !*long && len(tr.Jobs) > 5000 {
				tr.Jobs = tr.Jobs[:5000]
			}
			run := func(naive bool) []sim.Job {
				jobs := tr.Clone()
				s, err := sim.New(sim.Config{Procs: tr.Procs}, jobs)
				if err != nil {
					t.Fatal(err)
				}
				c := NewConservative(len(jobs))
				c.naive = naive
				if err := s.Run(c); err != nil {
					t.Fatal(err)
				}
				return jobs
			}
			a, b := run(true), run(false)
			for i := range a {
				if a[i].Start != b[i].Start {
					t.Fatalf("job %d: naive start %d, pruned start %d", i, a[i].Start, b[i].Start)
				}
			}
		})
	}
}
