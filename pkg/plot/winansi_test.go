package plot

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
)

// TestWinAnsi: the PDF canvas gets each character as its Windows-1252 byte
// (vgpdf embeds the font so), and what that encoding lacks is left out.
func TestWinAnsi(t *testing.T) {
	for in, want := range map[string]string{
		"easy (k=3)":   "easy (k=3)",
		"Malmö café €": "Malm\xf6 caf\xe9 \x80",
		"Ωμέγα x":      "????? x",
		"日本 run":       "?? run",
	} {
		if got := winAnsi(in); got != want {
			t.Errorf("winAnsi(%q) = %q, want %q", in, got, want)
		}
	}
	if got := UndrawableIn("pdf", "Malmö Ωμ Жук 日"); !slices.Equal(got, []rune("ΩμЖук日")) {
		t.Errorf("UndrawableIn(pdf) = %q", string(got))
	}
	if got := UndrawableIn("png", "Malmö Ωμ Жук 日"); !slices.Equal(got, []rune("日")) {
		t.Errorf("UndrawableIn(png) = %q", string(got))
	}
}

// TestPDFLabelsReadBack: a PDF figure's legend reads back as written
// (gonum's PDF canvas printed "Malmö" as "MalmÃ¶"), with pdftotext.
func TestPDFLabelsReadBack(t *testing.T) {
	pdftotext := testutil.Component(t, "pdftotext", "poppler-utils")
	in := inputs()
	in[0].Label = "Malmö café €"
	in[1].Label = "Ωμέγα cons"
	p, err := New(WaitCDF, in)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(p, "pdf", Size{}, &buf); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "f.pdf")
	os.WriteFile(file, buf.Bytes(), 0o644)
	out, err := exec.Command(pdftotext, file, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	if !strings.Contains(text, "Malmö café €") || !strings.Contains(text, "????? cons (3 jobs)") || strings.Contains(text, "Ã") {
		t.Errorf("pdftotext reads:\n%s", text)
	}
}
