//go:build unix

package extpolicy

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts the program in a process group of its own, so that
// killGroup also stops what it started (sh -c '...', a Python worker).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(p *os.Process) {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil {
		_ = p.Kill()
	}
}
