//go:build unix

package adversarial

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bigger is small repeated with renumbered jobs, large enough that a cut
// compressed stream leaves whole records before the cut.
func bigger(t *testing.T) []byte {
	var b bytes.Buffer
	header, body, _ := strings.Cut(string(small(t)), "\n    1 ")
	b.WriteString(header + "\n")
	body = "    1 " + body
	lines := strings.Split(strings.TrimSpace(body), "\n")
	n := 0
	for rep := 0; rep < 200; rep++ {
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) < 18 || strings.HasPrefix(l, ";") {
				continue
			}
			n++
			submit, _ := strconv.Atoi(f[1])
			f[0] = strconv.Itoa(n)
			f[1] = strconv.Itoa(rep*2000 + submit)
			b.WriteString(strings.Join(f, " ") + "\n")
		}
	}
	return b.Bytes()
}

func gzipped(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// compressWith runs a compressor program (zstd, bzip2, xz) over data, or
// skips loudly when it is not installed.
func compressWith(t *testing.T, program string, data []byte) []byte {
	t.Helper()
	path, err := exec.LookPath(program)
	if err != nil {
		t.Skipf("SKIP (not an error of the tools): %s is not installed", program)
	}
	cmd := exec.Command(path, "-c")
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", program, err)
	}
	return out
}

// Defect 3: a truncated or corrupt compressed input is exit 1 naming the
// file in every tool, also with --lenient (it is not a malformed line).
func TestDamagedCompressedInput(t *testing.T) {
	data := bigger(t)
	gz := gzipped(data)
	badCRC := bytes.Clone(gz)
	badCRC[len(badCRC)-6] ^= 0xff // the CRC-32 in the trailer
	cases := map[string][]byte{
		"gzip cut in the middle":    gz[:len(gz)/2],
		"gzip without its trailer":  gz[:len(gz)-8],
		"gzip with a bad CRC":       badCRC,
		"gzip with trailing bytes":  append(bytes.Clone(gz), 0x1f, 0x8b, 0, 1),
		"gzip member then garbage":  append(bytes.Clone(gz), []byte("garbage after the member")...),
		"gzip cut by one byte":      gz[:len(gz)-1],
		"gzip cut at the last byte": gz[:len(gz)-4],
	}
	// swfstat already refused these, naming the file; its class is covered
	// by TestOtherCompressions.
	for _, tool := range []string{"swfclean", "swfaugment", "swfsim"} {
		t.Run(tool, func(t *testing.T) {
			dir := t.TempDir()
			for what, bad := range cases {
				name := "damaged-" + strings.ReplaceAll(what, " ", "-") + ".swf.gz"
				path := write(t, dir, name, bad, 0o644)
				r := run(t, call{tool: tool, args: toolArgs(tool, path)})
				expect(t, what, r, 1, name)
				r = run(t, call{tool: tool, args: append(toolArgs(tool, path), "--lenient")})
				expect(t, what+" --lenient", r, 1, name)
				// The same bytes on standard input.
				r = run(t, call{tool: tool, args: toolArgs(tool, "-"), stdin: bad})
				expect(t, what+" on stdin", r, 1, "<stdin>")
			}
		})
	}
}

// Defect 3 with the other compressions (zstd; bzip2 and xz are detected by
// content too): a cut stream is exit 1 naming the file, a whole one reads.
func TestOtherCompressions(t *testing.T) {
	data := bigger(t)
	for _, program := range []string{"zstd", "bzip2", "xz"} {
		t.Run(program, func(t *testing.T) {
			whole := compressWith(t, program, data)
			dir := t.TempDir()
			for _, tool := range tools {
				good := write(t, dir, "good-"+program, whole, 0o644)
				r := run(t, call{tool: tool, args: toolArgs(tool, good)})
				expect(t, tool+" whole "+program, r, 0)
				cut := write(t, dir, "cut-"+program, whole[:len(whole)-len(whole)/3], 0o644)
				r = run(t, call{tool: tool, args: toolArgs(tool, cut)})
				expect(t, tool+" cut "+program, r, 1, "cut-"+program)
			}
		})
	}
}

