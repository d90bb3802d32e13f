package cmdio

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Files is the set of files one run of a command reads and writes. A command
// registers every input (trace arguments and side inputs) and every output
// (-o and side files such as --report or --plot) while it parses its flags,
// calls Check before it reads or writes anything, opens and creates them
// through Files, and ends with Finish, which commits every output only when
// the whole run succeeded:
//
//	files := cmdio.NewFiles(stdin, stdout)
//	files.Input("", traceName)
//	files.Output("-o", c.String("output"))
//	files.Output("--report", c.String("report"))
//	if err := files.Check(); err != nil { return err } // usage error, exit 2
//	defer files.Finish(&err)
//	in, err := files.Open(traceName)
//	out, err := files.Create(c.String("output"))
//
// Names "" and "-" are standard input or output. The zero value is not usable:
// use NewFiles.
type Files struct {
	// MainOutput names, in messages, what -o writes ("the summary");
	// "" is "the output".
	MainOutput string

	stdin   io.Reader
	stdout  io.Writer
	inputs  []fileArg
	outputs []fileArg
	created []*Output
	// sideDone: every output but standard output is written whole
	// (SideFilesDone).
	sideDone bool
}

// fileArg is a file named on the command line and the flag that named it
// ("" for an operand).
type fileArg struct {
	flag, name string
	output     bool
}

func (a fileArg) String() string {
	switch {
	case IsStdio(a.name) && a.output && a.flag != "-o" && a.flag != "":
		return a.flag + " - (standard output)"
	case IsStdio(a.name) && a.output:
		return "standard output"
	case IsStdio(a.name):
		return "standard input"
	case a.flag == "":
		return a.name
	}
	return a.flag + " " + a.name
}

// NewFiles returns an empty set over the command's standard input and output.
func NewFiles(stdin io.Reader, stdout io.Writer) *Files {
	return &Files{stdin: stdin, stdout: stdout}
}

// Input registers a file the run reads; flag is the option that names it, ""
// for an operand. A name that is "" is not registered (flag not given) unless
// flag is "" too (standard input).
func (fs *Files) Input(flag, name string) {
	if name == "" && flag != "" {
		return
	}
	fs.inputs = append(fs.inputs, fileArg{flag: flag, name: name})
}

// Output registers a file the run writes. Name "" is not registered for a
// side file (flag not given), but is standard output for "-o".
func (fs *Files) Output(flag, name string) {
	if name == "" && flag != "-o" {
		return
	}
	fs.outputs = append(fs.outputs, fileArg{flag: flag, name: name, output: true})
}

// Check refuses, with a usage error, an output that is the same file as an
// input or as another output (os.SameFile: hard links and symbolic links
// count; standard input and output count when they are regular files), so
// that no run can destroy what it reads. Character devices (/dev/null) may
// be both. It also refuses two inputs that both read standard input, as it
// refuses two outputs to standard output: one stream cannot be both.
// Commands call it after registering every file and before opening any.
func (fs *Files) Check() error {
	if err := fs.checkStdinOnce(); err != nil {
		return err
	}
	// Before the same-file checks: when standard output is a regular file,
	// they would call two of these "standard output and standard output".
	if err := fs.checkStdoutOnce(); err != nil {
		return err
	}
	for _, out := range fs.outputs {
		if err := checkCompression(out); err != nil {
			return err
		}
	}
	for _, out := range fs.outputs {
		if err := checkDescriptorOutput(out); err != nil {
			return err
		}
	}
	for i, out := range fs.outputs {
		oi, ok := fs.stat(out.name, false)
		if !ok {
			// Not there yet: two outputs that would create the same path
			// would have one replace the other.
			if IsStdio(out.name) {
				continue
			}
			path := canonical(out.name)
			for _, prev := range fs.outputs[:i] {
				if !IsStdio(prev.name) && sameNewPath(canonical(prev.name), path) {
					return Usagef("%s and %s are the same file", out, prev)
				}
			}
			continue
		}
		for _, in := range fs.inputs {
			if ii, ok := fs.stat(in.name, true); ok && sameFile(oi, ii) {
				return Usagef("%s would overwrite the input %s (the same file); write elsewhere", out, in)
			}
		}
		for _, prev := range fs.outputs[:i] {
			if pi, ok := fs.stat(prev.name, false); ok && sameFile(oi, pi) {
				return Usagef("%s and %s are the same file", out, prev)
			}
		}
	}
	return nil
}

