package policy

import (
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

// thebeLANL names LANL-CM5 as loadThebeLANL prepares it.
const thebeLANL = "LANL-CM5-thebe"

// loadThebeLANL loads LANL-CM5 as Thebe et al. evidently did (it reproduces
// their Fig. 4 FCFS, timed-FCFS and EASY figures): processors from field 5
// (swfsim --procs-from allocated), and user estimates never below the runtime
// (field 9 raised to field 4 where smaller).
func loadThebeLANL(tb testing.TB) *researchTrace {
	tr := simtest.Load(tb, testutil.Trace(tb, "LANL-CM5-1994-4.1-cln.swf.gz"), true)
	out := &researchTrace{name: thebeLANL, procs: tr.Procs}
	for i := range tr.Input {
		j, why := sim.FromSWF(&tr.Input[i], tr.Procs, sim.ProcsAllocated)
		if why != sim.NotSkipped {
			continue
		}
		j.Estimate = max(j.Estimate, j.Runtime)
		out.jobs = append(out.jobs, j)
	}
	return out
}
