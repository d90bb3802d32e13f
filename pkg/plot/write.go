package plot

import (
	"sync"
	"time"

	"bytes"
	"codeberg.org/go-pdf/fpdf"
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The default figure size and PNG resolution.
const (
	DefaultWidth  = 16 * vg.Centimeter
	DefaultHeight = 10 * vg.Centimeter
	DefaultDPI    = 150
)

// Size is a figure's size and, for PNG, its resolution. The zero value is
// DefaultWidth x DefaultHeight at DefaultDPI.
type Size struct {
	Width, Height vg.Length
	DPI           int
}

func (s Size) orDefault() Size {
	if s.Width <= 0 || s.Height <= 0 {
		s.Width, s.Height = DefaultWidth, DefaultHeight
	}
	if s.DPI <= 0 {
		s.DPI = DefaultDPI
	}
	return s
}

// ParseSize reads a --plot-size value: WxH with a unit, "in" or "cm", after
// either number or after both ("16x10cm", "6.3inx4in"). Each side must be
// between 2 cm and 1 m.
func ParseSize(s string) (Size, error) {
	bad := fmt.Errorf("plot size %q: want WxH in inches or centimetres, e.g. 16x10cm or 6x4in", s)
	w, h, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !ok {
		return Size{}, bad
	}
	unit := func(v string) (string, vg.Length) {
		switch {
		case strings.HasSuffix(v, "cm"):
			return strings.TrimSuffix(v, "cm"), vg.Centimeter
		case strings.HasSuffix(v, "in"):
			return strings.TrimSuffix(v, "in"), vg.Inch
		}
		return v, 0
	}
	wv, wu := unit(w)
	hv, hu := unit(h)
	if hu == 0 {
		return Size{}, bad
	}
	if wu == 0 {
		wu = hu
	}
	wf, err1 := strconv.ParseFloat(wv, 64)
	hf, err2 := strconv.ParseFloat(hv, 64)
	if err1 != nil || err2 != nil {
		return Size{}, bad
	}
	size := Size{Width: vg.Length(wf) * wu, Height: vg.Length(hf) * hu}
	for _, l := range []vg.Length{size.Width, size.Height} {
		if math.IsNaN(float64(l)) || l < 2*vg.Centimeter || l > 100*vg.Centimeter {
			return Size{}, fmt.Errorf("plot size %q: each side must be between 2 cm and 100 cm", s)
		}
	}
	return size, nil
}

// ParseDPI reads a --plot-dpi value, 36 to 1200.
func ParseDPI(n int) (int, error) {
	if n < 36 || n > 1200 {
		return 0, fmt.Errorf("plot resolution %d dpi: want 36 to 1200", n)
	}
	return n, nil
}

// MaxPixels bounds a PNG figure: 64 megapixels (256 MB of RGBA while it is
// drawn), e.g. 50x50 cm at 360 dpi. A larger raster is refused before it is
// allocated; SVG and PDF are vector formats, without such a bound.
const MaxPixels = 64_000_000

// Pixels is the number of pixels of a PNG of this size.
func (s Size) Pixels() float64 {
	s = s.orDefault()
	return math.Ceil(s.Width.Dots(float64(s.DPI))) * math.Ceil(s.Height.Dots(float64(s.DPI)))
}

// CheckPNG refuses a PNG size over MaxPixels.
func (s Size) CheckPNG() error {
	s = s.orDefault()
	if px := s.Pixels(); px > MaxPixels {
		return fmt.Errorf("a %.0fx%.0f-pixel PNG (%.3g megapixels at %d dpi) is over the %d-megapixel limit: lower --plot-dpi or --plot-size, or write .svg or .pdf",
			math.Ceil(s.Width.Dots(float64(s.DPI))), math.Ceil(s.Height.Dots(float64(s.DPI))), px/1e6, s.DPI, MaxPixels/1_000_000)
	}
	return nil
}

// reproduciblePDF sets go-pdf's defaults once, before the first PDF.
var reproduciblePDF sync.Once

// Write draws p in the given format ("svg", "png", "pdf") to w. SVG and PDF
// embed the fonts the figure uses, so that text measured when laying out the
// figure is drawn in the same font wherever it is opened.
func Write(p Drawer, format string, size Size, w io.Writer) error {
	size = size.orDefault()
	var c vg.CanvasWriterTo
	switch format {
	case "svg":
		c = vgsvg.NewWith(vgsvg.UseWH(size.Width, size.Height), vgsvg.EmbedFonts(true))
	case "pdf":
		reproduciblePDF.Do(func() {
			// gonum's PDF canvas (go-pdf/fpdf) stamps the current time
			// and writes its catalogs in map order: fixed dates and sorted
			// catalogs make one figure one file, as for SVG and PNG.
			fixed := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
			fpdf.SetDefaultCreationDate(fixed)
			fpdf.SetDefaultModificationDate(fixed)
			fpdf.SetDefaultCatalogSort(true)
		})
		pc := vgpdf.New(size.Width, size.Height)
		pc.EmbedFonts(true)
		c = winAnsiPDF{pc}
	case "png":
		if err := size.CheckPNG(); err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(size.Width, size.Height), vgimg.UseDPI(size.DPI),
			vgimg.UseBackgroundColor(white))}
	default:
		return fmt.Errorf("plot: unknown format %q", format)
	}
	p.Draw(framed(c))
	_, err := c.WriteTo(w)
	return err
}

