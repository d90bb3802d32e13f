package plot

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/swfkit/swfkit/pkg/printable"
	"github.com/swfkit/swfkit/pkg/stats"
)

// Kind is a figure type.
type Kind string

// The figure types of --plot-kind.
const (
	WaitCDF     Kind = "wait-cdf"
	BSLDCDF     Kind = "bsld-cdf"
	Utilization Kind = "utilization"
	QueueLength Kind = "queue-length"
	Category    Kind = "category"
	Gantt       Kind = "gantt"
	// MetricSweep is a metric against a parameter of a study's grid, over
	// many inputs (NewSweep).
	MetricSweep Kind = "sweep"
)

// Kinds lists every Kind in documentation order.
var Kinds = []Kind{WaitCDF, BSLDCDF, Utilization, QueueLength, Category, Gantt, MetricSweep}

// ParseKind reads a --plot-kind value.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown plot kind %q (want wait-cdf, bsld-cdf, utilization, queue-length, category, gantt or sweep)", s)
}

// Formats are the file extensions Write accepts.
var Formats = []string{"svg", "png", "pdf"}

// FormatOf returns the format of a plot file name from its extension.
func FormatOf(name string) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	for _, f := range Formats {
		if ext == f {
			return f, nil
		}
	}
	return "", fmt.Errorf("plot file %q: want a name ending in .svg, .png or .pdf", name)
}

// MaxCDFPoints bounds the points of one CDF curve.
const MaxCDFPoints = 2000

// TimelineBins is the number of time bins of the utilization and queue plots.
const TimelineBins = 400

// Input is one trace's data for a figure.
type Input struct {
	Label string
	// Waits and BoundedSlowdowns, ascending (stats.Report fields).
	Waits, BoundedSlowdowns []float64
	// Timeline for the utilization and queue-length plots.
	Timeline stats.Timeline
	// CategoryBSLD is the mean bounded slowdown per group of Categories.
	CategoryBSLD map[string]float64
}

// Categories are the groups of the category figure, in order.
var Categories = []string{"SN", "SW", "LN", "LW"}

// maxLabel is the longest label a figure draws, in characters: a longer one
// would run past the figure's edge (the tables keep it whole).
const maxLabel = 40

// ShortLabel is a label as a figure draws it: printable (a byte of a file
// name that is not UTF-8, or a control character, as \xNN: package
// printable), and cut in its middle when longer than maxLabel, where paths
// differ least: "runs/LANL..._seed2.swf.gz" keeps both ends.
func ShortLabel(s string) string {
	s = printable.Label(s)
	r := []rune(s)
	if len(r) <= maxLabel {
		return s
	}
	keep := (maxLabel - 1) / 2
	return string(r[:keep]) + "…" + string(r[len(r)-(maxLabel-1-keep):])
}

// ErrNoData is returned when no input has anything to draw. The caller
// names the figure's file and inputs.
var ErrNoData = errors.New("no input has data for this figure")

// ErrNoMachine is returned for a utilization figure when no input with a
// schedule has a known machine size; an input without one among others that
// have it is named in the legend, not drawn.
var ErrNoMachine = errors.New("machine size unknown (give --procs)")

