package statcli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
)

// unterminatedWarning is the warning after "FILE:LINE: " (its text is
// pinned once, in cmdio's TestWarnUnterminated).
const unterminatedWarning = cmdio.UnterminatedText

// Each input whose last record has no newline after it is named on stderr,
// with its line, once and in argument order, whatever the mode; inputs that
// end in a newline, or in a comment line without one, are not; the HTML
// report says it in the input's row.
func TestUnterminatedLastRecordWarns(t *testing.T) {
	chdirRoot(t)
	data, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.TrimSuffix(string(data), "\n")
	line := strings.Count(cut, "\n") + 1
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf")
	for _, f := range []string{a, b} {
		if err := os.WriteFile(f, []byte(cut), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	comment := filepath.Join(dir, "comment.swf")
	if err := os.WriteFile(comment, append(data, "; end"...), 0o644); err != nil {
		t.Fatal(err)
	}
	warning := func(name string) string {
		return "swfstat: warning: " + name + ":" + strconv.Itoa(line) + ": " + unterminatedWarning
	}
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		warns []string // in this order
	}{
		{"one", "", []string{a}, []string{a}},
		{"stdin", cut, []string{"-"}, []string{"<stdin>"}},
		{"several", "", []string{"--label", "a,h,b,c", a, hand, b, comment}, []string{a, b}},
		{"csv", "", []string{"--format", "csv", "--label", "b,a", b, a}, []string{b, a}},
		{"check capacity", "", []string{"--check-capacity", a}, []string{a}},
		{"jobs", "", []string{"--jobs", filepath.Join(dir, "jobs.csv"), a}, []string{a}},
		{"ends in newlines", "", []string{"--label", "h,c", hand, comment}, nil},
		// Bytes, not records: no line is read.
		{"sha256", "", []string{"--sha256", a}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run(t, tc.stdin, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if n := strings.Count(stderr, unterminatedWarning); n != len(tc.warns) {
				t.Fatalf("%d warnings, want %d:\n%s", n, len(tc.warns), stderr)
			}
			at := 0
			for _, name := range tc.warns {
				i := strings.Index(stderr[at:], warning(name))
				if i < 0 {
					t.Fatalf("stderr lacks %q after byte %d:\n%s", warning(name), at, stderr)
				}
				at += i + 1
			}
		})
	}

	html := filepath.Join(dir, "report.html")
	if _, stderr, code := run(t, "", "--html", html, "--label", "a,h", a, hand); code != 0 {
		t.Fatalf("--html: exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	rowA := regexp.MustCompile(`(?s)<tr><td class="label">a</td>.*?</tr>`).FindString(string(page))
	rowH := regexp.MustCompile(`(?s)<tr><td class="label">h</td>.*?</tr>`).FindString(string(page))
	if !strings.Contains(rowA, `<div class="warning">line `+strconv.Itoa(line)+": "+unterminatedWarning) {
		t.Errorf("input a's row lacks the warning:\n%s", rowA)
	}
	if rowH == "" || strings.Contains(rowH, "no newline") {
		t.Errorf("input h's row has the warning, or is missing:\n%s", rowH)
	}
}
