package augmentcli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func runCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(append([]string{"swfaugment"}, args...), strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"utility", []string{"--utility", "testdata/small.swf"}},
		{"utility-factor3-step", []string{"--utility", "--deadline-factor", "3", "--decay", "step:1", "--priority-order", "2,1,0", "--seed", "9", "testdata/small.swf"}},
		{"checkpoint", []string{"--checkpoint", "--seed", "4", "testdata/small.swf"}},
		{"checkpoint-from-expand", []string{"--checkpoint-from", "testdata/answers.txt", "--expand", "testdata/small.swf"}},
		{"error-quant", []string{"--error-quant", "100", "--error-stdev", "20", "--error-category", "3", "testdata/small.swf"}},
		{"error-qual", []string{"--error-qual", "both", "--error-percent", "80", "--error-stdev", "5", "--error-untouched", "user", "testdata/small.swf"}},
		{"estimate-uniform", []string{"--estimate", "uniform:1,5", "testdata/small.swf"}},
		{"load", []string{"--load", "2", "testdata/small.swf"}},
		{"all", []string{"--utility", "--checkpoint", "--error-quant", "400", "--error-stdev", "60", "--error-category", "11", "--target-load", "0.9", "--seed", "7", "testdata/small.swf"}},
		// A byte-order mark, CRLF and LF lines mixed, a last header line
		// that ends otherwise than the first: changed records end like the
		// line before them, also the first one, after the header (the jobs
		// are written before the header is, see spool.go). Both files were
		// written by the swfaugment that held the trace in memory.
		{"mixed-endings", []string{"--utility", "--checkpoint", "--target-load", "0.9", "--procs", "32", "--seed", "3", "testdata/mixed-endings.swf"}},
		{"mixed-endings-user", []string{"--error-qual", "both", "--error-percent", "50", "--error-untouched", "user", "--load", "1", "testdata/mixed-endings.swf"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCmd(t, "", tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			// The version is in the first Note; keep the golden files stable across releases.
			out = strings.Replace(out, "swfaugment "+cmdio.Version+":", "swfaugment VERSION:", 1)
			golden := filepath.Join("testdata", tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if out != string(want) {
				t.Errorf("output differs from %s (go test -update to accept):\n%s", golden, out)
			}
		})
	}
}

func TestUnchangedJobsAndCommentsKept(t *testing.T) {
	out, _, code := runCmd(t, "", "--load", "1", "testdata/small.swf")
	if code != 0 {
		t.Fatal(code)
	}
	in, _ := os.ReadFile("testdata/small.swf")
	// Factor 1 changes no job: every input line is in the output, in order.
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "; Note: swfaugment") && !strings.HasPrefix(l, "; Provenance: swfaugment ") {
			lines = append(lines, l)
		}
	}
	if strings.Join(lines, "\n") != string(in) {
		t.Errorf("--load 1 is not the identity apart from Notes and Provenance:\n%s", out)
	}
}

func TestSeedPrintedAndStreamsIndependent(t *testing.T) {
	out, _, _ := runCmd(t, "", "--utility", "testdata/small.swf")
	if !strings.Contains(out, "; Note: swfaugment "+cmdio.Version+": seed=1; operations in order: [utility]") {
		t.Errorf("default seed not printed:\n%s", out)
	}
	// --seed 1 and no --seed have one Provenance line, so they must give one
	// file: swfstat --replay leaves the default out, and a study's seed-1
	// point replayed must compare equal byte for byte.
	if given, _, _ := runCmd(t, "", "--utility", "--seed", "1", "testdata/small.swf"); given != out {
		t.Errorf("--seed 1 and the default seed give different files:\n%s\n%s", given, out)
	}
	out2, _, _ := runCmd(t, "", "--utility", "--seed", "1", "--checkpoint", "--estimate", "scale:2", "testdata/small.swf")
	if !strings.Contains(out2, "seed=1;") {
		t.Errorf("explicit seed not printed")
	}
	// The u= tokens do not depend on which other operations run.
	re := regexp.MustCompile(`u=\S+`)
	if a, b := re.FindAllString(out, -1), re.FindAllString(out2, -1); strings.Join(a, " ") != strings.Join(b, " ") || len(a) == 0 {
		t.Errorf("utility functions change when other operations are added:\n%v\n%v", a, b)
	}
}

