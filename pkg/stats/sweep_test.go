package stats

import (
	"math"
	"slices"
	"testing"
)

// TestSweep works the points of a small grid out by hand: two policies,
// loads written two ways, two seeds, one run with its metric undefined.
func TestSweep(t *testing.T) {
	nan := math.NaN()
	runs := []SweepRun{
		{"easy", "0.8", 10, ""}, {"easy", "0.7", 4, ""}, {"fcfs", "0.7", 9, ""},
		{"easy", "0.80", 14, ""}, // the same load as "0.8"
		{"easy", "0.7", 8, ""}, {"fcfs", "0.7", nan, ""}, {"fcfs", "1e-1", 1, ""},
		{"fcfs", "0.75", nan, ""},
	}
	series, xs, numeric := Sweep(runs)
	if !numeric {
		t.Fatal("numeric = false")
	}
	if want := []string{"1e-1", "0.7", "0.75", "0.8"}; !slices.Equal(xs, want) {
		t.Errorf("xs = %q, want %q", xs, want)
	}
	if len(series) != 2 || series[0].Name != "easy" || series[1].Name != "fcfs" {
		t.Fatalf("series = %+v", series)
	}
	type pt struct {
		x            string
		mean, lo, hi float64
		n, undefined int
	}
	check := func(s SweepSeries, want []pt) {
		t.Helper()
		if len(s.Points) != len(want) {
			t.Fatalf("%s: %d points %+v, want %d", s.Name, len(s.Points), s.Points, len(want))
		}
		for i, w := range want {
			p := s.Points[i]
			same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
			if p.X != w.x || !same(p.Mean, w.mean) || !same(p.Min, w.lo) || !same(p.Max, w.hi) || p.N != w.n || p.Undefined != w.undefined {
				t.Errorf("%s point %d = %+v, want %+v", s.Name, i, p, w)
			}
		}
	}
	check(series[0], []pt{{"0.7", 6, 4, 8, 2, 0}, {"0.8", 12, 10, 14, 2, 0}})
	check(series[1], []pt{{"1e-1", 1, 1, 1, 1, 0}, {"0.7", 9, 9, 9, 1, 1}, {"0.75", nan, nan, nan, 0, 1}})

	// Keys: two configurations at one x are two points, in order of
	// first appearance; one key is one point.
	series, _, _ = Sweep([]SweepRun{{"a", "0.5", 1, "k1"}, {"a", "0.5", 3, "k2"}, {"a", "0.5", 5, "k1"}, {"a", "0.25", 7, "k3"}})
	check(series[0], []pt{{"0.25", 7, 7, 7, 1, 0}, {"0.5", 3, 1, 5, 2, 0}, {"0.5", 3, 3, 3, 1, 0}})
}

// TestSweepNominal: values that are not all numbers keep their order of
// first appearance, the same for every series.
func TestSweepNominal(t *testing.T) {
	series, xs, numeric := Sweep([]SweepRun{
		{"a", "uniform:1,3", 2, ""}, {"b", "exact", 1, ""}, {"a", "exact", 3, ""}, {"b", "0.5", 7, ""},
	})
	if numeric {
		t.Fatal("numeric = true")
	}
	if want := []string{"uniform:1,3", "exact", "0.5"}; !slices.Equal(xs, want) {
		t.Errorf("xs = %q, want %q", xs, want)
	}
	if got := []string{series[0].Points[0].X, series[0].Points[1].X}; !slices.Equal(got, []string{"uniform:1,3", "exact"}) {
		t.Errorf("series a points at %q", got)
	}
	if got := []string{series[1].Points[0].X, series[1].Points[1].X}; !slices.Equal(got, []string{"exact", "0.5"}) {
		t.Errorf("series b points at %q", got)
	}
}
