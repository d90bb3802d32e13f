package report

import "fmt"

// The printed page is A4 with 14 mm margins (style.css): 182 mm of text
// across in portrait, 269 mm in landscape. A value column needs about 5em
// of its font (a 9-character number and the cell's padding), the metric and
// statistic columns 15em together; the limits below keep the printed font
// at 8.5 pt where it can and never below 7.5 pt.
const (
	portraitColumns  = 8  // value columns at 8.5 pt on a portrait page
	landscapeColumns = 12 // at 8.5 pt on a landscape page
	denseColumns     = 16 // at 7.5 pt on a landscape page; more are split
)

// printPart is one printed piece of a table: the table with the key
// columns (those before Numeric) and a run of its value columns.
type printPart struct {
	Table
	Paper string // the class that sets its page and font: see paperClass
}

// printParts cuts t into tables of at most denseColumns value columns each,
// as even as can be, each repeating the key columns, so that no printed
// table is too wide for a landscape page at a readable size. With
// --baseline, n inputs make 2n-1 value columns, which cut in two fall
// where the values end and the changes begin. A table that fits is one
// part: t itself.
func printParts(t Table) []printPart {
	values := len(t.Head) - t.Numeric
	n := (values + denseColumns - 1) / denseColumns
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
// by its count of value columns: "" (portrait), "wide" (landscape) or
// "wide dense" (landscape, smaller font).
func paperClass(t Table) string {
	switch values := len(t.Head) - t.Numeric; {
	case values <= portraitColumns:
		return ""
	case values <= landscapeColumns:
		return "wide"
	default:
		return "wide dense"
	}
}