func TestStdinAndDeterminismOnTrace(t *testing.T) {
	path := testutil.Trace(t, "HPC2N-2002-2-first3170.swf.gz")
	args := []string{"--utility", "--checkpoint", "--error-qual", "s2l", "--error-percent", "30", "--target-load", "0.9"}
	a, errA, code := runCmd(t, "", append(args, path)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errA)
	}
	b, _, _ := runCmd(t, "", append(args, path)...)
	if a != b {
		t.Error("two runs with the same seed differ")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, _, code := runCmd(t, string(data), append(args, "-")...)
	// The same but for the Provenance line's input= (the file, or - for
	// stdin); input-sha256= is the same: the same bytes were read.
	if want := strings.Replace(a, "input="+path+" input-sha256=", "input=- input-sha256=", 1); code != 0 || c != want || want == a {
		t.Errorf("gzip on stdin: exit %d, same output %v", code, c == want)
	}
	d, _, _ := runCmd(t, "", append(append([]string{"--seed", "2"}, args...), path)...)
	if d == a {
		t.Error("seeds 1 and 2 give the same output")
	}
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"help", []string{"--help"}, 0, ""},
		{"nothing to do", []string{"testdata/small.swf"}, 2, "nothing to do"},
		{"top-apps 0", []string{"--error-quant", "5", "--error-category", "7", "--top-apps", "0", "testdata/small.swf"}, 2, "--top-apps 0: must be positive"},
		{"top-apps negative", []string{"--error-quant", "5", "--error-category", "7", "--top-apps", "-1", "testdata/small.swf"}, 2, "--top-apps -1"},
		{"decay shares overflow", []string{"--utility", "--decay", "linear:1e308,step:1e308", "testdata/small.swf"}, 2, "more than a float64 holds"},
		{"checkpoint and debug shares", []string{"--checkpoint", "--ckpt-jobs", "0.9", "--ckpt-debug", "0.2", "testdata/small.swf"}, 2, "--ckpt-jobs 0.9 plus --ckpt-debug 0.2 exceed 1"},
		{"uniform model range", []string{"--estimate", "uniform:3,1", "testdata/small.swf"}, 2, "uniform:A,B wants 0 < A <= B"},
		{"scale model range", []string{"--estimate", "scale:0", "testdata/small.swf"}, 2, "the factor R of scale:R must be a positive number"},
		{"perfect share without category 11", []string{"--error-quant", "50", "--error-category", "3", "--perfect-share", "0.3", "testdata/small.swf"}, 2, "--perfect-share is the share of category 11"},
		{"top apps without category 7", []string{"--error-quant", "50", "--error-category", "3", "--top-apps", "4", "testdata/small.swf"}, 2, "--top-apps sets category 7 (the most executed applications); --error-category 3 does not use it"},
		{"top apps with qualitative errors", []string{"--error-qual", "s2l", "--error-percent", "10", "--top-apps", "4", "testdata/small.swf"}, 2, "--error-qual does not use categories"},
		{"decay model twice", []string{"--utility", "--decay", "linear:2,step:1,linear:0", "testdata/small.swf"}, 2, "linear is named twice"},
		{"min-deadline below a step's room", []string{"--utility", "--decay", "step:1", "--min-deadline", "3", "testdata/small.swf"}, 2, "leaves no room for a step with epsilon 1 s (need >= 4)"},
		{"short deadlines without steps", []string{"--utility", "--decay", "linear:1,exponential:1,step:0", "--min-deadline", "1", "testdata/small.swf"}, 0, ""},
		{"epsilon without steps", []string{"--utility", "--decay", "linear:1", "--epsilon", "5", "testdata/small.swf"}, 2, "--epsilon shapes the step model"},
		{"points with steps only", []string{"--utility", "--decay", "step:1", "--points", "8", "testdata/small.swf"}, 2, "--points shapes the linear and exponential models"},
		{"negative ckpt-min-runtime", []string{"--checkpoint", "--ckpt-min-runtime", "-5", "testdata/small.swf"}, 2, "--ckpt-min-runtime -5"},
		{"upper fraction above 1", []string{"--bounds", "--bound-upper-frac", "2", "testdata/small.swf"}, 2, "want fractions in (0, 1]"},
		{"lower bound above upper", []string{"--bounds", "--rt-lower-bound", "100", "--rt-upper-bound", "10", "testdata/small.swf"}, 2, "is above --rt-upper-bound"},
		{"start value overflows", []string{"--utility", "--globmax", "1e308", "testdata/small.swf"}, 1, "is beyond 1e+300, swfkit's bound on utility values: lower --globmax"},
		{"start value beyond the bound", []string{"--utility", "--globmax", "1e299", "testdata/small.swf"}, 1, "is beyond 1e+300"},
		{"expand alone", []string{"--expand", "testdata/small.swf"}, 2, "--expand needs --checkpoint-from"},
		{"quant without category", []string{"--error-quant", "5", "testdata/small.swf"}, 2, "--error-category"},
		{"category out of range", []string{"--error-quant", "5", "--error-category", "12", "testdata/small.swf"}, 2, "1-11"},
		{"two estimate ops", []string{"--estimate", "exact", "--error-qual", "s2l", "--error-percent", "5", "testdata/small.swf"}, 2, "exclude"},
		{"qual without percent", []string{"--error-qual", "s2l", "testdata/small.swf"}, 2, "--error-percent"},
		{"bad conversion", []string{"--error-qual", "sideways", "--error-percent", "5", "testdata/small.swf"}, 2, "s2l"},
		{"bad model", []string{"--estimate", "scale:x", "testdata/small.swf"}, 2, "scale:R"},
		{"bad decay", []string{"--utility", "--decay", "cubic:1", "testdata/small.swf"}, 2, "cubic"},
		{"utility option alone", []string{"--deadline-factor", "3", "--checkpoint", "testdata/small.swf"}, 2, "needs --utility"},
		{"load and target", []string{"--load", "2", "--target-load", "0.5", "testdata/small.swf"}, 2, "exclude"},
		{"negative load", []string{"--load", "-2", "testdata/small.swf"}, 2, "positive"},
		{"load squeezing the trace", []string{"--load", "1e300", "testdata/small.swf"}, 1, "load: factor 1e+300 squeezes every known submit time into the same second"},
		{"runtime bound beyond the time bound", []string{"--bounds", "--rt-upper-bound", "1e300", "testdata/small.swf"}, 2, "--rt-upper-bound 1e+300: want at most 1099511627776"},
		{"processor bound beyond a machine", []string{"--bounds", "--procs-upper", "3e9", "testdata/small.swf"}, 2, "--procs-upper 3e+09: want at most 2147483647"},
		{"both checkpoint ops", []string{"--checkpoint", "--checkpoint-from", "testdata/answers.txt", "testdata/small.swf"}, 2, "exclude"},
		{"epsilon too wide", []string{"--utility", "--epsilon", "5", "testdata/small.swf"}, 2, "epsilon"},
		{"two files", []string{"--utility", "testdata/small.swf", "testdata/small.swf"}, 2, "one input"},
		{"missing file", []string{"--utility", "testdata/nope.swf"}, 1, "nope.swf"},
		{"missing answers", []string{"--checkpoint-from", "testdata/nope.txt", "testdata/small.swf"}, 1, "nope.txt"},
		{"bad answers", []string{"--checkpoint-from", "testdata/small.swf", "testdata/small.swf"}, 1, "testdata/small.swf:12:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runCmd(t, "", tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.err) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tc.code, tc.err)
			}
		})
	}
}

