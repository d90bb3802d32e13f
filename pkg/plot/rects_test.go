package plot

import (
	"slices"
	"testing"
)

// steps labels every multiple of a round step, four to ten of them, with
// unlabelled ticks between (KTH-SP2's utilization axis, 0 to 8,500 h:
// every 1,000 h where gonum's default labelled 1,000, 4,000 and 7,000).
func TestStepsTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		labels []string
	}{
		{0, 8500, []string{"0", "1000", "2000", "3000", "4000", "5000", "6000", "7000", "8000"}},
		{0, 24, []string{"0", "5", "10", "15", "20"}},
		{-30, 1200, []string{"0", "200", "400", "600", "800", "1000", "1200"}},
		{0.5, 3.2, []string{"0.5", "1", "1.5", "2", "2.5", "3"}},
	} {
		var labels []string
		minor := 0
		for _, tk := range (steps{}).Ticks(c.lo, c.hi) {
			if tk.Value < c.lo || tk.Value > c.hi {
				t.Errorf("%v..%v: tick %v outside", c.lo, c.hi, tk.Value)
			}
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			} else {
				minor++
			}
		}
		if !slices.Equal(labels, c.labels) || minor == 0 {
			t.Errorf("%v..%v: labels %q (%d unlabelled), want %q", c.lo, c.hi, labels, minor, c.labels)
		}
	}
}
