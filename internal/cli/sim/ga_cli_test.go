package simcli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinyTrace: a 10-processor machine; L fills it for 10000 s and checkpoints
// every 100 s; U, urgent, arrives at 550 for 50 s.
const tinyTrace = `; MaxProcs: 10
1 0 -1 10000 10 -1 -1 10 10000 -1 1 1 1 -1 1 -1 -1 -1 u=0:10,1000000:0 ckpt=100
2 550 -1 50 10 -1 -1 10 50 -1 1 2 2 -1 1 -1 -1 -1 u=0:1000,200:0
`

func runSim(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(append([]string{"swfsim"}, args...), strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func jobLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, ";") {
			lines = append(lines, l)
		}
	}
	return lines
}

func TestCLIGA(t *testing.T) {
	out, errs, code := runSim(t, tinyTrace, "--policy", "ga", "--seed", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := jobLines(out)
	// ga cannot bump: U waits for L.
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "2 550 9450 50 ") {
		t.Errorf("ga schedule %q", lines)
	}
	if !strings.Contains(out, "; Note: swfsim ga: GA population 20, generations 100") {
		t.Errorf("no GA Note in\n%s", out)
	}
	for _, w := range []string{"1", "2"} {
		again, _, _ := runSim(t, tinyTrace, "--policy", "ga", "--seed", "5", "--ga-workers", w)
		if again != out {
			t.Errorf("--ga-workers %s changed the output", w)
		}
	}
}

func TestCLIGACkpt(t *testing.T) {
	out, errs, code := runSim(t, tinyTrace, "--policy", "ga-ckpt", "--boost", "--airline", "--price", "first")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := jobLines(out)
	// L is bumped at 550 (500 s saved, 10 s overhead) and reruns 600..10110;
	// U runs 550..600. Wait and runtime are those of the last run.
	want := []string{
		"1 0 600 9510 10 -1 -1 10 10000 -1 1 1 1 -1 1 -1 -1 -1 u=0:10,1000000:0 ckpt=100 bumps=1 runtotal=10060 price=9.8989",
		"2 550 0 50 10 -1 -1 10 50 -1 1 2 2 -1 1 -1 -1 -1 u=0:1000,200:0 price=750",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("ga-ckpt output\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(out, "1 bumps, 500 processor-seconds of work lost, 100 processor-seconds of restart overhead") {
		t.Errorf("no bump Note in\n%s", out)
	}
	if !strings.Contains(out, "first price") {
		t.Errorf("no price Note in\n%s", out)
	}
}

func TestCLIGAErrors(t *testing.T) {
	noUtility := "; MaxProcs: 4\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	tests := []struct {
		name, stdin string
		args        []string
		code        int
		stderr      string
	}{
		{"no u= tokens", noUtility, []string{"--policy", "ga"}, 1, "swfaugment --utility"},
		{"price without u=", noUtility, []string{"--policy", "easy", "--price", "first"}, 1, "swfaugment --utility"},
		{"bad price", tinyTrace, []string{"--policy", "ga", "--price", "second"}, 2, "--price"},
		{"bad population", tinyTrace, []string{"--policy", "ga", "--ga-population", "0"}, 2, "--ga-population"},
		{"bump limit 0", tinyTrace, []string{"--policy", "ga-ckpt", "--bump-limit", "0"}, 2, "ga-ckpt would schedule exactly as ga: use --policy ga"},
		{"bump limit -2", tinyTrace, []string{"--policy", "ga-ckpt", "--bump-limit", "-2"}, 2, "--bump-limit -2: want 1 or more, or -1"},
		{"bad seeds", tinyTrace, []string{"--policy", "ga", "--ga-seeds", "sjf"}, 2, "--ga-seeds"},
		{"bad ckpt token", strings.Replace(tinyTrace, "ckpt=100", "ckpt=x", 1), []string{"--policy", "ga-ckpt"}, 1, "ckpt=x"},
		{"u= only on skipped jobs", "; MaxProcs: 10\n1 0 0 10 20 -1 -1 20 10 -1 1 1 1 -1 1 -1 -1 -1 u=0:1,10:0\n2 0 0 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n",
			[]string{"--policy", "ga"}, 1, "no simulated job carries a utility function (u= token): the 1 that do were all skipped"},
		{"mutation without generations", tinyTrace, []string{"--policy", "ga", "--ga-generations", "0", "--ga-mutation", "0.5"}, 2, "--ga-mutation acts when generations are bred"},
		{"elitism without generations", tinyTrace, []string{"--policy", "ga", "--ga-generations", "0", "--ga-elitism"}, 2, "--ga-elitism acts when generations are bred"},
		{"more seeds than the population", tinyTrace, []string{"--policy", "ga", "--ga-population", "2", "--ga-seeds", "arrival,priority,value"}, 2, "--ga-seeds lists 3 orderings, but --ga-population 2 holds 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, code := runSim(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errs, tt.code, tt.stderr)
			}
		})
	}
}

