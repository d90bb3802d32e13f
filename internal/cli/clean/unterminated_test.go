package cleancli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
)

// unterminatedWarning is the warning after "FILE:LINE: " (its text is
// pinned once, in cmdio's TestWarnUnterminated).
const unterminatedWarning = cmdio.UnterminatedText

// A last record without a newline after it is read (the file may be hand
// made) but named on stderr in every path of swfclean, once even when the
// flurries rule reads the input twice; a trace ending in a newline, or in a
// comment line without one, gets no such warning.
func TestUnterminatedLastRecordWarns(t *testing.T) {
	// dirty.swf ends in comment lines: its records without them.
	withTrailer := string(readFile(t, "testdata/dirty.swf"))
	dirty := withTrailer[:strings.LastIndex(withTrailer, "\n;\n; trailer comment")+1]
	cut := strings.TrimSuffix(dirty, "\n")
	lines := strings.Count(cut, "\n") + 1
	dir := t.TempDir()
	file := filepath.Join(dir, "cut.swf")
	if err := os.WriteFile(file, []byte(cut), 0o666); err != nil {
		t.Fatal(err)
	}
	flurries := []string{"--flurry-min-jobs", "2", "--flurry-window", "20", "--flurry-share", "0.6"}
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		warn  string // FILE:LINE the warning names, "" for none
	}{
		{"clean", cut, nil, 0, "<stdin>:" + strconv.Itoa(lines)},
		{"clean file", "", []string{file}, 0, file + ":" + strconv.Itoa(lines)},
		{"copy", cut, []string{"--rules", "none"}, 0, "<stdin>:" + strconv.Itoa(lines)},
		{"copy to a file", cut, []string{"--rules", "none", "-o", filepath.Join(dir, "out.swf")}, 0, "<stdin>:" + strconv.Itoa(lines)},
		{"whole-trace rule", cut, []string{"--rules", "default,sort_submit"}, 0, "<stdin>:" + strconv.Itoa(lines)},
		{"drop flurries, stdin", cut, append([]string{"--drop-flurries"}, flurries...), 0, "<stdin>:" + strconv.Itoa(lines)},
		{"drop flurries, file", "", append(append([]string{"--drop-flurries"}, flurries...), file), 0, file + ":" + strconv.Itoa(lines)},
		{"check", cut, []string{"--check"}, 0, "<stdin>:" + strconv.Itoa(lines)},
		{"check submission", cut, []string{"--check", "--submission"}, 1, "<stdin>:" + strconv.Itoa(lines)},
		{"flurries", cut, append([]string{"--flurries"}, flurries...), 0, "<stdin>:" + strconv.Itoa(lines)},
		{"lenient, cut to a malformed line", "; MaxProcs: 8\n1 0 1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n2 0 1 10", []string{"--lenient"}, 0, "<stdin>:3"},
		{"crlf", strings.ReplaceAll(cut, "\n", "\r\n"), nil, 0, "<stdin>:" + strconv.Itoa(lines)},
		{"cut in a token", "; MaxProcs: 8\n1 0 1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1 ckpt=6", nil, 0, "<stdin>:2"},
		{"final newline", dirty, nil, 0, ""},
		{"final newline, check", dirty, []string{"--check"}, 0, ""},
		{"trailing comment without newline", dirty + "; end", nil, 0, ""},
		{"dirty.swf's trailer without newline", strings.TrimSuffix(withTrailer, "\n"), nil, 0, ""},
		{"header only without newline", "; MaxProcs: 8", []string{"-q"}, 0, ""},
		// A converted log is written by swfclean itself, with its newlines;
		// a log cut short is the converter's error (ErrTruncated).
		{"sacct", "JobID|Submit|Start|End|State|AllocCPUS\n7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|COMPLETED|4\n",
			[]string{"--from", "sacct", "--timezone", "UTC"}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := swfclean(t, strings.NewReader(tc.stdin), tc.args...)
			if res.code != tc.code {
				t.Fatalf("exit %d, want %d\nstderr: %s", res.code, tc.code, res.stderr)
			}
			n := strings.Count(res.stderr, unterminatedWarning)
			switch {
			case tc.warn == "" && n != 0:
				t.Errorf("warned of a last record without newline:\n%s", res.stderr)
			case tc.warn != "" && (n != 1 || !strings.Contains(res.stderr, "swfclean: warning: "+tc.warn+": "+unterminatedWarning)):
				t.Errorf("want one warning naming %s, got %d:\n%s", tc.warn, n, res.stderr)
			}
		})
	}
}

// The warning leaves the output what it was: the cut file's jobs, as read.
func TestUnterminatedOutputUnchanged(t *testing.T) {
	dirty := string(readFile(t, "testdata/dirty.swf"))
	dirty = dirty[:strings.LastIndex(dirty, "\n;\n; trailer comment")+1]
	whole := swfclean(t, strings.NewReader(dirty), "-q")
	cut := swfclean(t, strings.NewReader(strings.TrimSuffix(dirty, "\n")), "-q")
	if withoutProvenance(whole.stdout) != withoutProvenance(cut.stdout) || !bytes.HasSuffix([]byte(cut.stdout), []byte("\n")) {
		t.Errorf("outputs differ:\n%s\n---\n%s", whole.stdout, cut.stdout)
	}
}