// New draws a figure of the given kind; a Gantt chart is drawn by NewGantt,
// a sweep figure by NewSweep.
func New(kind Kind, inputs []Input) (*plot.Plot, error) {
	inputs = slices.Clone(inputs)
	for i := range inputs {
		inputs[i].Label = ShortLabel(inputs[i].Label)
	}
	p := plot.New()
	p.Legend.Top = true
	var err error
	switch kind {
	case WaitCDF:
		// Long axis labels make gonum pad the data area: notes go in the title.
		p.Title.Text = "Wait time CDF (log scale; waits under 1 s drawn at 1 s)"
		p.X.Label.Text = "wait time"
		p.Y.Label.Text = "fraction of jobs"
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, durations{}
		err = addCDFs(p, inputs, func(in Input) []float64 { return in.Waits }, 1)
	case BSLDCDF:
		p.Title.Text = "Bounded slowdown CDF (log scale)"
		p.X.Label.Text = "bounded slowdown"
		p.Y.Label.Text = "fraction of jobs"
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, decades{}
		err = addCDFs(p, inputs, func(in Input) []float64 { return in.BoundedSlowdowns }, 1)
	case Utilization:
		p.Title.Text = "Utilization over time (time average per bin" + binWidth(inputs) + ")"
		p.X.Label.Text = "time since first submit (h)"
		p.X.Tick.Marker = steps{} // every 1000 h, not 1000, 4000, 7000
		p.Y.Label.Text = "processors in use (% of the machine)"
		err = addTimelines(p, inputs, utilizationSeries, true)
	case QueueLength:
		p.X.Label.Text = "time since first submit (h)"
		p.X.Tick.Marker = steps{}
		p.Title.Text = "Queue length over time (time average per bin" + binWidth(inputs) + ")"
		p.Y.Label.Text = "jobs waiting"
		p.Y.Tick.Marker = counts{}
		err = addTimelines(p, inputs, func(in Input) ([]float64, error) { return in.Timeline.Queued, nil }, false)
	case Category:
		p.Title.Text = "Mean bounded slowdown by category (log scale)"
		// No y label: gonum centres it at the arithmetic middle of the
		// range, near the top of a log axis, and shrinks the data area to
		// fit it. The title names the quantity.
		p.X.Label.Text = "job category: short/long (S/L), narrow/wide (N/W)"
		err = addCategoryBars(p, inputs)
	default:
		return nil, fmt.Errorf("plot: unknown kind %q", kind)
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

func addCDFs(p *plot.Plot, inputs []Input, values func(Input) []float64, floor float64) error {
	top := floor
	for _, in := range inputs {
		if v := values(in); len(v) > 0 {
			top = math.Max(top, v[len(v)-1])
		}
	}
	// End the log axis at a labelled decade: gonum's LogTicks run to the next
	// power of ten and their labels would otherwise pad the figure. A range
	// of one decade at least also covers every value being at the floor.
	p.X.Min, p.X.Max = floor, math.Max(10*floor, math.Pow(10, math.Ceil(math.Log10(top))))
	if _, ok := p.X.Tick.Marker.(durations); ok {
		// A time axis ends at its first labelled tick at or above the top.
		for _, d := range durationTicks {
			if d.v >= top && d.v >= 10*floor {
				p.X.Max = d.v
				break
			}
		}
	}
	drawn := 0
	for i, in := range inputs {
		v := values(in)
		if len(v) == 0 {
			// Said in the legend, so that the input is not lost from
			// a figure of several without a word.
			p.Legend.Add(fmt.Sprintf("%s (0 jobs: not drawn)", in.Label))
			continue
		}
		line, err := cdfLine(v, floor, p.X.Max)
		if err != nil {
			return fmt.Errorf("plot %s: %w", in.Label, err)
		}
		style(line, i)
		p.Add(line)
		p.Legend.Add(fmt.Sprintf("%s (%d jobs)", in.Label, len(v)), line)
		drawn++
	}
	if drawn == 0 {
		return ErrNoData
	}
	// CDFs rise on the left: the bottom right is free for the legend.
	p.Legend.Top = false
	p.Y.Min, p.Y.Max = 0, 1
	return nil
}

// cdfLine is the empirical CDF of ascending values as a step function: flat
// between values, rising at each, and 1 from the largest value to end (the
// axis end), so that a curve whose values are all at the floor still shows.
func cdfLine(sorted []float64, floor, end float64) (*plotter.Line, error) {
	pts := append(cdfPoints(sorted, floor), plotter.XY{X: end, Y: 1})
	line, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	line.StepStyle = plotter.PostStep
	return line, nil
}

// cdfPoints returns the empirical CDF of ascending values, through at most
// MaxCDFPoints ranks, with x floored at floor (for a log axis).
func cdfPoints(sorted []float64, floor float64) plotter.XYs {
	n := len(sorted)
	m := min(n, MaxCDFPoints)
	pts := make(plotter.XYs, 0, m+2)
	// 0 below the smallest value: the first step rises from the x axis.
	pts = append(pts, plotter.XY{X: math.Max(sorted[0], floor), Y: 0})
	for k := 0; k < m; k++ {
		i := k * (n - 1) / max(m-1, 1)
		pts = append(pts, plotter.XY{X: math.Max(sorted[i], floor), Y: float64(i+1) / float64(n)})
	}
	return pts
}

// utilizationSeries is processors in use in percent of the machine.
func utilizationSeries(in Input) ([]float64, error) {
	tl := in.Timeline
	if tl.Machine <= 0 {
		return nil, ErrNoMachine
	}
	out := make([]float64, len(tl.InUse))
	for i, v := range tl.InUse {
		out[i] = 100 * v / float64(tl.Machine)
	}
	return out, nil
}

// addTimelines draws one curve per input. With percent, the y axis ends at
// 100% (or at the highest value, for a log whose jobs oversubscribe its
// machine) and each legend entry states the machine size.
func addTimelines(p *plot.Plot, inputs []Input, series func(Input) ([]float64, error), percent bool) error {
	drawn, top := 0, 1.0
	var noMachine []string
	for i, in := range inputs {
		if len(in.Timeline.Times) == 0 {
			p.Legend.Add(fmt.Sprintf("%s (no job with a known schedule: not drawn)", in.Label))
			continue
		}
		ys, err := series(in)
		if errors.Is(err, ErrNoMachine) {
			// As an input without jobs: the others are still drawn.
			p.Legend.Add(fmt.Sprintf("%s (machine size unknown: not drawn)", in.Label))
			noMachine = append(noMachine, in.Label)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", in.Label, err)
		}
		pts := make(plotter.XYs, len(ys))
		for k, y := range ys {
			pts[k] = plotter.XY{X: in.Timeline.Times[k] / 3600, Y: y}
			top = math.Max(top, y)
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("plot %s: %w", in.Label, err)
		}
		style(line, i)
		p.Add(line)
		label := in.Label
		if percent {
			label = fmt.Sprintf("%s (%d processors)", in.Label, in.Timeline.Machine)
		}
		p.Legend.Add(label, line)
		drawn++
	}
	if drawn == 0 && len(noMachine) > 0 {
		return fmt.Errorf("%s: %w", strings.Join(noMachine, ", "), ErrNoMachine)
	}
	if drawn == 0 {
		return ErrNoData
	}
	p.Y.Min, p.Y.Max = 0, top
	if percent {
		p.Y.Max = math.Max(100, top)
	}
	legendAbove(p)
	return nil
}

// addCategoryBars draws one bar per input and category on a log axis from
// 1, the least bounded slowdown, to the decade above the highest bar.
func addCategoryBars(p *plot.Plot, inputs []Input) error {
	if len(inputs) == 0 {
		return ErrNoData
	}
	const group = 0.8 // share of a category's slot taken by its bars
	width := group / float64(len(inputs))
	top, known := 1.0, 0
	for i, in := range inputs {
		bars := &rects{}
		c := seriesColor(i)
		for k, cat := range Categories {
			v, ok := in.CategoryBSLD[cat]
			if ok && !math.IsNaN(v) {
				known++
			}
			if !ok || math.IsNaN(v) || v <= 1 {
				continue // an empty category draws no bar; a mean of 1 is a bar of height 0
			}
			x0 := float64(k) - group/2 + float64(i)*width
			bars.list = append(bars.list, rect{x0: x0, x1: x0 + width, y0: 1, y1: v, color: c})
			top = math.Max(top, v)
		}
		p.Add(bars)
		p.Legend.Add(in.Label, swatch{c})
	}
	if known == 0 {
		return ErrNoData // no input has a job in any category
	}
	p.NominalX(Categories...)
	p.X.Min, p.X.Max = -0.5, float64(len(Categories))-0.5
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, decades{}
	p.Y.Min, p.Y.Max = 1, math.Max(10, math.Pow(10, math.Ceil(math.Log10(top))))
	legendAbove(p)
	return nil
}

func style(line *plotter.Line, i int) {
	line.Color = seriesColor(i)
	line.Dashes = plotutil.Dashes(i)
	line.Width = vg.Points(1.5)
}

// seriesColor is the colour of the i-th line of a figure: the Gantt
// chart's palette (Tableau 10), so that ten lines differ in colour before
// one repeats (gonum's default has seven); dashes and marks, which repeat
// after five and seven, tell apart the lines that share a colour.
func seriesColor(i int) color.Color { return palette[i%len(palette)] }

// binWidth states the timeline's bin width for a title (" of 21.9 h"), when
// every input has the same; "" otherwise.
func binWidth(inputs []Input) string {
	w := -1.0
	for _, in := range inputs {
		tl := in.Timeline
		if len(tl.Times) == 0 {
			continue
		}
		b := float64(tl.End-tl.Start) / float64(len(tl.Times))
		if w >= 0 && b != w {
			return ""
		}
		w = b
	}
	switch {
	case w <= 0:
		return ""
	case w < 60:
		return fmt.Sprintf(" of %.3g s", w)
	case w < 3600:
		return fmt.Sprintf(" of %.3g min", w/60)
	case w < 10*86400:
		return fmt.Sprintf(" of %.3g h", w/3600)
	}
	return fmt.Sprintf(" of %.3g days", w/86400)
}
