//go:build unix

package cmdio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/swf"
)

// smallText is testdata/small.swf.bz2 and .xz decompressed (made by the
// bzip2 and xz programs).
const smallText = "; Version: 2\n; Computer: test\n" +
	"1 0 5 100 4 -1 -1 4 120 -1 1 1 1 -1 1 -1 -1 -1\n" +
	"2 10 0 50 2 -1 -1 2 60 -1 1 2 1 -1 1 -1 -1 -1\n"

// compressedForms returns smallText in every compression Open detects.
func compressedForms(t *testing.T) map[string][]byte {
	bz, err := os.ReadFile("testdata/small.swf.bz2")
	if err != nil {
		t.Fatal(err)
	}
	xz, err := os.ReadFile("testdata/small.swf.xz")
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{"gzip": testutil.Gzip(t, smallText), "zstd": testutil.Zstd(t, smallText), "bzip2": bz, "xz": xz}
}

func readAllNamed(t *testing.T, dir, name string, data []byte) (string, error) {
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path, nil)
	if err != nil {
		return "", err
	}
	defer r.Close()
	got, err := io.ReadAll(r)
	return string(got), err
}

func TestOpenDetectsCompressionByContent(t *testing.T) {
	dir := t.TempDir()
	for format, data := range compressedForms(t) {
		got, err := readAllNamed(t, dir, "neutral-"+format, data)
		if err != nil || got != smallText {
			t.Errorf("%s: read %q, %v", format, got, err)
		}
	}
	// Text that merely starts like a bzip2 magic is text.
	got, err := readAllNamed(t, dir, "bzh.txt", []byte("BZh is not bzip2\n"))
	if err != nil || got != "BZh is not bzip2\n" {
		t.Errorf("BZh text: %q, %v", got, err)
	}
	r, err := Open("-", strings.NewReader(smallText))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(r); string(got) != smallText {
		t.Errorf("stdin read %q", got)
	}
	if _, err := Open(filepath.Join(dir, "missing.swf"), nil); err == nil || !strings.Contains(err.Error(), "missing.swf") {
		t.Errorf("missing file error %v", err)
	}
}

// A compressed stream cut anywhere, or with its trailer damaged, is an error
// that names the file and is not an end-of-file sentinel.
func TestOpenRefusesTruncatedAndCorruptStreams(t *testing.T) {
	dir := t.TempDir()
	for format, data := range compressedForms(t) {
		cases := map[string][]byte{}
		// Every cut (an xz file cut right after its last block, before
		// its index and footer, was read as whole).
		for cut := 1; cut < len(data)-len(magicXz); cut++ {
			cases[fmt.Sprintf("cut %d/%s", cut, format)] = data[:len(data)-cut]
		}
		// Damage the last byte of the checksum or trailer.
		bad := bytes.Clone(data)
		bad[len(bad)-5] ^= 0x55
		cases["damaged trailer"] = bad
		for what, data := range cases {
			name := "t-" + format + ".swf"
			got, err := readAllNamed(t, dir, name, data)
			var ce *CorruptError
			if !errors.As(err, &ce) || ce.Format != format {
				t.Errorf("%s %s: read %d bytes, err %v; want a CorruptError", format, what, len(got), err)
				continue
			}
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				t.Errorf("%s %s: %v is an EOF sentinel", format, what, err)
			}
			if !strings.Contains(err.Error(), name) {
				t.Errorf("%s %s: %q does not name the file", format, what, err)
			}
		}
	}
	// The same on standard input.
	data := testutil.Gzip(t, smallText)
	r, _ := Open("-", bytes.NewReader(data[:len(data)-8]))
	if _, err := io.ReadAll(r); err == nil || !strings.Contains(err.Error(), "<stdin>: truncated gzip") {
		t.Errorf("truncated gzip on stdin: %v", err)
	}
}

