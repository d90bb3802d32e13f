//go:build linux

package cmdio

import (
	"errors"
	"io"
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

// TestOutputOnReadOnlyFileSystem: an existing output on a read-only mount is
// refused with the system's reason, "read-only file system", not "permission
// denied" (the access(2) check's error was replaced by EACCES), and left as
// it was. Needs the right to mount (root); skipped otherwise.
func TestOutputOnReadOnlyFileSystem(t *testing.T) {
	dir := t.TempDir()
	real, ro := filepath.Join(dir, "real"), filepath.Join(dir, "ro")
	os.Mkdir(real, 0o755)
	os.Mkdir(ro, 0o755)
	if err := os.WriteFile(filepath.Join(real, "old.swf"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount(real, ro, "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount here (%v)", err)
	}
	t.Cleanup(func() { syscall.Unmount(ro, 0) })
	if err := syscall.Mount("", ro, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot make the bind mount read-only here (%v)", err)
	}
	target := filepath.Join(ro, "old.swf")
	fs := NewFiles(nil, nil)
	fs.Output("-o", target)
	err := fs.Check()
	if err == nil {
		var out io.WriteCloser
		out, err = fs.Create(target)
		if err == nil {
			out.Close()
		}
	}
	if !errors.Is(err, syscall.EROFS) || !strings.Contains(err.Error(), "read-only file system") {
		t.Errorf("an output on a read-only mount: %v, want read-only file system", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "old\n" {
		t.Errorf("the file now holds %q", data)
	}
}
