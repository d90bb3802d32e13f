package stats

import (
	"math"
	"slices"
)

// DefaultPercentiles are the percentiles of Lee's Table 4.1.
var DefaultPercentiles = []float64{25, 50, 75, 98, 100}

// Percentile returns the nearest-rank p-th percentile (0 <= p <= 100) of
// sorted: sorted[ceil(p/100*n)-1], and sorted[0] for p = 0. sorted is in
// ascending order for the usual percentile (descending gives the "reached or
// exceeded by p%" reading, see Distribute). It returns NaN for an empty slice.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	if p < 0 || p > 100 || math.IsNaN(p) {
		panic("stats: percentile out of range")
	}
	rank := nearestRank(p, n)
	if rank < 1 {
		rank = 1
	}
	if rank > n {
		rank = n
	}
	return sorted[rank-1]
}

// nearestRank is ceil(p/100*n). A decimal percentile is not exact in
// floating point (99.9 is 99.900000000000006), so p*n/100 can come out a
// hair above the whole number it is (999.0000000000001 for 99.9% of 1000),
// and ceil would give the next rank: an excess within 2^-48 of the value
// (a few times the rounding of p, the product and the quotient) is taken as
// that noise. Anything larger is a real fraction of a rank (7.0000001% of
// 100 is rank 8).
func nearestRank(p float64, n int) int {
	x := p * float64(n) / 100
	k := math.Floor(x)
	if x-k <= x*0x1p-48 {
		return int(k)
	}
	return int(k) + 1
}

// Distribution is the mean and chosen percentiles of a set of values.
type Distribution struct {
	N           int       // number of values
	Mean        float64   // NaN when N = 0
	Sum         float64   // sum of the values
	Percentiles []float64 // Percentiles[i] is the value at the i-th requested percentile
}

// Distribute sorts values in place and summarizes them. With descending true
// the percentiles are taken over the values in descending order, as Lee's
// Table 4.1 does for "% of start value earned": there the 25th percentile is
// the value that 25% of jobs reach or exceed.
func Distribute(values []float64, percentiles []float64, descending bool) Distribution {
	d := Distribution{N: len(values), Mean: math.NaN(), Percentiles: make([]float64, len(percentiles))}
	for _, v := range values {
		d.Sum += v
	}
	if d.N > 0 {
		d.Mean = d.Sum / float64(d.N)
	}
	slices.Sort(values)
	if descending {
		slices.Reverse(values)
	}
	for i, p := range percentiles {
		d.Percentiles[i] = Percentile(values, p)
	}
	return d
}
