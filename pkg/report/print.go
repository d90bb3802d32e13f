package report

import "fmt"

// The printed page is A4 with 14 mm margins (style.css): 182 mm of text
// across in portrait, 269 mm in landscape. The metric and statistic columns
// take 15em of the table's font and their padding; a value column takes an
// equal share of the rest, which must hold its longest number and the
// cell's padding (a number too long for its share breaks between digits: a
// mean wait of 10336.4719 s printed as 10336.471 over 9). The papers below
// keep the printed font at 8.5 pt where they can and never below 7.5 pt.
const (
	portraitColumns  = 8  // value columns at 8.5 pt on a portrait page
	landscapeColumns = 12 // at 8.5 pt on a landscape page
	denseColumns     = 16 // at 7.5 pt on a landscape page; more are split
)

// paper is how a printed table is set: its CSS class (style.css), the width
// of text across the page, the font and the padding either side of a cell.
type paper struct {
	class        string
	columns      int     // the most value columns it takes
	widthPt      float64 // text across the page
	fontPt       float64
	paddingEm    float64 // either side of a cell
	keyColumnsEm float64 // metric and statistic, padding left out
}

const mm = 72 / 25.4 // points

var papers = []paper{
	{"", portraitColumns, 182 * mm, 8.5, 0.3, 15},
	{"wide", landscapeColumns, 269 * mm, 8.5, 0.3, 15},
	{"wide dense", denseColumns, 269 * mm, 7.5, 0.2, 15},
}

// fits says whether values columns of numbers numberEm wide fit across p.
func (p paper) fits(values int, numberEm float64) bool {
	across := p.widthPt / p.fontPt // in em of the table's font
	share := (across - p.keyColumnsEm - 4*p.paddingEm) / float64(values)
	return values <= p.columns && numberEm+2*p.paddingEm <= share
}

// numberWidth is the width in em of the widest value cell of t in the
// printed font (Liberation Serif: a digit 0.5em, a point or comma 0.25em,
// a minus sign 0.33em; anything else counted as a digit).
func numberWidth(t Table) float64 {
	widest := 0.0
	for _, row := range t.Rows {
		for _, cell := range row[min(t.Numeric, len(row)):] {
			w := 0.0
			for _, r := range cell {
				switch r {
				case '.', ',':
					w += 0.25
				case '-':
					w += 0.333
				default:
					w += 0.5
				}
			}
			widest = max(widest, w)
		}
	}
	return widest
}

// printPart is one printed piece of a table: the table with the key
// columns (those before Numeric) and a run of its value columns.
type printPart struct {
	Table
	Paper string // the class that sets its page and font: see paperClass
}

// printParts cuts t into tables of at most denseColumns value columns each
// (fewer when its numbers are too long for that many), as even as can be, each repeating the key columns, so that no printed
// table is too wide for a landscape page at a readable size. With
// --baseline, n inputs make 2n-1 value columns, which cut in two fall
// where the values end and the changes begin. A table that fits is one
// part: t itself.
func printParts(t Table) []printPart {
	values := len(t.Head) - t.Numeric
	dense, number := papers[len(papers)-1], numberWidth(t)
	most := dense.columns // the most value columns a part's numbers fit in
	for most > 1 && !dense.fits(most, number) {
		most--
	}
	n := (values + most - 1) / most
	if n <= 1 {
		return []printPart{{Table: t, Paper: paperClass(t)}}
	}
	per := (values + n - 1) / n
	parts := make([]printPart, 0, n)
	for from := t.Numeric; from < len(t.Head); from += per {
		to := min(from+per, len(t.Head))
		p := Table{ID: t.ID, Numeric: t.Numeric, Head: cut(t.Head, t.Numeric, from, to)}
		for _, row := range t.Rows {
			p.Rows = append(p.Rows, cut(row, t.Numeric, from, to))
		}
		parts = append(parts, printPart{Table: p, Paper: paperClass(p)})
	}
	for i := range parts { // counted after: even cuts of hundreds of columns can be fewer than n
		parts[i].Title = fmt.Sprintf("%s (part %d of %d)", t.Title, i+1, len(parts))
	}
	return parts
}

// cut is the first keys cells of row followed by row[from:to], in a new slice.
func cut(row []string, keys, from, to int) []string {
	out := make([]string, 0, keys+to-from)
	out = append(out, row[:min(keys, len(row))]...)
	if from < len(row) {
		out = append(out, row[from:min(to, len(row))]...)
	}
	return out
}

// paperClass is the CSS class for the page and font a printed table needs
// by its count of value columns and its longest number: "" (portrait),
// "wide" (landscape) or "wide dense" (landscape, smaller font), the first
// whose columns hold its numbers whole.
func paperClass(t Table) string {
	values, number := len(t.Head)-t.Numeric, numberWidth(t)
	for _, p := range papers {
		if p.fits(values, number) {
			return p.class
		}
	}
	return papers[len(papers)-1].class // a number too long for any: it breaks
}