// framed is the canvas a figure is drawn on: the page less a thin margin at
// the top and the right, so that the title and the last tick label of an
// axis that ends on a long label ("100 d") do not touch or cross the edge.
func framed(c vg.CanvasSizer) draw.Canvas {
	// A figure smaller than the default is the default's layout shrunk,
	// text included: laid out small, the text would not fit (titles cut,
	// tick labels over each other, no room left for the data).
	w, h := c.Size()
	if k := min(1, float64(w/DefaultWidth), float64(h/DefaultHeight)); k < 1 {
		c.Scale(k, k)
		c = scaledCanvas{c, w / vg.Length(k), h / vg.Length(k)}
	}
	return draw.Crop(draw.New(c), 0, -vg.Points(10), 0, -vg.Points(5))
}

// scaledCanvas is a canvas drawn through a scale: it reports the size the
// drawing may use, larger than the canvas by the inverse of the scale.
type scaledCanvas struct {
	vg.CanvasSizer
	w, h vg.Length
}

func (s scaledCanvas) Size() (vg.Length, vg.Length) { return s.w, s.h }

// InlineSVG draws p as an <svg> element for an HTML page: no XML prolog and
// no embedded fonts (the page embeds them once, with FontCSS).
func InlineSVG(p Drawer, size Size) ([]byte, error) {
	size = size.orDefault()
	c := vgsvg.New(size.Width, size.Height)
	p.Draw(framed(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	if i := bytes.Index(out, []byte("<svg")); i >= 0 {
		out = out[i:]
	}
	return out, nil
}

// FontCSS returns the CSS @font-face rule of the font every figure's text is
// set in (plot.DefaultFont, from the Liberation fonts gonum/plot bundles),
// with the font inline, so that a page of InlineSVG figures needs no
// installed font.
func FontCSS() (string, error) {
	face := font.DefaultCache.Lookup(plot.DefaultFont, 12)
	var buf sfnt.Buffer
	family, err := face.Face.Name(&buf, sfnt.NameIDFamily)
	if err != nil {
		return "", fmt.Errorf("plot: font family: %w", err)
	}
	var raw bytes.Buffer
	if _, err := face.Face.WriteSourceTo(nil, &raw); err != nil {
		return "", fmt.Errorf("plot: font data: %w", err)
	}
	return fmt.Sprintf("@font-face{font-family:%q;font-style:normal;font-weight:normal;src:url(data:font/ttf;base64,%s) format(\"truetype\");}",
		family, base64.StdEncoding.EncodeToString(raw.Bytes())), nil
}
