package statcli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
)

// printMargin is the @page margin of pkg/report's style.css (14mm) in points.
const printMargin = 14 / 25.4 * 72

// TestIntegrationHTMLReportPrintsWholeTables prints reports of 1, 12 and 16
// inputs (with a baseline, so 12 inputs make 25 columns; one label 300
// characters long) to PDF in headless Chromium and reads the PDF back with
// pdftotext, which keeps only the text inside the page: every input's column
// must be there in every table (its makespan, a number no other input has,
// and each "X vs baseline" header once per table), and every word must be
// inside the page's margins, figures included, and every mean wait (10
// characters) one word, not broken over two lines of its cell. Before the print styles let
// wide tables shrink and turn, Chromium cut them at the page's edge.
func TestIntegrationHTMLReportPrintsWholeTables(t *testing.T) {
	browser := testutil.Component(t, "chromium", "chromium")
	pdftotext := testutil.Component(t, "pdftotext", "poppler-utils")
	for _, n := range []int{1, 12, 16} {
		t.Run(fmt.Sprintf("%d inputs", n), func(t *testing.T) {
			dir := t.TempDir()
			var labels, inputs, makespans, means []string
			for i := 0; i < n; i++ {
				label := fmt.Sprintf("run-number-%010d", i)
				if i == 5 {
					label = strings.Repeat("x", 300)
				}
				// The first job runs alone for a makespan that is this input's marker.
				makespan := strconv.Itoa(7100000 + i)
				// The third job's wait makes a mean wait of 10 characters,
				// 1033N.3333, as a busy log's are.
				wait := strconv.Itoa(31009 + 3*i)
				means = append(means, fmt.Sprintf("%d.3333", 10336+i))
				path := filepath.Join(dir, fmt.Sprintf("in%02d.swf", i))
				swf := "; MaxProcs: 32\n" +
					"1 0 0 " + makespan + " 2 -1 -1 2 9000000 -1 1 1 1 -1 1 -1 -1 -1\n" +
					"2 10 0 100 4 -1 -1 4 200 -1 1 2 1 -1 1 -1 -1 -1\n" +
					"3 20 " + wait + " 100 4 -1 -1 4 200 -1 1 2 1 -1 1 -1 -1 -1\n"
				if err := os.WriteFile(path, []byte(swf), 0o644); err != nil {
					t.Fatal(err)
				}
				labels, inputs, makespans = append(labels, label), append(inputs, path), append(makespans, makespan)
			}
			page := filepath.Join(dir, "report.html")
			args := []string{"--html", page, "--label", strings.Join(labels, ",")}
			if n > 1 {
				args = append(args, "--baseline", labels[0])
			}
			if _, errOut, code := run(t, "", append(args, inputs...)...); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			html, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			tables := strings.Count(string(html), `<section class="table`)

			pdf := filepath.Join(dir, "report.pdf")
			chromium(t, browser, page, "--print-to-pdf="+pdf, "--no-pdf-header-footer")
			raw, err := exec.Command(pdftotext, "-raw", pdf, "-").Output()
			if err != nil {
				t.Fatalf("pdftotext: %v", err)
			}
			// A number is one word: not broken over two lines of its cell
			// (16 inputs' 10-character means were, at 7.5 pt).
			words := strings.Fields(string(raw))
			for i, mean := range means {
				if !slices.Contains(words, mean) {
					t.Errorf("the mean wait of input %d (%s) is not a word of the pages: broken over lines", i, mean)
				}
			}
			// A header broken over lines is still its letters in order.
			text := strings.Join(words, "")
			for i, label := range labels {
				if !strings.Contains(text, makespans[i]) {
					t.Errorf("the makespan of input %d (%s) is not on any page: its column is cut", i, makespans[i])
				}
				if i == 0 && n > 1 {
					continue
				}
				header := label
				if n > 1 {
					header += "vs" + labels[0]
				}
				if got := strings.Count(text, header); got < tables {
					t.Errorf("header %.40q is on the pages %d times, want once in each of the %d tables", header, got, tables)
				}
			}
			checkWordsInMargins(t, pdftotext, pdf)
		})
	}
}

// checkWordsInMargins fails the test for a word of the PDF drawn outside the
// page's left and right margins, or off the page: in the margin is a sign
// that something wider than the page was pushed there. (Above and below,
// pdftotext's boxes are the font's, taller than the letters: a table header
// repeated at the top of a page reaches into the margin by them.)
func checkWordsInMargins(t *testing.T, pdftotext, pdf string) {
	t.Helper()
	out, err := exec.Command(pdftotext, "-bbox", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext -bbox: %v", err)
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("pdftotext -bbox: %v", err)
		}
		return v
	}
	pageRe := regexp.MustCompile(`<page width="([0-9.]+)" height="([0-9.]+)">`)
	wordRe := regexp.MustCompile(`<word xMin="([0-9.-]+)" yMin="([0-9.-]+)" xMax="([0-9.-]+)" yMax="([0-9.-]+)">([^<]*)</word>`)
	const slack = 1.5 // points
	bad := 0
	for p, body := range strings.Split(string(out), "<page ")[1:] {
		m := pageRe.FindStringSubmatch("<page " + body)
		if m == nil {
			t.Fatalf("pdftotext -bbox: page %d has no size", p+1)
		}
		width, height := num(m[1]), num(m[2])
		for _, w := range wordRe.FindAllStringSubmatch(body, -1) {
			x0, y0, x1, y1 := num(w[1]), num(w[2]), num(w[3]), num(w[4])
			if x0 < printMargin-slack || x1 > width-printMargin+slack || y0 < 0 || y1 > height {
				if bad++; bad <= 5 {
					t.Errorf("page %d (%.0fx%.0f pt): %q at x %.1f-%.1f, y %.1f-%.1f is outside the %.1f pt side margins",
						p+1, width, height, w[5], x0, x1, y0, y1, printMargin)
				}
			}
		}
	}
	if bad > 5 {
		t.Errorf("%d words outside the margins in all", bad)
	}
}
