package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"gonum.org/v1/plot/plotter"
	"image/png"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/swfkit/swfkit/pkg/stats"
)

func inputs() []Input {
	tl := stats.Timeline{Start: 0, End: 7200, Times: []float64{1800, 5400}, InUse: []float64{2, 3}, Queued: []float64{1.5, 0}, Machine: 4}
	return []Input{
		{Label: "easy", Waits: []float64{0, 0, 30, 75, 960}, BoundedSlowdowns: []float64{1, 1, 1.5, 8.5, 10}, Timeline: tl,
			CategoryBSLD: map[string]float64{"SN": 3, "SW": 5, "LN": 1.2}},
		{Label: "cons", Waits: []float64{0, 10, 40}, BoundedSlowdowns: []float64{1, 2, 5}, Timeline: tl,
			CategoryBSLD: map[string]float64{"SN": 2, "SW": 4, "LN": 1.5, "LW": 1.1}},
	}
}

// TestEveryKindEveryFormat writes every figure in every format and checks
// that the files decode: PNG by image/png, SVG as XML, PDF by its header.
func TestEveryKindEveryFormat(t *testing.T) {
	for _, kind := range Kinds {
		for _, format := range Formats {
			t.Run(string(kind)+"."+format, func(t *testing.T) {
				p, err := figureOf(kind)
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if err := Write(p, format, Size{}, &buf); err != nil {
					t.Fatal(err)
				}
				checkValid(t, format, buf.Bytes())
				if format == "svg" {
					for _, label := range labelsOf(kind) {
						if !bytes.Contains(buf.Bytes(), []byte(label)) {
							t.Errorf("legend label %q missing from the SVG", label)
						}
					}
				}
			})
		}
	}
}

func figureOf(kind Kind) (Drawer, error) {
	if kind == Gantt {
		return NewGantt(Schedule{Label: "easy", Machine: 4, From: 0, To: 3600, Start: "t=0 s", ColorBy: "user",
			Jobs: []GanttJob{{Start: 0, End: 600, Procs: 2, Group: "cons"}}})
	}
	if kind == MetricSweep {
		s := sweepOf(2, 3)
		s.Series = append(s.Series, stats.SweepSeries{Name: "cons", Points: []stats.SweepPoint{{X: "0.5", Mean: 4, Min: 3, Max: 5, N: 2}}})
		return NewSweep(s)
	}
	return New(kind, inputs())
}

func labelsOf(kind Kind) []string {
	if kind == Gantt {
		return []string{"easy", "user cons"}
	}
	return []string{"easy", "cons"}
}

func checkValid(t *testing.T, format string, data []byte) {
	t.Helper()
	switch format {
	case "png":
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("PNG does not decode: %v", err)
		}
		if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
			t.Errorf("PNG is %v, want a real figure", b)
		}
	case "svg":
		d := xml.NewDecoder(bytes.NewReader(data))
		root := ""
		for {
			tok, err := d.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("SVG is not XML: %v", err)
			}
			if se, ok := tok.(xml.StartElement); ok && root == "" {
				root = se.Name.Local
			}
		}
		if root != "svg" {
			t.Errorf("SVG root element %q", root)
		}
	case "pdf":
		if !bytes.HasPrefix(data, []byte("%PDF-")) || !bytes.Contains(data, []byte("%%EOF")) {
			t.Error("not a PDF")
		}
	}
}

