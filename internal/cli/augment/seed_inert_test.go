package augmentcli

import (
	"strings"
	"testing"
)

// TestSeedThatCannotMatter: an estimate operation whose parameters leave
// its draws no effect (no error and no spread, a conversion of none or all
// of the jobs with no spread, a perfect share of all, a uniform model of
// one factor) writes the same jobs for every seed, like a run that draws
// nothing: a sweep over seeds repeats one point, so the first Note says
// so and a --seed given is warned about. They drew, so that was not said.
func TestSeedThatCannotMatter(t *testing.T) {
	const note = "the output is the same for every seed"
	for _, tt := range []struct {
		args  []string
		inert bool
	}{
		{[]string{"--error-quant", "0", "--error-category", "10"}, true},
		{[]string{"--error-quant", "50", "--error-category", "11", "--perfect-share", "1"}, true},
		{[]string{"--error-qual", "both", "--error-percent", "100"}, true},
		{[]string{"--error-qual", "s2l", "--error-percent", "0"}, true},
		{[]string{"--estimate", "uniform:2,2"}, true},
		{[]string{"--estimate", "uniform:2,2", "--as-prediction"}, true},
		{[]string{"--error-quant", "0", "--error-stdev", "5", "--error-category", "10"}, false},
		{[]string{"--error-quant", "50", "--error-category", "11", "--perfect-share", "0.9"}, false},
		{[]string{"--error-qual", "both", "--error-percent", "50"}, false},
		{[]string{"--estimate", "uniform:2,2.5"}, false},
		// Another operation draws: the seed matters.
		{[]string{"--error-quant", "0", "--error-category", "10", "--utility"}, false},
	} {
		a, errA, codeA := runCmd(t, "", append(tt.args, "--seed", "2", "testdata/small.swf")...)
		b, _, codeB := runCmd(t, "", append(tt.args, "--seed", "3", "testdata/small.swf")...)
		if codeA != 0 || codeB != 0 {
			t.Fatalf("%v: exit %d, %d: %s", tt.args, codeA, codeB, errA)
		}
		if same := jobLines(a) == jobLines(b); same != tt.inert {
			t.Errorf("%v: seeds 2 and 3 give the same jobs: %v, want %v", tt.args, same, tt.inert)
		}
		warned := strings.Contains(errA, "swfaugment: warning: --seed 2 changes nothing")
		if strings.Contains(a, note) != tt.inert || warned != tt.inert {
			t.Errorf("%v: Note %v, warning %v; want %v:\n%s", tt.args, strings.Contains(a, note), warned, tt.inert, errA)
		}
	}
}

// TestInertEstimateNoteTrue: the Note of a run whose errors are all zero
// says what it writes: every job's runtime, but a runtime of 0 as 1 s, the
// smallest estimate, which the estimate Note counts as over; not "exactly".
func TestInertEstimateNoteTrue(t *testing.T) {
	in := "; MaxProcs: 4\n" +
		"1 0 -1 0 3 -1 -1 3 10 -1 1 7 1 -1 1 -1 -1 -1\n" +
		"2 0 -1 50 3 -1 -1 3 10 -1 1 7 1 -1 1 -1 -1 -1\n"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--error-quant", "0", "--error-stdev", "0", "--error-category", "10"}, "--error-quant 0 with --error-stdev 0 estimates every job at its runtime (a runtime of 0 as 1 s, the smallest estimate)"},
		{[]string{"--error-quant", "50", "--error-category", "11", "--perfect-share", "1"}, "--perfect-share 1 estimates every job at its runtime (a runtime of 0 as 1 s, the smallest estimate)"},
	} {
		out, errs, code := runCmd(t, in, tt.args...)
		if code != 0 || !strings.Contains(out, tt.want) || strings.Contains(out+errs, "every job exactly") ||
			!strings.Contains(out, "\n1 0 -1 0 3 -1 -1 3 1 ") || !strings.Contains(out, "1 exact, 1 over") {
			t.Errorf("%v: exit %d, stderr %q:\n%s", tt.args, code, errs, out)
		}
	}
}
