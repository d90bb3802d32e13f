package stats

import (
	"cmp"
	"math"
	"slices"
	"strconv"
)

// SweepRun is one run of a study's grid as a sweep figure sees it: the
// series (line) it belongs to, its value of the swept parameter, and the
// metric it gave (NaN when undefined: the run had no job to measure).
type SweepRun struct {
	Series string
	X      string
	Y      float64
	// Key, when not empty, names the run's point within its series
	// instead of X: runs of one series with equal keys are one point
	// (their X must then be equal too), and runs with different keys are
	// two points even at one X (two configurations that gave the same mean
	// of a metric drawn on the x axis).
	Key string
}

// SweepPoint is the runs of one series at one value of the parameter: the
// mean of their metric and its least and greatest value. N counts the runs
// with a defined metric, Undefined those without; when N is 0 the point has
// no value (Mean, Min, Max NaN).
type SweepPoint struct {
	X              string
	Mean, Min, Max float64
	N, Undefined   int
}

// SweepSeries is one line of a sweep figure, its points in increasing order
// of the parameter.
type SweepSeries struct {
	Name   string
	Points []SweepPoint
}

// Sweep groups the runs of a grid into series (in order of first appearance)
// and, within a series, into points by the parameter's value: the runs that
// share both differ only in what the grid varies beside them (seeds), and a
// point is their mean with its range. Values of the parameter are ordered as
// numbers when every one is a number (numeric is then true: 0.7 before 0.75
// before 0.8, "1e3" after "999"), and else in order of first appearance over
// all runs, the same order for every series (xs lists that order).
func Sweep(runs []SweepRun) (series []SweepSeries, xs []string, numeric bool) {
	numeric = true
	num := map[string]float64{}
	seen := map[string]bool{}
	for _, r := range runs {
		if seen[r.X] {
			continue
		}
		seen[r.X] = true
		xs = append(xs, r.X)
		v, err := strconv.ParseFloat(r.X, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			numeric = false
		}
		num[r.X] = v
	}
	if numeric {
		// Equal numbers written differently ("0.8", "0.80") are one point.
		slices.SortStableFunc(xs, func(a, b string) int { return cmp.Compare(num[a], num[b]) })
	}
	rank := map[string]int{}
	for i, x := range xs {
		rank[x] = i
		if numeric && i > 0 && num[x] == num[xs[i-1]] {
			rank[x] = rank[xs[i-1]]
		}
	}
	at := map[string]int{}
	type point struct {
		rank, order int
		p           *SweepPoint
	}
	var byPoint []map[string]*point
	for _, r := range runs {
		si, ok := at[r.Series]
		if !ok {
			si = len(series)
			at[r.Series] = si
			series = append(series, SweepSeries{Name: r.Series})
			byPoint = append(byPoint, map[string]*point{})
		}
		k := rank[r.X]
		id := "x" + strconv.Itoa(k)
		if r.Key != "" {
			id = "k" + r.Key
		}
		pt := byPoint[si][id]
		if pt == nil {
			pt = &point{rank: k, order: len(byPoint[si]), p: &SweepPoint{X: xs[k], Mean: 0, Min: math.Inf(1), Max: math.Inf(-1)}}
			byPoint[si][id] = pt
		}
		p := pt.p
		if math.IsNaN(r.Y) {
			p.Undefined++
			continue
		}
		p.N++
		p.Mean += r.Y // the sum until the end
		p.Min, p.Max = math.Min(p.Min, r.Y), math.Max(p.Max, r.Y)
	}
	for si := range series {
		pts := make([]*point, 0, len(byPoint[si]))
		for _, pt := range byPoint[si] {
			pts = append(pts, pt)
		}
		slices.SortFunc(pts, func(a, b *point) int { return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.order, b.order)) })
		for _, pt := range pts {
			p := *pt.p
			if p.N == 0 {
				p.Mean, p.Min, p.Max = math.NaN(), math.NaN(), math.NaN()
			} else {
				p.Mean /= float64(p.N)
			}
			series[si].Points = append(series[si].Points, p)
		}
	}
	if numeric {
		// xs without the duplicates of equal numbers.
		xs = slices.CompactFunc(xs, func(a, b string) bool { return num[a] == num[b] })
	}
	return series, xs, numeric
}
