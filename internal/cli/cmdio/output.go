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
	"sync"
	"sync/atomic"
	"unicode/utf8"

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

// commit renames the temporary file onto the target (commitAll).
func (o *Output) commit() error { return commitAll([]*Output{o}) }

// commitMu is held while outputs are renamed into place: a signal that
// comes then waits for the renames (watchSignals), so that a run ends with
// all its outputs or none, never some replaced and some old.
var commitMu sync.Mutex

// signalled is set when SIGINT, SIGTERM or SIGHUP came (watchSignals).
var signalled atomic.Bool

// commitAll renames the outputs' temporary files onto their targets, all or
// none. With two outputs or more, a file about to be replaced first gets a
// second name (a hard link beside it, .NAME.old-RANDOM), and when a rename
// fails the ones made before it are undone (each old file put back, each new
// one removed); one output's rename is all or nothing by itself. A target
// that cannot get a second name (a file system without hard links) is
// renamed last, so that only such targets may stay replaced. The error
// names the output, not the temporary file.
func commitAll(outs []*Output) error {
	commitMu.Lock()
	defer func() {
		commitMu.Unlock()
		if signalled.Load() {
			// A signal came during the renames: its handler ends the
			// process by it now (the outputs are all in place); the run
			// must not end with status 0 first.
			select {}
		}
	}()
	steps := commitSteps(outs)
	for _, st := range steps {
		// A folder that took an output's name would fail its rename:
		// known before any rename is made.
		if info, err := os.Lstat(st.o.target); err == nil && info.IsDir() {
			return undoCommit(steps, 0, st.o.name, errors.New("a folder has its name"))
		}
	}
	for i, st := range steps {
		if err := rename(st.o.temp, st.o.target); err != nil {
			return undoCommit(steps, i, st.o.name, err)
		}
	}
	for _, st := range steps {
		if st.backup != "" {
			os.Remove(st.backup)
		}
		forgetTemp(st.o.temp)
	}
	return nil
}

// commitStep is one output's rename: the old file's second name ("" none).
type commitStep struct {
	o       *Output
	backup  string
	existed bool
}

// commitSteps marks the outputs done and returns the renames to make, in
// order, the files they replace given second names when there are two
// renames or more.
func commitSteps(outs []*Output) []commitStep {
	var steps, last []commitStep
	staged := 0
	for _, o := range outs {
		if !o.done && o.temp != "" {
			staged++
		}
	}
	for _, o := range outs {
		if o.done {
			continue
		}
		o.done = true
		if o.temp == "" {
			continue
		}
		st := commitStep{o: o}
		if _, err := os.Lstat(o.target); err == nil {
			st.existed = true
			if staged > 1 {
				st.backup = makeBackup(o.target)
			}
		}
		if st.existed && st.backup == "" && staged > 1 {
			last = append(last, st)
		} else {
			steps = append(steps, st)
		}
	}
	return append(steps, last...)
}

// undoCommit undoes the renames before steps[failed], removes what is left,
// and returns the error of output name (err): with any old file that could
// not be put back and where its content is.
func undoCommit(steps []commitStep, failed int, name string, err error) error {
	var lost []string
	for _, done := range steps[:failed] {
		switch {
		case done.backup != "":
			if rerr := os.Rename(done.backup, done.o.target); rerr != nil {
				lost = append(lost, fmt.Sprintf("%s holds the new output: its old content is in %s", done.o.name, done.backup))
			}
		case !done.existed:
			os.Remove(done.o.target)
		default:
			lost = append(lost, fmt.Sprintf("%s holds the new output (no second name could keep the old one)", done.o.name))
		}
	}
	for _, rest := range steps[failed:] {
		os.Remove(rest.o.temp)
		if rest.backup != "" {
			os.Remove(rest.backup)
		}
	}
	for _, st := range steps {
		forgetTemp(st.o.temp)
	}
	err = fmt.Errorf("%s: cannot put it in place: %w", name, withoutPath(err))
	if len(lost) > 0 {
		err = fmt.Errorf("%w; the outputs before it could not all be undone: %s", err, strings.Join(lost, "; "))
	}
	return err
}

// makeBackup is linkBackup and rename os.Rename (tests replace them).
var (
	makeBackup = linkBackup
	rename     = os.Rename
)

// linkBackup gives the file path a second name beside it and returns that
// name, or "" when it cannot (no hard links there).
func linkBackup(path string) string {
	dir, base := filepath.Dir(path), filepath.Base(path)
	for try := 0; try < 100; try++ {
		name := filepath.Join(dir, hiddenName(base, ".old-"))
		err := os.Link(path, name)
		if err == nil {
			return name
		}
		if !errors.Is(err, fs.ErrExist) {
			return ""
		}
	}
	return ""
}

