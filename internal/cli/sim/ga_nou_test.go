package simcli

import (
	"strings"
	"testing"
)

// TestGAJobsWithoutUtility: ga and ga-ckpt count a job without u= as worth
// 0; when some but not all jobs lack one, stderr and a Note say how many.
// All lacking is an error (TestCLIGANoteAndNoUtility).
func TestGAJobsWithoutUtility(t *testing.T) {
	in := strings.Replace(tinyTrace, " u=0:1000,200:0", "", 1)
	for _, pol := range []string{"ga", "ga-ckpt"} {
		// The policy run is named: "ga counts them" under ga-ckpt
		// named another policy.
		text := "1 of 2 simulated jobs have no u= token: " + pol + " counts them as worth 0 whenever they end; add them with swfaugment --utility"
		out, errs, code := runSim(t, in, "--policy", pol)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", pol, code, errs)
		}
		if !strings.Contains(errs, "swfsim: warning: <stdin>: "+text+"\n") {
			t.Errorf("%s: stderr %q lacks the warning", pol, errs)
		}
		if !strings.Contains(out, "; Note: swfsim "+pol+": "+text+"\n") {
			t.Errorf("%s: output lacks the Note:\n%s", pol, out)
		}
	}
	// Every job with u=, or a policy that reads none: nothing said.
	for _, run := range [][]string{{tinyTrace, "ga"}, {in, "easy"}} {
		out, errs, _ := runSim(t, run[0], "--policy", run[1])
		if strings.Contains(errs+out, "no u= token") {
			t.Errorf("%s: unexpected warning: %s", run[1], errs)
		}
	}
}
