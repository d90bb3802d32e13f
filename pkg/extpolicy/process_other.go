//go:build !unix

package extpolicy

import (
	"os"
	"os/exec"
)

func ownGroup(*exec.Cmd) {}

func killGroup(p *os.Process) { _ = p.Kill() }

// reapGroup does nothing where the program has no process group of its own.
func reapGroup(*os.Process) {}

// exitedUnwaited is known on Linux only (/proc).
func exitedUnwaited(int) bool { return false }
