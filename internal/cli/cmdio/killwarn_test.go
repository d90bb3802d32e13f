package cmdio

import (
	"strings"
	"testing"
)

// TestParseKillWarn: --kill-warn has one meaning in swfsim and swfstat, a
// threshold on the share of killed jobs (a share or a percentage) above
// which they warn, and off.
func TestParseKillWarn(t *testing.T) {
	for _, tc := range []struct {
		in    string
		share float64
		off   bool
	}{
		{"0.05", 0.05, false}, {"5%", 0.05, false}, {"0", 0, false}, {"0%", 0, false},
		{"1", 1, false}, {"100%", 1, false}, {"12.5%", 0.125, false}, {"off", 0, true},
	} {
		k, err := ParseKillWarn(tc.in)
		if err != nil || k.Off != tc.off || !tc.off && k.Share != tc.share {
			t.Errorf("ParseKillWarn(%q) = %+v, %v; want share %g, off %v", tc.in, k, err, tc.share, tc.off)
		}
	}
	for _, in := range []string{"", "NaN", "Inf", "-0.1", "1.5", "150%", "-1%", "0x1p-4", "5 %", "%", "never", "none"} {
		if _, err := ParseKillWarn(in); err == nil || !strings.Contains(err.Error(), "want a share of jobs from 0 to 1 (0.05), a percentage (5%), or off") {
			t.Errorf("ParseKillWarn(%q): error %v", in, err)
		}
	}
	// The threshold is exclusive: a share above it warns, one at it does not;
	// 0 warns at any kill; off never.
	k, _ := ParseKillWarn("20%")
	if k.Warns(0.2) || !k.Warns(0.21) {
		t.Errorf("20%%: warns at 20%% %v, at 21%% %v", k.Warns(0.2), k.Warns(0.21))
	}
	if k, _ = ParseKillWarn("0"); k.Warns(0) || !k.Warns(1e-9) {
		t.Error("0: want a warning at any kill and none without")
	}
	if k, _ = ParseKillWarn("off"); k.Warns(1) {
		t.Error("off warned")
	}
}
