package cmdio

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Output is one file a command writes (see Files). How it is written depends
// on what the name is when the run starts:
//
//   - "" or "-": the command's standard output, never closed;
//   - a new path or an existing regular file: a temporary file in the same
//     directory, renamed onto the name when the run commits, so a failed or
//     interrupted run leaves the old file (or nothing) and never a partial
//     one; an existing file keeps its permission bits (and, when allowed, its
//     owner), and a symbolic link is written through: the file it names is
//     replaced, the link stays;
//   - anything else (a character device such as /dev/null, a FIFO, a socket,
//     or /dev/stdout, /dev/stderr, /dev/fd/N): opened and written directly,
//     never replaced.
//
// A name ending in .gz or .zst is compressed (not standard output).
type Output struct {
	io.Writer
	name    string   // as given
	temp    string   // temporary file to rename onto target; "" when written directly
	target  string   // the path the temporary file replaces (symlinks resolved)
	file    *os.File // nil for standard output
	closers []func() error
	closed  bool
	done    bool
}

// Name is the output's name as given ("" or "-" for standard output).
func (o *Output) Name() string { return o.name }

// Staged reports whether the output is written under a temporary name and
// renamed into place only when the run commits, so that a failed run leaves
// nothing of it. Standard output, a device or a FIFO is not: what is written
// to it reaches its reader at once.
func (o *Output) Staged() bool { return o.temp != "" }

// Close flushes the compressor and commits the file (renames it into place).
// An Output from Files.Create is committed by Files.Finish instead.
func (o *Output) Close() error {
	if err := o.close(); err != nil {
		o.Abort()
		return err
	}
	return o.commit()
}

// Abort closes the output and removes its temporary file: nothing is written
// under the output's name. It does nothing for standard output or after a commit.
func (o *Output) Abort() {
	o.close()
	if o.done {
		return
	}
	o.done = true
	if o.temp != "" {
		os.Remove(o.temp)
		forgetTemp(o.temp)
	}
}

// close flushes and closes the writers (once) and returns the first error.
func (o *Output) close() error {
	if o.closed {
		return nil
	}
	o.closed = true
	var first error
	for _, c := range o.closers {
		if err := c(); err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		first = fmt.Errorf("%s: %w", o.name, first)
	}
	return first
}

// commit renames the temporary file onto the target.
func (o *Output) commit() error {
	if o.done {
		return nil
	}
	o.done = true
	if o.temp == "" {
		return nil
	}
	defer forgetTemp(o.temp)
	if err := os.Rename(o.temp, o.target); err != nil {
		os.Remove(o.temp)
		return err
	}
	return nil
}

// Finish ends a single Output made by Create: it commits it when *errp is nil
// (and stores a commit error in *errp), else aborts it. Commands with a Files
// use Files.Finish.
func Finish(o *Output, errp *error) {
	if o == nil {
		return
	}
	if *errp != nil {
		o.Abort()
		return
	}
	if err := o.Close(); err != nil {
		*errp = err
	}
}

// Create opens one output on its own, as Output describes, without the
// same-file checks of Files: commands use Files.Create.
//
// Standard output that was closed when the process started is an error: the
// output would be lost.
func Create(name string, stdout io.Writer) (*Output, error) {
	o := &Output{Writer: stdout, name: name}
	if IsStdio(name) {
		if stdoutClosed(stdout) {
			return nil, errStdoutClosed
		}
		return o, nil
	}
	f, err := openOutputFile(o, name)
	if err != nil {
		return nil, err
	}
	o.file = f
	o.Writer = f
	o.closers = []func() error{f.Close}
	if err := o.compress(); err != nil {
		o.Abort()
		return nil, err
	}
	return o, nil
}

// compress puts a compressor in front of the file by the name's extension.
func (o *Output) compress() error {
	switch name := strings.ToLower(o.name); {
	case strings.HasSuffix(name, ".gz"):
		zw := gzip.NewWriter(o.file)
		o.Writer = zw
		o.closers = append([]func() error{zw.Close}, o.closers...)
	case strings.HasSuffix(name, ".zst"):
		zw, err := zstd.NewWriter(o.file, zstd.WithEncoderConcurrency(1))
		if err != nil {
			return err
		}
		o.Writer = zw
		o.closers = append([]func() error{zw.Close}, o.closers...)
	}
	return nil
}

