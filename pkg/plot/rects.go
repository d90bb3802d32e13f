package plot

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var (
	white = color.White
	black = color.Black
)

// rect is a filled rectangle in data coordinates.
type rect struct {
	x0, x1, y0, y1 float64
	color          color.Color
}

// rects draws filled rectangles, clipped to the data area, each outlined by
// a thin line when Outline has a color. The bars of the category figure and
// the jobs of a Gantt chart are rects: gonum's BarChart starts its bars at 0,
// which a logarithmic axis cannot show.
type rects struct {
	list    []rect
	outline draw.LineStyle
}

// Plot implements plot.Plotter.
func (r *rects) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, b := range r.list {
		x0, x1 := max(b.x0, p.X.Min), min(b.x1, p.X.Max)
		y0, y1 := max(b.y0, p.Y.Min), min(b.y1, p.Y.Max)
		if x0 >= x1 || y0 >= y1 {
			continue
		}
		pts := []vg.Point{{X: tx(x0), Y: ty(y0)}, {X: tx(x1), Y: ty(y0)}, {X: tx(x1), Y: ty(y1)}, {X: tx(x0), Y: ty(y1)}}
		c.FillPolygon(b.color, pts)
		if r.outline.Color != nil && r.outline.Width > 0 {
			c.StrokeLines(r.outline, append(pts, pts[0]))
		}
	}
}

// DataRange implements plot.DataRanger.
func (r *rects) DataRange() (xmin, xmax, ymin, ymax float64) {
	if len(r.list) == 0 {
		return 0, 1, 0, 1
	}
	xmin, xmax, ymin, ymax = r.list[0].x0, r.list[0].x1, r.list[0].y0, r.list[0].y1
	for _, b := range r.list[1:] {
		xmin, xmax = min(xmin, b.x0), max(xmax, b.x1)
		ymin, ymax = min(ymin, b.y0), max(ymax, b.y1)
	}
	return xmin, xmax, ymin, ymax
}

// swatch is a legend thumbnail: a filled square of one color.
type swatch struct{ color color.Color }

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(s.color, []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}})
}

// legendAbove moves the legend out of the data area, into a strip between
// the title and the data, so that it never hides a curve or a bar.
func legendAbove(p *plot.Plot) {
	p.Legend.Top = true
	h := p.Legend.Rectangle(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: 1000, Y: 1000}}}).Size().Y
	p.Title.Padding += h + 4
	p.Legend.YOffs = h + 4
}

// decades marks a logarithmic axis: a labelled tick at each power of ten,
// written as a plain number (1, 10, 100, 1000, 10000, then 1e5), and unlabelled
// ticks at 2..9 times it.
type decades struct{}

// Ticks implements plot.Ticker.
func (decades) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); math.Pow(10, e) <= hi; e++ {
		d := math.Pow(10, e)
		for k := 1.0; k < 10; k++ {
			v := k * d
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if k == 1 {
				t.Label = strconv.FormatFloat(v, 'f', 0, 64)
				if v >= 1e5 {
					t.Label = "1e" + strconv.Itoa(int(e))
				}
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// counts marks a linear axis of counts or whole hours: gonum's default ticks, whose labels
// are written without decimals when every labelled value is whole (gonum's
// own labels give every tick the decimals of the finest, "5000.00").
type counts struct{}

// Ticks implements plot.Ticker.
func (counts) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for _, t := range ticks {
		if t.Label != "" && t.Value != math.Trunc(t.Value) {
			return ticks
		}
	}
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', 0, 64)
		}
	}
	return ticks
}

// durations marks a logarithmic axis of seconds with labels in time units at
// 1 s, 10 s, 1 min, 10 min, 1 h, 1 d, 10 d and 100 d, and unlabelled ticks at
// the decades and their multiples (as decades).
type durations struct{}

var durationTicks = []struct {
	v     float64
	label string
}{{1, "1 s"}, {10, "10 s"}, {60, "1 min"}, {600, "10 min"}, {3600, "1 h"}, {86400, "1 d"}, {864000, "10 d"}, {8640000, "100 d"}}

// Ticks implements plot.Ticker.
func (durations) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for _, t := range (decades{}).Ticks(lo, hi) {
		ticks = append(ticks, plot.Tick{Value: t.Value})
	}
	for _, d := range durationTicks {
		if d.v >= lo && d.v <= hi {
			ticks = append(ticks, plot.Tick{Value: d.v, Label: d.label})
		}
	}
	return ticks
}

// Drawer is a figure: a *plot.Plot, or a plot with its legend beside it.
type Drawer interface{ Draw(draw.Canvas) }

// legendBeside draws a plot with its legend in a strip on its right, for
// legends too long to fit above the data.
type legendBeside struct {
	plot   *plot.Plot
	legend plot.Legend
	// titleParts are the title's text split where it is best broken
	// (titleLines); nil is the plot's title as one part.
	titleParts []string
}

// besideLegend moves p's legend to a strip on its right.
func besideLegend(p *plot.Plot) *legendBeside {
	f := &legendBeside{plot: p, legend: p.Legend}
	f.legend.Top, f.legend.Left = true, true
	f.legend.TextStyle.Font.Size = 10
	p.Legend = plot.NewLegend()
	return f
}

// Draw implements Drawer. The title spans the whole width, in as many lines
// as it needs to stay inside it (a Gantt chart's names a file).
func (f *legendBeside) Draw(c draw.Canvas) {
	p := *f.plot // a shallow copy drawn without its title
	p.Title.Text = ""
	top := vg.Length(0)
	if t := f.plot.Title; t.Text != "" {
		parts := f.titleParts
		if parts == nil {
			parts = []string{t.Text}
		}
		text := strings.Join(titleLines(t.TextStyle, parts, c.Size().X), "\n")
		c.FillText(t.TextStyle, vg.Point{X: c.Center().X, Y: c.Max.Y + t.TextStyle.FontExtents().Descent}, text)
		top = t.TextStyle.Rectangle(text).Size().Y + t.Padding + vg.Points(4)
	}
	width := f.legend.Rectangle(c).Size().X + vg.Points(12)
	p.Draw(draw.Crop(c, 0, -width, 0, -top))
	f.legend.Draw(draw.Crop(c, c.Size().X-width+vg.Points(8), 0, 0, -top))
}

// steps marks a linear axis with a label at every multiple of a round step
// (1, 2 or 5 times a power of ten) giving four to ten labels, and unlabelled
// ticks between them; gonum's default labels only every third tick of a long
// time axis (1000, 4000, 7000 h).
type steps struct{}

// Ticks implements plot.Ticker.
func (steps) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if !(span > 0) || math.IsInf(span, 0) {
		return counts{}.Ticks(lo, hi)
	}
	mag := math.Pow(10, math.Floor(math.Log10(span/5)))
	step, minor := mag, mag/5
	for _, m := range []struct{ step, minor float64 }{{1, 0.2}, {2, 0.5}, {5, 1}, {10, 2}} {
		if span/(m.step*mag) <= 10 {
			step, minor = m.step*mag, m.minor*mag
			break
		}
	}
	var ticks []plot.Tick
	for k := math.Ceil(lo / minor); k*minor <= hi; k++ {
		v := k * minor
		label := ""
		if r := math.Round(v / step); math.Abs(v-r*step) < minor/2 {
			v = r*step + 0 // never -0
			label = strconv.FormatFloat(v, 'f', -1, 64)
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}