// Bytes appended to a gzip file that do not begin another member are
// refused as trailing data, not as a truncated or invalid member; two whole
// members read as one text, and a second member cut short is truncated.
func TestOpenGzipTrailingData(t *testing.T) {
	dir := t.TempDir()
	gz := testutil.Gzip(t, smallText)
	for what, tc := range map[string]struct {
		data      []byte
		text, err string
	}{
		"echo garbage":     {append(bytes.Clone(gz), "garbage\n"...), "", `t.swf.gz: gzip: trailing data after the end of the compressed stream, not another member (starting "garbage\n")`},
		"a long garbage":   {append(bytes.Clone(gz), "garbage after the member, long\n"...), "", `(starting "garbage after th")`},
		"one byte":         {append(bytes.Clone(gz), 0), "", `(starting "\x00")`},
		"two members":      {append(bytes.Clone(gz), gz...), smallText + smallText, ""},
		"a cut second one": {append(bytes.Clone(gz), gz[:12]...), "", "t.swf.gz: truncated gzip data"},
	} {
		got, err := readAllNamed(t, dir, "t.swf.gz", tc.data)
		if tc.err == "" {
			if err != nil || got != tc.text {
				t.Errorf("%s: read %q, %v", what, got, err)
			}
			continue
		}
		var ce *CorruptError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want a CorruptError saying %s", what, err, tc.err)
		}
		if got != smallText && !strings.HasPrefix(what, "a cut") {
			t.Errorf("%s: read %q before the error, want the first member", what, got)
		}
	}
	r, _ := Open("-", bytes.NewReader(append(bytes.Clone(gz), "garbage\n"...)))
	if _, err := io.ReadAll(r); err == nil || !strings.HasPrefix(err.Error(), "<stdin>: gzip: trailing data") {
		t.Errorf("trailing data on stdin: %v", err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFilesCheckRefusesOverwritingAnInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "t.swf")
	os.WriteFile(in, []byte(smallText), 0o644)
	hard := filepath.Join(dir, "hard.swf")
	os.Link(in, hard)
	soft := filepath.Join(dir, "soft.swf")
	os.Symlink("t.swf", soft)
	other := filepath.Join(dir, "other.swf")
	stdinFile, _ := os.Open(in)
	defer stdinFile.Close()
	tests := []struct {
		name    string
		stdin   io.Reader
		inputs  []string
		outputs [][2]string
		want    string // "" for no error
	}{
		{"new file", nil, []string{in}, [][2]string{{"-o", other}}, ""},
		{"same path", nil, []string{in}, [][2]string{{"-o", in}}, "-o " + in + " would overwrite the input " + in},
		{"hard link", nil, []string{in}, [][2]string{{"-o", hard}}, "would overwrite the input"},
		{"symlink", nil, []string{in}, [][2]string{{"-o", soft}}, "would overwrite the input"},
		{"side file", nil, []string{in}, [][2]string{{"-o", other}, {"--report", in}}, "--report " + in},
		{"second input", nil, []string{other, in}, [][2]string{{"--plot", hard}}, "would overwrite the input " + in},
		{"stdin is the file", stdinFile, []string{""}, [][2]string{{"-o", in}}, "would overwrite the input standard input"},
		{"two outputs one file", nil, []string{in}, [][2]string{{"-o", other}, {"--report", other}}, ""},
		{"devices are not files", nil, []string{"/dev/null"}, [][2]string{{"-o", "/dev/null"}}, ""},
		// Outputs that do not exist yet: the path each would be created at.
		{"two new outputs one path", nil, []string{in}, [][2]string{{"-o", filepath.Join(dir, "n.swf")}, {"--report", filepath.Join(dir, ".", "n.swf")}}, "are the same file"},
		{"new output through a dangling link", nil, []string{in}, [][2]string{{"--csv", filepath.Join(dir, "dangling")}, {"--json", filepath.Join(dir, "target.csv")}}, "are the same file"},
		{"two new outputs two paths", nil, []string{in}, [][2]string{{"-o", filepath.Join(dir, "n1.swf")}, {"--report", filepath.Join(dir, "n2.swf")}}, ""},
	}
	os.Symlink("target.csv", filepath.Join(dir, "dangling"))
	os.WriteFile(other, nil, 0o644)
	tests[7].want = "--report " + other + " and -o " + other + " are the same file"
	for _, tt := range tests {
		fs := NewFiles(tt.stdin, nil)
		for _, name := range tt.inputs {
			fs.Input("", name)
		}
		for _, o := range tt.outputs {
			fs.Output(o[0], o[1])
		}
		err := fs.Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		case tt.want != "" && ExitCode(err) != 2:
			t.Errorf("%s: exit %d, want 2", tt.name, ExitCode(err))
		}
	}
	if readFile(t, in) != smallText {
		t.Error("Check changed the input")
	}
}

func TestOutputCompressionAndAtomicity(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"x.swf", "x.swf.gz", "x.swf.zst", "y.SWF.GZ", "y.swf.Zst"} {
		path := filepath.Join(dir, name)
		// A failed run leaves nothing under the name, and no temporary file.
		o, err := Create(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(o, "partial")
		failure := errors.New("bad input")
		Finish(o, &failure)
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s exists after a failed run", name)
		}
		o, _ = Create(path, nil)
		io.WriteString(o, "whole")
		var ok error
		Finish(o, &ok)
		if ok != nil {
			t.Fatal(ok)
		}
		raw := readFile(t, path)
		compressed := strings.HasPrefix(raw, string(magicGzip)) || strings.HasPrefix(raw, string(magicZstd))
		if compressed != (name != "x.swf") { // the suffix in any case
			t.Errorf("%s: compressed = %v", name, compressed)
		}
		r, _ := Open(path, nil)
		got, _ := io.ReadAll(r)
		r.Close()
		if string(got) != "whole" {
			t.Errorf("%s holds %q", name, got)
		}
		// A later failed run keeps the earlier good file.
		o, _ = Create(path, nil)
		io.WriteString(o, "again, partial")
		Finish(o, &failure)
		r, _ = Open(path, nil)
		got, _ = io.ReadAll(r)
		r.Close()
		if string(got) != "whole" {
			t.Errorf("%s overwritten by a failed run: %q", name, got)
		}
	}
	var out bytes.Buffer
	w, _ := Create("", &out)
	io.WriteString(w, "x")
	w.Close()
	if out.String() != "x" {
		t.Errorf("stdout got %q", out.String())
	}
	assertOnlyEntries(t, dir, "x.swf", "x.swf.gz", "x.swf.zst", "y.SWF.GZ", "y.swf.Zst")
}

