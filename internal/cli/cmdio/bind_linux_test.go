//go:build linux

package cmdio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFilesCheckNewOutputsThroughBindMount: two outputs not there yet are
// one file when they name the same file in one folder reached two ways, here
// through a bind mount (swfstat --csv bind/new.csv --json new.csv wrote the
// JSON over the CSV: their paths differ as text). Needs the right to mount
// (root); skipped otherwise.
func TestFilesCheckNewOutputsThroughBindMount(t *testing.T) {
	dir := t.TempDir()
	real, bind, other := filepath.Join(dir, "real"), filepath.Join(dir, "bind"), filepath.Join(dir, "other")
	for _, d := range []string{real, bind, other} {
		os.Mkdir(d, 0o755)
	}
	if err := syscall.Mount(real, bind, "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount here (%v)", err)
	}
	t.Cleanup(func() { syscall.Unmount(bind, 0) })
	fs := NewFiles(nil, nil)
	fs.Output("--csv", filepath.Join(bind, "new.csv"))
	fs.Output("--json", filepath.Join(real, "new.csv"))
	var usage *UsageError
	if err := fs.Check(); !errors.As(err, &usage) || !strings.Contains(err.Error(), "are the same file") {
		t.Errorf("one new file named twice: Check() = %v, want a usage error", err)
	}
	fs = NewFiles(nil, nil)
	fs.Output("--csv", filepath.Join(real, "new.csv"))
	fs.Output("--json", filepath.Join(other, "new.csv"))
	if err := fs.Check(); err != nil {
		t.Errorf("two folders: %v", err)
	}
}