// checkStdoutOnce refuses two outputs to standard output, naming them and
// how to part them: -o, the default, is the main output.
func (fs *Files) checkStdoutOnce() error {
	main := fs.MainOutput
	if main == "" {
		main = "the output"
	}
	var names []string
	mainThere := false
	for _, out := range fs.outputs {
		switch {
		case !IsStdio(out.name):
		case out.flag == "-o":
			names = append([]string{main}, names...)
			mainThere = true
		default:
			names = append(names, out.flag+" "+cmp.Or(out.name, "-"))
		}
	}
	if len(names) < 2 {
		return nil
	}
	hint := "give all but one of them a file"
	switch {
	case mainThere && len(names) == 2:
		hint = "write " + main + " to a file with -o FILE, or give " + strings.Fields(names[1])[0] + " a file"
	case mainThere:
		hint = "write " + main + " to a file with -o FILE, or give the others files"
	}
	both := "both"
	if len(names) > 2 {
		both = "all"
	}
	return Usagef("%s and %s %s go to standard output, which can carry one: %s",
		strings.Join(names[:len(names)-1], ", "), names[len(names)-1], both, hint)
}

// checkDescriptorOutput refuses an output to one of the process's own
// descriptors from 3 on (/dev/fd/N, /proc/self/fd/N) that the caller did
// not open for writing: one not open now would be whatever the run opens as
// N later (its input: the output would be appended to it), one open for
// reading only (N<file) would be opened anew for writing, and one of the
// runtime's own is no file at all.
func checkDescriptorOutput(out fileArg) error {
	if IsStdio(out.name) {
		return nil
	}
	target, err := resolveLinks(out.name)
	if err != nil {
		return nil // the open reports it
	}
	fd, ok := ownDescriptor(target)
	if !ok || fd < 3 {
		return nil
	}
	open, writes, own, on := descriptorState(fd)
	if on != "" {
		on = " (on " + on + ")"
	}
	switch {
	case !open, own:
		return Usagef("%s: descriptor %d is not open for this run's output%s: the run would write into whatever it opens as descriptor %d (its input); open it for writing (%d>FILE) or give the file's name", out, fd, on, fd, fd)
	case !writes:
		return Usagef("%s: descriptor %d is open for reading only%s, by a redirection such as %d<FILE or by the program itself: writing to it would reopen that file for writing; give the output's own name", out, fd, on, fd)
	}
	return nil
}

// ownDescriptor returns N for a path to the process's own descriptor N
// (/dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N, /proc/PID/fd/N
// with its own PID, and the /task/TID/ forms), and 0, 1 or 2 for
// /dev/stdin, /dev/stdout and /dev/stderr.
func ownDescriptor(path string) (int, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, false
	}
	switch abs {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	n, ok := strings.CutPrefix(abs, "/dev/fd/")
	if !ok {
		proc, isProc := procDescriptor(abs)
		if !isProc || proc != "self" && proc != "thread-self" && proc != strconv.Itoa(os.Getpid()) {
			return 0, false
		}
		n = abs[strings.LastIndexByte(abs, '/')+1:]
	}
	fd, err := strconv.Atoi(n)
	if err != nil || fd < 0 || strconv.Itoa(fd) != n {
		return 0, false
	}
	return fd, true
}

// checkStdinOnce refuses a side input named "-" when another input (the
// trace, as a rule) reads standard input too.
func (fs *Files) checkStdinOnce() error {
	// A path to descriptor 0 opens a regular file anew (at its start), so
	// it splits standard input with "-" only when that is a pipe or such.
	info, ok := fs.stat("-", true)
	regular := ok && info.Mode().IsRegular()
	var readers []fileArg
	for _, in := range fs.inputs {
		if IsStdio(in.name) || !regular && readsStdin(in.name) {
			readers = append(readers, in)
		}
	}
	if len(readers) < 2 {
		return nil
	}
	name := func(a fileArg) string {
		switch {
		case a.flag == "" && IsStdio(a.name):
			return "the input"
		case a.flag == "":
			return a.name
		case IsStdio(a.name):
			return a.flag + " -"
		}
		return a.flag + " " + a.name
	}
	a, b := readers[0], readers[1]
	if a.flag == "" && b.flag != "" {
		a, b = b, a // the flag first: it is what to change
	}
	return Usagef("%s and %s both read standard input: give one of them as a file", name(a), name(b))
}

// readsStdin reports whether an input reads the process's standard input:
// "" or "-", or a path to descriptor 0 (/dev/stdin, /dev/fd/0, a symbolic
// link to one), which two readers of one pipe would split between them.
func readsStdin(name string) bool {
	if IsStdio(name) {
		return true
	}
	target, err := resolveLinks(name)
	if err != nil {
		return false
	}
	fd, ok := stdDescriptor(target)
	return ok && fd == 0
}