// An output named for a compression the commands read but do not write
// (.xz, .bz2, ...) is a usage error before anything is written, not plain
// text that its decompressor refuses.
// Standard input can be read once: a side input named "-" reads it when the
// trace does not, and the two together are a usage error, as two outputs to
// standard output are.
func TestFilesCheckStandardInputOnce(t *testing.T) {
	tests := []struct {
		inputs [][2]string // flag, name
		want   string
	}{
		{[][2]string{{"", "t.swf"}, {"--answers", "-"}}, ""},
		{[][2]string{{"", "-"}, {"--answers", "a.txt"}}, ""},
		{[][2]string{{"", ""}, {"--answers", "-"}}, "--answers - and the input both read standard input: give one of them as a file"},
		{[][2]string{{"", "-"}, {"--answers", "-"}}, "--answers - and the input both read standard input"},
		// A path to descriptor 0 reads standard input too.
		{[][2]string{{"", "-"}, {"", "/dev/stdin"}}, "the input and /dev/stdin both read standard input"},
		{[][2]string{{"", "/dev/fd/0"}, {"--checkpoint-from", "/proc/self/fd/0"}}, "--checkpoint-from /proc/self/fd/0 and /dev/fd/0 both read standard input"},
		{[][2]string{{"", "/dev/stdin"}}, ""},
	}
	for _, tt := range tests {
		fs := NewFiles(nil, nil) // standard input not a regular file
		for _, in := range tt.inputs {
			fs.Input(in[0], in[1])
		}
		err := fs.Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v", tt.inputs, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || ExitCode(err) != 2):
			t.Errorf("%v: error %v (exit %d), want a usage error %q", tt.inputs, err, ExitCode(err), tt.want)
		}
	}
}

// On a regular file, /dev/stdin opens the file anew: - and /dev/stdin both
// read all of it, which is no split stream.
func TestFilesCheckStandardInputRegularFile(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in-")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fs := NewFiles(f, nil)
	fs.Input("", "-")
	fs.Input("", "/dev/stdin")
	if err := fs.Check(); err != nil {
		t.Errorf("- and /dev/stdin on a regular file: %v", err)
	}
	fs = NewFiles(f, nil)
	fs.Input("", "-")
	fs.Input("", "-")
	if err := fs.Check(); err == nil {
		t.Error("- twice passed")
	}
}

func TestFilesCheckRefusesUnwritableCompression(t *testing.T) {
	for _, name := range []string{"o.xz", "o.swf.XZ", "o.bz2", "o.lz4", "o.Z"} {
		fs := NewFiles(nil, nil)
		fs.Output("-o", filepath.Join(t.TempDir(), name))
		err := fs.Check()
		var usage *UsageError
		if !errors.As(err, &usage) || !strings.Contains(err.Error(), "not as") {
			t.Errorf("-o %s: Check() = %v, want a usage error", name, err)
		}
	}
	fs := NewFiles(nil, nil)
	fs.Output("-o", filepath.Join(t.TempDir(), "o.swf.gz"))
	fs.Output("--plot", filepath.Join(t.TempDir(), "lxz.svg"))
	if err := fs.Check(); err != nil {
		t.Errorf(".gz and .svg outputs: %v", err)
	}
}

func assertOnlyEntries(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("directory holds %v, want %v (no temporary files)", got, want)
	}
}

// Finish commits every output or none.
func TestFilesCommitAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.json")
	os.WriteFile(b, []byte("old report"), 0o644)
	run := func(fail bool) error {
		fs := NewFiles(nil, nil)
		fs.Output("-o", a)
		fs.Output("--report", b)
		var err error
		defer fs.Finish(&err)
		for _, name := range []string{a, b} {
			o, cerr := fs.Create(name)
			if cerr != nil {
				return cerr
			}
			io.WriteString(o, "new "+filepath.Base(name))
		}
		if fail {
			err = errors.New("the plot failed")
		}
		return err
	}
	if err := run(true); err == nil {
		t.Fatal("no error")
	}
	if _, err := os.Stat(a); !os.IsNotExist(err) || readFile(t, b) != "old report" {
		t.Errorf("a failed run committed an output")
	}
	assertOnlyEntries(t, dir, "b.json")
	if err := run(false); err != nil {
		t.Fatal(err)
	}
	if readFile(t, a) != "new a.swf" || readFile(t, b) != "new b.json" {
		t.Errorf("a successful run did not commit both: %q, %q", readFile(t, a), readFile(t, b))
	}
	assertOnlyEntries(t, dir, "a.swf", "b.json")
}

func writeOutput(t *testing.T, name, text string) {
	t.Helper()
	o, err := Create(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(o, text)
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOutputKeepsModeAndWritesThroughSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.swf")
	os.WriteFile(target, []byte("old"), 0o600)
	os.Chmod(target, 0o640)
	link := filepath.Join(dir, "link.swf")
	os.Symlink("target.swf", link)
	writeOutput(t, link, "new")
	if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", info.Mode(), err)
	}
	if readFile(t, target) != "new" {
		t.Errorf("target holds %q", readFile(t, target))
	}
	if info, _ := os.Stat(target); info.Mode().Perm() != 0o640 {
		t.Errorf("target mode %v, want 0640", info.Mode().Perm())
	}
	// A dangling link names the file to create.
	dangling := filepath.Join(dir, "dangling.swf")
	os.Symlink("created.swf", dangling)
	writeOutput(t, dangling, "made")
	if readFile(t, filepath.Join(dir, "created.swf")) != "made" {
		t.Error("the dangling link's target was not created")
	}
	// A new file gets 0666 less the umask, as if created directly.
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	fresh := filepath.Join(dir, "fresh.swf")
	writeOutput(t, fresh, "x")
	if info, _ := os.Stat(fresh); info.Mode().Perm() != 0o640 {
		t.Errorf("new file mode %v, want 0640 under umask 027", info.Mode().Perm())
	}
	assertOnlyEntries(t, dir, "created.swf", "dangling.swf", "fresh.swf", "link.swf", "target.swf")
}

