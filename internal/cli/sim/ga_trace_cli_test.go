package simcli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"os"
	"strings"
	"testing"

	augmentcli "github.com/swfkit/swfkit/internal/cli/augment"
	"github.com/swfkit/swfkit/internal/testutil"
)

// augmentedHead returns the header and first n jobs of a trace, augmented
// by swfaugment --utility --checkpoint --seed 7.
func augmentedHead(t *testing.T, name string, n int) string {
	t.Helper()
	f, err := os.Open(testutil.Trace(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var head strings.Builder
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for jobs := 0; sc.Scan() && jobs < n; {
		line := sc.Text()
		if !strings.HasPrefix(line, ";") {
			jobs++
		}
		head.WriteString(line + "\n")
	}
	var out, errb bytes.Buffer
	if code := augmentcli.Run([]string{"swfaugment", "--utility", "--checkpoint", "--seed", "7"}, strings.NewReader(head.String()), &out, &errb); code != 0 {
		t.Fatalf("swfaugment: exit %d: %s", code, errb.String())
	}
	return out.String()
}

func TestCLIGAZeroGenerationsIsEASY(t *testing.T) {
	in := augmentedHead(t, "KTH-SP2-1996-2.1-cln.swf.gz", 4000)
	easy, errs, code := runSim(t, in, "--policy", "easy")
	if code != 0 {
		t.Fatalf("easy: exit %d: %s", code, errs)
	}
	// ga-ckpt too: its arrival seed puts the bumpable running jobs first,
	// so a population of that seed alone keeps every job running, and its
	// own pass at now (ga.Plan) must then start exactly what EASY starts.
	for _, policy := range []string{"ga", "ga-ckpt"} {
		args := []string{"--policy", policy, "--ga-population", "1", "--ga-generations", "0", "--ga-seeds", "arrival"}
		got, errs, code := runSim(t, in, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", policy, code, errs)
		}
		e, g := jobLines(easy), jobLines(got)
		if len(e) != len(g) || len(e) < 3900 {
			t.Fatalf("%s: %d job lines, easy %d", policy, len(g), len(e))
		}
		diff := 0
		for i := range e {
			if e[i] != g[i] {
				if diff < 3 {
					t.Errorf("%s line %d:\n got %s\nwant %s", policy, i+1, g[i], e[i])
				}
				diff++
			}
		}
		if diff > 0 {
			t.Errorf("%s: %d of %d job lines differ from easy", policy, diff, len(e))
		}
	}
}
