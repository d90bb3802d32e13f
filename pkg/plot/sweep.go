package plot

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/swfkit/swfkit/pkg/printable"
	"github.com/swfkit/swfkit/pkg/stats"
)

// Sweep is the data of a sweep figure: one metric of every run of a study
// against one parameter of its grid, a line per series, each point the mean
// of the runs that share the series and the parameter's value (stats.Sweep)
// with a bar from their least to their greatest value.
type Sweep struct {
	Metric    string // the y axis, e.g. "bsld mean"
	Parameter string // the x axis, e.g. "swfaugment.target-load"
	Legend    string // what the series are, e.g. "swfsim.policy"; "" for one line
	Series    []stats.SweepSeries
	Xs        []string // the parameter's values in axis order (stats.Sweep)
	Numeric   bool     // the parameter's values are numbers
}

// LogRatio is the ratio of the greatest to the least value drawn (the bars'
// ends included) from which a sweep figure's y axis is logarithmic (when
// every value is positive): a
// bounded slowdown from 2 to 300 over a load sweep would leave the low loads
// flat on a linear axis.
const LogRatio = 50

// NewSweep draws a sweep figure with its legend above the data. A point
// without a value (no run with the metric defined) is left out of its line,
// and its series' legend entry says how many were.
func NewSweep(s Sweep) (*plot.Plot, error) {
	p, err := newSweep(s)
	if err != nil {
		return nil, err
	}
	legendAbove(p)
	return p, nil
}

// maxLegendAbove is the most lines a sweep figure's legend has above the
// data; a longer one (a study's policies times its traces) would take a
// third of the figure's height from the data, and goes beside it instead.
const maxLegendAbove = 4

// SweepFigure is NewSweep ready to draw: its legend above the data when it
// has at most maxLegendAbove lines, else in a strip on the right.
func SweepFigure(s Sweep) (Drawer, error) {
	p, err := newSweep(s)
	if err != nil {
		return nil, err
	}
	lines := len(s.Series)
	if s.Legend != "" {
		lines++ // the heading naming the series' columns
	}
	if lines > maxLegendAbove {
		return besideLegend(p), nil
	}
	legendAbove(p)
	return p, nil
}

func newSweep(s Sweep) (*plot.Plot, error) {
	p := plot.New()
	p.X.Label.Text = printable.Label(s.Parameter)
	pos := map[string]float64{}
	if s.Numeric {
		for _, x := range s.Xs {
			v, err := strconv.ParseFloat(x, 64)
			if err != nil {
				return nil, fmt.Errorf("plot: sweep value %q is not a number", x)
			}
			pos[x] = v
		}
	} else {
		for i, x := range s.Xs {
			pos[x] = float64(i)
		}
		names := make([]string, len(s.Xs))
		for i, x := range s.Xs {
			names[i] = printable.Label(x) // a Provenance value: a file name, say
		}
		p.NominalX(names...)
		p.X.Min, p.X.Max = -0.5, float64(len(s.Xs))-0.5
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	nmin, nmax := math.MaxInt, 0
	for _, ser := range s.Series {
		for _, pt := range ser.Points {
			if pt.N > 0 {
				lo, hi = math.Min(lo, pt.Min), math.Max(hi, pt.Max)
				nmin, nmax = min(nmin, pt.N), max(nmax, pt.N)
			}
		}
	}
	if nmax == 0 {
		return nil, ErrNoData
	}
	logY := lo > 0 && hi/lo >= LogRatio
	runs := "one run a point"
	switch {
	case nmax > 1 && nmin == nmax:
		runs = fmt.Sprintf("mean of %d runs a point, bars from the least to the greatest", nmax)
	case nmax > 1:
		runs = fmt.Sprintf("mean of %d to %d runs a point, bars from the least to the greatest", nmin, nmax)
	}
	p.Title.Text = printable.Label(s.Metric) + " (" + runs
	if logY {
		p.Title.Text += "; log scale"
	}
	p.Title.Text += ")"
	p.Y.Label.Text = printable.Label(s.Metric)
	if s.Legend != "" {
		p.Legend.Add(printable.Label(s.Legend) + ":")
	}
	for i, ser := range s.Series {
		var pts plotter.XYs
		var errs plotter.YErrors
		missing := 0
		for _, pt := range ser.Points {
			if pt.N == 0 {
				missing++
				continue
			}
			pts = append(pts, plotter.XY{X: pos[pt.X], Y: pt.Mean})
			errs = append(errs, struct{ Low, High float64 }{pt.Mean - pt.Min, pt.Max - pt.Mean})
		}
		label := ShortLabel(ser.Name)
		if label == "" {
			label = printable.Label(s.Metric)
		}
		switch {
		case missing == 1:
			label += " (1 point without a value: not drawn)"
		case missing > 1:
			label += fmt.Sprintf(" (%d points without a value: not drawn)", missing)
		}
		if len(pts) == 0 {
			p.Legend.Add(label)
			continue
		}
		line, marks, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", ser.Name, err)
		}
		style(line, i)
		marks.Color, marks.Shape, marks.Radius = seriesColor(i), plotutil.Shape(i), vg.Points(3)
		p.Add(line, marks)
		if nmax > 1 {
			bars, err := plotter.NewYErrorBars(errorXYs{pts, errs})
			if err != nil {
				return nil, fmt.Errorf("plot %s: %w", ser.Name, err)
			}
			bars.Color, bars.Width = seriesColor(i), vg.Points(1)
			p.Add(bars)
		}
		p.Legend.Add(label, line, marks)
	}
	if logY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, decades{}
		p.Y.Min = math.Pow(10, math.Floor(math.Log10(lo)))
		p.Y.Max = math.Pow(10, math.Ceil(math.Log10(hi)))
	} else {
		p.Y.Min, p.Y.Max = math.Min(0, lo), math.Max(hi, 0)
		p.Y.Tick.Marker = counts{} // whole numbers without decimals (250, not 250.00)
		if p.Y.Min == p.Y.Max {
			p.Y.Max = p.Y.Min + 1
		}
	}
	if s.Numeric && len(s.Xs) > 0 {
		// A little room either side, so that the end points' bars and
		// marks are not cut by the frame.
		a, b := pos[s.Xs[0]], pos[s.Xs[len(s.Xs)-1]]
		pad := b*0.04 - a*0.04 // not (b-a)*0.04, which overflows for a=-b=1e308
		if pad == 0 {
			pad = math.Abs(a) * 0.1 // one value: a tenth of it either side
			if pad == 0 {
				pad = 1
			}
		}
		p.X.Min, p.X.Max = a-pad, b+pad
		if math.IsInf(p.X.Max-p.X.Min, 0) {
			p.X.Min, p.X.Max = a, b // values at the edge of float64: no room
		}
		if math.IsInf(b-a, 0) {
			return nil, fmt.Errorf("plot: the sweep's values from %s to %s span more than a number can hold", s.Xs[0], s.Xs[len(s.Xs)-1])
		}
	}
	return p, nil
}

// errorXYs is a line's points with their y errors, as NewYErrorBars reads
// them.
type errorXYs struct {
	plotter.XYs
	plotter.YErrors
}
