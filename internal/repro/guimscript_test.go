package repro

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuimErrorsScriptShowsFailures: scripts/guim-errors.sh runs under set
// -e, so a failing swfsim ends the table; its message must reach stderr (the
// script used to send swfsim's stderr to /dev/null, ending with no word
// why), with the command that failed. Fake tools stand in for the real
// ones: the first swfsim run fails.
func TestGuimErrorsScriptShowsFailures(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	bin, data := t.TempDir(), t.TempDir()
	tools := map[string]string{
		"swfsim": "#!/bin/sh\necho 'swfsim: x: 9 of 10 jobs (90.0%) run past their requested time and will be killed at it; use --no-kill to let them run' >&2\n" +
			"echo 'swfsim: x: line 3: field 4: the trace is broken' >&2\nexit 1\n",
		"swfaugment": "#!/bin/sh\nexit 0\n",
		"swfstat":    "#!/bin/sh\nexit 0\n",
	}
	for name, text := range tools {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const script = "../../scripts/guim-errors.sh"
	// Read here so that go test's cache sees a change to the script.
	if _, err := os.ReadFile(script); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, script, bin, data)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if err == nil {
		t.Fatalf("the script succeeded with a failing swfsim:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "the trace is broken") || !strings.Contains(stderr.String(), "swfsim --kill-warn off --policy easy") {
		t.Errorf("stderr %q: want swfsim's message and the command that failed", stderr.String())
	}
}