// Devices and FIFOs are written into, never replaced by a regular file.
func TestOutputWritesDevicesAndFIFOsDirectly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	writeOutput(t, fifo, "through the fifo")
	if s := <-got; s != "through the fifo" {
		t.Errorf("the FIFO's reader got %q", s)
	}
	if info, _ := os.Lstat(fifo); info.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO became %v", info.Mode())
	}
	// A private copy of /dev/null (needs root); never the real one.
	null := filepath.Join(dir, "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, int(1<<8|3)); err != nil {
		t.Log("mknod (not root?): ", err)
	} else {
		writeOutput(t, null, "discarded")
		if info, _ := os.Lstat(null); info.Mode()&fs.ModeCharDevice == 0 {
			t.Errorf("the device became %v", info.Mode())
		}
	}
	// A descriptor path is opened, not renamed over: through /dev/fd to a
	// regular file, the writes land in the open file.
	f, err := os.CreateTemp(dir, "fd-")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString("before;")
	writeOutput(t, "/proc/self/fd/"+itoa(int(f.Fd())), "after")
	if s := readFile(t, f.Name()); s != "before;after" {
		t.Errorf("through the descriptor: %q", s)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestInFileNamesTheFileOnce(t *testing.T) {
	corrupt := &CorruptError{File: "t.gz", Format: "gzip", Err: io.ErrUnexpectedEOF}
	_, pathErr := os.Open("/no/such/t.swf")
	tests := []struct {
		err  error
		want string
	}{
		{errors.New("no records"), "t.gz: no records"},
		{corrupt, "t.gz: truncated gzip data (unexpected EOF); the file is incomplete or damaged"},
		{pathErr, "open /no/such/t.swf: no such file or directory"},
	}
	for _, tt := range tests {
		if got := InFile("t.gz", tt.err).Error(); got != tt.want {
			t.Errorf("InFile(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
	if InFile("t.gz", nil) != nil {
		t.Error("InFile(nil) is not nil")
	}
}

// CheckRecords: an empty input is an error, a header-only one (comment or
// blank lines, no job) a warning naming it, a trace with a job neither.
func TestCheckRecords(t *testing.T) {
	for _, tc := range []struct {
		in, warn string
		err      error
	}{
		{"", "", swf.ErrEmpty},
		{"; Version: 2\n;\n", "swftool: warning: t.swf: no job lines (header only): 2 comment or blank lines and no job (a file cut short,", nil},
		{"\n\n", "swftool: warning: t.swf: no job lines (header only)", nil},
		{smallText, "", nil},
	} {
		r := swf.NewReader(strings.NewReader(tc.in))
		r.Name = "t.swf"
		var stderr bytes.Buffer
		err := CheckRecords(r, "swftool", &stderr)
		if !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
			t.Errorf("%q: error %v, want %v", tc.in, err, tc.err)
		}
		if got := stderr.String(); tc.warn == "" && got != "" || !strings.HasPrefix(got, tc.warn) {
			t.Errorf("%q: stderr %q, want %q...", tc.in, got, tc.warn)
		}
	}
}

// WarnUnterminated warns, naming the file and line, when the last record
// line has no newline after it, and says nothing for a trace ending in a
// newline or in a comment line without one.
func TestWarnUnterminated(t *testing.T) {
	for _, tc := range []struct {
		name, in, warn string
	}{
		{"t.swf", smallText, ""},
		{"t.swf", strings.TrimSuffix(smallText, "\n"), "swftool: warning: t.swf:4: the last record has no newline after it"},
		{"", "1 0 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 12", "swftool: warning: <stdin>:1: the last record has no newline after it: " +
			"if the file was cut short there, its last field may be cut too (archive traces end in a newline)\n"},
		{"t.swf", smallText + "; end", ""},
	} {
		r := swf.NewReader(strings.NewReader(tc.in))
		r.Name = tc.name
		for {
			if _, err := r.Read(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
		}
		var stderr bytes.Buffer
		WarnUnterminated(r, "swftool", &stderr)
		if got := stderr.String(); tc.warn == "" && got != "" || !strings.HasPrefix(got, tc.warn) {
			t.Errorf("%q: stderr %q, want %q...", tc.in, got, tc.warn)
		}
	}
}

// An output in a folder that does not exist is an error naming the output
// and the folder, not the temporary file the system failed to create ("open
// out/.x.swf.tmp-37b015bc35e4: no such file or directory", a name the user
// never gave).
func TestCreateInMissingFolder(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{filepath.Join(dir, "nodir", "x.swf"), filepath.Join(dir, "a", "b", "x.swf.gz")} {
		o, err := Create(name, io.Discard)
		if err == nil {
			o.Abort()
			t.Errorf("%s: created", name)
			continue
		}
		want := name + ": cannot create it: the folder " + filepath.Dir(name) + " does not exist"
		if err.Error() != want || strings.Contains(err.Error(), ".tmp-") {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}

// SameFiles groups the names of one file (a path twice, another path, a
// symbolic or hard link), not files of the same bytes, standard input, a
// missing file, or a pipe, device or directory named twice (/dev/stdin on a
// pipe is not read twice to the same bytes: the second read is empty).
func TestSameFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte(smallText), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sym, hard, missing := filepath.Join(dir, "sym.swf"), filepath.Join(dir, "hard.swf"), filepath.Join(dir, "missing.swf")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(a, sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(b, hard); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		names []string
		want  [][]int
	}{
		{[]string{a, b}, nil},
		{[]string{a, a}, [][]int{{0, 1}}},
		{[]string{"-", a, dir + "/./a.swf", "-", ""}, [][]int{{1, 2}}},
		{[]string{b, a, sym, hard, missing, missing}, [][]int{{0, 3}, {1, 2}}},
		{[]string{fifo, fifo, os.DevNull, os.DevNull, dir, dir + "/."}, nil},
	} {
		if got := SameFiles(tc.names); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SameFiles(%q) = %v, want %v", tc.names, got, tc.want)
		}
	}
}

// TestSameFilesMany: SameFiles on a thousand inputs (a study's sweep),
// most of them alone in their file and some named again later by a symbolic
// link, a hard link or another path, gives the groups in the order of their
// first name, each in argument order, with standard input and missing names
// in none; and so does the os.SameFile comparison used where a file's
// identity is unknown. (SameFiles compared every file with every group
// before: 0.6 s for 20,000 inputs.)
func TestSameFilesMany(t *testing.T) {
	const n = 500
	dir := t.TempDir()
	file := func(i int) string { return filepath.Join(dir, fmt.Sprintf("f%d.swf", i)) }
	var names []string
	groups := map[int][]int{} // file -> indexes of its names
	add := func(i int, name string) {
		groups[i] = append(groups[i], len(names))
		names = append(names, name)
	}
	for i := range n {
		if err := os.WriteFile(file(i), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		add(i, file(i))
		if i%3 == 0 { // another path to it, without a link
			add(i, filepath.Join(dir, "..", filepath.Base(dir), fmt.Sprintf("f%d.swf", i)))
		}
		if i%97 == 0 {
			names = append(names, "-", filepath.Join(dir, fmt.Sprintf("missing%d.swf", i)))
		}
	}
	for i := n - 1; i >= 0; i -= 5 { // later files' groups start first here, not in the output
		link := filepath.Join(dir, fmt.Sprintf("sym%d.swf", i))
		if err := os.Symlink(file(i), link); err != nil {
			t.Fatal(err)
		}
		add(i, link)
	}
	for i := 0; i < n; i += 7 {
		link := filepath.Join(dir, fmt.Sprintf("hard%d.swf", i))
		if err := os.Link(file(i), link); err != nil {
			t.Fatal(err)
		}
		add(i, link)
		if i%3 == 0 {
			add(i, filepath.Join(dir, ".", fmt.Sprintf("f%d.swf", i)))
			add(i, file(i))
		}
	}
	var want [][]int
	for i := range n {
		if len(groups[i]) > 1 {
			want = append(want, groups[i])
		}
	}
	if got := SameFiles(names); !reflect.DeepEqual(got, want) {
		t.Errorf("SameFiles of %d names: %d groups, want %d; first %v, want %v", len(names), len(got), len(want), got[:min(3, len(got))], want[:3])
	}
	infos := make([]os.FileInfo, len(names))
	for i, name := range names {
		if info, err := os.Stat(name); err == nil && !IsStdio(name) {
			infos[i] = info
		}
	}
	unknown := func(os.FileInfo) (fileID, bool) { return fileID{}, false }
	if got := groupSameFiles(infos, unknown); !reflect.DeepEqual(got, want) {
		t.Errorf("by os.SameFile: %d groups, want %d; first %v, want %v", len(got), len(want), got[:min(3, len(got))], want[:3])
	}
}

// A rename that fails undoes the ones before it: every output keeps its old
// content (or is not created), no temporary file or second name is left,
// and the error names the output.
func TestFilesCommitUndoesOnRenameFailure(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.json"), filepath.Join(dir, "c.csv")
	os.WriteFile(a, []byte("old a"), 0o644)
	fs := createdAll(t, a, b, c)
	// c's place is taken by a folder while the run runs.
	if err := os.Mkdir(c, 0o755); err != nil {
		t.Fatal(err)
	}
	err := fs.Commit()
	if err == nil || !strings.HasPrefix(err.Error(), c+": cannot put it in place: ") || strings.Contains(err.Error(), ".tmp-") {
		t.Errorf("error %v, want one naming %s and not the temporary file", err, c)
	}
	if readFile(t, a) != "old a" {
		t.Errorf("a holds %q, want its old content", readFile(t, a))
	}
	if _, err := os.Stat(b); !os.IsNotExist(err) {
		t.Errorf("b was created: %v", err)
	}
	assertOnlyEntries(t, dir, "a.swf", "c.csv")
}

// An output whose name is near the file system's limit still gets its
// temporary file beside it (a shorter one); nothing else is left.
func TestOutputLongName(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, strings.Repeat("f", 250)+".swf")
	writeOutput(t, name, "first")
	writeOutput(t, name, "second")
	if readFile(t, name) != "second" {
		t.Errorf("holds %q", readFile(t, name))
	}
	assertOnlyEntries(t, dir, filepath.Base(name))
}

// A symbolic link to /dev/stdout is written through the descriptor, as
// /dev/stdout itself is: into the file the shell opened, never renamed over
// it.
func TestOutputLinkToDescriptor(t *testing.T) {
	dir := t.TempDir()
	f, err := os.CreateTemp(dir, "fd-")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString("before;")
	link := filepath.Join(dir, "out.swf")
	if err := os.Symlink("/proc/self/fd/"+itoa(int(f.Fd())), link); err != nil {
		t.Fatal(err)
	}
	writeOutput(t, link, "after")
	if s := readFile(t, f.Name()); s != "before;after" {
		t.Errorf("through the link to the descriptor: %q", s)
	}
	// A link into the rest of /proc names an ordinary file: replaced, not
	// appended to.
	real := filepath.Join(dir, "real.swf")
	os.WriteFile(real, []byte("old"), 0o644)
	viaProc := filepath.Join(dir, "via-proc.swf")
	if err := os.Symlink("/proc/self/root"+real, viaProc); err != nil {
		t.Fatal(err)
	}
	writeOutput(t, viaProc, "new")
	if s := readFile(t, real); s != "new" {
		t.Errorf("through /proc/self/root: %q, want the file replaced", s)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
}

// A replaced file keeps its setuid and setgid bits also when its owner is
// given back (root replacing another user's file: a change of owner clears
// them).
func TestOutputKeepsSetuidWithOwner(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to replace another user's file")
	}
	dir := t.TempDir()
	for _, mode := range []fs.FileMode{0o755 | fs.ModeSetuid, 0o750 | fs.ModeSetgid, 0o644 | fs.ModeSticky} {
		name := filepath.Join(dir, "x")
		os.WriteFile(name, []byte("old"), 0o644)
		os.Chown(name, 1234, 5678)
		os.Chmod(name, mode)
		writeOutput(t, name, "new")
		info, _ := os.Stat(name)
		st := info.Sys().(*syscall.Stat_t)
		if info.Mode() != mode || st.Uid != 1234 || st.Gid != 5678 {
			t.Errorf("mode %v owner %d:%d, want %v 1234:5678", info.Mode(), st.Uid, st.Gid, mode)
		}
		os.Remove(name)
	}
}

// Whatever the order of the outputs: the one that fails first in the
// renames undoes nothing it need not, and an output whose old file could
// not get a second name is renamed last, so that a failure before it leaves
// it old too.
func TestFilesCommitOrderAndNoSecondName(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.json"), filepath.Join(dir, "c.csv")
	os.WriteFile(b, []byte("old b"), 0o644)
	os.WriteFile(c, []byte("old c"), 0o644)
	defer func(orig func(string) string) { makeBackup = orig }(makeBackup)
	makeBackup = func(path string) string {
		if path == b {
			return "" // no hard links for b
		}
		return linkBackup(path)
	}
	fs := createdAll(t, b, a, c)
	// a, given second, cannot be put in place: b (no second name) must not
	// have been renamed before it (c, with a second name, is renamed after
	// a; undoing made renames is TestFilesCommitUndoesMadeRenames').
	defer func(orig func(string, string) error) { rename = orig }(rename)
	rename = func(from, to string) error {
		if to == a {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EXDEV}
		}
		return os.Rename(from, to)
	}
	err := fs.Commit()
	if err == nil || !strings.HasPrefix(err.Error(), a+": cannot put it in place: ") || strings.Contains(err.Error(), "could not all be undone") {
		t.Errorf("error %v", err)
	}
	if readFile(t, b) != "old b" || readFile(t, c) != "old c" {
		t.Errorf("b %q, c %q: want their old content", readFile(t, b), readFile(t, c))
	}
	assertOnlyEntries(t, dir, "b.json", "c.csv")
}

// One output needs no second name: its rename is all or nothing; none is
// made (a crash then leaves no copy of the old file).
func TestOutputOneRenameNoSecondName(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x.swf")
	os.WriteFile(name, []byte("old"), 0o644)
	defer func(orig func(string) string) { makeBackup = orig }(makeBackup)
	made := 0
	makeBackup = func(path string) string { made++; return linkBackup(path) }
	writeOutput(t, name, "new")
	if made != 0 || readFile(t, name) != "new" {
		t.Errorf("%d second names made; holds %q", made, readFile(t, name))
	}
}

// A name cut to fit the limit is cut between characters, not inside one.
func TestHiddenNameCutsBetweenCharacters(t *testing.T) {
	base := strings.Repeat("é", 130) // 260 bytes
	name := hiddenName(base, ".tmp-")
	if len(name) > maxNameBytes || !utf8.ValidString(name) {
		t.Errorf("%d bytes, valid UTF-8 %v", len(name), utf8.ValidString(name))
	}
}

// A rename that fails after others were made undoes them: old files come
// back from their second names, a new one is removed, nothing is left.
func TestFilesCommitUndoesMadeRenames(t *testing.T) {
	dir := t.TempDir()
	a, b, n, c := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.json"), filepath.Join(dir, "new.csv"), filepath.Join(dir, "c.txt")
	os.WriteFile(a, []byte("old a"), 0o644)
	os.WriteFile(b, []byte("old b"), 0o644)
	fs := createdAll(t, a, b, n, c)
	defer func(orig func(string, string) error) { rename = orig }(rename)
	renamed := 0
	rename = func(from, to string) error {
		if to == c {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EIO}
		}
		renamed++
		return os.Rename(from, to)
	}
	err := fs.Commit()
	if renamed != 3 || err == nil || !strings.HasPrefix(err.Error(), c+": cannot put it in place: ") {
		t.Fatalf("%d renames before the failure, error %v", renamed, err)
	}
	if readFile(t, a) != "old a" || readFile(t, b) != "old b" {
		t.Errorf("a %q, b %q: want their old content back", readFile(t, a), readFile(t, b))
	}
	assertOnlyEntries(t, dir, "a.swf", "b.json")
}

// A relative link whose target goes up (..) past a linked folder names the
// file the kernel finds (lnk/../x is the x beside the folder lnk names): an
// input there is refused as an output, and a file of the same name beside
// the link is neither the input nor replaced.
func TestLinkUpPastALinkedFolder(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755)
	os.Symlink("real/sub", filepath.Join(dir, "lnk"))
	realX, localX := filepath.Join(dir, "real", "x"), filepath.Join(dir, "x")
	os.WriteFile(realX, []byte("real"), 0o644)
	os.WriteFile(localX, []byte("local"), 0o644)
	link := filepath.Join(dir, "a")
	os.Symlink("lnk/../x", link)
	fs := NewFiles(nil, nil)
	fs.Input("", realX)
	fs.Output("-o", link)
	if err := fs.Check(); err == nil {
		t.Error("an output through lnk/../x onto the input real/x passed the check")
	}
	fs = NewFiles(nil, nil)
	fs.Input("", localX)
	fs.Output("-o", link)
	if err := fs.Check(); err != nil {
		t.Fatalf("the output real/x is not the input x: %v", err)
	}
	writeOutput(t, link, "new")
	if readFile(t, realX) != "new" || readFile(t, localX) != "local" {
		t.Errorf("real/x %q, x %q: want real/x replaced and x untouched", readFile(t, realX), readFile(t, localX))
	}
}

// A descriptor reached through a linked folder (d -> /dev/fd) is written
// into, not renamed over.
func TestOutputDescriptorThroughLinkedFolder(t *testing.T) {
	dir := t.TempDir()
	f, err := os.CreateTemp(dir, "fd-")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString("before;")
	d := filepath.Join(dir, "d")
	os.Symlink("/dev/fd", d)
	writeOutput(t, filepath.Join(d, itoa(int(f.Fd()))), "after")
	if s := readFile(t, f.Name()); s != "before;after" {
		t.Errorf("through d/N: %q", s)
	}
}

// Spellings the kernel refuses (a trailing slash or /. after a file, a
// missing folder before .., more than 40 links) pass the check (stat fails
// on them) but must not be cleaned into the input's own name by the write:
// they fail as the kernel fails, and the input stays.
func TestOutputSpellingsTheKernelRefuses(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.swf")
	prev := filepath.Join(dir, "real")
	os.Mkdir(prev, 0o755)
	deepIn := filepath.Join(prev, "in.swf")
	for i := 1; i <= 45; i++ {
		l := filepath.Join(dir, "d"+itoa(i))
		os.Symlink(prev, l)
		prev = l
	}
	os.Symlink("in.swf/", filepath.Join(dir, "lslash"))
	for _, c := range []struct{ input, output string }{
		{in, in + "/"},
		{in, in + "/."},
		{in, in + "/x/.."},
		{in, filepath.Join(dir, "nosuchdir") + "/../in.swf"},
		{in, filepath.Join(dir, "lslash")},
		{deepIn, prev + "/in.swf"},
	} {
		os.WriteFile(c.input, []byte("old"), 0o644)
		fs := NewFiles(nil, nil)
		fs.Input("", c.input)
		fs.Output("-o", c.output)
		if err := fs.Check(); err != nil {
			continue // refused: fine
		}
		o, err := fs.Create(c.output)
		if err != nil {
			continue // refused: fine
		}
		io.WriteString(o, "new")
		var ferr error
		fs.Finish(&ferr)
		if readFile(t, c.input) != "old" {
			t.Errorf("-o %s replaced the input %s (commit error %v)", c.output, c.input, ferr)
		}
	}
}

// A regular file whose path only looks like a descriptor once ".." is
// applied as text (l/../../../dev/stdout cleans to /dev/stdout, while the
// kernel, following the link l into a deeper folder first, finds a file
// two levels down) is a file: replaced, not appended to.
func TestOutputNotADescriptorByText(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "a", "b", "c"), 0o755)
	os.Symlink(filepath.Join(dir, "a", "b", "c"), filepath.Join(dir, "l"))
	up := strings.Repeat("/..", strings.Count(dir, "/")+1) // from dir/l to / as text
	name := filepath.Join(dir, "l") + up + "/dev/stdout"
	if filepath.Clean(name) != "/dev/stdout" {
		t.Fatalf("%s cleans to %s", name, filepath.Clean(name))
	}
	base, err := filepath.EvalSymlinks(filepath.Join(dir, "l") + up)
	if err != nil || !strings.HasPrefix(dir, base) || base == "/" {
		t.Skipf("the kernel's folder %q (%v) is not inside the test's", base, err)
	}
	stdout := filepath.Join(base, "dev", "stdout")
	os.MkdirAll(filepath.Dir(stdout), 0o755)
	defer os.RemoveAll(filepath.Dir(stdout))
	os.WriteFile(stdout, []byte("old"), 0o644)
	writeOutput(t, name, "new")
	if s := readFile(t, stdout); s != "new" {
		t.Errorf("%s holds %q, want it replaced", stdout, s)
	}
}

