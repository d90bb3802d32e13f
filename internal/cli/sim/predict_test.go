package simcli

import (
	"strings"
	"testing"
)

// predTrace is pkg/policy's tokenJobs as SWF: pred= tokens drive easy-p while
// field 9 stays the kill time (TestPredictorToken works the schedule out).
const predTrace = `; Version: 2.2
; MaxProcs: 10
1 0 -1 100 6 -1 -1 6 100 -1 1 1 1 -1 1 -1 -1 -1 pred=100
2 1 -1 10 10 -1 -1 10 10 -1 1 2 1 -1 1 -1 -1 -1
3 2 -1 50 2 -1 -1 2 1000 -1 1 3 1 -1 1 -1 -1 -1 pred=40
4 3 -1 60 2 -1 -1 2 30 -1 1 4 1 -1 1 -1 -1 -1 pred=5000
`

func TestPredictorTokenCommand(t *testing.T) {
	out, errs, code := runCmd(t, predTrace, "-p", "easy-p", "--predictor", "token")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var jobs []string
	for _, line := range strings.Split(out, "\n") {
		if line != "" && !strings.HasPrefix(line, ";") {
			jobs = append(jobs, line)
		}
	}
	want := []string{
		"1 0 0 100 6 -1 -1 6 100 -1 1 1 1 -1 1 -1 -1 -1 pred=100",
		"2 1 99 10 10 -1 -1 10 10 -1 1 2 1 -1 1 -1 -1 -1",
		"3 2 0 50 2 -1 -1 2 1000 -1 1 3 1 -1 1 -1 -1 -1 pred=40",
		"4 3 0 30 2 -1 -1 2 30 -1 0 4 1 -1 1 -1 -1 -1 pred=5000 killed=1",
	}
	if strings.Join(jobs, "\n") != strings.Join(want, "\n") {
		t.Errorf("jobs:\n%s\nwant:\n%s", strings.Join(jobs, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(out, "predictor token") {
		t.Errorf("no Note naming the predictor in\n%s", out)
	}

	// Without a single pred= token the run fails rather than pass for one
	// with predictions.
	if _, errs, code := runCmd(t, tiny, "-p", "easy++", "--predictor", "token"); code != 1 || !strings.Contains(errs, "no job has a pred= token") {
		t.Errorf("tiny: exit %d, stderr %q; want 1 and no job has a pred= token", code, errs)
	}
	// A malformed token is bad input, named by line and field.
	bad := strings.Replace(predTrace, "pred=40", "pred=4O", 1)
	if _, errs, code := runCmd(t, bad, "-p", "easy-p", "--predictor", "token"); code != 1 || !strings.Contains(errs, "<stdin>:5: field 19 (extension token): pred=4O: want a runtime prediction") {
		t.Errorf("bad pred=: exit %d, stderr %q; want 1 and the line and field", code, errs)
	}
	// Other predictors do not read it.
	if _, errs, code := runCmd(t, bad, "-p", "easy-p"); code != 0 {
		t.Errorf("bad pred= with last2: exit %d, %s", code, errs)
	}
	if _, errs, code := runCmd(t, tiny, "-p", "easy-p", "--predictor", "token"); code != 1 || !strings.Contains(errs, "<stdin>: --predictor token: no job") {
		t.Errorf("tiny: exit %d, stderr %q; want the input named", code, errs)
	}
	if _, errs, code := runCmd(t, tiny, "-p", "easy", "--repredict"); code != 2 || !strings.Contains(errs, "--repredict does not apply to policy easy") {
		t.Errorf("easy --repredict: exit %d, stderr %q; want a usage error", code, errs)
	}
	// A predictor without history gives the same prediction again: --repredict
	// would be ignored (sjbf predicts the estimate by default).
	for _, args := range [][]string{{"-p", "easy-p", "--predictor", "token"}, {"-p", "sjbf"}, {"-p", "easy++", "--predictor", "exact"}} {
		if _, errs, code := runCmd(t, predTrace, append(args, "--repredict")...); code != 2 || !strings.Contains(errs, "would change nothing") {
			t.Errorf("%v --repredict: exit %d, stderr %q; want a usage error", args, code, errs)
		}
	}
	if _, errs, code := runCmd(t, tiny, "-p", "easy++", "--repredict"); code != 0 {
		t.Errorf("easy++ --repredict: exit %d, %s", code, errs)
	}
}

// TestUnreadPredictionsWarn: pred= tokens that the run does not read (no
// --predictor token) are said on stderr and in the header, counted, with the
// flag that reads them; a run that reads them, or exec (whose program gets
// every token), says nothing.
func TestUnreadPredictionsWarn(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" : no warning
	}{
		{[]string{"-p", "easy-p"}, "3 simulated jobs carry a pred= token (runtime predictions, swfaugment --as-prediction), which this run does not read: easy-p predicts with predictor last2; --predictor token reads them"},
		{[]string{"-p", "sjbf"}, "sjbf predicts with predictor estimate; --predictor token reads them"},
		{[]string{"-p", "easy++", "--predictor", "exact"}, "easy++ predicts with predictor exact; --predictor token reads them"},
		{[]string{"-p", "easy"}, "3 simulated jobs carry a pred= token (runtime predictions, swfaugment --as-prediction), which policy easy does not read; only --predictor token reads them (-p easy-p, sjbf or easy++)"},
		{[]string{"-p", "fcfs"}, "which policy fcfs does not read"},
		{[]string{"-p", "easy-p", "--predictor", "token"}, ""},
	} {
		out, errs, code := runCmd(t, predTrace, tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
		}
		if tc.want == "" {
			if strings.Contains(errs+out, "does not read") {
				t.Errorf("%v: warned of unread pred= tokens:\n%s\n%s", tc.args, errs, out)
			}
			continue
		}
		if !strings.Contains(errs, "swfsim: warning: <stdin>: ") || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: stderr %q, want a warning with %q", tc.args, errs, tc.want)
		}
		if !strings.Contains(out, "; Note: swfsim ") || !strings.Contains(out, tc.want) {
			t.Errorf("%v: no header Note with %q in\n%s", tc.args, tc.want, out)
		}
	}
	// Without a pred= token, nothing to say.
	if out, errs, _ := runCmd(t, tiny, "-p", "easy"); strings.Contains(errs+out, "pred=") {
		t.Errorf("tiny: %s\n%s", errs, out)
	}
}
