package extpolicy

import "syscall"

// dieWithParent: SIGKILL when swfsim (the thread that started the program)
// dies. Go's runtime does not end its threads while the program runs.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
