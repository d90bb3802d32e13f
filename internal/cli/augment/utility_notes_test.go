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

// TestUtilityPastDeadlineAfterEstimates: with an estimate transform in the
// same run the kill time swfsim reads is the transform's field 9, not the
// log's, so the Note counts on the output's estimates. The trace of
// TestUtilityWarnsPastDeadline (2 of 4 with the log's): --estimate exact lets
// job 3 run its 100 s, past its 10 s deadline (3 of 4); scale:0.1 kills jobs
// 1, 2 and 4 at 5, 3 and 1 s, inside their deadlines, and job 3 at 10 s, at
// its deadline (1 of 4); as predictions field 9 stays (2 of 4). The count
// was the log's, 2 of 4, in all three (LANL-CM5 with --error-quant 100
// --error-category 10: 107,511 said, 54,302 in the file).
func TestUtilityPastDeadlineAfterEstimates(t *testing.T) {
	in := "; MaxProcs: 4\n" +
		"1 0 0 50 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"2 1 100 30 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"3 2 5 100 1 -1 -1 1 8 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"4 3 5 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--estimate", "exact"}, "3 of 4 jobs"},
		{[]string{"--estimate", "scale:0.1"}, "1 of 4 jobs"},
		{[]string{"--estimate", "scale:0.1", "--as-prediction"}, "2 of 4 jobs"},
	} {
		out, errOut, code := runCmd(t, in, append([]string{"--utility"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		want := tc.want + " have a run time at or past their deadline"
		if !strings.Contains(out, "; Note: swfaugment utility: "+want) || !strings.Contains(errOut, want) {
			t.Errorf("%v: no Note and warning %q:\n%s\n%s", tc.args, want, out, errOut)
		}
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

// TestUtilityRanksWithoutJobsInHeaderQueues: the default ranks are the
// header's Queue-line queues (Lee 2.6.1: the choices available on the
// system), but when no job is in any of them the lines say nothing of the
// jobs: NASA-iPSC's header lists queues 0 and 1 and every job has queue -1,
// so one rank, start values centred on globmax/2, as without Queue lines
// (before, two ranks put every job in the lower bin, centred on globmax/4).
// A declared queue without jobs among used ones keeps its rank; either way
// a warning and a Note name the queues without jobs.
func TestUtilityRanksWithoutJobsInHeaderQueues(t *testing.T) {
	const job = " 1 -1 -1 1 60 -1 1 1 1 -1 %s -1 -1 -1\n"
	line := func(n, q string) string { return n + " " + n + " 0 10" + strings.Replace(job, "%s", q, 1) }
	nasa := "; MaxProcs: 4\n; Queue: 0 interactive\n; Queue: 1 batch\n" + line("1", "-1") + line("2", "-1")
	out, errs, code := runCmd(t, nasa, "--utility")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := "the header's Queue lines list queue(s) 0,1, in which no job is: no job is in a listed queue, so every job is in one rank, as without Queue lines"
	if !strings.Contains(errs, "warning: <stdin>: --utility: "+want) || !strings.Contains(out, "; Note: swfaugment utility: "+want) {
		t.Errorf("no warning or Note %q:\n%s\n%s", want, errs, out)
	}
	if !strings.Contains(out, "=none (one rank for all jobs)\n") || !strings.Contains(out, "per priority rank 2)") {
		t.Errorf("want one rank for all jobs:\n%s", out)
	}
	three := "; MaxProcs: 4\n; Queue: 0 a\n; Queue: 1 b\n; Queue: 2 c\n" + line("1", "0") + line("2", "2") + line("3", "2")
	out, errs, _ = runCmd(t, three, "--utility")
	if !strings.Contains(out, "lowest number highest)=0,1,2\n") || !strings.Contains(out, "per priority rank 1/0/2)") ||
		!strings.Contains(errs, "list queue(s) 1, in which no job is: their ranks hold no job but count in the bins") {
		t.Errorf("want ranks 0,1,2 and queue 1 named:\n%s\n%s", errs, out)
	}
	// Every header queue with jobs: nothing said.
	if _, errs, _ = runCmd(t, "", "--utility", "testdata/small.swf"); strings.Contains(errs, "in which no job is") {
		t.Errorf("small.swf has jobs in every queue: %s", errs)
	}
}