// createdAll registers names as outputs of a new Files and creates each,
// writing "new" into it: a run whose commit comes next.
func createdAll(t *testing.T, names ...string) *Files {
	t.Helper()
	fs := NewFiles(nil, nil)
	for _, n := range names {
		fs.Output("--x", n)
	}
	for _, n := range names {
		o, err := fs.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(o, "new")
	}
	return fs
}

// TestFilesCheckDescriptorOutputs: an output to one of the process's own
// descriptors must be one the caller opened for writing. One not open when
// Check runs would be whatever the command opens next as that number, its
// input (swfclean in.swf -o /dev/fd/5 appended the output to in.swf, exit
// 0); one open for reading only (5<file) would be reopened for writing.
func TestFilesCheckDescriptorOutputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.swf")
	os.WriteFile(in, []byte(smallText), 0o644)
	ro, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	w, err := os.Create(filepath.Join(dir, "out.swf"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// A descriptor number nothing has open: the next free ones after w.
	free := int(w.Fd()) + 50
	for _, tt := range []struct {
		out, want string
	}{
		{fmt.Sprintf("/dev/fd/%d", free), "is not open for this run's output"},
		{fmt.Sprintf("/proc/self/fd/%d", free), "is not open for this run's output"},
		{fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), free), "is not open for this run's output"},
		{fmt.Sprintf("/dev/fd/%d", ro.Fd()), "is open for reading only"},
		{fmt.Sprintf("/dev/fd/%d", w.Fd()), ""},
		{fmt.Sprintf("/proc/self/fd/%d", w.Fd()), ""},
	} {
		fs := NewFiles(nil, nil)
		fs.Input("", in)
		fs.Output("-o", tt.out)
		err := fs.Check()
		var usage *UsageError
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("-o %s (open for writing): %v", tt.out, err)
		case tt.want != "" && (!errors.As(err, &usage) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("-o %s: Check() = %v, want a usage error saying %q", tt.out, err, tt.want)
		}
	}
}

