package cmdio

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A scratch file that cannot be created or written is an error that names
// the temporary folder, where it comes from and what to do, not only the
// system's message about a file the user never named.
func TestTempErrorSaysWhatToDo(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		tmpdir string
		err    error // nil: the error of CreateTemp in tmpdir
		want   []string
	}{
		{"missing", filepath.Join(dir, "missing"), nil, []string{"no such file", "the temporary folder " + filepath.Join(dir, "missing") + ", from $TMPDIR, does not exist: create it, or set TMPDIR"}},
		{"a file", file, nil, []string{"not a directory", "the temporary folder " + file + ", from $TMPDIR, is not a folder: set TMPDIR to a folder"}},
		{"full", dir, &fs.PathError{Op: "write", Path: dir + "/x", Err: syscall.ENOSPC}, []string{"no space left", "is full: free space there, or set TMPDIR to a folder with more room"}},
		{"quota", dir, &fs.PathError{Op: "write", Path: dir + "/x", Err: syscall.EDQUOT}, []string{"is full"}},
		{"ulimit -f", dir, &fs.PathError{Op: "write", Path: dir + "/x", Err: syscall.EFBIG}, []string{"file too large", "where the file passed the file size limit of the process (ulimit -f): raise the limit"}},
		{"read-only", dir, &fs.PathError{Op: "open", Path: dir + "/x", Err: syscall.EROFS}, []string{"cannot be written: set TMPDIR to a folder you may write"}},
		{"permission", dir, &fs.PathError{Op: "open", Path: dir + "/x", Err: syscall.EACCES}, []string{"cannot be written"}},
		{"other", dir, &fs.PathError{Op: "write", Path: dir + "/x", Err: syscall.EIO}, []string{"input/output error", "failed: set TMPDIR to another folder"}},
		{"unset", "", &fs.PathError{Op: "write", Path: "/tmp/x", Err: syscall.ENOSPC}, []string{"the temporary folder /tmp, the default: $TMPDIR is not set, is full"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("TMPDIR", tc.tmpdir)
			err := InTempDir(tc.err)
			if tc.err == nil {
				f, cerr := CreateTemp("x-")
				if cerr == nil {
					RemoveTemp(f)
					t.Fatal("CreateTemp succeeded")
				}
				err = cerr
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q\nlacks %q", err, w)
				}
			}
			if tc.err != nil && !errors.Is(err, tc.err) {
				t.Errorf("%v does not wrap %v", err, tc.err)
			}
			if again := InTempDir(err); again != err {
				t.Errorf("wrapped twice: %v", again)
			}
		})
	}
	if InTempDir(nil) != nil {
		t.Error("InTempDir(nil) is not nil")
	}
}
