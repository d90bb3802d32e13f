package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func sample() *Report {
	return &Report{
		Title: "swfstat: easy vs cons", Generator: "swfstat test",
		Inputs: []Input{
			{Label: "easy", File: "easy.swf", Facts: []Fact{{"jobs read", "3"}}, Warnings: []string{"1% killed"}, Notes: []string{"Note: swfclean rule too_big: 1 job removed"},
				Excluded: []Exclusion{{2, "wait unknown", "wait"}}, Provenance: []string{"; Note: swfsim <policy easy>"}, SHA256: "5d41402abc4b2a76b9719d911017c592"},
			{Label: "<b>cons</b>", File: "cons.swf", Facts: []Fact{{"jobs read", "3"}}},
		},
		Notes:  []string{"percentiles by nearest rank"},
		Tables: []Table{{ID: "overall", Title: "overall", Head: []string{"metric", "statistic", "easy", "cons"}, Rows: [][]string{{"wait_s", "mean", "1.5", "2"}}, Numeric: 2}},
		Figures: []Figure{
			{ID: "fig-a", Title: "A", Caption: "first", SVG: []byte(`<svg width="10pt" height="10pt"><text>x</text></svg>`)},
			{ID: "fig-b", Title: "B", Missing: "machine size unknown"},
		},
		FontCSS: "@font-face{font-family:\"Liberation Serif\";src:url(data:font/ttf;base64,AAAA)}",
	}
}

func TestWrite(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{
		`<figure id="fig-a">`, `<svg width="10pt"`, `<figure id="fig-b">`, "Not drawn: machine size unknown",
		`<td class="num">1.5</td>`, "&lt;b&gt;cons&lt;/b&gt;", "1% killed", "; Note: swfsim &lt;policy easy&gt;",
		"data:font/ttf;base64,AAAA", "@media print", `<section class="table" id="table-overall">`,
		`Read as SHA-256 <span class="file">5d41402abc4b2a76b9719d911017c592</span>`,
		// A warning is told from a note by its class; an input with neither says none.
		`<td class="warn"><div class="warning">1% killed</div><div class="note">Note: swfclean rule too_big: 1 job removed</div></td>`,
		`<td class="warn">none</td>`, "td.warn div.warning { color:",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Self-contained: no script, nothing loaded by URL.
	if strings.Contains(strings.ToLower(page), "<script") {
		t.Error("page has a script")
	}
	if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*"(?:https?:)?//|url\((?:'|")?(?:https?:)?//|@import`).FindString(page); m != "" {
		t.Errorf("page loads something: %q", m)
	}
	// Well-formed enough for an XML parser once the doctype is dropped:
	// every element closed, attributes quoted.
	body := strings.TrimPrefix(page, "<!DOCTYPE html>\n")
	body = strings.ReplaceAll(body, `<meta charset="utf-8">`, `<meta charset="utf-8"/>`)
	body = regexp.MustCompile(`<meta ([^>]*[^/])>`).ReplaceAllString(body, "<meta $1/>")
	d := xml.NewDecoder(strings.NewReader(body))
	d.Strict = true
	for {
		_, err := d.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("page is not well-formed: %v", err)
			}
			break
		}
	}
	// Deterministic.
	var again bytes.Buffer
	Write(&again, sample())
	if again.String() != page {
		t.Error("the same Report gave different pages")
	}
}

// The exclusions section is there when an input has one, and left out
// (rather than an empty table) when none has.
func TestWriteExclusionsOnlyWhenSome(t *testing.T) {
	for _, some := range []bool{true, false} {
		r := sample()
		if !some {
			r.Inputs[0].Excluded = nil
		}
		var buf bytes.Buffer
		if err := Write(&buf, r); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(buf.String(), `<section id="exclusions">`); got != some {
			t.Errorf("with exclusions %v: section present %v", some, got)
		}
	}
}

func TestWriteRefusesNonSVG(t *testing.T) {
	r := sample()
	r.Figures[0].SVG = []byte("<script>alert(1)</script>")
	if err := Write(&bytes.Buffer{}, r); !errors.Is(err, ErrNotSVG) {
		t.Errorf("non-SVG figure: %v, want ErrNotSVG", err)
	}
}

// TestWriteUnprintable: a file name that is not UTF-8 and header lines with
// escape sequences or other control characters make a page that is UTF-8,
// as it says, with the bytes shown as \xNN.
func TestWriteUnprintable(t *testing.T) {
	r := sample()
	r.Title = "swfstat: inv\xffname.swf vs cons"
	in := &r.Inputs[0]
	in.Label, in.File = "inv\xffname.swf", "runs/inv\xffname.swf"
	in.Provenance = append(in.Provenance, "; Note: \x1b[31mred\x1b[0m\x01", "; Computer: caf\xe9\tIBM")
	r.Tables[0].Head[2] = "inv\xffname.swf"
	r.Figures[0].Title = "Schedule of inv\xffname.swf"
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if !utf8.ValidString(page) {
		t.Error("the page is not valid UTF-8")
	}
	if i := strings.IndexFunc(page, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }); i >= 0 {
		t.Errorf("the page holds control character %q: ...%s...", page[i], page[max(0, i-30):i])
	}
	for _, want := range []string{`swfstat: inv\xffname.swf vs cons`, `runs/inv\xffname.swf`, `; Note: \x1b[31mred\x1b[0m\x01`, "; Computer: caf\\xe9\tIBM", `Schedule of inv\xffname.swf`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if r.Inputs[0].Label != "inv\xffname.swf" {
		t.Error("Write changed the caller's Report")
	}
}
