package statcli

import (
	"encoding/csv"
	"os"
	"strings"
	"testing"
)

// TestUQoSBoundsFromAugmentNote: a schedule whose header carries swfaugment's
// bounds Note (the bounds its estimate errors used, from recorded runtimes)
// gets those U-QoS bounds instead of bounds derived from its simulated
// runtimes (2000 and 80 for hand.swf); a bound given by flag still wins.
func TestUQoSBoundsFromAugmentNote(t *testing.T) {
	chdirRoot(t)
	data, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	note := "; Note: swfaugment bounds (Guim et al. 2007, Tables 3-4): upper=0.5 x p95, lower=0.04 x upper over 5 jobs: runtime 10..500 s (p95=1000; 40.00% short, 20.00% large), processors 0.64..16 (p95=32), area 7076.48..176912 proc-s (p95=353824), top 10 applications []\n"
	withNote := strings.Replace(string(data), "; MaxProcs: 32\n", "; MaxProcs: 32\n"+note, 1)
	bounds := func(args ...string) (lower, upper, text string) {
		t.Helper()
		out, errs, code := run(t, withNote, append([]string{"--format", "csv"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			switch {
			case r[6] == "uqos" && r[7] == "rt_lowerbound_s":
				lower = r[8]
			case r[6] == "uqos" && r[7] == "rt_upperbound_s":
				upper = r[8]
			}
		}
		table, _, _ := run(t, withNote, args...)
		return lower, upper, table
	}
	if l, u, text := bounds(); l != "10" || u != "500" || !strings.Contains(text, "taken from swfaugment's bounds Note") {
		t.Errorf("from the Note: bounds %s..%s, want 10..500 and a settings line naming the Note", l, u)
	}
	if l, u, _ := bounds("--uqos-upper-bound", "700"); l != "10" || u != "700" {
		t.Errorf("--uqos-upper-bound 700: bounds %s..%s, want 10..700", l, u)
	}
	if l, u, _ := bounds("--uqos-upper-bound", "700", "--uqos-lower-bound", "20"); l != "20" || u != "700" {
		t.Errorf("both flags: bounds %s..%s, want 20..700", l, u)
	}
	// Without the Note: derived from the trace, lower = 4% of upper.
	out, _, _ := run(t, string(data), "--format", "csv")
	if !strings.Contains(out, ",uqos,rt_lowerbound_s,80,") || !strings.Contains(out, ",uqos,rt_upperbound_s,2000,") {
		t.Errorf("no Note: want bounds 80..2000 in\n%s", out)
	}
}
