package augmentcli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
)

// jobLines returns the lines of an SWF text that are not header or comment
// lines.
func jobLines(text string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if !strings.HasPrefix(strings.TrimLeft(l, " \t"), ";") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// TestLoadNoteFactorReproduces: the factor --target-load chose, as its Note
// writes it, given back to --load, scales the trace the same way. With F
// written to 6 significant digits (F=1.28712 on KTH-SP2 for 0.9) the submit
// times of 28,157 jobs came out up to 74 s apart; and a factor given is
// written as given, not rounded.
func TestLoadNoteFactorReproduces(t *testing.T) {
	path := testutil.Trace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	target, errOut, code := runCmd(t, "", "--target-load", "0.9", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := regexp.MustCompile(`; Note: swfaugment load \(.*?, F=(\S+) \(factor chosen for target load 0\.9\)`).FindStringSubmatch(target)
	if m == nil {
		t.Fatalf("no load Note with the chosen factor:\n%s", target[:2000])
	}
	given, errOut, code := runCmd(t, "", "--load", m[1], path)
	if code != 0 {
		t.Fatalf("--load %s: exit %d: %s", m[1], code, errOut)
	}
	if jobLines(given) != jobLines(target) {
		t.Errorf("--load %s (the factor in --target-load 0.9's Note) scales the trace otherwise than --target-load 0.9", m[1])
	}
	if !strings.Contains(given, "F="+m[1]+" (factor given)") {
		t.Errorf("--load %s: the Note does not give the factor as given", m[1])
	}
	out, _, _ := runCmd(t, "", "--load", "1.2345678912", "testdata/small.swf")
	if !strings.Contains(out, "F=1.2345678912 (factor given)") {
		t.Errorf("--load 1.2345678912: the Note rounds the factor given")
	}
}
