package report

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
)

// Report is the content of one page.
type Report struct {
	Title string
	// Generator names the program and version that wrote the page.
	Generator string
	Inputs    []Input
	// Notes apply to the whole comparison (the settings every number uses).
	Notes   []string
	Tables  []Table
	Figures []Figure
	// FontCSS is the @font-face rule of the figures' font (plot.FontCSS).
	FontCSS string
}

// Input is one trace compared.
type Input struct {
	Label, File string
	// Facts are short name/value lines: jobs read, measured, machine size.
	Facts []Fact
	// Warnings are what a reader must know before trusting the numbers
	// (killed jobs, skipped records, oversubscription), shown as warnings.
	Warnings []string
	// Notes are facts about how the file was made that a reader may want
	// beside the numbers, not anomalies (the jobs a cleaning removed as it
	// was asked), shown after the warnings as plain text.
	Notes    []string
	Excluded []Exclusion
	// Provenance is the header lines that say how the file was made (the
	// tools' Notes and the archive's description), in file order.
	Provenance []string
	// SHA256 is the hash of the bytes read from the file, after
	// decompression (what the tools' Provenance lines call input-sha256);
	// "" when unknown.
	SHA256 string
}

// Fact is a named value.
type Fact struct{ Name, Value string }

// Exclusion counts jobs left out of some metrics, and why.
type Exclusion struct {
	Jobs              int
	Reason, LeftOutOf string
}

// Table is a table of text cells. Columns from Numeric on are right-aligned.
type Table struct {
	ID, Title string
	Head      []string
	Rows      [][]string
	Numeric   int
}

// Figure is one SVG figure, or the reason it could not be drawn.
type Figure struct {
	ID, Title, Caption string
	SVG                []byte // an <svg> element; nil when Missing says why
	Missing            string
}

//go:embed page.html.tmpl
var pageTemplate string

//go:embed style.css
var styleCSS string

var page = template.Must(template.New("page").Funcs(template.FuncMap{
	"numeric": func(t Table, col int) bool { return col >= t.Numeric },
	"key":     func(t Table, col int) bool { return col < t.Numeric },
	"parts":   printParts,
	"paper":   paperClass,
	"values":  func(t Table) int { return len(t.Head) - t.Numeric },
}).Parse(pageTemplate))

// ErrNotSVG is returned for a Figure whose SVG is not an <svg> element.
var ErrNotSVG = errors.New("report: figure is not an <svg> element")

// Write writes r as an HTML page to w.
func Write(w io.Writer, r *Report) error {
	r = printableCopy(r)
	type figure struct {
		Figure
		Inline template.HTML
	}
	data := struct {
		*Report
		Style   template.CSS
		Figures []figure
		// AnyExcluded: the exclusions section is left out when no input
		// leaves a job out of any metric, rather than an empty table.
		AnyExcluded bool
	}{Report: r, Style: template.CSS(r.FontCSS + "\n" + styleCSS)}
	for _, in := range r.Inputs {
		data.AnyExcluded = data.AnyExcluded || len(in.Excluded) > 0
	}
	for _, f := range r.Figures {
		if f.SVG != nil && !bytes.HasPrefix(bytes.TrimSpace(f.SVG), []byte("<svg")) {
			return fmt.Errorf("%w: %s", ErrNotSVG, f.ID)
		}
		data.Figures = append(data.Figures, figure{Figure: f, Inline: template.HTML(f.SVG)})
	}
	return page.Execute(w, data)
}
