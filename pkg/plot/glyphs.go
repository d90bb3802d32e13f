package plot

import (
	"golang.org/x/image/font/sfnt"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"

	"github.com/swfkit/swfkit/pkg/printable"
)

// Undrawable returns, once each and in order, the characters of s that the
// figures' font (plot.DefaultFont, Liberation) has no glyph for: a PNG or
// PDF figure draws nothing in their place, so two labels made of them can
// look alike. (An SVG names the font, and a browser draws such characters
// from another one.) s is taken as a figure draws it: a byte that is not
// UTF-8 is the text \xNN (package printable), which the font has.
func Undrawable(s string) []rune { return UndrawableIn("png", s) }

// UndrawableIn is Undrawable for a figure in format ("svg", "png", "pdf"): a
// PDF also leaves out what Windows-1252, the encoding its font is embedded
// in, lacks (Greek, Cyrillic: winAnsiPDF).
func UndrawableIn(format, s string) []rune {
	s = printable.Label(s)
	face := font.DefaultCache.Lookup(plot.DefaultFont, 12)
	var buf sfnt.Buffer
	var out []rune
	seen := map[rune]bool{}
	for _, r := range s {
		if seen[r] {
			continue
		}
		seen[r] = true
		if i, err := face.Face.GlyphIndex(&buf, r); err != nil || i == 0 {
			out = append(out, r)
		} else if _, ok := charmap.Windows1252.EncodeRune(r); format == "pdf" && r >= 0x80 && !ok {
			out = append(out, r)
		}
	}
	return out
}
