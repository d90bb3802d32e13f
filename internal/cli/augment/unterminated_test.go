package augmentcli

import (
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
// made) but named on stderr, once also when the operations read the input
// twice (a survey first), from a file or from standard input; a trace that
// ends in a newline gets no such warning.
func TestUnterminatedLastRecordWarns(t *testing.T) {
	small, err := os.ReadFile("testdata/small.swf")
	if err != nil {
		t.Fatal(err)
	}
	// small.swf ends in a comment line, which is not a record.
	whole := strings.TrimSuffix(string(small), "; trailing comment\n")
	cut := strings.TrimSuffix(whole, "\n")
	line := strings.Count(cut, "\n") + 1
	dir := t.TempDir()
	file := filepath.Join(dir, "cut.swf")
	if err := os.WriteFile(file, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--utility", "--priority-order", "2,1,0"}, // one pass
		{"--checkpoint"}, // a survey, then the pass that writes
		{"--bounds"},
		{"--utility", "--checkpoint", "--lenient"},
	} {
		for _, in := range []struct{ stdin, arg, name string }{{cut, "-", "<stdin>"}, {"", file, file}} {
			stdout, stderr, code := runCmd(t, in.stdin, append(args, in.arg)...)
			if code != 0 {
				t.Fatalf("%v %s: exit %d: %s", args, in.name, code, stderr)
			}
			want := "swfaugment: warning: " + in.name + ":" + strconv.Itoa(line) + ": " + unterminatedWarning
			if n := strings.Count(stderr, unterminatedWarning); n != 1 || !strings.Contains(stderr, want) {
				t.Errorf("%v %s: want one warning %q, got %d:\n%s", args, in.name, want, n, stderr)
			}
			if !strings.HasSuffix(stdout, "\n") {
				t.Errorf("%v %s: the output does not end in a newline", args, in.name)
			}
		}
		for _, in := range []string{whole, string(small), strings.TrimSuffix(string(small), "\n")} {
			if _, stderr, _ := runCmd(t, in, append(args, "-")...); strings.Contains(stderr, unterminatedWarning) {
				t.Errorf("%v: warned of a trace that ends in a newline or a comment line:\n%s", args, stderr)
			}
		}
	}
}

// The --checkpoint-from file's last answer without a newline after it is
// read and named too (a cut interval, 600 to 60, still parses).
func TestUnterminatedLastAnswerWarns(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		answers string
		warn    bool
	}{{"1 600\n2 60", true}, {"1 600\n2 600\n", false}, {"1 600\n2 600\n# end", false}} {
		file := filepath.Join(dir, "answers.txt")
		if err := os.WriteFile(file, []byte(tc.answers), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runCmd(t, "", "--checkpoint-from", file, "testdata/small.swf")
		want := file + ":2: the last answer has no newline after it"
		if code != 0 || strings.Contains(stderr, want) != tc.warn {
			t.Errorf("%q: exit %d, stderr %q; want exit 0, warning %v", tc.answers, code, stderr, tc.warn)
		}
	}
}