func TestDegenerate(t *testing.T) {
	// Every wait 0: the log axis still needs a range.
	p, err := New(WaitCDF, []Input{{Label: "idle", Waits: []float64{0, 0, 0}}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(p, "png", Size{}, &buf); err != nil {
		t.Fatal(err)
	}
	checkValid(t, "png", buf.Bytes())
	if _, err := New(Utilization, []Input{{Label: "none"}}); !errors.Is(err, ErrNoData) {
		t.Errorf("no timeline: %v, want ErrNoData", err)
	}
	tl := stats.Timeline{Times: []float64{1}, InUse: []float64{1}, Queued: []float64{0}}
	if _, err := New(Utilization, []Input{{Label: "x", Timeline: tl}}); err == nil {
		t.Error("utilization without machine size: no error")
	}
}

func TestFormatOf(t *testing.T) {
	for name, want := range map[string]string{"a.svg": "svg", "b.PNG": "png", "c.pdf": "pdf", "d.jpg": "", "e": ""} {
		got, err := FormatOf(name)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("FormatOf(%q) = %q, %v", name, got, err)
		}
	}
	if _, err := ParseKind("pie"); err == nil {
		t.Error("ParseKind(pie): no error")
	}
}

func TestCDFPoints(t *testing.T) {
	v := make([]float64, 10000)
	for i := range v {
		v[i] = float64(i)
	}
	pts := cdfPoints(v, 1)
	if len(pts) != MaxCDFPoints+1 || pts[len(pts)-1].Y != 1 || pts[len(pts)-1].X != 9999 || pts[0] != (plotter.XY{X: 1, Y: 0}) {
		t.Errorf("%d points, last %v, first %v", len(pts), pts[len(pts)-1], pts[0])
	}
	// Small inputs: every value a step, from 0 below the smallest.
	pts = cdfPoints([]float64{0, 0, 500}, 1)
	want := plotter.XYs{{X: 1, Y: 0}, {X: 1, Y: 1.0 / 3}, {X: 1, Y: 2.0 / 3}, {X: 500, Y: 1}}
	if !reflect.DeepEqual(pts, want) {
		t.Errorf("waits 0, 0, 500: %v, want %v", pts, want)
	}
	// The curve is a step function that runs to the axis end.
	line, err := cdfLine([]float64{0}, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	if want := (plotter.XYs{{X: 1, Y: 0}, {X: 1, Y: 1}, {X: 10, Y: 1}}); line.StepStyle != plotter.PostStep || !reflect.DeepEqual(line.XYs, want) {
		t.Errorf("one job: step %v, points %v, want a post step through %v", line.StepStyle, line.XYs, want)
	}
}

// TestFontsEmbedded: an SVG or PDF figure carries its font, so text laid
// out with Liberation metrics is drawn in Liberation where none is installed.
func TestFontsEmbedded(t *testing.T) {
	p, err := New(WaitCDF, inputs())
	if err != nil {
		t.Fatal(err)
	}
	var svg, pdf bytes.Buffer
	if err := Write(p, "svg", Size{}, &svg); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, "pdf", Size{}, &pdf); err != nil {
		t.Fatal(err)
	}
	s := svg.String()
	if !strings.Contains(s, "@font-face") || !strings.Contains(s, `font-family:"Liberation Serif"`) || !strings.Contains(s, "data:font/ttf;") {
		t.Error("SVG does not embed its font")
	}
	if !strings.Contains(s, "font-family:Liberation Serif") {
		t.Error("SVG text is not set in the embedded family")
	}
	if !bytes.Contains(pdf.Bytes(), []byte("/FontFile2")) {
		t.Error("PDF does not embed its font (no /FontFile2)")
	}
	// The inline form for HTML pages has no prolog and no font: the page
	// embeds it once (FontCSS).
	in, err := InlineSVG(p, Size{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(in, []byte("<svg")) || bytes.Contains(in, []byte("@font-face")) {
		t.Errorf("InlineSVG starts %q", in[:min(len(in), 40)])
	}
	css, err := FontCSS()
	if err != nil || !strings.HasPrefix(css, `@font-face{font-family:"Liberation Serif"`) || len(css) < 100000 {
		t.Errorf("FontCSS: %d bytes, %v", len(css), err)
	}
}

func TestSizeAndDPI(t *testing.T) {
	size, err := ParseSize("6x4in")
	if err != nil {
		t.Fatal(err)
	}
	size.DPI = 100
	p, _ := New(Category, inputs())
	var buf bytes.Buffer
	if err := Write(p, "png", size, &buf); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 600 || b.Dy() != 400 {
		t.Errorf("6x4in at 100 dpi is %dx%d px", b.Dx(), b.Dy())
	}
	for in, want := range map[string]vg.Length{"16x10cm": 16 * vg.Centimeter, "16cmx4in": 16 * vg.Centimeter, " 8.5X11in": 8.5 * vg.Inch} {
		got, err := ParseSize(in)
		if err != nil || math.Abs(float64(got.Width-want)) > 1e-9 {
			t.Errorf("ParseSize(%q) = %v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"16x10", "16cm", "x10cm", "0x10cm", "1x1cm", "500x10cm", "axbcm", "NaNx5in"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q): no error", bad)
		}
	}
	for _, n := range []int{0, 35, 1201} {
		if _, err := ParseDPI(n); err == nil {
			t.Errorf("ParseDPI(%d): no error", n)
		}
	}
}

func TestAxes(t *testing.T) {
	p, _ := New(Utilization, inputs())
	if p.Y.Min != 0 || p.Y.Max != 100 {
		t.Errorf("utilization axis %g..%g, want 0..100", p.Y.Min, p.Y.Max)
	}
	over := inputs()
	over[0].Timeline.InUse = []float64{5, 6} // a log that oversubscribes its 4 processors
	p, _ = New(Utilization, over)
	if p.Y.Max != 150 {
		t.Errorf("oversubscribed utilization axis ends at %g, want the 150%% drawn", p.Y.Max)
	}
	var buf bytes.Buffer
	Write(p, "svg", Size{}, &buf)
	if !strings.Contains(buf.String(), "easy (4 processors)") {
		t.Error("the utilization legend does not state the machine size")
	}
	p, _ = New(Category, inputs())
	if _, ok := p.Y.Scale.(plot.LogScale); !ok || p.Y.Min != 1 || p.Y.Max != 10 {
		t.Errorf("category axis %T %g..%g, want log 1..10", p.Y.Scale, p.Y.Min, p.Y.Max)
	}
	for _, k := range []Kind{WaitCDF, BSLDCDF} {
		p, _ = New(k, inputs())
		if _, ok := p.X.Scale.(plot.LogScale); !ok {
			t.Errorf("%s: x axis not logarithmic", k)
		}
	}
	ticks := decades{}.Ticks(1, 2e6)
	var labels []string
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "1 10 100 1000 10000 1e5 1e6" {
		t.Errorf("decade labels %q", got)
	}
	labels = labels[:0]
	minor := 0
	for _, tk := range (durations{}).Ticks(1, 1e6) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		} else {
			minor++
		}
	}
	if got := strings.Join(labels, " "); got != "1 s 10 s 1 min 10 min 1 h 1 d 10 d" || minor != 55 {
		t.Errorf("wait axis labels %q and %d unlabelled ticks, want 1 s .. 10 d and 55", got, minor)
	}
	// The timeline titles give the bin width.
	in := inputs()
	p, _ = New(Utilization, in)
	tl := in[0].Timeline
	if want := binWidth(in); want == "" || !strings.Contains(p.Title.Text, "per bin"+want) {
		t.Errorf("utilization title %q lacks the bin width %q (timeline %d..%d, %d bins)", p.Title.Text, want, tl.Start, tl.End, len(tl.Times))
	}
}

func TestBinWidth(t *testing.T) {
	mk := func(span int64, bins int) Input {
		return Input{Timeline: stats.Timeline{Start: 0, End: span, Times: make([]float64, bins)}}
	}
	for _, tt := range []struct {
		in   []Input
		want string
	}{
		{[]Input{mk(400*30, 400)}, " of 30 s"},
		{[]Input{mk(400*90, 400)}, " of 1.5 min"},
		{[]Input{mk(400*7200, 400), mk(400*7200, 400)}, " of 2 h"},
		{[]Input{mk(400*86400*20, 400)}, " of 20 days"},
		{[]Input{mk(400*60, 400), mk(400*120, 400)}, ""}, // two widths: none stated
		{[]Input{{}}, ""},
	} {
		if got := binWidth(tt.in); got != tt.want {
			t.Errorf("binWidth = %q, want %q", got, tt.want)
		}
	}
}

func TestPNGPixelLimit(t *testing.T) {
	big := Size{Width: 100 * vg.Centimeter, Height: 100 * vg.Centimeter, DPI: 1200}
	if err := big.CheckPNG(); err == nil || !strings.Contains(err.Error(), "47245x47245-pixel") {
		t.Errorf("100x100cm at 1200 dpi: %v, want the limit error", err)
	}
	var buf bytes.Buffer
	p, _ := New(WaitCDF, inputs())
	if err := Write(p, "png", big, &buf); err == nil || buf.Len() != 0 {
		t.Errorf("Write of an oversized PNG: %v, %d bytes", err, buf.Len())
	}
	ok := Size{Width: 50 * vg.Centimeter, Height: 50 * vg.Centimeter, DPI: 360}
	if err := ok.CheckPNG(); err != nil {
		t.Errorf("50x50cm at 360 dpi (%g pixels): %v", ok.Pixels(), err)
	}
	if err := (Size{}).CheckPNG(); err != nil {
		t.Errorf("default size: %v", err)
	}
}

// TestPDFReproducible: a PDF carries a fixed date and sorted catalogs, so
// the same figure is the same file whenever it is written.
func TestPDFReproducible(t *testing.T) {
	var a, b bytes.Buffer
	for _, buf := range []*bytes.Buffer{&a, &b} {
		p, err := New(WaitCDF, inputs())
		if err != nil {
			t.Fatal(err)
		}
		if err := Write(p, "pdf", Size{}, buf); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two PDFs of one figure differ")
	}
	if !bytes.Contains(a.Bytes(), []byte("/CreationDate (D:20000101000000)")) {
		t.Error("the PDF is not dated 2000-01-01")
	}
}

func TestCategoryNoData(t *testing.T) {
	if _, err := New(Category, []Input{{Label: "empty", CategoryBSLD: map[string]float64{}}}); !errors.Is(err, ErrNoData) {
		t.Errorf("category figure of no jobs: %v, want ErrNoData", err)
	}
}

// An input with nothing to draw stays in the legend of a figure of several,
// saying so, instead of vanishing from it.
func TestEmptyInputStaysInTheLegend(t *testing.T) {
	for _, kind := range []Kind{WaitCDF, Utilization} {
		full := Input{Label: "full", Waits: []float64{0, 5, 50}, BoundedSlowdowns: []float64{1, 2},
			Timeline: stats.Timeline{Times: []float64{0, 3600}, InUse: []float64{1, 2}, Queued: []float64{0, 1}, Machine: 4}}
		p, err := New(kind, []Input{full, {Label: "empty-one"}})
		if err != nil {
			t.Fatalf("%v: %v", kind, err)
		}
		var svg bytes.Buffer
		if err := Write(p, "svg", Size{}, &svg); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(svg.String(), "empty-one") || !strings.Contains(svg.String(), "not drawn") {
			t.Errorf("%v: the empty input is not in the legend", kind)
		}
	}
}

// A label longer than a figure can hold is cut in its middle, both ends kept.
func TestShortLabel(t *testing.T) {
	long := "runs/LANL-CM5-1994-4.1-cln_conservative_load0.9_seed2.swf.gz"
	got := ShortLabel(long)
	if n := len([]rune(got)); n != maxLabel || !strings.HasPrefix(got, "runs/LANL") || !strings.HasSuffix(got, "seed2.swf.gz") || !strings.Contains(got, "…") {
		t.Errorf("ShortLabel = %q (%d characters)", got, n)
	}
	if ShortLabel("easy") != "easy" {
		t.Error("a short label changed")
	}
}

// A figure smaller than the default is the default's layout shrunk, text
// included (laid out small, titles were cut and the data area vanished);
// at the default size nothing is scaled.
func TestSmallFiguresAreShrunk(t *testing.T) {
	p, err := New(WaitCDF, inputs())
	if err != nil {
		t.Fatal(err)
	}
	svgOf := func(size Size) string {
		var b bytes.Buffer
		if err := Write(p, "svg", size, &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if small := svgOf(Size{Width: DefaultWidth / 2, Height: DefaultHeight}); !strings.Contains(small, "scale(0.5,0.5)") {
		t.Error("an 8x10 cm figure is not the default's layout at half scale")
	}
	if def := svgOf(Size{}); strings.Contains(def, "scale(0.5") {
		t.Error("the default size is scaled")
	}
}

// TestCountTicks: a count axis is labelled without decimals when its labels
// are whole numbers, and as gonum labels it otherwise.
func TestCountTicks(t *testing.T) {
	for _, tt := range []struct {
		lo, hi float64
		whole  bool
	}{{0, 5000, true}, {0, 12, true}, {0, 0.5, false}} {
		for _, tick := range (counts{}).Ticks(tt.lo, tt.hi) {
			if tick.Label == "" {
				continue
			}
			if tt.whole && strings.Contains(tick.Label, ".") {
				t.Errorf("[%g, %g]: label %q has decimals", tt.lo, tt.hi, tick.Label)
			}
			if !tt.whole && tick.Value != math.Trunc(tick.Value) && !strings.Contains(tick.Label, ".") {
				t.Errorf("[%g, %g]: label %q of %g lost its decimals", tt.lo, tt.hi, tick.Label, tick.Value)
			}
		}
	}
}

// TestUnprintableLabels: a label from a file name that is not UTF-8, or
// with a control character, is drawn as \xNN, so that the SVG is XML
// (a raw \xff or \x1b made it one no parser reads) and no label is lost.
func TestUnprintableLabels(t *testing.T) {
	const raw, shown = "inv\xffname\x1b.swf", `inv\xffname\x1b.swf`
	for _, kind := range Kinds {
		t.Run(string(kind), func(t *testing.T) {
			var p Drawer
			var err error
			switch kind {
			case Gantt:
				p, err = NewGantt(Schedule{Label: raw, Machine: 4, From: 0, To: 3600, Start: "t=0 s", ColorBy: "user",
					Jobs: []GanttJob{{Start: 0, End: 600, Procs: 2, Group: "cons"}}})
			case MetricSweep:
				s := sweepOf(2, 3)
				s.Series[0].Name = raw
				p, err = NewSweep(s)
			default:
				in := inputs()
				in[0].Label = raw
				p, err = New(kind, in)
			}
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := Write(p, "svg", Size{}, &buf); err != nil {
				t.Fatal(err)
			}
			checkValid(t, "svg", buf.Bytes())
			if !bytes.Contains(buf.Bytes(), []byte(shown)) {
				t.Errorf("the label is not drawn as %q", shown)
			}
		})
	}
}

// TestUtilizationWithoutMachine: an input without a machine size is named in
// the utilization figure's legend and the others are drawn, as the CDFs do
// with an input without jobs (it failed the whole figure); with no input
// that has one, the figure cannot be drawn and the error names them.
func TestUtilizationWithoutMachine(t *testing.T) {
	in := inputs()
	in[1].Label = "nomax"
	in[1].Timeline.Machine = 0
	p, err := New(Utilization, in)
	if err != nil {
		t.Fatal(err)
	}
	var svg bytes.Buffer
	if err := Write(p, "svg", Size{}, &svg); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"easy (4 processors)", "nomax (machine size unknown: not drawn)"} {
		if !strings.Contains(svg.String(), want) {
			t.Errorf("legend lacks %q", want)
		}
	}
	in[0].Timeline.Machine = 0
	_, err = New(Utilization, in)
	if !errors.Is(err, ErrNoMachine) || !strings.Contains(err.Error(), "easy, nomax") {
		t.Errorf("no input with a machine size: %v, want ErrNoMachine naming both", err)
	}
}