func TestCLIGACkptVCG(t *testing.T) {
	// L's window holds U, which ran at once anyway: price 0. U's window is
	// empty, but L, running when U arrived and bumped by it, runs on without
	// it to 10000 instead of 10110: u = 10 x (1 - t/1e6) gains 0.0011, U's price.
	out, errs, code := runSim(t, tinyTrace, "--policy", "ga-ckpt", "--price", "vcg", "--ga-population", "4", "--ga-generations", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := jobLines(out)
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "bumps=1 runtotal=10060 price=0") || !strings.HasSuffix(lines[1], "price=0.0011") {
		t.Errorf("ga-ckpt vcg output %q", lines)
	}
	if !strings.Contains(out, "VCG price") {
		t.Errorf("no VCG Note in\n%s", out)
	}
}

// ga-ckpt on a trace without ckpt= tokens runs as ga: a warning on stderr
// points to swfaugment --checkpoint and a Note records it (review item 12).
func TestGACkptNoCkptTokens(t *testing.T) {
	const text = "no job has a ckpt= token, so no job can be bumped and ga-ckpt schedules as ga; add them with swfaugment --checkpoint"
	in := strings.Replace(tinyTrace, " ckpt=100", "", 1)
	out, errs, code := runSim(t, in, "--policy", "ga-ckpt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "swfsim: warning: <stdin>: "+text) {
		t.Errorf("stderr %q lacks the warning", errs)
	}
	if !strings.Contains(out, "; Note: swfsim ga-ckpt: "+text+"\n") {
		t.Errorf("output lacks the Note:\n%s", out)
	}
	// With a ckpt= token, or with ga, nothing is said.
	for _, run := range [][]string{{tinyTrace, "ga-ckpt"}, {in, "ga"}} {
		out, errs, _ := runSim(t, run[0], "--policy", run[1])
		if strings.Contains(errs+out, "no job has a ckpt= token") {
			t.Errorf("%s: unexpected warning: %s", run[1], errs)
		}
	}
}

// TestPriceVCGPolicies: --price vcg with a policy that cannot take the pinned
// jobs of its re-simulations is a usage error naming the ones that can.
func TestPriceVCGPolicies(t *testing.T) {
	for _, p := range []string{"conservative", "selective", "selective-d", "timed-fcfs", "timed-easy", "easy-p", "sjbf", "easy++"} {
		_, errs, code := runSim(t, tiny, "-p", p, "--price", "vcg")
		if code != 2 || !strings.Contains(errs, "--price vcg") || !strings.Contains(errs, "available with fcfs, easy") {
			t.Errorf("%s: exit %d, %q; want 2 naming the policies that can", p, code, errs)
		}
	}
}

// TestVCGPricesAfterABump: --price vcg follows ga-ckpt's bumps. Machine of
// 10, every job takes it; J1 (1000 s, checkpoint every 100 s, restart
// overhead 1 s x 10 processors) is bumped at 250 by J2 (urgent) and keeps
// 200 s of work: J2 runs 250-350, J3 350-450, J1 again 450-1260 (810 s).
//
// J3 (submitted 300, when J1 was waiting between its runs, not running): its
// window is J1, waiting with 810 s of work. Without J3, J1 restarts at 350
// and ends 1160: u = 1 - 1160/2000 = 0.42 against 0.37, price 0.05. (J1
// counted as running at 300 for the rest of its first run made the
// re-simulation put 20 processors on a 10-processor machine.)
//
// J2 (submitted 250, bumping J1 in that second's pass): J1 was running when
// J2 came, so it is pinned (to 1000, as if not bumped) and J2's window is
// J3 alone. Without J2, J3 waits for the pinned J1 until 1000, u(700) = 0,
// against 500 earned, and J1 gains 0.5 - 0.37: price max(0, -499.87) = 0.
func TestVCGPricesAfterABump(t *testing.T) {
	in := "; MaxProcs: 10\n" +
		"1 0 -1 1000 10 -1 -1 10 1000 -1 1 1 1 -1 -1 -1 -1 -1 u=0:1,2000:0 ckpt=100\n" +
		"2 250 -1 100 10 -1 -1 10 100 -1 1 2 1 -1 -1 -1 -1 -1 u=0:1000,300:0\n" +
		"3 300 -1 100 10 -1 -1 10 100 -1 1 2 1 -1 -1 -1 -1 -1 u=0:1000,300:0\n"
	out, errs, code := runSim(t, in, "--policy", "ga-ckpt", "--price", "vcg")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"1 0 450 810 10 -1 -1 10 1000 -1 1 1 1 -1 -1 -1 -1 -1 u=0:1,2000:0 ckpt=100 bumps=1 runtotal=1060 price=0\n",
		"2 250 0 100 10 -1 -1 10 100 -1 1 2 1 -1 -1 -1 -1 -1 u=0:1000,300:0 price=0\n",
		"3 300 50 100 10 -1 -1 10 100 -1 1 2 1 -1 -1 -1 -1 -1 u=0:1000,300:0 price=0.05\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The bump's cost to the bumped job is the bumping job's price: J1 (u =
	// 100 x (1 - t/2000)) bumped at 250 by J2 ends at 1160, u = 42; without J2
	// it runs on to 1000, u = 50: J2's price is 8.
	in = "; MaxProcs: 10\n" +
		"1 0 -1 1000 10 -1 -1 10 1000 -1 1 1 1 -1 -1 -1 -1 -1 u=0:100,2000:0 ckpt=100\n" +
		"2 250 -1 100 10 -1 -1 10 100 -1 1 2 1 -1 -1 -1 -1 -1 u=0:1000,300:0\n"
	out, errs, code = runSim(t, in, "--policy", "ga-ckpt", "--price", "vcg")
	if code != 0 || !strings.Contains(out, " u=0:100,2000:0 ckpt=100 bumps=1 runtotal=1060 price=0\n") ||
		!strings.Contains(out, " u=0:1000,300:0 price=8\n") {
		t.Errorf("exit %d, stderr %q, output\n%s", code, errs, out)
	}
}