func TestMalformedInput(t *testing.T) {
	in := "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 0 0 x 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
	_, errOut, code := runCmd(t, in, "--estimate", "exact")
	if code != 1 || !strings.Contains(errOut, "<stdin>:2") {
		t.Errorf("exit %d, stderr %q; want 1 naming <stdin>:2", code, errOut)
	}
	out, errOut, code := runCmd(t, in, "--lenient", "--estimate", "exact")
	if code != 0 || !strings.Contains(errOut, "skipped 1 malformed") || strings.Count(out, " est0=10") != 1 {
		t.Errorf("lenient: exit %d, stderr %q, out %q", code, errOut, out)
	}
	if !strings.Contains(out, "; Note: swfaugment --lenient: 1 malformed lines skipped (not in the output); lines 2\n") {
		t.Errorf("lenient: no Note of the skipped line:\n%s", out)
	}
	many := in + "3 x\n4 y\n5 z\n6 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n7 w\n8 v\n9 u\n10 t\n"
	out, _, code = runCmd(t, many, "--lenient", "--estimate", "exact")
	if code != 0 || !regexp.MustCompile(`; Note: swfaugment --lenient: 8 malformed lines skipped \(not in the output\); lines 2, 3, 4, 5, 7(, \d+)*, \.\.\.\n`).MatchString(out) {
		t.Errorf("lenient, 8 bad lines: exit %d\n%s", code, out)
	}
	// No line SWF: every line skipped is an error, not an empty trace with
	// exit 0, in the one-pass run (--estimate) and the two-pass one (--load).
	alea := "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n"
	for _, op := range [][]string{{"--estimate", "exact"}, {"--load", "2", "--procs", "64"}} {
		out, errOut, code = runCmd(t, alea+alea, append([]string{"--lenient"}, op...)...)
		if code != 1 || out != "" || !strings.Contains(errOut, "swfaugment: <stdin>: no valid SWF record: --lenient skipped all 2 record lines as malformed; the first: <stdin>:1: field 19") ||
			!strings.Contains(errOut, "swfclean --from alea FILE -o FILE.swf") {
			t.Errorf("lenient %v, no line SWF: exit %d, stderr %q, out %q", op, code, errOut, out)
		}
	}
	// A trace without machine size cannot be scaled to a target load
	// without --procs (--load needs none: TestEmptyOrUnknownTraces).
	_, errOut, code = runCmd(t, in[:len(in)/2], "--target-load", "0.5")
	if code != 2 || !strings.Contains(errOut, "give --procs N") {
		t.Errorf("target load without machine size: exit %d, %q", code, errOut)
	}
	// A machine size below 1 is named, not called missing.
	_, errOut, code = runCmd(t, "; MaxProcs: -5\n"+in[:len(in)/2], "--target-load", "0.5")
	if code != 2 || !strings.Contains(errOut, "the header's MaxProcs -5 is not a machine size") {
		t.Errorf("MaxProcs -5: exit %d, %q", code, errOut)
	}
	_, errOut, code = runCmd(t, "; MaxProcs: -5\n"+in[:len(in)/2], "--load", "2")
	if code != 0 || !strings.Contains(errOut, "the header's MaxProcs -5 is not a machine size") {
		t.Errorf("MaxProcs -5, --load: exit %d, %q", code, errOut)
	}
}

// BenchmarkAugmentLANL runs every operation on the 122,060-job LANL-CM5 trace:
// go test -run '^$' -bench AugmentLANL -benchmem ./internal/cli/augment
func BenchmarkAugmentLANL(b *testing.B) {
	path := testutil.Trace(b, "LANL-CM5-1994-4.1-cln.swf.gz")
	args := []string{"swfaugment", "--utility", "--checkpoint", "--error-quant", "100", "--error-stdev", "20", "--error-category", "3", "--target-load", "0.9", path}
	b.ReportAllocs()
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := Run(args, nil, &out, &errb); code != 0 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
	}
}

