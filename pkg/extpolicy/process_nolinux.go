//go:build unix && !linux

package extpolicy

import "syscall"

// dieWithParent has no portable equivalent outside Linux: the program sees
// its input close when swfsim dies.
func dieWithParent(*syscall.SysProcAttr) {}

// exitedUnwaited is known on Linux only (/proc): elsewhere a program whose
// Wait has not returned counts as running.
func exitedUnwaited(int) bool { return false }
