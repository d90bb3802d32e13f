package simcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
)

// unterminatedWarning is the warning after "FILE:LINE: " (its text is
// pinned once, in cmdio's TestWarnUnterminated).
const unterminatedWarning = cmdio.UnterminatedText

// A last record without a newline after it is simulated (the file may be
// hand made) but named on stderr, once although swfsim reads its input
// twice (to simulate, then to write); a trace that ends in a newline, or in
// a comment line without one, gets no such warning.
func TestUnterminatedLastRecordWarns(t *testing.T) {
	cut := strings.TrimSuffix(tiny, "\n")
	file := filepath.Join(t.TempDir(), "cut.swf")
	if err := os.WriteFile(file, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
		warn        string // FILE:LINE the warning names, "" for none
	}{
		{"stdin", cut, []string{"-p", "easy"}, "<stdin>:8"},
		{"file", "", []string{"-p", "fcfs", file}, file + ":8"},
		{"output file", cut, []string{"-p", "easy", "-o", filepath.Join(t.TempDir(), "out.swf")}, "<stdin>:8"},
		{"lenient", cut + "\n6 5 -1 1", []string{"-p", "easy", "--lenient"}, "<stdin>:9"},
		{"crlf", strings.ReplaceAll(cut, "\n", "\r\n"), []string{"-p", "easy"}, "<stdin>:8"},
		{"final newline", tiny, []string{"-p", "easy"}, ""},
		{"trailing comment without newline", tiny + "; end", []string{"-p", "easy"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := runCmd(t, tc.stdin, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			n := strings.Count(stderr, unterminatedWarning)
			switch {
			case tc.warn == "" && n != 0:
				t.Errorf("warned of a last record without newline:\n%s", stderr)
			case tc.warn != "" && (n != 1 || !strings.Contains(stderr, "swfsim: warning: "+tc.warn+": "+unterminatedWarning)):
				t.Errorf("want one warning naming %s, got %d:\n%s", tc.warn, n, stderr)
			}
			if out != "" && !strings.HasSuffix(out, "\n") {
				t.Errorf("the output does not end in a newline:\n%q", out)
			}
		})
	}
}
