package statcli

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/swfkit/swfkit/internal/testutil"
)

// chromium runs headless Chromium on page with the extra flags and returns
// its standard output. It fails the test on any console message (the page
// has no script, so any is an error: a refused resource, a CSS or SVG
// problem) and on any network error, which would mean the page loads
// something.
// screenshot renders page in headless Chromium at a window of size (W,H
// pixels) and returns the decoded PNG.
func screenshot(t *testing.T, bin, page, size string) image.Image {
	t.Helper()
	shot := filepath.Join(t.TempDir(), "report.png")
	chromium(t, bin, page, "--screenshot="+shot, "--window-size="+size)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	return img
}

func chromium(t *testing.T, bin, page string, extra ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--no-first-run", "--disable-quic", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0",
	}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, "file://"+page)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", extra, err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") || strings.Contains(line, "net::ERR_") {
			t.Errorf("chromium %v: %s", extra, line)
		}
	}
	return stdout.Bytes()
}

// TestIntegrationHTMLReportChromium renders the --html report in headless
// Chromium: the DOM holds every figure with its SVG, the screenshot is a
// page with content, printing gives a PDF of several pages, and there is no
// console message.
func TestIntegrationHTMLReportChromium(t *testing.T) {
	bin := testutil.Component(t, "chromium", "chromium")
	page := writeReport(t)

	dom := string(chromium(t, bin, page, "--dump-dom"))
	for _, id := range htmlFigureIDs {
		m := regexp.MustCompile(`(?s)<figure id="` + id + `">(.*?)</figure>`).FindStringSubmatch(dom)
		if m == nil || !strings.Contains(m[1], "<svg") || !strings.Contains(m[1], "<path") {
			t.Errorf("rendered DOM: figure %s missing or without a drawn SVG", id)
		}
	}
	if !strings.Contains(dom, `id="table-overall"`) {
		t.Error("rendered DOM: no overall table")
	}

	img := screenshot(t, bin, page, "1280,3000")
	b := img.Bounds()
	inked, colored := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if c.R < 200 || c.G < 200 || c.B < 200 {
				inked++
			}
			if max(c.R, c.G, c.B)-min(c.R, c.G, c.B) > 60 {
				colored++ // the curves and bars, not only black text
			}
		}
	}
	total := (b.Dx() / 2) * (b.Dy() / 2)
	if b.Dx() != 1280 || inked < total/100 || colored < total/1000 {
		t.Errorf("screenshot %v: %d of %d sampled pixels inked, %d colored; want a page with text and figures", b, inked, total, colored)
	}

	pdf := filepath.Join(t.TempDir(), "report.pdf")
	chromium(t, bin, page, "--print-to-pdf="+pdf, "--no-pdf-header-footer")
	data, err := os.ReadFile(pdf)
	if err != nil {
		t.Fatal(err)
	}
	pages := len(regexp.MustCompile(`/Type\s*/Page[^s]`).FindAll(data, -1))
	if !bytes.HasPrefix(data, []byte("%PDF-")) || pages < 2 {
		t.Errorf("printed PDF: %d bytes, %d pages", len(data), pages)
	}
}

// TestIntegrationHTMLReportFitsItsColumn renders a report whose labels are
// long (a 300-character label, a label with no space to break at) over
// many inputs: the page must stay in its text column, so that nothing is
// drawn in the right margin of a 1280-pixel window (a wide table scrolls
// inside its own box instead of widening the page).
func TestIntegrationHTMLReportFitsItsColumn(t *testing.T) {
	bin := testutil.Component(t, "chromium", "chromium")
	chdirRoot(t)
	page := filepath.Join(t.TempDir(), "report.html")
	labels := []string{strings.Repeat("x", 300), "<script>alert(1)</script>"}
	inputs := []string{hand, hand}
	for i := 0; i < 10; i++ {
		labels = append(labels, "run-number-"+strings.Repeat("0", i))
		inputs = append(inputs, hand)
	}
	args := append([]string{"--html", page, "--label", strings.Join(labels, ",")}, inputs...)
	if _, errOut, code := run(t, "", args...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	img := screenshot(t, bin, page, "1280,4000")
	// The column is at most 60em of 11pt (880 px) plus 1em of padding on
	// each side, centred: the last 150 pixels of the window are margin.
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Max.X - 150; x < b.Max.X; x++ {
			if c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA); c.R < 200 || c.G < 200 || c.B < 200 {
				t.Fatalf("screenshot: ink at (%d, %d) in the right margin: the page is wider than its column", x, y)
			}
		}
	}
}
