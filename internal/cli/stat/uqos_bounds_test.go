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
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		rows := csvRows(t, recs)
		lower, upper = rows[0]["uqos_lower_s"], rows[0]["uqos_upper_s"]
		table, _, _ := run(t, withNote, args...)
		return lower, upper, table
	}
	if l, u, text := bounds(); l != "10" || u != "500" || !strings.Contains(text, "rt bounds from swfaugment's bounds Note (recorded runtimes") {
		t.Errorf("from the Note: bounds %s..%s, want 10..500 and a settings line naming the Note", l, u)
	}
	if l, u, _ := bounds("--uqos-upper-bound", "700"); l != "10" || u != "700" {
		t.Errorf("--uqos-upper-bound 700: bounds %s..%s, want 10..700", l, u)
	}
	if l, u, _ := bounds("--uqos-upper-bound", "700", "--uqos-lower-bound", "20"); l != "20" || u != "700" {
		t.Errorf("both flags: bounds %s..%s, want 20..700", l, u)
	}
	// A lower bound by flag above the upper bound from the Note is refused.
	if _, errs, code := run(t, withNote, "--uqos-lower-bound", "600"); code != 2 || !strings.Contains(errs, "U-QoS lower bound 600 s is above the upper bound 500 s") {
		t.Errorf("--uqos-lower-bound 600 over the Note's upper 500: exit %d, stderr %q; want a usage error", code, errs)
	}
	// With two inputs the first one's derived bounds serve both columns: the
	// other input's Note is not used, and the settings line must not say it is.
	dir := t.TempDir()
	plain, noted := dir+"/plain.swf", dir+"/noted.swf"
	if err := os.WriteFile(plain, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(noted, []byte(withNote), 0o644); err != nil {
		t.Fatal(err)
	}
	table, errs, code := run(t, "", "--label", "plain,noted", plain, noted)
	if code != 0 {
		t.Fatalf("two inputs: exit %d: %s", code, errs)
	}
	if strings.Contains(table, "taken from swfaugment's bounds Note") || !strings.Contains(table, "lower 80 s, upper 2000 s (the bounds Note in noted is not used)") {
		t.Errorf("two inputs, the Note in the second: the settings line misstates the bounds' origin:\n%s", table)
	}
	// Without the Note: derived from the trace, lower = 4% of upper.
	out, _, _ := run(t, string(data), "--format", "csv")
	if column(t, out, "uqos_lower_s") != "80" || column(t, out, "uqos_upper_s") != "2000" {
		t.Errorf("no Note: want bounds 80..2000 in\n%s", out)
	}
}

// TestUQoSBoundsNoteOneFlag: with one bound given, the settings line says
// how the other is made (4% of upper; 50% of the 95th percentile) rather
// than calling it 0, and the table's rows hold the bound used.
func TestUQoSBoundsNoteOneFlag(t *testing.T) {
	chdirRoot(t)
	data, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args       []string
		note, rows []string
	}{
		{[]string{"--rt-upper-bound", "700"},
			[]string{"rt bounds: lower not given: 4% of upper, upper 700 s (--rt-upper-bound)"},
			[]string{"rt_lowerbound_s  28\n", "rt_upperbound_s  700\n"}},
		{[]string{"--rt-lower-bound", "20"},
			[]string{"rt bounds: lower 20 s (--rt-lower-bound), upper not given: 50% of the 95th percentile of runtime"},
			[]string{"rt_lowerbound_s  20\n"}},
	} {
		out, errs, code := run(t, string(data), c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		if strings.Contains(out, "(0 = from the trace)") {
			t.Errorf("%v: the settings line calls the bound not given 0:\n%s", c.args, out)
		}
		for _, want := range append(c.note, c.rows...) {
			if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(want), " ")) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, want, out)
			}
		}
	}
}

// TestUQoSBoundsNoteOneFlagWithAugmentNote: with one bound given and
// swfaugment's bounds Note in the input, the bound not given comes from the
// Note (lower 10 s, not 4% of 700 = 28 s), and the settings line says so
// rather than naming the rule it did not use.
func TestUQoSBoundsNoteOneFlagWithAugmentNote(t *testing.T) {
	chdirRoot(t)
	data, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	note := "; Note: swfaugment bounds (Guim et al. 2007, Tables 3-4): upper=0.5 x p95, lower=0.04 x upper over 5 jobs: runtime 10..500 s (p95=1000; 40.00% short, 20.00% large), processors 0.64..16 (p95=32), area 7076.48..176912 proc-s (p95=353824), top 10 applications []\n"
	withNote := strings.Replace(string(data), "; MaxProcs: 32\n", "; MaxProcs: 32\n"+note, 1)
	for _, c := range []struct {
		args      []string
		note, row string
	}{
		{[]string{"--rt-upper-bound", "700"},
			"rt bounds: lower not given: from swfaugment's bounds Note (recorded runtimes) in stdin, an input without the Note: 4% of upper, upper 700 s (--rt-upper-bound);",
			"rt_lowerbound_s 10\n"},
		{[]string{"--rt-lower-bound", "20"},
			"rt bounds: lower 20 s (--rt-lower-bound), upper not given: from swfaugment's bounds Note (recorded runtimes) in stdin, an input without the Note: 50% of the 95th percentile of runtime;",
			"rt_upperbound_s 500\n"},
	} {
		out, errs, code := run(t, withNote, c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		flat := strings.Join(strings.Fields(out), " ")
		if !strings.Contains(flat, c.note) {
			t.Errorf("%v: the settings line does not say the bound not given came from the Note, want %q in\n%s", c.args, c.note, out)
		}
		if !strings.Contains(out, c.row[:15]) || !strings.Contains(flat, strings.TrimSpace(c.row)) {
			t.Errorf("%v: want row %q in\n%s", c.args, c.row, out)
		}
	}
}