// TestGASeedsCutToPopulation: with the default seed orderings and a smaller
// population, the Note names the orderings the population holds.
func TestGASeedsCutToPopulation(t *testing.T) {
	out, errs, code := runSim(t, tinyTrace, "--policy", "ga", "--ga-population", "1", "--ga-generations", "2")
	if code != 0 || !strings.Contains(out, "GA population 1, generations 2, mutation 0.1, elitism false, seeds arrival, warm start") {
		t.Errorf("exit %d, %q:\n%s", code, errs, out)
	}
}

// TestCLIFairStartTokenOrder: a job's fairstart= comes after the policy's
// own tokens and before its price= (fair starts become tokens before the
// prices are added; without prices write adds them last), once each, and
// replaces a stale one from the input.
func TestCLIFairStartTokenOrder(t *testing.T) {
	in := strings.Replace(tinyTrace, "ckpt=100", "ckpt=100 fairstart=3", 1)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--policy", "ga-ckpt", "--boost", "--airline", "--fair-start", "--price", "first"}, []string{
			"1 0 600 9510 10 -1 -1 10 10000 -1 1 1 1 -1 1 -1 -1 -1 u=0:10,1000000:0 ckpt=100 bumps=1 runtotal=10060 fairstart=0 price=9.8989",
			"2 550 0 50 10 -1 -1 10 50 -1 1 2 2 -1 1 -1 -1 -1 u=0:1000,200:0 fairstart=9510 price=750",
		}},
		{[]string{"--policy", "ga-ckpt", "--boost", "--airline", "--fair-start"}, []string{
			"1 0 600 9510 10 -1 -1 10 10000 -1 1 1 1 -1 1 -1 -1 -1 u=0:10,1000000:0 ckpt=100 bumps=1 runtotal=10060 fairstart=0",
			"2 550 0 50 10 -1 -1 10 50 -1 1 2 2 -1 1 -1 -1 -1 u=0:1000,200:0 fairstart=9510",
		}},
	} {
		out, errs, code := runSim(t, in, tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
		}
		if got := jobLines(out); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%v: output\n%s\nwant\n%s", tc.args, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestCLIGANoteAndNoUtility: the Note says "seeds none" for --ga-seeds none
// (it said "seeds ,") and no mutation rate when no generation mutates; a
// trace without u= tokens is an error naming it.
func TestCLIGANoteAndNoUtility(t *testing.T) {
	out, errs, code := runSim(t, tinyTrace, "--policy", "ga", "--ga-seeds", "none", "--ga-generations", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "mutation none (0 generations), elitism false, seeds none,") {
		t.Errorf("Note:\n%s", out)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "nou.swf")
	os.WriteFile(file, []byte("; MaxProcs: 8\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 -1 -1 -1 -1 -1 -1\n"), 0o644)
	_, errs, code = runSim(t, "", "--policy", "ga", file)
	if code != 1 || !strings.Contains(errs, file+": policy ga: no job carries a utility function") {
		t.Errorf("exit %d: %s", code, errs)
	}
}
