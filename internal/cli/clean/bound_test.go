package cleancli

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestSubmissionMachineBound: a converted log's machine size that is only
// the most its jobs show is not ready for the archive (BOUND) until the
// user gives the machine's size, also when that size is the bound's value
// (--set MaxProcs=460 on a bound of 460 added no Note, and the check kept
// calling it a bound).
func TestSubmissionMachineBound(t *testing.T) {
	dir := t.TempDir()
	conv, confirmed := filepath.Join(dir, "m.swf"), filepath.Join(dir, "m2.swf")
	if code := Run([]string{"swfclean", "-q", "--from", "alea", "testdata/metacentrum-head.alea", "-o", conv}, nil, io.Discard, io.Discard); code != 0 {
		t.Fatalf("conversion: exit %d", code)
	}
	check := func(file string) string {
		var out strings.Builder
		Run([]string{"swfclean", "--check", "--submission", file}, nil, &out, io.Discard)
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(l, "submission:") {
				return l
			}
		}
		return out.String()
	}
	if got := check(conv); !strings.Contains(got, "MaxNodes (only a lower bound), MaxProcs (only a lower bound)") {
		t.Errorf("converted: %s", got)
	}
	if code := Run([]string{"swfclean", "-q", "--rules", "none", "--set", "MaxProcs=460", "--set", "MaxNodes=16", conv, "-o", confirmed}, nil, io.Discard, io.Discard); code != 0 {
		t.Fatalf("--set: exit %d", code)
	}
	if got := check(confirmed); strings.Contains(got, "lower bound") {
		t.Errorf("sizes given as the bounds' values: %s", got)
	}
}
