//go:build unix

package extpolicy

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts the program in a process group of its own, so that
// killGroup also stops what it started (sh -c '...', a Python worker), and,
// where the system can, has it killed when swfsim dies, since the terminal's
// signals no longer reach its group (swfsim kills the group itself on the
// signals it catches: Policy.Kill).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

func killGroup(p *os.Process) {
	if err := syscall.Kill(-p.Pid, syscall.SIGKILL); err != nil {
		_ = p.Kill()
	}
}

// reapGroup kills what is left of the process group of p, which has exited
// and been waited for; none left is no error.
func reapGroup(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }
