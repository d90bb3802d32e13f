package extpolicy

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// dieWithParent: SIGKILL when swfsim (the thread that started the program)
// dies. Go's runtime does not end its threads while the program runs.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// exitedUnwaited reports whether process pid has exited while Wait has not
// returned: Wait reaps the process, then waits for the pipes it copies,
// which the program may have left to a process it started, so the exit
// shows here first: a zombie, or (reaped) no process at all.
func exitedUnwaited(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, fs.ErrNotExist) {
		// Reaped, unless there is no /proc to tell (a chroot).
		_, serr := os.Stat("/proc/self/stat")
		return serr == nil
	}
	if err != nil {
		return false
	}
	// pid (comm) state ...: comm may hold blanks and parentheses.
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}
