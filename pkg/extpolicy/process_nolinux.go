//go:build unix && !linux

package extpolicy

import "syscall"

// dieWithParent has no portable equivalent outside Linux: the program sees
// its input close when swfsim dies.
func dieWithParent(*syscall.SysProcAttr) {}
