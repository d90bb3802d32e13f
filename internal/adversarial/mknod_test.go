//go:build unix

package adversarial

import "syscall"

// mknod makes a character device with the numbers of /dev/null (1, 3).
func mknod(path string) error {
	return syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3)
}
