//go:build linux

package statcli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A pipe (<(cat trace), here /dev/fd/N of a pipe this process holds) can be
// read only once: swfstat read its header, closed it and opened it again for
// the records, which then began wherever the first reader's 64 KiB buffer
// had stopped. With lines that end exactly there, the rest read as a valid
// trace and the summary silently covered 1,977 of 3,000 jobs, with exit 0.
// (A named FIFO hung instead: its second open waited for a writer.)
func TestPipeInputIsReadOnce(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "; MaxProcs: 4%50s\n", "") // 64 bytes, as every record
	for i := 1; i <= 3000; i++ {
		line := fmt.Sprintf("%d %d 1 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1", i, 10*i)
		fmt.Fprintf(&b, "%-63s\n", line)
	}
	file := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	go func() {
		pw.WriteString(b.String())
		pw.Close()
	}()
	pipe := fmt.Sprintf("/dev/fd/%d", pr.Fd())
	args := []string{"--format", "csv", "--metrics", "wait_s", "--label", "t"}
	got, stderr, code := run(t, "", append(args, pipe)...)
	want, _, _ := run(t, "", append(args, file)...)
	if code != 0 || !strings.Contains(got, "wait_s,n,3000,3000") ||
		strings.ReplaceAll(got, pipe, file) != want {
		t.Errorf("on a pipe: exit %d, stderr %q\n%s\non the file:\n%s", code, stderr, got, want)
	}
}
