package cmdio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// TempError is an error creating, writing or reading back a file of
// CreateTemp. The system's message names a file the user never chose
// (/tmp/swfaugment-body-1a2b3c...); this one also names the temporary
// folder, says where it comes from and what to do.
type TempError struct {
	Dir string // the temporary folder, os.TempDir()
	Err error
}

func (e *TempError) Error() string {
	where := e.Dir + ", from $" + tempDirVariable
	if os.Getenv(tempDirVariable) == "" {
		where = e.Dir + ", the default: $" + tempDirVariable + " is not set"
	}
	var what string
	switch {
	case errors.Is(e.Err, syscall.ENOSPC), errors.Is(e.Err, syscall.EDQUOT):
		what = "is full: free space there, or set " + tempDirVariable + " to a folder with more room"
	case errors.Is(e.Err, syscall.EFBIG):
		what = "where the file passed the file size limit of the process (ulimit -f): raise the limit"
	case errors.Is(e.Err, syscall.ENOTDIR):
		what = "is not a folder: set " + tempDirVariable + " to a folder"
	case errors.Is(e.Err, fs.ErrNotExist):
		what = "does not exist: create it, or set " + tempDirVariable + " to a folder that does"
	case errors.Is(e.Err, fs.ErrPermission), errors.Is(e.Err, syscall.EROFS):
		what = "cannot be written: set " + tempDirVariable + " to a folder you may write"
	default:
		what = "failed: set " + tempDirVariable + " to another folder"
	}
	return fmt.Sprintf("%v (the temporary folder %s, %s)", e.Err, where, what)
}

func (e *TempError) Unwrap() error { return e.Err }

// InTempDir returns err, an error of a file of CreateTemp, as a *TempError;
// nil and a *TempError are returned as they are.
func InTempDir(err error) error {
	var temp *TempError
	if err == nil || errors.As(err, &temp) {
		return err
	}
	return &TempError{Dir: os.TempDir(), Err: err}
}

// TempWriter returns f, a file of CreateTemp, as a writer whose errors are
// *TempErrors: a full temporary folder says so, whoever writes the spool.
func TempWriter(f *os.File) io.Writer { return tempWriter{f} }

type tempWriter struct{ f *os.File }

func (w tempWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	return n, InTempDir(err)
}
