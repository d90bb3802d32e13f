package simcli

import (
	"strings"
	"testing"
)

// TestFewerThanAllocated: a job that requested fewer processors (field 8)
// than it was allocated (field 5; 3745 of CEA-Curie's sample) is simulated,
// under --procs-from requested or requested-only, on its field 8: stderr and
// a Note count such jobs, name the field used and the options that take
// field 5, under which nothing is said. The schedule is the one without the
// Note.
func TestFewerThanAllocated(t *testing.T) {
	in := "; MaxProcs: 8\n" +
		"1 0 -1 100 6 -1 -1 2 100 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 10 -1 10 4 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"3 20 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"4 30 -1 10 3 -1 -1 -1 10 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"5 1 -1 10 6 -1 -1 6 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	want := "2 simulated jobs requested fewer processors (field 8) than they were allocated (field 5) (the first: job 1, 2 of 6): they are simulated on their field 8 (--procs-from requested), fewer processors than they held in the log; --procs-from allocated or max takes field 5"
	out, errs, code := runCmd(t, in, "-p", "easy", "--no-progress")
	if code != 0 || !strings.Contains(errs, "swfsim: warning: <stdin>: "+want+"\n") || !strings.Contains(out, "; Note: swfsim "+want+"\n") {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	// Job 1 holds 2 of the 8 processors, not 6: job 5 (6) starts at once.
	if !strings.Contains(out, "\n5 1 0 10 6 ") {
		t.Errorf("job 1 not simulated on its 2 requested processors:\n%s", out)
	}
	if _, errs, _ := runCmd(t, in, "-p", "easy", "--no-progress", "--procs-from", "requested-only"); !strings.Contains(errs, "(--procs-from requested-only)") {
		t.Errorf("requested-only: %q", errs)
	}
	for _, from := range []string{"allocated", "max"} {
		if out, errs, _ := runCmd(t, in, "-p", "easy", "--no-progress", "--procs-from", from); strings.Contains(errs+out, "fewer processors") {
			t.Errorf("%s: %q\n%s", from, errs, out)
		}
	}
	// One such job is said in the singular.
	one := strings.Replace(in, "2 10 -1 10 4 ", "2 10 -1 10 1 ", 1)
	wantOne := "1 simulated job requested fewer processors (field 8) than it was allocated (field 5) (job 1, 2 of 6): it is simulated on its field 8 (--procs-from requested), fewer processors than it held in the log; --procs-from allocated or max takes field 5"
	if out, errs, _ := runCmd(t, one, "-p", "fcfs", "--no-progress"); !strings.Contains(errs, wantOne) || !strings.Contains(out, "; Note: swfsim "+wantOne) {
		t.Errorf("one job: %q\n%s", errs, out)
	}
	if out, errs, _ := runCmd(t, tiny, "-p", "easy", "--no-progress"); strings.Contains(errs+out, "fewer processors") {
		t.Errorf("tiny: %q\n%s", errs, out)
	}
}
