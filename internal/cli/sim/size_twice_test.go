package simcli

import (
	"strings"
	"testing"
)

// TestMachineSizeTwice: a header that gives MaxProcs (or MaxNodes, when it
// is the machine size) on two lines, which swfclean --check flags as
// header_label_twice: different values are an error naming the lines and
// values, which --procs settles (the output then has one MaxProcs); equal
// ones a warning.
func TestMachineSizeTwice(t *testing.T) {
	const job = "1 0 -1 10 3 -1 -1 3 10 -1 1 7 1 -1 1 -1 -1 -1\n"
	out, errs, code := runCmd(t, "; MaxProcs: 4\n; Note: x\n; MaxProcs: 8\n"+job, "-p", "fcfs", "--no-progress")
	want := "swfsim: <stdin>: header lines 1 and 3 give MaxProcs 4 and 8, a label the format gives once: which machine size is meant? give it with --procs"
	if code != 1 || !strings.Contains(errs, want) || out != "" {
		t.Errorf("different: exit %d, stderr %q:\n%s", code, errs, out)
	}
	out, errs, code = runCmd(t, "; MaxNodes: 4\n; MaxNodes: 2 (nodes)\n"+job, "-p", "fcfs", "--no-progress")
	if code != 1 || !strings.Contains(errs, "header lines 1 and 2 give MaxNodes 4 and 2,") {
		t.Errorf("MaxNodes: exit %d, stderr %q:\n%s", code, errs, out)
	}
	// MaxProcs is read first: a second line giving 8 after one giving 0 (no
	// machine size) is not passed over for MaxNodes without a word.
	out, errs, code = runCmd(t, "; MaxProcs: 0\n; MaxProcs: 8\n; MaxNodes: 4\n"+job, "-p", "fcfs", "--no-progress")
	if code != 1 || !strings.Contains(errs, "header lines 1 and 2 give MaxProcs 0 and 8,") || out != "" {
		t.Errorf("MaxProcs 0 and 8, MaxNodes: exit %d, stderr %q:\n%s", code, errs, out)
	}
	// MaxNodes twice is not read when MaxProcs gives the size.
	if _, errs, code = runCmd(t, "; MaxProcs: 4\n; MaxNodes: 4\n; MaxNodes: 2\n"+job, "-p", "fcfs", "--no-progress"); code != 0 || strings.Contains(errs, "gives once") {
		t.Errorf("unread MaxNodes: exit %d, stderr %q", code, errs)
	}
	out, errs, code = runCmd(t, "; MaxProcs: 4\n; MaxProcs: 8\n"+job, "-p", "fcfs", "--no-progress", "--procs", "16")
	if code != 0 || strings.Count(out, "MaxProcs:") != 1 || !strings.Contains(out, "; MaxProcs: 16\n") ||
		!strings.Contains(out, "; Note: swfsim MaxProcs set to 16 by --procs (input header: 4 and 8)\n") {
		t.Errorf("--procs: exit %d, stderr %q:\n%s", code, errs, out)
	}
	out, errs, code = runCmd(t, "; MaxProcs: 4\n; MaxProcs: 4\n"+job, "-p", "fcfs", "--no-progress")
	if code != 0 || !strings.Contains(errs, "swfsim: warning: <stdin>: header lines 1 and 2 give MaxProcs 4 and 4, a label the format gives once; swfsim reads 4\n") ||
		!strings.Contains(out, "\n1 0 0 10 3 ") {
		t.Errorf("equal: exit %d, stderr %q:\n%s", code, errs, out)
	}
}
