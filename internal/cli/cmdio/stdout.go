package cmdio

import (
	"errors"
	"io"
	"os"
)

// errStdoutClosed is the error for output to a standard output that was
// closed when the process started.
var errStdoutClosed = errors.New("standard output is closed: the output would be lost (write it with -o FILE, or redirect it)")

// Stdout is the process's standard output for a main to pass to its command:
// os.Stdout, or, when the shell closed it (stdoutClosed), a writer whose every
// write fails with the error, so that nothing a command prints (a trace, a
// list, --help) vanishes with exit 0: Run turns a write to it into exit 1.
func Stdout() io.Writer {
	if stdoutClosed(os.Stdout) {
		return &closedStdout{}
	}
	return os.Stdout
}

// closedStdout stands for a closed standard output; wrote records an attempt.
type closedStdout struct{ wrote bool }

func (w *closedStdout) Write([]byte) (int, error) {
	w.wrote = true
	return 0, errStdoutClosed
}

// stdoutClosed reports whether w is a standard output that the shell closed
// (swfstat t.swf >&-). The Go runtime reopens a closed descriptor 0, 1 or 2
// on /dev/null, read-write, so writes would succeed and vanish; a /dev/null
// opened read-write is taken for that. (A shell's >/dev/null opens it
// write-only, so it is not mistaken.)
func stdoutClosed(w io.Writer) bool {
	if _, ok := w.(*closedStdout); ok {
		return true
	}
	f, ok := w.(*os.File)
	return ok && f != nil && f.Fd() == 1 && closedOnNull(f)
}

// closedOnNull reports whether descriptor f (0, 1 or 2) was closed when the
// process started: not open at all, or the /dev/null opened read-write that
// the runtime puts in its place.
func closedOnNull(f *os.File) bool {
	switch rw, open := openReadWrite(f); {
	case !open:
		return true // EBADF: closed (a runtime that does not reopen it)
	case !rw:
		return false
	}
	info, err1 := f.Stat()
	null, err2 := os.Stat(os.DevNull)
	return err1 == nil && err2 == nil && os.SameFile(info, null)
}