// Defect 4: rules that read the input twice (--drop-flurries) give the same
// output on a pipe (<(cat trace)) and a named FIFO as on the regular file.
func TestFlurriesOnPipesAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	data := bigger(t)
	in := write(t, dir, "t.swf", data, 0o644)
	want := run(t, call{tool: "swfclean", args: []string{"--drop-flurries", "-q", in}})
	expect(t, "regular file", want, 0)
	if strings.Count(want.stdout, "\n") < 1000 {
		t.Fatalf("reference output has %d lines", strings.Count(want.stdout, "\n"))
	}

	// <(cat t.swf): a pipe passed as /dev/fd/3.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func(pw *os.File) { pw.Write(data); pw.Close() }(pw)
	got := run(t, call{tool: "swfclean", args: []string{"--drop-flurries", "-q", "/dev/fd/3"}, extra: []*os.File{pr}})
	pr.Close()
	expect(t, "pipe", got, 0)
	if body(got.stdout) != body(want.stdout) {
		t.Errorf("on a pipe: %d bytes, on the file: %d", len(got.stdout), len(want.stdout))
	}

	// A named FIFO (it hung: the second open waited for a writer).
	fifo := filepath.Join(dir, "t.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	go func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Write(data)
			w.Close()
		}
	}()
	got = run(t, call{tool: "swfclean", args: []string{"--drop-flurries", "-q", fifo}})
	expect(t, "FIFO", got, 0)
	if body(got.stdout) != body(want.stdout) {
		t.Errorf("on a FIFO: %d bytes, on the file: %d", len(got.stdout), len(want.stdout))
	}
	// Compressed on a pipe: the spool holds the decompressed text.
	pr, pw, _ = os.Pipe()
	go func(pw *os.File) { pw.Write(gzipped(data)); pw.Close() }(pw)
	got = run(t, call{tool: "swfclean", args: []string{"--drop-flurries", "-q", "/dev/fd/3"}, extra: []*os.File{pr}})
	pr.Close()
	expect(t, "gzip on a pipe", got, 0)
	if body(got.stdout) != body(want.stdout) {
		t.Errorf("gzip on a pipe: %d bytes, on the file: %d", len(got.stdout), len(want.stdout))
	}
}

// Every tool gives the same result on a pipe (<(cat trace)) and a named FIFO
// as on the regular file. swfstat read the header, closed the input and
// opened it again for the records: on a pipe the records began where the
// first read had stopped (a parse error, or, with lines ending there, a
// silently shorter trace), and on a FIFO the second open waited for a
// writer forever.
func TestEveryToolOnPipesAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	data := bigger(t)
	in := write(t, dir, "t.swf", data, 0o644)
	for _, tool := range tools {
		t.Run(tool, func(t *testing.T) {
			args := func(input string) []string {
				if tool == "swfstat" {
					return []string{"--format", "csv", "--label", "t", input}
				}
				return toolArgs(tool, input)
			}
			same := func(got, want string) bool {
				if tool == "swfstat" {
					return got == want
				}
				return body(got) == body(want)
			}
			want := run(t, call{tool: tool, args: args(in)})
			expect(t, "regular file", want, 0)
			want.stdout = strings.ReplaceAll(want.stdout, in, "INPUT")

			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			go func(pw *os.File) { pw.Write(data); pw.Close() }(pw)
			got := run(t, call{tool: tool, args: args("/dev/fd/3"), extra: []*os.File{pr}})
			pr.Close()
			expect(t, "pipe", got, 0)
			if !same(strings.ReplaceAll(got.stdout, "/dev/fd/3", "INPUT"), want.stdout) {
				t.Errorf("on a pipe: %d bytes, on the file: %d", len(got.stdout), len(want.stdout))
			}

			fifo := filepath.Join(dir, tool+".fifo")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			go func() {
				if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
					w.Write(data)
					w.Close()
				}
			}()
			got = run(t, call{tool: tool, args: args(fifo), limit: 10 * time.Second})
			expect(t, "FIFO", got, 0)
			if !same(strings.ReplaceAll(got.stdout, fifo, "INPUT"), want.stdout) {
				t.Errorf("on a FIFO: %d bytes, on the file: %d", len(got.stdout), len(want.stdout))
			}
		})
	}
}

