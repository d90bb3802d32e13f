//go:build unix

package cmdio

import (
	"os"
	"strconv"
	"testing"
)

// The paths that name a descriptor of the process itself: every one names
// it for ownDescriptor, and those of 0, 1 and 2 for stdDescriptor too.
func TestDescriptorPaths(t *testing.T) {
	pid := strconv.Itoa(os.Getpid())
	for _, c := range []struct {
		path string
		fd   int // -1: names no descriptor of the process
	}{
		{"/dev/stdin", 0}, {"/dev/stdout", 1}, {"/dev/stderr", 2},
		{"/dev/../dev/stdout", 1}, {"/dev/stdout/", 1},
		{"/dev/fd/0", 0}, {"/dev/fd/2", 2}, {"/dev/fd/3", 3}, {"/dev/fd/17", 17},
		{"/proc/self/fd/1", 1}, {"/proc/thread-self/fd/2", 2}, {"/proc/" + pid + "/fd/1", 1},
		{"/proc/self/task/" + pid + "/fd/1", 1}, {"/proc/self/fd/9", 9},
		{"/dev/fd/01", -1}, {"/dev/fd/+1", -1}, {"/dev/fd/-1", -1}, {"/dev/fd/x", -1}, {"/dev/fd/1/x", -1},
		{"/dev/fd/", -1}, {"/proc/1/fd/1", -1}, {"/proc/self/fd/", -1}, {"/dev/stdio", -1}, {"stdout", -1},
	} {
		fd, ok := ownDescriptor(c.path)
		if want := c.fd >= 0; ok != want || ok && fd != c.fd {
			t.Errorf("ownDescriptor(%q) = %d, %v, want %d", c.path, fd, ok, c.fd)
		}
		fd, ok = stdDescriptor(c.path)
		if want := c.fd >= 0 && c.fd <= 2; ok != want || ok && fd != c.fd {
			t.Errorf("stdDescriptor(%q) = %d, %v, want %d, %v", c.path, fd, ok, c.fd, want)
		}
	}
}
