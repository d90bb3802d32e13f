package augmentcli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
)

// TestDamagedCompressedAnswers: a --checkpoint-from file compressed with a
// byte changed mid-file is reported as damaged, naming the file, not as the
// malformed answer its garbage decompresses to (as a damaged trace is).
func TestDamagedCompressedAnswers(t *testing.T) {
	var text strings.Builder
	for job := 1; job <= 20000; job++ { // zstd: more than one 128 KiB block
		fmt.Fprintf(&text, "%d 600\n", job)
	}
	dir := t.TempDir()
	for _, format := range []string{"gzip", "zstd", "xz"} {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join(dir, "answers."+format)
			if err := os.WriteFile(path, testutil.Damaged(t, format, text.String(), "\n2500 600\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := runCmd(t, "", "--checkpoint-from", path, "testdata/small.swf")
			if code != 1 || !strings.Contains(stderr, path+": corrupt "+format) || strings.Contains(stderr, path+":2") {
				t.Errorf("exit %d, stderr %q; want the damage named", code, stderr)
			}
		})
	}
}
