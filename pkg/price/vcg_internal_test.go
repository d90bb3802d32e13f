package price

import "testing"

// TestOpportunityCost: a difference within the rounding of two sums of the
// same utilities is no price; a real one is kept whole.
func TestOpportunityCost(t *testing.T) {
	x, y, z := 0.1, 0.2, 10.0 // variables: constants would be summed exactly
	a, b := x+y+z, z+y+x      // the same three utilities summed in two orders
	if a == b {
		t.Fatal("the two sums are equal: no rounding to test")
	}
	for _, c := range []struct{ alt, tru, want float64 }{
		{a, b, 0}, {b, a, 0}, {5, 3, 2}, {3, 5, 0}, {1e-20, 0, 1e-20}, {0, 0, 0},
	} {
		if got := opportunityCost(c.alt, c.tru); got != c.want {
			t.Errorf("opportunityCost(%v, %v) = %v, want %v", c.alt, c.tru, got, c.want)
		}
	}
}
