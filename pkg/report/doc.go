// Package report writes swfstat's HTML report: one self-contained page with
// the side-by-side tables, the figures, and each input's provenance and
// warnings, that opens offline and prints to PDF.
//
// Conventions: the page loads nothing: styles and figures (SVG, from
// pkg/plot's InlineSVG) are inline, the figures' font is embedded once
// (Report.FontCSS), and there is no script. Every string is escaped except
// Figure.SVG, which must be an <svg> element from a trusted writer, and
// made printable first (package printable: a byte that is not UTF-8 or a
// control character as \xNN; tabs and line breaks kept in text), so that
// the page is valid UTF-8 whatever the file names and header lines hold. The
// output depends only on the Report, so the same Report gives the same
// bytes. Callers build the Report (the numbers are formatted by them) and
// own its slices.
//
// Printed (A4), every table fits the paper's width: the page is sized by
// the table's count of value columns (print.go), turning to landscape and a
// smaller font as it grows, and a table of more than 16 value columns is
// printed as parts that repeat its key columns, while the screen shows it
// whole.
package report