// body is the records of an SWF text without its header and comment lines
// (the header names the input, which differs between a file and a pipe).
func body(swf string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(swf, "\n") {
		if !strings.HasPrefix(l, ";") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// ': | tool' is an error with a one-line message in every command, not a
// table of dashes or a trace of no jobs; a header without records is a valid
// empty trace.
func TestEmptyInput(t *testing.T) {
	for _, c := range []call{
		{tool: "swfstat"},
		{tool: "swfclean"},
		{tool: "swfclean", args: []string{"--check"}},
		{tool: "swfsim", args: []string{"-p", "easy", "--procs", "8"}},
		{tool: "swfaugment", args: []string{"--utility"}},
	} {
		r := run(t, c)
		expect(t, c.tool+" empty stdin", r, 1, "<stdin>: empty input")
		if r.stdout != "" {
			t.Errorf("%s %v printed output for nothing: %s", c.tool, c.args, clip(r.stdout))
		}
	}
	r := run(t, call{tool: "swfsim", args: []string{"-p", "easy", "--procs", "8"}, stdin: []byte("; MaxProcs: 8\n")})
	expect(t, "header only", r, 0, "<stdin>: no job lines (header only)")
}

// A file of header lines only, or of blank lines only (what a cut download
// or a failed 'head' pipeline leaves), is a valid empty trace: every command
// goes on (exit 0) but says on stderr, naming the file, that it holds no job.
func TestHeaderOnlyInput(t *testing.T) {
	dir := t.TempDir()
	header, _, _ := strings.Cut(string(small(t)), "\n    1 ")
	for name, text := range map[string]string{"header.swf": header + "\n", "blank.swf": "\n \n\n"} {
		path := write(t, dir, name, []byte(text), 0o644)
		for _, c := range []call{
			{tool: "swfstat", args: []string{"--procs", "8"}},
			{tool: "swfstat", args: []string{"--check-capacity", "--procs", "8"}},
			{tool: "swfclean", args: []string{"-o", filepath.Join(dir, "clean-"+name)}},
			{tool: "swfclean", args: []string{"--check"}},
			{tool: "swfsim", args: []string{"-p", "easy", "--procs", "8", "-o", filepath.Join(dir, "sim-"+name)}},
			{tool: "swfaugment", args: []string{"--utility", "-o", filepath.Join(dir, "aug-"+name)}},
		} {
			c.args = append(c.args, path)
			r := run(t, c)
			expect(t, fmt.Sprintf("%s %v", c.tool, c.args), r, 0, "warning: "+path+": no job lines (header only)")
			if n := strings.Count(r.stderr, "no job lines"); n > 1 {
				t.Errorf("%s %v: said it %d times: %s", c.tool, c.args, n, clip(r.stderr))
			}
		}
	}
}

// A plain file cut inside its last field (120 cut to 12, ckpt=600 to
// ckpt=6) still parses: no stream check can catch it, so every command
// says on stderr, naming the file and the line, that the last record has no
// newline after it, and goes on (exit 0: hand-made files often lack the
// final newline). A file ending in a newline, or in a comment line without
// one, is read without it; a gzip stream of the cut text is whole, so the
// text's missing newline is said too.
func TestCutInTheLastField(t *testing.T) {
	const warning = "the last record has no newline after it"
	dir := t.TempDir()
	header, _, _ := strings.Cut(string(small(t)), "\n    1 ")
	record := "1 0 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 "
	files := map[string]string{
		"field.swf":      header + "\n" + record + "12",
		"token.swf":      header + "\n" + record + "120 ckpt=6",
		"field.swf.gz":   "",
		"newline.swf":    header + "\n" + record + "120\n",
		"comment.swf":    header + "\n" + record + "120\n; end",
		"crlf-field.swf": strings.ReplaceAll(header, "\n", "\r\n") + "\r\n" + record + "12",
	}
	line := strconv.Itoa(strings.Count(header, "\n") + 2)
	for name, text := range files {
		data := []byte(text)
		if name == "field.swf.gz" {
			data = gzipped([]byte(files["field.swf"]))
		}
		path := write(t, dir, name, data, 0o644)
		warns := name != "newline.swf" && name != "comment.swf"
		for _, c := range []call{
			{tool: "swfstat", args: []string{path}},
			{tool: "swfstat", args: []string{"--check-capacity", path}},
			{tool: "swfclean", args: []string{"-o", filepath.Join(dir, "clean-"+name), path}},
			{tool: "swfclean", args: []string{"--check", path}},
			{tool: "swfsim", args: []string{"-p", "easy", "-o", filepath.Join(dir, "sim-"+name), path}},
			{tool: "swfaugment", args: []string{"--checkpoint", "-o", filepath.Join(dir, "aug-"+name), path}},
			{tool: "swfaugment", args: []string{"--utility", "-"}, stdin: data},
		} {
			r := run(t, c)
			what := fmt.Sprintf("%s %v", c.tool, c.args)
			n := strings.Count(r.stderr, warning)
			switch {
			case !warns:
				expect(t, what, r, 0)
				if n > 0 {
					t.Errorf("%s: warned of a file that ends in a newline or a comment: %s", what, clip(r.stderr))
				}
			case c.stdin != nil:
				expect(t, what, r, 0, c.tool+": warning: <stdin>:"+line+": "+warning)
			default:
				expect(t, what, r, 0, c.tool+": warning: "+path+":"+line+": "+warning)
			}
			if warns && n != 1 {
				t.Errorf("%s: said it %d times: %s", what, n, clip(r.stderr))
			}
		}
	}
}