// openOutputFile opens the file an Output writes: the target itself when it
// must be written directly, else a new temporary file beside it.
func openOutputFile(o *Output, name string) (*os.File, error) {
	target, err := resolveLinks(name)
	if err != nil {
		return nil, err
	}
	info, statErr := os.Stat(target)
	switch {
	case statErr == nil && info.IsDir():
		return nil, fmt.Errorf("%s: is a directory", name)
	case statErr == nil && !info.Mode().IsRegular(), isDescriptorPath(name):
		// A device, FIFO or socket, or a descriptor the caller already
		// opened: write into it as it is. On a regular file behind a
		// descriptor, append: the shell's redirection decided truncation.
		flag := os.O_WRONLY
		if statErr == nil && info.Mode().IsRegular() {
			flag |= os.O_APPEND
		}
		return os.OpenFile(name, flag, 0)
	case statErr != nil && !errors.Is(statErr, fs.ErrNotExist):
		return nil, statErr
	case statErr == nil && !writable(target):
		// A file the user may not write (chmod a-w) is not replaced behind
		// their back, as writing it directly would not be allowed either.
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
	}
	f, temp, err := createTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-")
	if errors.Is(err, fs.ErrNotExist) {
		// Not the temporary name the system reports, which the user never
		// gave: the folder the output was to go in is missing.
		return nil, fmt.Errorf("%s: cannot create it: the folder %s does not exist", name, filepath.Dir(target))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if statErr == nil {
		// Keep the replaced file's mode and, where the system allows it,
		// its owner and group (root replacing a user's file).
		if err := f.Chmod(info.Mode().Perm() | info.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)); err != nil {
			f.Close()
			os.Remove(temp)
			forgetTemp(temp)
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		keepOwner(f, info)
	}
	o.temp, o.target = temp, target
	return f, nil
}

// isDescriptorPath reports whether name is one of the paths that stand for an
// open file descriptor of the process (/dev/stdout, /dev/fd/1, ...): renaming
// over what they point to would bypass the caller's redirection.
func isDescriptorPath(name string) bool {
	abs, err := filepath.Abs(name)
	if err != nil {
		return false
	}
	switch {
	case abs == "/dev/stdout", abs == "/dev/stderr", abs == "/dev/stdin",
		strings.HasPrefix(abs, "/dev/fd/"), strings.HasPrefix(abs, "/proc/"):
		return true
	}
	return false
}

// resolveLinks follows name while it is a symbolic link and returns the path
// it ends at, which need not exist (a dangling link names the file to create).
func resolveLinks(name string) (string, error) {
	p := name
	for i := 0; i < 40; i++ {
		info, err := os.Lstat(p)
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(p), dest)
		}
		p = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", name)
}

// createTemp creates a new file dir/prefixRANDOM with mode 0666 less the
// umask (what the file would get if created directly), registered for
// removal on SIGINT and SIGTERM.
func createTemp(dir, prefix string) (*os.File, string, error) {
	for try := 0; ; try++ {
		var b [6]byte
		rand.Read(b[:])
		name := filepath.Join(dir, prefix+hex.EncodeToString(b[:]))
		rememberTemp(name)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			return f, name, nil
		}
		forgetTemp(name)
		if !errors.Is(err, fs.ErrExist) || try > 100 {
			return nil, "", err
		}
	}
}

// CreateTemp creates a scratch file (a spool) in the system's temporary
// directory, removed by RemoveTemp or, if the process is interrupted by
// SIGINT or SIGTERM, on the way out. Its error is a *TempError; callers pass
// the errors of writing the file through InTempDir.
func CreateTemp(prefix string) (*os.File, error) {
	f, _, err := createTemp(os.TempDir(), prefix)
	return f, InTempDir(err)
}

// RemoveTemp closes and removes a file made by CreateTemp.
func RemoveTemp(f *os.File) {
	f.Close()
	os.Remove(f.Name())
	forgetTemp(f.Name())
}
