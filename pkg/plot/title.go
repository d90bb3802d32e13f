package plot

import (
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// titleLines breaks a title into lines no wider than width. The parts are
// the places it is best broken at (a Gantt chart's "Schedule of LABEL" and
// "from START (LENGTH)"): parts that fit share a line; a part wider than
// the width is broken between words; a word wider than the width (a long
// path) keeps both its ends and loses its middle to an ellipsis, as
// ShortLabel does. A title that fits is one line, unchanged.
func titleLines(style draw.TextStyle, parts []string, width vg.Length) []string {
	fits := func(s string) bool { return style.Width(s) <= width }
	var lines []string
	for _, part := range parts {
		if n := len(lines); n > 0 && fits(lines[n-1]+" "+part) {
			lines[n-1] += " " + part
			continue
		}
		lines = append(lines, wrapWords(part, width, fits)...)
	}
	return lines
}

// wrapWords breaks s between words into lines that fit, eliding the middle
// of a word that fits on no line.
func wrapWords(s string, width vg.Length, fits func(string) bool) []string {
	if fits(s) {
		return []string{s}
	}
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line != "" && fits(line+" "+word):
			line += " " + word
			continue
		case line != "":
			lines = append(lines, line)
		}
		line = elideMiddle(word, fits)
	}
	return append(lines, line)
}

// elideMiddle cuts the middle of s, keeping as much of both ends as fits.
func elideMiddle(s string, fits func(string) bool) string {
	r := []rune(s)
	for keep := len(r) - 1; keep > 0 && !fits(s); keep-- {
		head := (keep + 1) / 2
		s = string(r[:head]) + "…" + string(r[len(r)-(keep-head):])
	}
	return s
}
