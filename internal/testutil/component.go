package testutil

import (
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// IntegrationEnv is the environment variable that `make test-integration` sets to 1
// after installing and starting every real component. Under it a missing component
// fails the test instead of skipping it, so the integration run cannot pass by
// skipping what it was meant to exercise.
const IntegrationEnv = "SWFKIT_INTEGRATION"

// Integration reports whether the run is `make test-integration`.
func Integration() bool { return os.Getenv(IntegrationEnv) == "1" }

// Component returns the path of a real program a test runs (parallel, chromium,
// python3, sbatch, ...). When it is not installed the test is skipped with a loud
// message naming the Debian package, or fails under `make test-integration`.
func Component(tb testing.TB, program, debianPackage string) string {
	tb.Helper()
	path, err := exec.LookPath(program)
	if err == nil {
		return path
	}
	missing(tb, "%s not installed (Debian package %s; `make test-integration` installs it)", program, debianPackage)
	return ""
}

// Slurm skips the test unless a Slurm controller answers on this machine
// (scripts/slurm.sh start); under `make test-integration` it fails instead.
func Slurm(tb testing.TB) {
	tb.Helper()
	Component(tb, "sbatch", "slurm-wlm")
	cmd := exec.Command("scontrol", "ping")
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		missing(tb, "scontrol cannot run: %v", err)
		return
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			missing(tb, "no Slurm controller answers (start one with `bash scripts/slurm.sh start`): %v", err)
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		missing(tb, "scontrol ping did not answer in 20 s")
	}
}

func missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if Integration() {
		tb.Fatalf("real component missing under "+IntegrationEnv+"=1: "+format, args...)
	}
	tb.Logf("SKIPPED, real component missing: "+format, args...)
	tb.SkipNow()
}

// GoTool returns the go command that builds example programs in tests: the
// one on PATH, else the one in the GOROOT this test was built with.
func GoTool(tb testing.TB) string {
	tb.Helper()
	if path, err := exec.LookPath("go"); err == nil {
		return path
	}
	return filepath.Join(build.Default.GOROOT, "bin", "go")
}
