package plot

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotutil"

	"github.com/swfkit/swfkit/pkg/stats"
)

func sweepOf(means ...float64) Sweep {
	s := Sweep{Metric: "bsld mean", Parameter: "swfaugment.target-load", Numeric: true, Legend: "swfsim.policy"}
	ser := stats.SweepSeries{Name: "easy"}
	for i, m := range means {
		x := []string{"0.5", "0.7", "0.9"}[i]
		s.Xs = append(s.Xs, x)
		p := stats.SweepPoint{X: x, Mean: m, Min: m, Max: m, N: 1}
		if math.IsNaN(m) {
			p.N, p.Undefined = 0, 1
		}
		ser.Points = append(ser.Points, p)
	}
	s.Series = []stats.SweepSeries{ser}
	return s
}

// TestSweepScale: the y axis turns logarithmic from a ratio of LogRatio
// between the extreme values, and never with a value at or below 0.
func TestSweepScale(t *testing.T) {
	for _, c := range []struct {
		means []float64
		log   bool
	}{
		{[]float64{2, 10, 99}, false},
		{[]float64{2, 10, 100}, true},
		{[]float64{0, 10, 1000}, false},
		{[]float64{2, math.NaN(), 1000}, true},
	} {
		p, err := NewSweep(sweepOf(c.means...))
		if err != nil {
			t.Fatal(err)
		}
		_, isLog := p.Y.Scale.(plot.LogScale)
		if isLog != c.log {
			t.Errorf("%v: log scale %v, want %v", c.means, isLog, c.log)
		}
		var buf bytes.Buffer
		if err := Write(p, "svg", Size{Width: 400, Height: 300, DPI: 96}, &buf); err != nil {
			t.Errorf("%v: %v", c.means, err)
		}
	}
}

// TestSweepNoData: a figure whose every point lacks a value is ErrNoData.
func TestSweepNoData(t *testing.T) {
	if _, err := NewSweep(sweepOf(math.NaN(), math.NaN())); !errors.Is(err, ErrNoData) {
		t.Errorf("err = %v, want ErrNoData", err)
	}
}

// TestSweepNominalAxis: parameter values that are not numbers are named
// on the axis in their order.
func TestSweepNominalAxis(t *testing.T) {
	s := sweepOf(3, 4)
	s.Numeric, s.Xs = false, []string{"uniform:1,3", "exact"}
	s.Series[0].Points[0].X, s.Series[0].Points[1].X = "uniform:1,3", "exact"
	p, err := NewSweep(s)
	if err != nil {
		t.Fatal(err)
	}
	ticks := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
	var names []string
	for _, tk := range ticks {
		if tk.Label != "" {
			names = append(names, tk.Label)
		}
	}
	if len(names) != 2 || names[0] != "uniform:1,3" || names[1] != "exact" {
		t.Errorf("axis names %q", names)
	}
}

// TestSweepHugeValues: values at the edge of float64 are drawn without
// room around them, or refused when their span overflows; never an empty
// figure with a made-up axis.
func TestSweepHugeValues(t *testing.T) {
	s := sweepOf(3, 4)
	s.Xs = []string{"1.79e308", "1.79769e308"}
	s.Series[0].Points[0].X, s.Series[0].Points[1].X = s.Xs[0], s.Xs[1]
	p, err := NewSweep(s)
	if err != nil {
		t.Fatal(err)
	}
	if p.X.Min != 1.79e308 || p.X.Max != 1.79769e308 {
		t.Errorf("x axis %g..%g", p.X.Min, p.X.Max)
	}
	s.Xs = []string{"-1e308", "1e308"}
	s.Series[0].Points[0].X, s.Series[0].Points[1].X = s.Xs[0], s.Xs[1]
	if _, err := NewSweep(s); err == nil || !strings.Contains(err.Error(), "span more than") {
		t.Errorf("err = %v", err)
	}
}

// TestSweepTenColours: ten lines get ten colours (gonum's default palette
// repeats after seven), and the eleventh shares the first's but not its
// dashes.
func TestSweepTenColours(t *testing.T) {
	s := sweepOf(1, 2, 3)
	base := s.Series[0]
	s.Series = nil
	for i := range 11 {
		ser := base
		ser.Name = string(rune('a' + i))
		s.Series = append(s.Series, ser)
	}
	p, err := NewSweep(s)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := p.WriterTo(400, 300, "svg")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	strokes := map[string]bool{}
	for _, part := range strings.Split(buf.String(), "stroke:")[1:] {
		c, _, _ := strings.Cut(part, ";")
		if c != "none" && c != "#000000" {
			strokes[c] = true
		}
	}
	if len(strokes) < 10 {
		t.Errorf("%d line colours for 11 lines, want 10: %v", len(strokes), strokes)
	}
	if seriesColor(10) != seriesColor(0) || seriesColor(9) == seriesColor(0) {
		t.Error("the palette is not the ten colours of the Gantt chart")
	}
	if fmt.Sprint(plotutil.Dashes(10)) == fmt.Sprint(plotutil.Dashes(0)) {
		t.Error("lines 0 and 10 share colour and dashes")
	}
}

// TestSweepFigureLegend: a legend of up to four lines goes above the data;
// a longer one (six policies and traces, say) beside it, so that the data
// keep the figure's height; both draw.
func TestSweepFigureLegend(t *testing.T) {
	for _, n := range []int{1, 3, 6, 12} {
		s := sweepOf(1, 2, 3)
		base := s.Series[0]
		s.Series, s.Legend = nil, "swfsim.policy, swfaugment.input"
		for i := range n {
			ser := base
			ser.Name = fmt.Sprintf("policy%d, trace", i)
			s.Series = append(s.Series, ser)
		}
		d, err := SweepFigure(s)
		if err != nil {
			t.Fatal(err)
		}
		_, beside := d.(*legendBeside)
		if want := n+1 > maxLegendAbove; beside != want {
			t.Errorf("%d series: legend beside %v, want %v", n, beside, want)
		}
		for _, format := range []string{"svg", "png"} {
			var buf bytes.Buffer
			if err := Write(d, format, Size{}, &buf); err != nil || buf.Len() == 0 {
				t.Errorf("%d series, %s: %v (%d bytes)", n, format, err, buf.Len())
			}
		}
	}
}