// TestFlagWithoutItsOperation gives every tuning flag with another operation
// than the one it tunes: each is a usage error naming the flag, never ignored.
func TestFlagWithoutItsOperation(t *testing.T) {
	isBool := map[string]bool{}
	for _, f := range flags() {
		if _, ok := f.(*cli.BoolFlag); ok {
			isBool[f.Names()[0]] = true
		}
	}
	n := 0
	for _, g := range flagGroups {
		other := []string{"--load", "1"}
		if slices.Contains(g.enabled, "load") {
			other = []string{"--utility"}
		}
		for _, f := range g.flags {
			args := append([]string{"--" + f}, other...)
			if !isBool[f] {
				args = []string{"--" + f, "1"}
				args = append(args, other...)
			}
			args = append(args, "testdata/small.swf")
			_, errOut, code := runCmd(t, "", args...)
			if code != 2 || !strings.Contains(errOut, "--"+f+" needs "+g.needs) {
				t.Errorf("%v: exit %d, stderr %q; want 2 and --%s needs %s", args, code, errOut, f, g.needs)
			}
			n++
		}
	}
	if n < 30 {
		t.Errorf("only %d flags checked", n)
	}
	// The reviewer's cases, and each flag accepted with its operation.
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--ckpt-jobs", "0.3", "--utility"}, 2},
		{[]string{"--error-percent", "30", "--estimate", "exact"}, 2},
		{[]string{"--error-untouched", "user", "--estimate", "exact"}, 2},
		{[]string{"--checkpoint=false", "--ckpt-jobs", "0.3", "--utility"}, 2},
		{[]string{"--ckpt-jobs", "0.3", "--checkpoint"}, 0},
		{[]string{"--error-untouched", "user", "--error-percent", "30", "--error-qual", "s2l"}, 0},
		{[]string{"--rt-upper", "100", "--bounds"}, 0},
		{[]string{"--procs", "64", "--load", "2", "--seed", "3", "--utility"}, 0},
		// --seed goes with every operation, also where nothing is random,
		// so that a sweep passes it unconditionally.
		{[]string{"--estimate", "exact", "--seed", "42"}, 0},
		{[]string{"--load", "2", "--seed", "42"}, 0},
	} {
		_, errOut, code := runCmd(t, "", append(tc.args, "testdata/small.swf")...)
		if code != tc.code {
			t.Errorf("%v: exit %d (%s), want %d", tc.args, code, errOut, tc.code)
		}
	}
}

// TestProcsOverrides: --procs overrides the header's machine size, as in
// swfsim and swfstat, and MaxProcs is rewritten with a Note.
func TestProcsOverrides(t *testing.T) {
	in, _ := os.ReadFile("testdata/small.swf")
	if !strings.Contains(string(in), "; MaxProcs: ") {
		t.Fatal("testdata/small.swf has no MaxProcs")
	}
	out, errs, code := runCmd(t, "", "--load", "1", "--procs", "1000", "testdata/small.swf")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"; MaxProcs: 1000\n", "swfaugment MaxProcs set to 1000 by --procs (input header: ", "machine 1000 processors"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The run's own Note (version, seed, operations) is the first it adds.
	first := strings.Index(out, "; Note: swfaugment ")
	if first < 0 || !strings.HasPrefix(out[first:], "; Note: swfaugment 0.") && !strings.HasPrefix(out[first:], "; Note: swfaugment v") {
		t.Errorf("the first swfaugment Note is not the run's own: %q", out[first:min(len(out), first+80)])
	}
}