// unwritable are compressed formats the commands read but do not write: a
// file named so would hold plain text that its decompressor refuses.
var unwritable = []string{".xz", ".bz2", ".bz", ".lz4", ".lzma", ".lz", ".z"}

// UnwritableExtension returns the extension of name that asks for a
// compression the commands read but cannot write (".xz", in any case), or
// "" when the commands can write a file of that name.
func UnwritableExtension(name string) string {
	lower := strings.ToLower(name)
	for _, ext := range unwritable {
		if strings.HasSuffix(lower, ext) {
			return name[len(name)-len(ext):]
		}
	}
	return ""
}

// checkCompression refuses an output whose name asks for a compression the
// commands cannot write (.gz and .zst are written, in any case).
func checkCompression(out fileArg) error {
	if IsStdio(out.name) {
		return nil
	}
	if ext := UnwritableExtension(out.name); ext != "" {
		return Usagef("%s: output is written plain, or compressed as gzip (.gz) or zstd (.zst), not as %s; name it .gz or .zst, or pipe the output through the compressor", out, ext)
	}
	return nil
}

// stat returns what a file argument is, for the same-file test: for "" and
// "-", the standard stream when it is an *os.File.
func (fs *Files) stat(name string, input bool) (os.FileInfo, bool) {
	var info os.FileInfo
	var err error
	if IsStdio(name) {
		var stream any = fs.stdout
		if input {
			stream = fs.stdin
		}
		f, ok := stream.(*os.File)
		if !ok || f == nil {
			return nil, false
		}
		info, err = f.Stat()
	} else {
		info, err = os.Stat(name)
	}
	return info, err == nil
}

// canonical is the absolute path a file that does not exist yet would be
// created at: a symbolic link (even dangling) followed, as Output writes
// through it, and the directory's symbolic links resolved.
func canonical(name string) string {
	target, err := resolveLinks(name)
	if err != nil {
		target = name
	}
	if abs, err := filepath.Abs(target); err == nil {
		return abs
	}
	return target
}

// sameNewPath reports whether two resolved paths of files not there yet
// name one file: the same name in the same folder, however the folder is
// reached (a bind mount, /proc/self/cwd, a linked folder).
func sameNewPath(a, b string) bool {
	if a == b {
		return true
	}
	if filepath.Base(a) != filepath.Base(b) {
		return false
	}
	da, errA := os.Stat(filepath.Dir(a))
	db, errB := os.Stat(filepath.Dir(b))
	return errA == nil && errB == nil && os.SameFile(da, db)
}

// SameFiles groups the names that are one file by os.SameFile (a path given
// twice, two paths to it, a hard or symbolic link): each group lists the
// indexes of its names in order, the groups in the order of their first name,
// and a name alone in its file is in none. Standard input ("" or "-") is in
// none, since what it is cannot be compared with a path, nor is a name that
// cannot be stat'ed (opening it will say why). Only regular files are
// grouped: a pipe, a device or a directory named twice (/dev/stdin on a pipe,
// /dev/null) is not one file read twice to the same bytes, and reading it
// says what it is. Two files of the same bytes are two files.
func SameFiles(names []string) [][]int {
	infos := make([]os.FileInfo, len(names))
	for i, name := range names {
		if IsStdio(name) {
			continue
		}
		if info, err := os.Stat(name); err == nil && info.Mode().IsRegular() {
			infos[i] = info
		}
	}
	return groupSameFiles(infos, fileIdentity)
}

// groupSameFiles is SameFiles over the names' FileInfos (nil: not grouped).
// A file whose identity is known (its device and inode on unix) finds its
// group in a map, so a study of many thousand files takes time linear in
// their number; one without (identity false) is compared by os.SameFile with
// the first file of each group so far, the quadratic way that works
// everywhere.
func groupSameFiles(infos []os.FileInfo, identity func(os.FileInfo) (fileID, bool)) [][]int {
	var groups [][]int
	byID := map[fileID]int{} // group index by file identity
	for i, info := range infos {
		if info == nil {
			continue
		}
		g := -1
		if id, ok := identity(info); ok {
			if k, seen := byID[id]; seen {
				g = k
			} else {
				byID[id] = len(groups)
			}
		} else {
			for k, group := range groups {
				if os.SameFile(infos[group[0]], info) {
					g = k
					break
				}
			}
		}
		if g < 0 {
			groups = append(groups, []int{i})
		} else {
			groups[g] = append(groups[g], i)
		}
	}
	var same [][]int
	for _, g := range groups {
		if len(g) > 1 {
			same = append(same, g)
		}
	}
	return same
}

