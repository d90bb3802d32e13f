package plot

import (
	"strings"

	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// winAnsiPDF is gonum's PDF canvas with its text in the encoding it embeds
// the font in: vgpdf embeds Liberation with the Windows-1252 (WinAnsi)
// encoding, one byte a character, but hands it the figure's UTF-8 text
// unchanged, so every character past ASCII came out as two or three others
// ("Malmö" as "MalmÃ¶"). Each character is written as its Windows-1252 byte;
// one that encoding lacks (Greek, Cyrillic, CJK) as "?", so that a label
// made of them does not vanish or pass for another (UndrawableIn("pdf", ...)
// names them for the warning where the caller checks its labels).
type winAnsiPDF struct{ *vgpdf.Canvas }

func (c winAnsiPDF) FillString(f font.Face, pt vg.Point, s string) {
	c.Canvas.FillString(f, pt, winAnsi(s))
}

// winAnsi returns s in Windows-1252, with "?" for what it cannot encode.
func winAnsi(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
		} else if c, ok := charmap.Windows1252.EncodeRune(r); ok {
			b.WriteByte(c)
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}