// maxNameBytes is the longest file name most file systems take (NAME_MAX).
const maxNameBytes = 255

// hiddenName is "." + base + tag + 12 random hex digits, base cut short so
// that the name fits in maxNameBytes: an output whose own name is near the
// limit still gets a temporary file beside it.
func hiddenName(base, tag string) string {
	if n := maxNameBytes - 1 - len(tag) - 12; len(base) > n {
		for n > 0 && !utf8.RuneStart(base[n]) {
			n-- // not in the middle of a character
		}
		base = base[:n]
	}
	var b [6]byte
	rand.Read(b[:])
	return "." + base + tag + hex.EncodeToString(b[:])
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
	nf := &namedFile{f: f, name: name}
	o.Writer = nf
	o.closers = []func() error{nf.Close}
	if err := o.compress(); err != nil {
		o.Abort()
		return nil, err
	}
	return o, nil
}

// withoutPath is err without the paths a *fs.PathError or *os.LinkError
// names, which are temporary files the user never gave: the system's cause.
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// namedFile writes f, its errors naming the output as given, not the
// temporary file the user never named ("x.swf: write: no space left on
// device").
type namedFile struct {
	f    *os.File
	name string
}

func (w *namedFile) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	return n, w.named(err)
}

func (w *namedFile) Close() error { return w.named(w.f.Close()) }

func (w *namedFile) named(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == w.f.Name() {
		return &fs.PathError{Op: pe.Op, Path: w.name, Err: pe.Err}
	}
	return err
}

// compress puts a compressor in front of the file by the name's extension.
func (o *Output) compress() error {
	switch name := strings.ToLower(o.name); {
	case strings.HasSuffix(name, ".gz"):
		zw := gzip.NewWriter(o.Writer)
		o.Writer = zw
		o.closers = append([]func() error{zw.Close}, o.closers...)
	case strings.HasSuffix(name, ".zst"):
		zw, err := zstd.NewWriter(o.Writer, zstd.WithEncoderConcurrency(1))
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
	descriptor := isDescriptorPath(target) // resolveLinks stopped there
	if fd, ok := stdDescriptor(target); ok && descriptorClosed(fd) {
		// The runtime reopened the closed descriptor on /dev/null.
		return nil, fmt.Errorf("%s: descriptor %d is closed: the output would be lost (write it to a file, or redirect it)", name, fd)
	}
	switch {
	case statErr == nil && info.IsDir():
		return nil, fmt.Errorf("%s: is a directory", name)
	case statErr == nil && !info.Mode().IsRegular(), descriptor:
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
	case statErr == nil:
		// A file the user may not write (chmod a-w) is not replaced behind
		// their back, as writing it directly would not be allowed either;
		// the error says why (permission denied, read-only file system).
		if err := writeAccess(target); err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
	f, temp, err := createTemp(filepath.Dir(target), filepath.Base(target))
	if errors.Is(err, fs.ErrNotExist) {
		// Not the temporary name the system reports, which the user never
		// gave: the folder the output was to go in is missing.
		return nil, fmt.Errorf("%s: cannot create it: the folder %s does not exist", name, filepath.Dir(target))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot create a file in %s: %w", name, filepath.Dir(target), withoutPath(err))
	}
	if statErr == nil {
		// Keep the replaced file's owner and group, where the system
		// allows it (root replacing a user's file), then its mode: a
		// change of owner clears the setuid and setgid bits.
		keepOwner(f, info)
		if err := f.Chmod(info.Mode().Perm() | info.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)); err != nil {
			f.Close()
			os.Remove(temp)
			forgetTemp(temp)
			return nil, fmt.Errorf("%s: cannot give it the replaced file's mode: %w", name, withoutPath(err))
		}
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
		strings.HasPrefix(abs, "/dev/fd/"):
		return true
	}
	// /proc/self/fd/N, /proc/PID/fd/N, /proc/thread-self/fd/N,
	// /proc/PID/task/TID/fd/N; not the rest of /proc (/proc/self/cwd/x is
	// an ordinary file).
	_, ok := procDescriptor(abs)
	return ok
}

// procDescriptor parses /proc/X/fd/N and /proc/X/task/Y/fd/N: the process
// part X ("self", "thread-self", a number) and whether it is one.
func procDescriptor(abs string) (proc string, ok bool) {
	parts := strings.Split(abs, "/")
	switch {
	case len(parts) == 5 && parts[1] == "proc" && parts[3] == "fd" && parts[4] != "":
		return parts[2], true
	case len(parts) == 7 && parts[1] == "proc" && parts[3] == "task" && parts[5] == "fd" && parts[6] != "":
		return parts[2], true
	}
	return "", false
}

// stdDescriptor returns the descriptor 0, 1 or 2 a descriptor path names
// (/dev/stdout, /dev/fd/2, /proc/self/fd/1).
func stdDescriptor(path string) (int, bool) {
	fd, ok := ownDescriptor(path)
	return fd, ok && fd <= 2
}

// descriptorClosed reports whether descriptor fd (1 or 2) was closed when
// the process started, as stdoutClosed tells for standard output.
func descriptorClosed(fd int) bool {
	// The process's own *os.File: one made here for the descriptor would
	// close it when collected.
	f := map[int]*os.File{0: os.Stdin, 1: os.Stdout, 2: os.Stderr}[fd]
	return f != nil && closedOnNull(f)
}

// resolveLinks follows name while it is a symbolic link and returns the path
// it ends at, which need not exist (a dangling link names the file to
// create), its folder resolved as the kernel does (realParent). It stops at
// a path to a descriptor of the process (/dev/stdout, /proc/PID/fd/N, also
// reached through a linked folder): that leads to what the descriptor is
// open on, the caller's redirection, which is written into as it is. A
// spelling the kernel refuses (in.swf/, in.swf/x/.., a missing folder
// before .., more than 40 links) is an error, never cleaned into a name
// it would not open.
func resolveLinks(name string) (string, error) {
	p := name
	for i := 0; i < 40; i++ {
		if real := realParent(p); isDescriptorPath(real) {
			return real, nil
		}
		info, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// A new file: its folder must be there, as the kernel
			// finds it.
			if strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(filepath.Separator)) {
				return "", fmt.Errorf("%s: no such folder", name)
			}
			if _, derr := os.Stat(dirPart(p)); derr != nil {
				if errors.Is(derr, fs.ErrNotExist) {
					return "", fmt.Errorf("%s: cannot create it: the folder %s does not exist", name, dirPart(p))
				}
				return "", fmt.Errorf("%s: %w", name, derr)
			}
			return realParent(p), nil
		case err != nil:
			return "", err
		case info.Mode()&fs.ModeSymlink == 0:
			return realParent(p), nil
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			// Not filepath.Join, which would apply ".." to the text
			// before the folder's own links are followed.
			dest = dirPart(p) + string(filepath.Separator) + dest
		}
		p = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", name)
}

