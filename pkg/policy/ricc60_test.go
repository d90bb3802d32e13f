package policy

import (
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

func TestRICC60Pruning(t *testing.T) {
	tr := simtest.Load(t, testutil.Trace(t, "RICC-2010-2.swf.gz"), false)
	run := func(naive bool) []sim.Job {
		jobs := tr.Clone()[:60000]
		s, _ := sim.New(sim.Config{Procs: tr.Procs}, jobs)
		c := NewConservative(len(jobs))
		c.naive = naive
		s.Run(c)
		return jobs
	}
	a, b := run(true), run(false)
	n := 0
	for i := range a {
		if a[i].Start != b[i].Start {
			if n < 5 {
				t.Errorf("job %d: naive start %d, pruned start %d", i, a[i].Start, b[i].Start)
			}
			n++
		}
	}
	t.Logf("%d differ", n)
}
