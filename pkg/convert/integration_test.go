package convert

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/swfkit/swfkit/internal/testutil"
)

// TestIntegrationSlurmJobMix runs scripts/slurm-jobmix.sh from scratch against
// the Slurm of scripts/slurm.sh (about 3 minutes: it waits for a job to time
// out, and for a requeued job, which Slurm starts again 2 minutes after the
// requeue)
// and compares the conversion of its fresh sacct dump with what it submitted.
func TestIntegrationSlurmJobMix(t *testing.T) {
	testutil.Slurm(t)
	if os.Geteuid() != 0 {
		// The script submits as the test users (runuser), which needs root.
		if testutil.Integration() {
			t.Fatal("the Slurm job mix needs root (it submits as the test users with runuser)")
		}
		t.Skip("SKIPPED: the Slurm job mix needs root (it submits as the test users with runuser)")
	}
	dir := t.TempDir()
	script := filepath.Join("..", "..", "scripts", "slurm-jobmix.sh")
	begin := time.Now()
	out, err := exec.Command("bash", script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("%s failed: %v\n%s", script, err, out)
	}
	t.Logf("job mix took %s: %s", time.Since(begin).Round(time.Second), out)
	checkAgainstTruth(t, dir)
}
