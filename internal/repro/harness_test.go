package repro

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	augcli "github.com/swfkit/swfkit/internal/cli/augment"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	statcli "github.com/swfkit/swfkit/internal/cli/stat"
	"github.com/swfkit/swfkit/internal/testutil"
)

// tools are the commands a check may run, in-process.
var tools = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"swfaugment": augcli.Run,
	"swfsim":     simcli.Run,
	"swfstat":    statcli.Run,
}

// run runs one command with args over stdin and returns its standard output;
// a non-zero exit fails the check.
func run(tb testing.TB, stdin []byte, tool string, args ...string) []byte {
	tb.Helper()
	var out, errb bytes.Buffer
	if code := tools[tool](append([]string{tool}, args...), bytes.NewReader(stdin), &out, &errb); code != 0 {
		tb.Fatalf("%s %s: exit %d: %s", tool, strings.Join(args, " "), code, errb.String())
	}
	return out.Bytes()
}

// file writes data to a file of the check's temporary directory and returns
// its path, so that swfstat can compare several schedules by label.
func file(tb testing.TB, name string, data []byte) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// readTrace returns a trace of ../shared/data, decompressed.
func readTrace(tb testing.TB, name string) []byte {
	tb.Helper()
	f, err := cmdio.Open(testutil.Trace(tb, name), nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// stats is swfstat's CSV summary, keyed "label/by1=group1/metric/statistic"
// (by1=group1 empty for the overall rows, whose by1 is "all").
type stats map[string]float64

// summarize runs swfstat --format csv with args over files labelled by their
// base names.
func summarize(tb testing.TB, files []string, args ...string) stats {
	tb.Helper()
	out := run(tb, nil, "swfstat", append(append([]string{"--format", "csv"}, args...), files...)...)
	rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	s := stats{}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, r := range rows[1:] {
		// The U-QoS bounds are settings: columns of every row, not rows.
		for name, stat := range map[string]string{"uqos_lower_s": "rt_lowerbound_s", "uqos_upper_s": "rt_upperbound_s"} {
			if v, err := strconv.ParseFloat(r[col[name]], 64); err == nil {
				s[r[0]+"//uqos/"+stat] = v
			}
		}
		// by1, group1, by2, group2 are "all" where a breakdown does not split.
		if r[4] != "all" { // cross tables: not used here
			continue
		}
		v, err := strconv.ParseFloat(r[8], 64)
		if err != nil {
			continue
		}
		group := ""
		if r[2] != "all" {
			group = r[2] + "=" + r[3]
		}
		s[r[0]+"/"+group+"/"+r[6]+"/"+r[7]] = v
	}
	return s
}

// get returns one figure of a summary; a missing one fails the check.
func (s stats) get(tb testing.TB, label, group, metric, statistic string) float64 {
	tb.Helper()
	key := label + "/" + group + "/" + metric + "/" + statistic
	v, ok := s[key]
	if !ok {
		tb.Fatalf("swfstat gave no %s", key)
	}
	return v
}

// within checks got against want (a published figure, or ours where the
// check says the figure is pinned), within a relative tolerance rel (0.005 =
// 0.5%); rel 0 asks for equality. It reports the figure either way.
func within(tb testing.TB, what string, got, want, rel float64) {
	tb.Helper()
	dev := 0.0
	if want != 0 {
		dev = (got - want) / math.Abs(want)
	}
	tb.Logf("%-50s %14.4f  expected %14.4f  (%+.2f%%, tolerance %.2f%%)", what, got, want, 100*dev, 100*rel)
	if math.Abs(dev) > rel+1e-12 || (want == 0 && got != 0) {
		tb.Errorf("%s = %.4f, expected %.4f: off by %+.2f%%, outside the %.2f%% tolerance", what, got, want, 100*dev, 100*rel)
	}
}

// holds checks a published qualitative claim.
func holds(tb testing.TB, claim string, ok bool, figures string) {
	tb.Helper()
	tb.Logf("%-60s %v  (%s)", claim, ok, figures)
	if !ok {
		tb.Errorf("claim no longer holds: %s (%s)", claim, figures)
	}
}

// raiseEstimates sets field 9 to field 4 where it is smaller: Thebe et al.'s
// preprocessing of LANL-CM5 (docs/swfsim-research.md), as the awk command
// there does.
func raiseEstimates(data []byte) []byte {
	var b bytes.Buffer
	for _, line := range strings.SplitAfter(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 18 || strings.HasPrefix(line, ";") {
			b.WriteString(line)
			continue
		}
		run, _ := strconv.ParseInt(f[3], 10, 64)
		req, _ := strconv.ParseInt(f[8], 10, 64)
		if req < run {
			f[8] = f[3]
			b.WriteString(strings.Join(f, " ") + "\n")
			continue
		}
		b.WriteString(line)
	}
	return b.Bytes()
}

// window keeps the header and jobs [from, from+count) in file order.
func window(data []byte, from, count int) []byte {
	var b bytes.Buffer
	n := 0
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if strings.HasPrefix(line, ";") || strings.TrimSpace(line) == "" {
			b.WriteString(line)
			continue
		}
		if n >= from && n < from+count {
			b.WriteString(line)
		}
		n++
	}
	return b.Bytes()
}

func pct(x float64) string { return fmt.Sprintf("%.2f%%", x) }