// TestFinishClosedPipeWithFiles: a closed standard output ends a run with
// status 0 unless the run was to write files too: those are not written,
// and the old file of that name must not pass for this run's (swfstat
// --csv c.csv | head left the old c.csv with status 0 and no word).
func TestFinishClosedPipeWithFiles(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "c.csv")
	os.WriteFile(csv, []byte("old"), 0o644)
	for _, tt := range []struct {
		outputs  []string
		wantCode int
	}{
		{[]string{"-", csv}, 1},
		{[]string{"-", "/dev/null"}, 0},
		{[]string{"-"}, 0},
	} {
		fs := NewFiles(nil, nil)
		for i, name := range tt.outputs {
			fs.Output([]string{"-o", "--csv"}[i], name)
		}
		err := fmt.Errorf("write standard output: %w", syscall.EPIPE)
		fs.Finish(&err)
		if got := ExitCode(err); got != tt.wantCode {
			t.Errorf("outputs %v: exit %d (%v), want %d", tt.outputs, got, err, tt.wantCode)
		}
		if tt.wantCode == 1 && !strings.Contains(err.Error(), "--csv "+csv+" not written") {
			t.Errorf("outputs %v: %v, want it to name --csv %s", tt.outputs, err, csv)
		}
	}
	if b, _ := os.ReadFile(csv); string(b) != "old" {
		t.Errorf("c.csv holds %q, want the old file kept", b)
	}
}