// splitLast splits path at its last separator, after its volume name
// (Windows): the folder part as written (not cleaned; "" when there is
// none) and the last name.
func splitLast(path string) (dir, base string, ok bool) {
	vol := filepath.VolumeName(path)
	rest := path[len(vol):]
	i := strings.LastIndexFunc(rest, func(r rune) bool { return os.IsPathSeparator(uint8(r)) })
	switch {
	case i < 0:
		return vol, rest, false
	case i == 0:
		return vol + rest[:1], rest[1:], true
	}
	return vol + rest[:i], rest[i+1:], true
}

// dirPart is the folder part of path as written ("." when there is none),
// not cleaned.
func dirPart(path string) string {
	if dir, _, _ := splitLast(path); dir != "" {
		return dir // a volume alone (C:) is its current folder
	}
	return "."
}

// realParent is path with its folder resolved as the kernel resolves it
// (each symbolic link, then each ".." after it: lnk/../x is the x beside
// the folder lnk names, not ./x) and its last name kept; path cleaned as
// it is when the folder cannot be resolved.
func realParent(path string) string {
	_, base, _ := splitLast(path)
	dir, err := filepath.EvalSymlinks(dirPart(path))
	if err != nil || base == "" {
		return filepath.Clean(path)
	}
	return filepath.Join(dir, base)
}

// createTemp creates a new file dir/.BASE.tmp-RANDOM (hiddenName) with mode
// 0666 less the umask (what the file would get if created directly),
// registered for removal on SIGINT and SIGTERM.
func createTemp(dir, base string) (*os.File, string, error) {
	return createFile(dir, func() string { return hiddenName(base, ".tmp-") })
}

// createFile creates a new file dir/NAME, NAME from name (random: tried
// again when taken), registered for removal on SIGINT and SIGTERM.
func createFile(dir string, name func() string) (*os.File, string, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, name())
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
	f, _, err := createFile(os.TempDir(), func() string {
		var b [6]byte
		rand.Read(b[:])
		return prefix + hex.EncodeToString(b[:])
	})
	return f, InTempDir(err)
}

// RemoveTemp closes and removes a file made by CreateTemp.
func RemoveTemp(f *os.File) {
	f.Close()
	os.Remove(f.Name())
	forgetTemp(f.Name())
}
