package statcli

import (
	"math"
	"testing"
)

// A change too small for two decimals keeps its first significant digit, so
// the comparison table never shows "+0%" (or "-0%") between values that
// differ.
func TestFormatChange(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{50, "+50%"},
		{-3.25, "-3.25%"},
		{-3.254, "-3.25%"},
		{0.004, "+0.004%"},
		{0.0049, "+0.005%"},
		{-0.003, "-0.003%"},
		{0.00012, "+0.0001%"},
		{0.005, "+0.01%"},
		{0, "0%"},
		{math.Copysign(0, -1), "0%"},
		{math.NaN(), "-"},
		{math.Inf(1), "+Inf%"},
		{math.Inf(-1), "-Inf%"},
	} {
		if got := formatChange(c.in); got != c.want {
			t.Errorf("formatChange(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
