package augmentcli

import (
	"strings"
	"testing"
)

// TestUtilityWarnsPastDeadline: a job whose run time (capped at its
// estimate, where swfsim kills it) is at or past its deadline earns 0 under
// any schedule; stderr and a Note count them. By hand, deadline max(10,
// 2 x wait): job 1 runs 50 s of a 10 s deadline; job 2 runs 30 s of 200 s;
// job 3 runs 100 s but is killed at its 8 s estimate, inside its 10 s; job 4
// has no estimate and runs 10 s, at its 10 s deadline. So 2 of 4.
func TestUtilityWarnsPastDeadline(t *testing.T) {
	in := "; MaxProcs: 4\n" +
		"1 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"2 1 100 30 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"3 2 5 100 1 -1 -1 1 8 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"4 3 5 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
	out, errOut, code := runCmd(t, in, "--utility")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "2 of 4 jobs have a run time at or past their deadline and earn 0 under any schedule"
	if !strings.Contains(errOut, "warning: <stdin>: --utility: "+want) {
		t.Errorf("no warning %q:\n%s", want, errOut)
	}
	if !strings.Contains(out, "; Note: swfaugment utility: "+want) {
		t.Errorf("no Note %q:\n%s", want, out)
	}
	// With a larger factor every deadline is past the run time.
	out, errOut, _ = runCmd(t, in, "--utility", "--deadline-factor", "30", "--min-deadline", "60")
	if strings.Contains(errOut, "at or past their deadline") || strings.Contains(out, "at or past their deadline") {
		t.Errorf("no job past its deadline, yet:\n%s\n%s", errOut, out)
	}
}

// TestDigitsOutOfRangeNamesTheFlag: --digits beyond 17 is a usage error
// naming the flag, as --digits 0 is.
func TestDigitsOutOfRangeNamesTheFlag(t *testing.T) {
	_, errs, code := runCmd(t, "", "--utility", "--digits", "18", "testdata/small.swf")
	if code != 2 || !strings.HasPrefix(errs, "swfaugment: --digits 18: want 1 to 17\n") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}
