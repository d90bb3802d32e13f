package simcli

import (
	"strings"
	"testing"
)

// prioTrace: a 10-processor machine and three 10-processor jobs of 100 s,
// all submitted at 0, in queues 1, 1 and 2, worth the same: only the order
// they are taken in decides the schedule.
const prioTrace = `; MaxProcs: 10
1 0 -1 100 10 -1 -1 10 100 -1 1 1 1 -1 1 -1 -1 -1 u=0:1,1000000:0
2 0 -1 100 10 -1 -1 10 100 -1 1 1 1 -1 1 -1 -1 -1 u=0:1,1000000:0
3 0 -1 100 10 -1 -1 10 100 -1 1 1 1 -1 2 -1 -1 -1 u=0:1,1000000:0
`

// starts returns the start times (submit + wait) of the jobs, in order.
func starts(t *testing.T, out string) []string {
	t.Helper()
	var s []string
	for _, l := range jobLines(out) {
		f := strings.Fields(l)
		s = append(s, f[2]) // submit is 0: the wait is the start
	}
	return s
}

// TestPriorityOrderSeedsGA: --priority-order orders ga's priority seed as
// it orders priofifo's classes. With the priority seed alone (population 1,
// no generations) the seed is the schedule: by hand, the default order
// (ascending queue number) starts jobs 1, 2, 3 at 0, 100, 200; with
// --priority-order 2,1 job 3 (queue 2) starts first: 100, 200, 0.
func TestPriorityOrderSeedsGA(t *testing.T) {
	for _, pol := range []string{"ga", "ga-ckpt", "priofifo"} {
		for _, tt := range []struct {
			order string
			want  string
		}{{"", "0 100 200"}, {"2,1", "100 200 0"}, {"1+2", "0 100 200"}, {"2+1", "0 100 200"}} {
			args := []string{"--policy", pol, "--no-progress"}
			if strings.HasPrefix(pol, "ga") {
				args = append(args, "--ga-seeds", "priority", "--ga-population", "1", "--ga-generations", "0")
			}
			if tt.order != "" {
				args = append(args, "--priority-order", tt.order)
			}
			in := prioTrace
			if pol == "ga-ckpt" {
				in = strings.Replace(in, "1000000:0\n", "1000000:0 ckpt=50\n", 1)
			}
			out, errs, code := runSim(t, in, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errs)
			}
			if got := strings.Join(starts(t, out), " "); got != tt.want {
				t.Errorf("%v: starts %s, want %s", args, got, tt.want)
			}
		}
	}
}

// TestPriorityOrderGroups: '+' joins queues of equal priority, as in
// swfaugment, and the Note writes the order back in that syntax.
func TestPriorityOrderGroups(t *testing.T) {
	out, errs, code := runSim(t, prioTrace, "--policy", "priofifo", "--no-progress", "--priority-order", "0,1+12,2")
	if code != 0 || !strings.Contains(out, "; Note: swfsim priority-order 0,1+12,2 (highest first;") {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	if _, errs, code := runSim(t, prioTrace, "--policy", "priofifo", "--priority-order", "1+2,1"); code != 2 || !strings.Contains(errs, "queue 1 listed twice") {
		t.Errorf("queue listed twice: exit %d, %q", code, errs)
	}
	// Without the priority seed the order would change nothing.
	if _, errs, code := runSim(t, prioTrace, "--policy", "ga", "--ga-seeds", "arrival", "--priority-order", "2,1"); code != 2 || !strings.Contains(errs, "--priority-order") {
		t.Errorf("ga without the priority seed: exit %d, %q", code, errs)
	}
}

// TestPriorityOrderNoteGA: ga's Note gives the priority seed's order, and
// none when --ga-seeds leaves that seed out.
func TestPriorityOrderNoteGA(t *testing.T) {
	out, _, _ := runSim(t, prioTrace, "--policy", "ga", "--priority-order", "2,1")
	if !strings.Contains(out, "; Note: swfsim priority-order 2,1 (highest first;") {
		t.Errorf("no order Note:\n%s", out)
	}
	out, _, _ = runSim(t, prioTrace, "--policy", "ga", "--ga-seeds", "arrival")
	if strings.Contains(out, "; Note: swfsim priority-order") {
		t.Errorf("an order Note without the priority seed:\n%s", out)
	}
}
