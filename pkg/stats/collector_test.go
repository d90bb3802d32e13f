package stats

import (
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"
)

// collectGz is collect for a file that may be gzipped.
func collectGz(t *testing.T, path string, cfg Config) *Collector {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rd io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		rd = z
	}
	return collectFrom(t, rd, cfg)
}

// GroupJobs says what a broken-down Report's "jobs" "count" rows say (the
// measured jobs only: warm-up and cool-down left out), on the bundled KTH-SP2
// trace and the hand-made one, for every key.
func TestGroupJobsMatchesReport(t *testing.T) {
	paths := []string{"testdata/hand.swf"}
	if _, err := os.Stat("../../testdata/KTH-SP2-1996-2.1-cln.swf.gz"); err == nil {
		paths = append(paths, "../../testdata/KTH-SP2-1996-2.1-cln.swf.gz")
	}
	for _, path := range paths {
		for _, cfg := range []Config{{}, {SkipFirst: Count{N: 3}, SkipLast: Count{Percent: 10, IsPercent: true}, NarrowProcs: 4, ShortRuntime: 600}} {
			c := collectGz(t, path, cfg)
			for _, k := range []Key{ByCategory, ByStatus, ByShort, ByUser, ByQueue} {
				want := map[string]int{}
				for _, row := range c.WithBy(k).Report("x").Rows {
					if row.Metric == "jobs" && row.Statistic == "count" && row.Group1 != "" {
						want[row.Group1] = row.Jobs
					}
				}
				got := c.GroupJobs(k)
				if len(got) != len(want) {
					t.Errorf("%s %v by %s: %v, want %v", path, cfg.SkipFirst, k, got, want)
					continue
				}
				for g, n := range want {
					if got[g] != n {
						t.Errorf("%s %v by %s: group %s %d jobs, want %d", path, cfg.SkipFirst, k, g, got[g], n)
					}
				}
			}
		}
	}
}