// sameFile is os.SameFile, except that writing into a character device that
// is also read (/dev/null both ways) destroys nothing.
func sameFile(a, b os.FileInfo) bool {
	if a.Mode()&os.ModeCharDevice != 0 && b.Mode()&os.ModeCharDevice != 0 {
		return false
	}
	return os.SameFile(a, b)
}

// Open opens an input for reading, as the package-level Open does (name "" or
// "-" is standard input; compression is detected).
func (fs *Files) Open(name string) (io.ReadCloser, error) {
	return Open(name, fs.stdin)
}

// Create opens an output of the run, as Output describes. It is committed by
// Finish, not by its Close. A name not registered with Output is checked
// against the inputs here (a usage error), but then the check comes after
// the inputs were read: register outputs before.
func (fs *Files) Create(name string) (*Output, error) {
	registered := false
	for _, out := range fs.outputs {
		registered = registered || out.name == name
	}
	if !registered {
		fs.Output("output", name)
		if err := fs.Check(); err != nil {
			fs.outputs = fs.outputs[:len(fs.outputs)-1]
			return nil, err
		}
	}
	o, err := Create(name, fs.stdout)
	if err != nil {
		return nil, err
	}
	fs.created = append(fs.created, o)
	return o, nil
}

// Commit flushes and closes every output, then renames every temporary file
// into place, all or none (commitAll). If any output fails to close, none is
// renamed.
func (fs *Files) Commit() error {
	for _, o := range fs.created {
		if err := o.close(); err != nil {
			fs.Abort()
			return err
		}
	}
	err := commitAll(fs.created)
	fs.created = nil
	return err
}

// Abort closes every output and removes the temporary files: no file named
// by the run is created or replaced (devices and standard output have had
// what was written to them).
func (fs *Files) Abort() {
	for _, o := range fs.created {
		o.Abort()
	}
	fs.created = nil
}

// Finish commits every output when *errp is nil, storing a commit error in
// *errp, and aborts them all otherwise:
//
//	defer files.Finish(&err)
//
// A closed standard output (EPIPE: `| head`) ends a run quietly with status
// 0, but not when the run was also to write files: they are not written, and
// a file of an earlier run under the same name would be taken for this
// run's, so the error names them (status 1).
//
// After SideFilesDone (every file written whole, standard output still to
// come), a closed standard output commits the files and keeps status 0.
func (fs *Files) Finish(errp *error) {
	if *errp != nil && errors.Is(*errp, syscall.EPIPE) && fs.sideDone {
		var staged []*Output
		for _, o := range fs.created {
			if o.Staged() {
				staged = append(staged, o)
			} else {
				o.Abort() // the closed pipe; what reached it stays
			}
		}
		fs.created = staged
		if err := fs.Commit(); err != nil {
			*errp = err
		}
		return
	}
	if *errp != nil {
		fs.Abort()
		if errors.Is(*errp, syscall.EPIPE) {
			if lost := fs.fileOutputs(); len(lost) > 0 {
				closed, hint := "standard output", "; read the output to its end, or write it with -o FILE"
				var pathErr *os.PathError
				if errors.As(*errp, &pathErr) && !IsStdio(pathErr.Path) && pathErr.Path != "/dev/stdout" {
					closed, hint = pathErr.Path, ""
				}
				*errp = fmt.Errorf("%s was closed before the run ended (its reader, such as head, quit): %s not written, and any file of that name left as it was%s",
					closed, strings.Join(lost, ", "), hint)
			}
		}
		return
	}
	*errp = fs.Commit()
}

// SideFilesDone tells Finish that every output but standard output is
// written whole, so that a reader of standard output that quits early (|
// head) does not cost the run its files (swfstat writes its summary last).
func (fs *Files) SideFilesDone() { fs.sideDone = true }

// fileOutputs returns the outputs that are files of their own (not
// standard output, a descriptor or a device), as the flags name them.
func (fs *Files) fileOutputs() []string {
	var names []string
	for _, out := range fs.outputs {
		if IsStdio(out.name) {
			continue
		}
		if target, err := resolveLinks(out.name); err == nil && isDescriptorPath(target) {
			continue
		}
		if info, err := os.Stat(out.name); err == nil && !info.Mode().IsRegular() {
			continue
		}
		names = append(names, out.String())
	}
	return names
}
