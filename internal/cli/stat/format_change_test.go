package statcli

import (
	"math"
	"strings"
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

// A value in the table is rounded to 4 decimals, but a value that is not 0
// never reads as 0 (it keeps its first significant digit), and a large one
// shows no digits beyond those it holds.
func TestFormatTable(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{100, "100"},
		{-3, "-3"},
		{69.71207437, "69.7121"},
		{0.1, "0.1"},
		{1.05, "1.05"},
		{0.00012, "0.0001"},
		{0.00005, "0.0001"},
		{0.00004, "0.00004"},
		{-0.00004, "-0.00004"},
		{1e-6, "0.000001"},
		{1.0770882529783987e-09, "0.000000001"},
		{9.99e-6, "0.00001"},
		{209286471537185.03, "209286471537185.03"},
		{1e20, "100000000000000000000"},
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{math.NaN(), "-"},
		{math.Inf(1), "+Inf"},
		// Below 2.2e-308 (swfstat --rt-lower-bound 1e-310 shows it and a
		// delta_s of 7.5e-313), where math.Log10 is off by 16 decades.
		{1e-310, "0." + strings.Repeat("0", 309) + "1"},
		{-7e-313, "-0." + strings.Repeat("0", 312) + "7"},
		{5e-324, "0." + strings.Repeat("0", 323) + "5"},
	} {
		if got := formatTable(c.in); got != c.want {
			t.Errorf("formatTable(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