// TestRanges: values outside a flag's stated range are usage errors naming
// the flag, and a negative seed is a seed as in swfsim.
func TestRanges(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--utility", "--spread", "2"}, "--spread 2: want a fraction"},
		{[]string{"--utility", "--spread", "0"}, "--spread 0: want a fraction"},
		{[]string{"--utility", "--points", "1001"}, "--points 1001: want 1 to 1000"},
		{[]string{"--utility", "--points", "0"}, "--points 0: want 1 to 1000"},
		{[]string{"--utility", "--decay", "linear:0,exponential:0,step:0"}, "shares add up to 0"},
		{[]string{"--error-quant", "-5", "--error-category", "3"}, "--error-quant -5: want a percentage"},
		{[]string{"--error-quant", "50", "--error-stdev", "-1", "--error-category", "3"}, "--error-stdev -1: want 0 or more"},
		{[]string{"--error-qual", "both", "--error-percent", "150"}, "--error-percent 150: want 0-100"},
		{[]string{"--error-qual", "both", "--error-percent", "-1"}, "--error-percent -1: want 0-100"},
	} {
		_, errOut, code := runCmd(t, "", append(tc.args, "testdata/small.swf")...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if _, errOut, code := runCmd(t, "", "--utility", "--seed", "-1", "testdata/small.swf"); code != 0 {
		t.Errorf("--seed -1: exit %d: %s", code, errOut)
	}
	if _, errOut, code := runCmd(t, "", "--utility", "--points", "1000", "--spread", "1", "testdata/small.swf"); code != 0 {
		t.Errorf("--points 1000 --spread 1: exit %d: %s", code, errOut)
	}
}

// TestLoadRewritesEndTime: --load and --target-load move the submit times,
// and the header's EndTime moves with them (KTH-SP2 kept the 1997 end, 3.5
// months after the last scaled submit); an EndTime that cannot be placed in
// time is kept with a Note saying it describes the unscaled log.
func TestLoadRewritesEndTime(t *testing.T) {
	path := testutil.Trace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	for _, args := range [][]string{{"--load", "1.7", "--seed", "3"}, {"--target-load", "0.8"}} {
		out, errOut, code := runCmd(t, "", append(args, path)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if strings.Contains(out, "; EndTime:   Fri Aug 29 10:55:01 CEST 1997\n") || !strings.Contains(out, "; EndTime: ") {
			t.Errorf("%v: EndTime not rewritten", args)
		}
		// The archive aligns EndTime's value under StartTime's; the
		// rewritten line keeps the input's blanks.
		if !strings.Contains(out, "\n; EndTime:   ") {
			t.Errorf("%v: the rewritten EndTime lost the input's alignment", args)
		}
		if !strings.Contains(out, "; Note: swfaugment load: EndTime rewritten for the scaled submit times, its time since the first submit divided by F (input header: Fri Aug 29 10:55:01 CEST 1997)\n") {
			t.Errorf("%v: no Note with the input's EndTime", args)
		}
	}
	out, _, _ := runCmd(t, "; UnixStartTime: 0\n; EndTime: some day\n; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 100 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n", "--load", "2")
	if !strings.Contains(out, "; EndTime: some day\n") || !strings.Contains(out, "EndTime left as in the input (some day), so it describes the unscaled log") {
		t.Errorf("an EndTime with no time zone was not kept with a Note:\n%s", out)
	}
}

// TestProcsLeavesMaxNodesAndSaysSo: --procs rewrites MaxProcs; MaxNodes
// counts nodes, so it is kept, and the Note says it is the logged machine's.
func TestProcsLeavesMaxNodesAndSaysSo(t *testing.T) {
	in := "; MaxNodes: 100\n; MaxProcs: 100\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 100 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
	out, errOut, code := runCmd(t, in, "--load", "2", "--procs", "128")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"; MaxNodes: 100\n", "; MaxProcs: 128\n",
		"; Note: swfaugment MaxProcs set to 128 by --procs (input header: 100); MaxNodes (100) left as the logged machine's node count\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestSeedThatChangesNothing: a --seed given to a run in which nothing is
// random is said on stderr, and the Note says the output is the same for every
// seed; a run that draws says neither.
func TestSeedThatChangesNothing(t *testing.T) {
	const warn = "swfaugment: warning: --seed 2 changes nothing: the run drew no random number"
	const note = "the run drew no random number: the output is the same for every seed"
	for _, tt := range []struct {
		args  []string
		drawn bool
	}{
		{[]string{"--load", "2", "--seed", "2"}, false},
		{[]string{"--estimate", "exact", "--seed", "2"}, false},
		{[]string{"--utility", "--seed", "2"}, true},
		{[]string{"--estimate", "uniform:1,3", "--seed", "2"}, true},
		// Answers without --expand: nothing is drawn, whatever the seed.
		{[]string{"--checkpoint-from", "testdata/answers.txt", "--seed", "2"}, false},
		{[]string{"--checkpoint-from", "testdata/answers.txt", "--expand", "--seed", "2"}, true},
	} {
		out, errs, code := runCmd(t, "", append(tt.args, "testdata/small.swf")...)
		if code != 0 || strings.Contains(errs, warn) == tt.drawn || strings.Contains(out, note) == tt.drawn {
			t.Errorf("%v: exit %d, stderr %q; want the warning and the Note %v", tt.args, code, errs, !tt.drawn)
		}
	}
}

// TestPriorityOrderEmptyQueue: a --priority-order queue in which no job of
// the trace is ranks nothing; stderr and a Note say so, and a queue with
// jobs is not named.
func TestPriorityOrderEmptyQueue(t *testing.T) {
	out, errs, code := runCmd(t, "", "--utility", "--priority-order", "2,9+1,0", "testdata/small.swf")
	want := "--priority-order lists queue(s) 9, in which no job given a utility function is: they rank nothing"
	if code != 0 || !strings.Contains(errs, "swfaugment: warning: testdata/small.swf: "+want) || !strings.Contains(out, "; Note: swfaugment utility: "+want) {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if _, errs, _ := runCmd(t, "", "--utility", "--priority-order", "2,1,0", "testdata/small.swf"); strings.Contains(errs, "rank nothing") {
		t.Errorf("every listed queue has jobs: %q", errs)
	}
}

// TestUtilityWarnsWithoutWaits: when most jobs given a utility function
// have no logged wait, their deadlines are all the least one, and a warning
// says so; a trace with its waits gets none.
func TestUtilityWarnsWithoutWaits(t *testing.T) {
	in := "; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 5 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n3 9 40 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
	_, errOut, code := runCmd(t, in, "--utility")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "warning: <stdin>: --utility: 2 of 3 jobs have no logged wait (field 3 is -1), so their deadline is --min-deadline, 10 s, whatever --deadline-factor\n") {
		t.Errorf("no warning about the missing waits:\n%s", errOut)
	}
	in = strings.Replace(in, "2 5 -1", "2 5 7", 1)
	if _, errOut, _ = runCmd(t, in, "--utility"); strings.Contains(errOut, "no logged wait") {
		t.Errorf("one job of three without a wait warned:\n%s", errOut)
	}
}

// TestTraceErrorsNameTheFile: an error about what the trace holds names the
// trace, from a file or from stdin, as the parse errors do.
func TestTraceErrorsNameTheFile(t *testing.T) {
	noRuntime := "; MaxProcs: 4\n1 0 0 -1 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"
	path := filepath.Join(t.TempDir(), "one.swf")
	if err := os.WriteFile(path, []byte(noRuntime), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--bounds", "--procs-lower", "100"}, ": bounds: a lower bound exceeds its upper bound"},
		{[]string{"--target-load", "0.5"}, ": load: no factor reaches a target load: offered load unknown: the trace spans no time"},
	} {
		for _, file := range []string{path, "-"} {
			args := append(append([]string{}, tc.args...), file)
			name := file
			if file == "-" {
				name = "<stdin>"
			}
			_, errOut, code := runCmd(t, noRuntime, args...)
			if code != 1 || !strings.Contains(errOut, "swfaugment: "+name+tc.want) {
				t.Errorf("%v: exit %d, stderr %q; want 1 and %q", args, code, errOut, name+tc.want)
			}
		}
	}
}

// TestCheckpointFromStdin: --checkpoint-from - reads the answers from standard
// input when the trace is a file, and is a usage error when the trace is read
// from standard input too.
func TestCheckpointFromStdin(t *testing.T) {
	answers, err := os.ReadFile("testdata/answers.txt")
	if err != nil {
		t.Fatal(err)
	}
	want, _, code := runCmd(t, "", "--checkpoint-from", "testdata/answers.txt", "--expand", "testdata/small.swf")
	if code != 0 {
		t.Fatalf("answers from a file: exit %d", code)
	}
	got, errOut, code := runCmd(t, string(answers), "--checkpoint-from", "-", "--expand", "testdata/small.swf")
	want = strings.Replace(want, "checkpoint-from=testdata/answers.txt", "checkpoint-from=-", 1) // provenance
	if code != 0 || got != want {
		t.Errorf("answers on stdin: exit %d, stderr %q; output differs from the file's:\n%s", code, errOut, got)
	}
	small, _ := os.ReadFile("testdata/small.swf")
	for _, args := range [][]string{{"--checkpoint-from", "-"}, {"--checkpoint-from", "-", "-"}} {
		_, errOut, code := runCmd(t, string(small), args...)
		if code != 2 || !strings.Contains(errOut, "--checkpoint-from - and the input both read standard input") {
			t.Errorf("%v with the trace on stdin: exit %d, stderr %q; want 2 and a usage error", args, code, errOut)
		}
	}
	_, errOut, code = runCmd(t, "2 x\n", "--checkpoint-from", "-", "testdata/small.swf")
	if code != 1 || !strings.Contains(errOut, "<stdin>:1: interval \"x\"") {
		t.Errorf("bad answers on stdin: exit %d, stderr %q; want 1 naming <stdin>:1", code, errOut)
	}
}

// TestCheckpointFromEmptyStdin: `producer | swfaugment --checkpoint-from -
// trace.swf` with a producer that failed gives no answers at all: exit 1
// naming standard input, as an empty trace is (it was exit 0 with no job
// answered). Comment lines only are no answers, with a warning.
func TestCheckpointFromEmptyStdin(t *testing.T) {
	out, errOut, code := runCmd(t, "", "--checkpoint-from", "-", "testdata/small.swf")
	if code != 1 || out != "" || !strings.Contains(errOut, "<stdin>: empty input") {
		t.Errorf("empty answers: exit %d, %d bytes out, stderr %q; want 1 naming <stdin>", code, len(out), errOut)
	}
	_, errOut, code = runCmd(t, "# none\n", "--checkpoint-from", "-", "testdata/small.swf")
	if code != 0 || !strings.Contains(errOut, "warning: <stdin>: no answers") {
		t.Errorf("comment-only answers: exit %d, stderr %q; want 0 and a warning", code, errOut)
	}
}

// TestHelpStatesTheRangeAccepted: --spread and --bound-percentile accept 1 and
// refuse 0, so their help says (0..1], 0 excluded, as the SHARE flags do; it
// said (0..1), which reads as 1 refused and 0 allowed.
func TestHelpStatesTheRangeAccepted(t *testing.T) {
	help, _, _ := runCmd(t, "", "--help")
	help = strings.Join(strings.Fields(help), " ")
	for _, c := range []struct{ flag, text string }{
		{"spread", "a FRACTION of a bin's width (0..1], 0 excluded"},
		{"bound-percentile", "the upper bounds are based on (0..1], 0 excluded"},
	} {
		if !strings.Contains(help, c.text) {
			t.Errorf("--help of --%s does not say %q", c.flag, c.text)
		}
		if _, errOut, code := runCmd(t, "", "--"+c.flag, "0", "--utility", "--bounds", "testdata/small.swf"); code != 2 {
			t.Errorf("--%s 0: exit %d (%s), want 2", c.flag, code, errOut)
		}
		if _, errOut, code := runCmd(t, "", "--"+c.flag, "1", "--utility", "--bounds", "testdata/small.swf"); code != 0 {
			t.Errorf("--%s 1: exit %d (%s), want 0", c.flag, code, errOut)
		}
	}
}

// TestEmptyOrUnknownTraces: an operation whose output is defined without
// the figures it cannot compute runs, warns and exits 0: --load F scales
// without a machine size or a span (the Note says the offered load is
// unknown and why); the bounds of a variable no job has known are none, and
// the estimate errors leave the jobs of unknown runtime as they are; on a
// header-only trace every operation writes the header. --target-load stays
// an error where it has jobs to scale and no load to aim from.
func TestEmptyOrUnknownTraces(t *testing.T) {
	const (
		noMachine  = "1 0 0 10 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 50 0 10 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
		headerOnly = "; MaxProcs: 10\n"
		noRuntime  = "; MaxProcs: 10\n1 0 0 -1 -1 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 50 0 -1 -1 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
		noProcs    = "; MaxProcs: 10\n1 0 0 100 -1 -1 -1 -1 200 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 50 0 5 -1 -1 -1 -1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
	)
	tests := []struct {
		name, in string
		args     []string
		code     int
		out      []string // in stdout
		errOut   string   // in stderr
	}{
		{"load without machine size", noMachine, []string{"--load", "2"}, 0,
			[]string{"machine size unknown; offered load unknown: no machine size (a MaxProcs or MaxNodes header line, or --procs, gives one), span 50 s -> 25 s", "\n2 25 0 10 "},
			"warning: <stdin>: --load: submit times scaled, but the offered load is unknown: machine size unknown: the header has neither MaxProcs nor MaxNodes; give --procs N (or a MaxProcs header line)"},
		{"target load without machine size", noMachine, []string{"--target-load", "0.5"}, 2, nil,
			"--target-load needs the machine size, unknown: the header has neither MaxProcs nor MaxNodes; give --procs N (or a MaxProcs header line)"},
		{"target load with --procs", noMachine, []string{"--target-load", "0.5", "--procs", "1"}, 0, []string{"offered load (processors x runtime per processor-second of the submit span) 0.4000 -> 0.5000"}, ""},
		{"load, header only", headerOnly, []string{"--load", "2"}, 0, []string{"F=2 (factor given); no job has a known submit time, so nothing was scaled"}, "no job lines (header only)"},
		{"target load, header only", headerOnly, []string{"--target-load", "0.5"}, 0, []string{"no factor chosen for target load 0.5; no job has a known submit time"}, "no job lines (header only)"},
		{"bounds, header only", headerOnly, []string{"--bounds"}, 0, []string{"x upper: runtime none (no job with a known runtime)"}, "bounds: none for runtime, processors, area"},
		{"error-quant, header only", headerOnly, []string{"--error-quant", "100", "--error-category", "3"}, 0, []string{"rewrote field 9 of 0 jobs"}, "no job lines (header only)"},
		{"error-qual, header only", headerOnly, []string{"--error-qual", "both", "--error-percent", "50"}, 0, []string{"with runtime bounds none (no job with a known runtime, so none to convert)"}, "no job lines (header only)"},
		{"load, no runtime", noRuntime, []string{"--load", "2"}, 0, []string{"offered load unknown: the trace spans no time", "\n2 25 0 -1 "}, "--load: submit times scaled, but the offered load is unknown"},
		{"target load, no runtime", noRuntime, []string{"--target-load", "0.5"}, 1, nil, "<stdin>: load: no factor reaches a target load"},
		{"bounds, no runtime", noRuntime, []string{"--bounds"}, 0, []string{"runtime none (no job with a known runtime)"}, "bounds: none for runtime, processors, area"},
		{"error-quant, no runtime", noRuntime, []string{"--error-quant", "100", "--error-category", "3"}, 0, []string{"2 jobs with unknown runtime untouched", "\n2 50 0 -1 -1 -1 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n"}, "bounds: none"},
		{"error-qual, no processors", noProcs, []string{"--error-qual", "both", "--error-percent", "100"}, 0, []string{"processors none (no job with known processors)", "with runtime bounds 2..50 s", "1 converted"}, "bounds: none for processors, area"},
		{"error-quant, no processors", noProcs, []string{"--error-quant", "100", "--error-category", "1"}, 0, []string{"rewrote field 9 of 2 jobs"}, "bounds: none for processors, area"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCmd(t, tc.in, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, errOut)
			}
			for _, w := range tc.out {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, "NaN") {
				t.Errorf("NaN in the output:\n%s", out)
			}
			if !strings.Contains(errOut, tc.errOut) {
				t.Errorf("stderr %q lacks %q", errOut, tc.errOut)
			}
		})
	}
}

// TestStrictFormatHint: without --lenient, a Slurm sacct dump or an Alea log
// fails at its first record line with the hint a --lenient read gives when
// it skips every line (how to convert it), and a malformed SWF line keeps
// its message.
func TestStrictFormatHint(t *testing.T) {
	const (
		sacct = "JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode\n1|x|p|a|2|COMPLETED|0:0\n"
		alea  = "; MaxProcs: 64\n" + "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n"
	)
	for _, args := range [][]string{{"--estimate", "exact"}, {"--load", "2", "--procs", "64"}} {
		for _, tc := range []struct{ name, stdin, stderr string }{
			{"sacct", sacct, "swfaugment: <stdin>:1: field 1 (Job Number): expected a number, got \"JobID|JobName|Partition|Account|AllocCPU\"... (it looks like a Slurm `sacct --parsable2` dump: convert it to SWF first, swfclean --from sacct --timezone ZONE FILE -o FILE.swf)\n"},
			{"alea", alea, "swfaugment: <stdin>:2: field 19 (extension token): expected a key=value extension token after the 18 SWF fields, got \"{1241,1241}\" (it looks like the Alea simulator's format, in which MetaCentrum publishes its logs: convert it to SWF first, swfclean --from alea FILE -o FILE.swf)\n"},
			{"SWF", "1 2 3\n", "swfaugment: <stdin>:1: expected 18 whitespace-separated fields, got 3: fields 4 (Run Time) to 18 are missing\n"},
		} {
			t.Run(fmt.Sprint(tc.name, args), func(t *testing.T) {
				_, errOut, code := runCmd(t, tc.stdin, args...)
				if code != 1 || errOut != tc.stderr {
					t.Errorf("exit %d, stderr\n%s\nwant exit 1, stderr\n%s", code, errOut, tc.stderr)
				}
			})
		}
	}
}

// TestErrorCategoryExemptingNoneWarns: a category that exempts no job (7
// on a trace without application numbers) is category 10 under another
// number: said on stderr and in the Note, which counts the exempt jobs.
func TestErrorCategoryExemptingNoneWarns(t *testing.T) {
	const trace = "; MaxProcs: 8\n" +
		"1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"2 1 0 100 2 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"3 2 0 1000 4 -1 -1 4 2000 -1 1 1 1 -1 -1 -1 -1 -1\n"
	out, errs, code := runCmd(t, trace, "--error-quant", "100", "--error-category", "7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	const want = "--error-category 7 (most executed applications: field 14 among the 10 most executed applications []) exempts none of the 3 jobs of known runtime"
	if !strings.Contains(errs, "swfaugment: warning: <stdin>: "+want) || !strings.Contains(errs, "no job has an application number") {
		t.Errorf("stderr %q, want a warning with %q", errs, want)
	}
	if !strings.Contains(out, "; Note: swfaugment estimate: "+want) || !strings.Contains(out, "0 exempt by category 7 (estimated exactly) and 3 given the error") {
		t.Errorf("the Note does not count the exempt jobs or warn:\n%s", out)
	}
	// Category 3 exempts job 1 of 3: counted, no warning.
	out, errs, _ = runCmd(t, trace, "--error-quant", "100", "--error-category", "3", "--rt-lower-bound", "50")
	if strings.Contains(errs, "exempts") || !strings.Contains(out, "1 exempt by category 3 (estimated exactly) and 2 given the error") {
		t.Errorf("category 3: stderr %q\n%s", errs, out)
	}
	// Category 3 exempting jobs 1 and 2, the third without processors
	// (swfsim skips it): no simulated job gets the error (KTH's category 9).
	noProcs := strings.Replace(trace, "3 2 0 1000 4 -1 -1 4", "3 2 0 1000 -1 -1 -1 -1", 1)
	_, errs, _ = runCmd(t, noProcs, "--error-quant", "100", "--error-category", "3", "--rt-lower-bound", "500")
	if !strings.Contains(errs, "exempts 2 of the 3 jobs of known runtime, and the other 1 have no processor count, which swfsim skips") {
		t.Errorf("category 3 with the erred job unrunnable: stderr %q", errs)
	}
}

// TestHelpFollowsGuim: --help gives Guim et al.'s error values (3.2.3), and
// an example that feeds estimate errors to swfsim uses the setup the docs
// call Guim's (--as-prediction, read by --predictor token), not the kill
// at field 9.
func TestHelpFollowsGuim(t *testing.T) {
	out, errs, code := runCmd(t, "", "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	flat := strings.Join(strings.Fields(out), " ") // help wraps lines
	if strings.Contains(flat, "0-100 in Guim") || !strings.Contains(flat, "Guim 3.2.3 used 5..10000: 5, 100, 200, 400, 600, 700, 800, 1000 and 10000") {
		t.Errorf("--error-quant's help does not give Guim's errors:\n%s", out)
	}
	examples := 0
	for _, line := range strings.Split(out, "\n") {
		if !strings.Contains(line, "swfaugment --") || !strings.Contains(line, "--error-") || !strings.Contains(line, "swfsim") {
			continue
		}
		examples++
		if !strings.Contains(line, "--as-prediction") || !strings.Contains(line, "--policy easy-p --predictor token") {
			t.Errorf("example not in Guim's setup: %s", line)
		}
	}
	if examples == 0 {
		t.Errorf("no example feeds estimate errors to swfsim:\n%s", out)
	}
}

// The --checkpoint-from answers change the records as the trace does: the
// Provenance line records the hash of their bytes (decompressed), after the
// flag, so that swfstat --replay can tell a changed answers file.
func TestCheckpointFromHashRecorded(t *testing.T) {
	data, err := os.ReadFile("testdata/answers.txt")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	want := " checkpoint-from=testdata/answers.txt side-input-sha256=checkpoint-from:" + hex.EncodeToString(sum[:]) + " "
	out, stderr, code := runCmd(t, "", "--checkpoint-from", "testdata/answers.txt", "testdata/small.swf")
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d %s; want a Provenance line with %q:\n%s", code, stderr, want, out)
	}
	// From standard input too.
	out, stderr, code = runCmd(t, string(data), "--checkpoint-from", "-", "testdata/small.swf")
	if code != 0 || !strings.Contains(out, " checkpoint-from=- side-input-sha256=checkpoint-from:"+hex.EncodeToString(sum[:])+" ") {
		t.Errorf("answers from standard input: exit %d %s:\n%s", code, stderr, out)
	}
	out, _, _ = runCmd(t, "", "--load", "2", "testdata/small.swf")
	if strings.Contains(out, "side-input-sha256") {
		t.Errorf("no --checkpoint-from, yet a side-input-sha256:\n%s", out)
	}
}