// TestStdoutOnce: two outputs to standard output are refused with a message
// that names them, the main output by what it is, and says how to part them,
// whether standard output is a pipe or a regular file (then the same-file
// check called them "standard output and standard output").
func TestStdoutOnce(t *testing.T) {
	regular, err := os.Create(filepath.Join(t.TempDir(), "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer regular.Close()
	for _, stdout := range []io.Writer{nil, regular} {
		for _, c := range []struct {
			outputs [][2]string
			want    string
		}{
			{[][2]string{{"-o", ""}, {"--html", "-"}}, "the summary and --html - both go to standard output, which can carry one: write the summary to a file with -o FILE, or give --html a file"},
			{[][2]string{{"-o", ""}, {"--csv", "-"}, {"--json", "-"}}, "the summary, --csv - and --json - all go to standard output, which can carry one: write the summary to a file with -o FILE, or give the others files"},
			{[][2]string{{"-o", "s.txt"}, {"--csv", "-"}, {"--json", "-"}}, "--csv - and --json - both go to standard output, which can carry one: give all but one of them a file"},
		} {
			fs := NewFiles(nil, stdout)
			fs.MainOutput = "the summary"
			for _, o := range c.outputs {
				fs.Output(o[0], o[1])
			}
			err := fs.Check()
			if err == nil || err.Error() != c.want || ExitCode(err) != 2 {
				t.Errorf("stdout %T, outputs %v: %v, want %q (exit 2)", stdout, c.outputs, err, c.want)
			}
		}
	}
}

// TestFinishClosedPipeAfterSideFiles: once every file is written whole
// (SideFilesDone, as swfstat does before its summary), a closed standard
// output commits them and the run ends with 0: the same command must not
// fail or succeed by how long its summary is.
func TestFinishClosedPipeAfterSideFiles(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "c.csv")
	os.WriteFile(csv, []byte("old"), 0o644)
	fs := NewFiles(nil, io.Discard)
	fs.Output("-o", "-")
	fs.Output("--csv", csv)
	o, err := fs.Create(csv)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(o, "new")
	fs.SideFilesDone()
	err = fmt.Errorf("write standard output: %w", syscall.EPIPE)
	fs.Finish(&err)
	if ExitCode(err) != 0 {
		t.Errorf("exit %d: %v, want 0", ExitCode(err), err)
	}
	if b, _ := os.ReadFile(csv); string(b) != "new" {
		t.Errorf("c.csv holds %q, want the run's", b)
	}
}
