package statcli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// closedPipe is a standard output whose reader has quit.
type closedPipe struct{}

func (closedPipe) Write([]byte) (int, error) { return 0, syscall.EPIPE }

// TestClosedSummaryPipeKeepsFiles: swfstat writes its files before the
// summary, so a reader of the summary that quits (| head) leaves them
// committed and the run ends with 0 (the files were dropped, and whether
// the run failed depended on the summary's length).
func TestClosedSummaryPipeKeepsFiles(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "t.swf")
	os.WriteFile(in, []byte("; MaxProcs: 8\n1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n2 10 0 50 2 -1 -1 2 60 -1 1 2 1 -1 1 -1 -1 -1\n"), 0o644)
	csv, svg := filepath.Join(dir, "s.csv"), filepath.Join(dir, "p.svg")
	var stderr strings.Builder
	code := Run([]string{"swfstat", "--by", "user", "--csv", csv, "--plot", svg, in}, nil, closedPipe{}, &stderr)
	if code != 0 {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	for _, f := range []string{csv, svg} {
		if info, err := os.Stat(f); err != nil || info.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
}
