package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"testing"

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
				p, err := New(kind, inputs())
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if err := Write(p, format, &buf); err != nil {
					t.Fatal(err)
				}
				checkValid(t, format, buf.Bytes())
				if format == "svg" {
					for _, label := range []string{"easy", "cons"} {
						if !bytes.Contains(buf.Bytes(), []byte(label)) {
							t.Errorf("legend label %q missing from the SVG", label)
						}
					}
				}
			})
		}
	}
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
	if err := Write(p, "png", &buf); err != nil {
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
	if len(pts) != MaxCDFPoints || pts[len(pts)-1].Y != 1 || pts[len(pts)-1].X != 9999 || pts[0].X != 1 {
		t.Errorf("%d points, last %v, first %v", len(pts), pts[len(pts)-1], pts[0])
	}
}
