package simcli

import (
	"strings"
	"testing"
)

// TestMachineSizeAfterRecords: comments after the first record are not
// header, so a MaxProcs there (cat a.swf b.swf leaves b's header after a's
// records) is not read; swfsim says so, on stderr and in a Note, when it
// gives another size than the one simulated, in the spellings the header
// accepts. The schedule is the same; --procs and an equal value say nothing.
func TestMachineSizeAfterRecords(t *testing.T) {
	a := "; MaxProcs: 4\n1 0 -1 10 3 -1 -1 3 10 -1 1 7 1 -1 1 -1 -1 -1\n"
	b := "; MaxProcs: 8\n2 5 -1 10 2 -1 -1 2 10 -1 1 7 1 -1 1 -1 -1 -1\n"
	want := "a comment before the record on line 4 gives MaxProcs 8, not read: the header ends at the first record and swfsim simulates 4 processors (from MaxProcs); traces joined with cat? simulate each, or give the machine with --procs"
	out, errs, code := runCmd(t, a+b, "-p", "fcfs", "--no-progress")
	if code != 0 || !strings.Contains(errs, "swfsim: warning: <stdin>: "+want+"\n") || !strings.Contains(out, "; Note: swfsim "+want+"\n") ||
		!strings.Contains(out, "\n2 5 5 10 2 ") {
		t.Errorf("cat a b: exit %d, stderr %q:\n%s", code, errs, out)
	}
	late := a + ";maxprocs :16 (x)\n" + "2 5 -1 10 2 -1 -1 2 10 -1 1 7 1 -1 1 -1 -1 -1\n; MAXPROCS:8\n"
	wantMany := "2 comments after the first record give another machine size, not read (the first, before the record on line 4: maxprocs 16 (x))"
	if out, errs, _ := runCmd(t, late, "-p", "fcfs", "--no-progress"); !strings.Contains(errs, wantMany) || !strings.Contains(out, "; Note: swfsim "+wantMany) {
		t.Errorf("spellings: %q\n%s", errs, out)
	}
	for _, tt := range []struct {
		in   string
		args []string
	}{
		{a + b, []string{"--procs", "8"}},
		{a + a, nil},
		{a + "; MaxNodes: 9\n", nil}, // MaxNodes is not read when MaxProcs gives the size
		{a + "; Note: MaxProcs: 8\n", nil},
	} {
		out, errs, code := runCmd(t, tt.in, append([]string{"-p", "fcfs", "--no-progress"}, tt.args...)...)
		if code != 0 || strings.Contains(errs+out, "not read") {
			t.Errorf("%q %v: exit %d, stderr %q:\n%s", tt.in, tt.args, code, errs, out)
		}
	}
}
