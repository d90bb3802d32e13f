package cleancli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
)

// TestDamagedCompressedConversion: a --from log compressed with a byte
// changed mid-file is reported as damaged, naming the file, not as the
// malformed log line its garbage decompresses to (as a damaged SWF input
// is: TestDamagedGzip).
func TestDamagedCompressedConversion(t *testing.T) {
	dump, err := os.ReadFile(sacctDump)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(dump), "\n")
	head, job, step := lines[0], lines[1], lines[2]
	var text strings.Builder
	text.WriteString(head + "\n")
	for id := 1000; id < 1400; id++ {
		n := strconv.Itoa(id)
		text.WriteString(strings.Replace(job, "353", n, 2) + "\n")
		text.WriteString(strings.Replace(step, "353", n, 2) + "\n")
	}
	dir := t.TempDir()
	for _, format := range []string{"gzip", "zstd", "xz"} {
		t.Run(format, func(t *testing.T) {
			path := filepath.Join(dir, "sacct."+format)
			data := testutil.Damaged(t, format, text.String(), "1300|1300|")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{path}, {"--check", path}, {"--lenient", path}} {
				r := swfclean(t, nil, append([]string{"--from", "sacct", "--timezone", "UTC"}, args...)...)
				if r.code != 1 || !strings.Contains(r.stderr, path+": corrupt "+format) || strings.Contains(r.stderr, "column JobID") {
					t.Errorf("%v: exit %d, stderr %q; want the damage named", args, r.code, r.stderr)
				}
			}
		})
	}
}
