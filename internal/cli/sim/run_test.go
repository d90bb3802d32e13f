package simcli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cleancli "github.com/swfkit/swfkit/internal/cli/clean"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/policy"
)

func runCmd(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(append([]string{"swfsim"}, args...), strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

const tiny = `; Version: 2.2
; MaxProcs: 4
;
1 0 -1 10 3 -1 -1 3 10 -1 1 7 1 -1 1 -1 -1 -1
2 1 -1 5 4 -1 -1 4 5 -1 1 7 1 -1 1 -1 -1 -1 tag=x
3 2 -1 8 1 -1 -1 1 8 -1 1 7 1 -1 1 -1 -1 -1
4 3 -1 20 1 -1 -1 1 10 -1 1 7 1 -1 1 -1 -1 -1
5 4 -1 -1 1 -1 -1 1 10 -1 1 7 1 -1 1 -1 -1 -1
`

// easy on tiny: J1 0-10; J2 (head) shadow 10; J3 backfills 2-10; J4 (20 s,
// estimate 10) waits (extra 0), starts when J2 ends at 15 and is killed at 25;
// J5 has no runtime and is skipped. Offered load over submits 0..3 on 4
// processors (12 processor-seconds): input (30+20+8+20)/12 = 6.5, simulated
// (30+20+8+10)/12 = 5.6667 (J4 cut at 10 s).
const tinyEasy = `; Version: 2.2
; MaxProcs: 4
; MaxJobs: 4
; MaxRecords: 4
; Note: swfsim policy easy: EASY backfilling: reservation for the queue head only (Lifka; Mu'alem & Feitelson)
; Note: swfsim machine 4 processors (from MaxProcs)
; Note: swfsim semantics: integer seconds; procs-from requested; estimate field 9, else runtime; kill at requested time (status 0, killed=1)
; Note: swfsim order at equal times: ends, then arrivals in file order, then one pass; ties by submit time, then file order
; Note: swfsim unsimulable jobs: skip jobs that cannot be simulated
; Note: swfsim skipped 1 jobs: unknown runtime
; Note: swfsim simulated 4 jobs, 1 killed at their requested time
; Note: swfsim offered load (processors x runtime per processor-second of the submit span): input 6.5000, simulated jobs 5.6667 (1 killed at their requested time)
; Note: swfsim MaxJobs 4 and MaxRecords 4 count the output, 1 records left out (input header: MaxJobs none, MaxRecords none)
; Provenance: swfsim version=0.1.0-dev policy=easy procs=0 no-kill=false strict=false lenient=false procs-from=requested lxfw-weight=0.02 priority-order="" kill-warn=0.05 seed=1 threshold=auto category-runtime=3600 category-procs=8 well-estimated=2 bsld-threshold=10 trial=90 predictor="" repredict=false corrector=estimate ladder=1m,5m,15m,30m,1h,2h,5h,10h,20h,50h,100h fair-start=false ga-population=20 ga-generations=100 ga-mutation=0.1 ga-elitism=false ga-seeds=arrival,priority,density,value ga-warm-start=false bump-limit=1 boost=false airline=false restart-overhead=1 price="" price-window=thesis exec="" exec-timeout=1m0s input=- input-sha256=9734b89e1b716389d46a11fc57b7a7a79ca7c11b77d28145c080ea4683ec3c17
;
1 0 0 10 3 -1 -1 3 10 -1 1 7 1 -1 1 -1 -1 -1
2 1 9 5 4 -1 -1 4 5 -1 1 7 1 -1 1 -1 -1 -1 tag=x
3 2 0 8 1 -1 -1 1 8 -1 1 7 1 -1 1 -1 -1 -1
4 3 12 10 1 -1 -1 1 10 -1 0 7 1 -1 1 -1 -1 -1 killed=1
`

func TestEasyTiny(t *testing.T) {
	out, errs, code := runCmd(t, tiny, "--policy", "easy")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if out != tinyEasy {
		t.Errorf("output:\n%s\nwant:\n%s", out, tinyEasy)
	}
	if !strings.Contains(errs, "skipped 1 jobs: unknown runtime") {
		t.Errorf("stderr %q lacks the skip count", errs)
	}
	// 1 of 4 killed = 25% > 5%.
	if !strings.Contains(errs, "--no-kill") {
		t.Errorf("stderr %q lacks the kill warning", errs)
	}
	if _, errs, _ := runCmd(t, tiny, "--policy", "easy", "--no-kill"); strings.Contains(errs, "will be killed") {
		t.Errorf("kill warning with --no-kill: %q", errs)
	}
	if _, errs, _ := runCmd(t, tiny, "--policy", "easy", "--kill-warn", "0.5"); strings.Contains(errs, "will be killed") {
		t.Errorf("kill warning under the threshold: %q", errs)
	}
	// --kill-warn means what it means in swfstat: a share or a percentage
	// above which to warn, 0 at any kill, off never.
	for _, tc := range []struct {
		value string
		warns bool
	}{{"0", true}, {"24%", true}, {"25%", false}, {"0.25", false}, {"off", false}} {
		_, errs, code := runCmd(t, tiny, "--policy", "easy", "--kill-warn", tc.value)
		if warned := strings.Contains(errs, "will be killed"); code != 0 || warned != tc.warns {
			t.Errorf("--kill-warn %s (1 of 4 jobs killed): exit %d, warned %v, want %v: %q", tc.value, code, warned, tc.warns, errs)
		}
	}
	if _, errs, code := runCmd(t, tiny, "--policy", "easy", "--kill-warn", "never"); code != 2 || !strings.Contains(errs, "--kill-warn never: want a share of jobs from 0 to 1 (0.05), a percentage (5%), or off") {
		t.Errorf("--kill-warn never: exit %d, %q", code, errs)
	}
}

func TestCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"no policy", tiny, nil, 2, "--policy is required"},
		{"no policy, missing file", "", []string{"/nonexistent.swf"}, 1, "nonexistent"},
		{"no policy, bad input", "; MaxProcs: 4\n1 0 -1 x 1\n", nil, 1, "<stdin>:2: field 4"},
		{"unknown policy", tiny, []string{"--policy", "nope"}, 2, "unknown policy"},
		{"bad procs-from", tiny, []string{"-p", "easy", "--procs-from", "x"}, 2, "procs-from"},
		{"bad priority order", tiny, []string{"-p", "priofifo", "--priority-order", "1,a"}, 2, `--priority-order "1,a": "a" is not a queue number`},
		// A policy's parameter errors name the flag and the value as typed
		// (policy.ParamError, predict.SpecError).
		{"bad threshold", tiny, []string{"-p", "selective", "--threshold", "abc"}, 2, `swfsim: --threshold abc: "abc" is not a number >= 0`},
		{"four thresholds for selective", tiny, []string{"-p", "selective", "--threshold", "1,2,3,4"}, 2, `swfsim: --threshold 1,2,3,4: selective takes one number`},
		{"bad predictor", tiny, []string{"-p", "easy-p", "--predictor", "foo"}, 2, `swfsim: --predictor foo: unknown predictor (want`},
		{"bad lastk", tiny, []string{"-p", "easy-p", "--predictor", "lastk:0"}, 2, `swfsim: --predictor lastk:0: lastk needs a whole number K from 1`},
		{"bad corrector", tiny, []string{"-p", "easy-p", "--corrector", "foo"}, 2, `swfsim: --corrector foo: unknown corrector (want`},
		{"corrector without effect", tiny, []string{"-p", "easy-p", "--corrector", "double", "--predictor", "exact"}, 2, `swfsim: --corrector double: corrects predictions a job outlives; predictor exact`},
		{"repredict without effect", tiny, []string{"-p", "easy++", "--repredict", "--predictor", "exact"}, 2, `swfsim: --repredict: recomputes predictions`},
		{"bad ladder", tiny, []string{"-p", "easy-p", "--corrector", "ladder", "--ladder", "5m,3m"}, 2, `swfsim: --ladder 5m,3m: rungs must be positive and strictly increasing`},
		{"bad ladder rung", tiny, []string{"-p", "easy-p", "--corrector", "ladder", "--ladder", "5m,x"}, 2, `swfsim: --ladder 5m,x: bad duration "x"`},
		{"bad GA seed", tiny, []string{"-p", "ga", "--ga-seeds", "arrival,bogus"}, 2, `swfsim: --ga-seeds arrival,bogus: "bogus" is not a seed ordering: want a list of arrival, priority, density, value, or none`},
		{"GA seed none with others", tiny, []string{"-p", "ga", "--ga-seeds", "none,arrival"}, 2, `swfsim: --ga-seeds none,arrival: none stands alone`},
		{"GA seed twice", tiny, []string{"-p", "ga", "--ga-seeds", "value,value"}, 2, `swfsim: --ga-seeds value,value: value is named twice`},
		{"negative weight", tiny, []string{"-p", "lxfw", "--lxfw-weight", "-1"}, 2, "swfsim: --lxfw-weight -1: must not be negative"},
		{"two files", tiny, []string{"-p", "easy", "a", "b"}, 2, "at most one"},
		{"strict", tiny, []string{"-p", "easy", "--strict"}, 1, "<stdin>:8: job 5 cannot be simulated: unknown runtime"},
		{"no machine size", "1 0 -1 1 1 -1 -1 1 1 -1 1 1 1 -1 1 -1 -1 -1\n", []string{"-p", "fcfs"}, 1, "--procs"},
		{"MaxProcs -5", "; MaxProcs: -5\n1 0 -1 1 1 -1 -1 1 1 -1 1 1 1 -1 1 -1 -1 -1\n", []string{"-p", "fcfs"}, 1,
			"swfsim: <stdin>: the header's MaxProcs -5 is not a machine size; give one with --procs"},
		{"malformed", "; MaxProcs: 4\n1 0 -1 x 1\n", []string{"-p", "fcfs"}, 1, "<stdin>:2: field 4"},
		{"missing file", "", []string{"-p", "fcfs", "/nonexistent.swf"}, 1, "nonexistent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := runCmd(t, tc.stdin, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errs, tc.code, tc.want)
			}
		})
	}
}

func TestProcsOverride(t *testing.T) {
	in := "1 0 -1 1 2 -1 -1 2 1 -1 1 1 1 -1 1 -1 -1 -1\n"
	out, errs, code := runCmd(t, in, "-p", "fcfs", "--procs", "2")
	if code != 0 || !strings.Contains(out, "machine 2 processors (from --procs)") {
		t.Errorf("exit %d, %q, %q", code, out, errs)
	}
}

func TestListPolicies(t *testing.T) {
	out, _, code := runCmd(t, "", "--list-policies")
	if code != 0 {
		t.Fatal(code)
	}
	for _, in := range policy.List() {
		if !strings.Contains(out, in.Name+" ") || !strings.Contains(out, in.Summary) {
			t.Errorf("--list-policies lacks %s", in.Name)
		}
	}
}

// --list-policies writes to -o when given, and refuses what it would ignore:
// an input file, a simulation option.
func TestListPoliciesOnly(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "policies.txt")
	out, errs, code := runCmd(t, "", "--list-policies", "-o", list)
	data, err := os.ReadFile(list)
	if code != 0 || out != "" || err != nil || !strings.Contains(string(data), "conservative ") {
		t.Errorf("-o: exit %d, stdout %q, stderr %q, file %q (%v)", code, out, errs, data, err)
	}
	for _, args := range [][]string{
		{"--list-policies", "-p", "easy"},
		{"--list-policies", "--no-kill"},
		{"--list-policies", "trace.swf"},
	} {
		_, errs, code := runCmd(t, "", args...)
		if code != 2 || !strings.Contains(errs, "--list-policies") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}

// Same input and options, byte-identical output; -o FILE.gz compresses; no
// progress bar when stderr is not a terminal.
func TestDeterministicOutputFile(t *testing.T) {
	trace := testutil.Trace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	dir := t.TempDir()
	var outs [2][]byte
	for i := range outs {
		name := filepath.Join(dir, "out.swf.gz")
		_, errs, code := runCmd(t, "", "-p", "conservative", "-o", name, trace)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if strings.Contains(errs, "%") && strings.Contains(errs, "|") {
			t.Errorf("progress bar on a non-terminal: %q", errs)
		}
		f, err := cmdio.Open(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		b.ReadFrom(f)
		f.Close()
		outs[i] = b.Bytes()
		os.Remove(name)
	}
	if !bytes.Equal(outs[0], outs[1]) || len(outs[0]) < 1000 {
		t.Errorf("two runs differ (%d and %d bytes)", len(outs[0]), len(outs[1]))
	}
}

func TestNotSWF(t *testing.T) {
	_, errs, code := runCmd(t, "", "-p", "easy", testutil.NotSWF(t))
	if code != 1 || errs == "" {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func ExampleRun() {
	in := "; MaxProcs: 2\n" +
		"1 0 -1 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 5 -1 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	var out bytes.Buffer
	Run([]string{"swfsim", "--policy", "fcfs"}, strings.NewReader(in), &out, os.Stderr)
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if !strings.HasPrefix(line, ";") {
			os.Stdout.WriteString(line + "\n")
		}
	}
	// Output:
	// 1 0 0 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1
	// 2 5 5 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1
}

// A policy-specific flag given for a policy that does not read it is a usage
// error naming the flag and the policies that read it (review item 2).
func TestFlagNotForPolicy(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--trial", "30"}, "--trial does not apply to policy easy; it is used by timed-fcfs, timed-easy"},
		{[]string{"--threshold", "3"}, "--threshold does not apply to policy easy; it is used by selective, selective-d"},
		{[]string{"--lxfw-weight", "5"}, "--lxfw-weight does not apply to policy easy; it is used by lxfw"},
		{[]string{"--priority-order", "3,2"}, "--priority-order does not apply to policy easy; it is used by priofifo"},
		{[]string{"--ga-generations", "5"}, "--ga-generations does not apply"},
		{[]string{"--airline"}, "--airline does not apply to policy easy; it is used by ga-ckpt"},
		{[]string{"--narrow-max", "2"}, "--category-procs does not apply to policy easy; it is used by selective-d"},
		{[]string{"--category-runtime", "600"}, "--category-runtime does not apply to policy easy; it is used by selective-d"},
		{[]string{"--predictor", "exact"}, "--predictor does not apply to policy easy; it is used by easy-p, sjbf, easy++"},
	} {
		_, errs, code := runCmd(t, tiny, append([]string{"-p", "easy"}, tc.args...)...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	// The same flags are accepted by a policy that reads them.
	for _, args := range [][]string{
		{"-p", "lxfw", "--lxfw-weight", "5"},
		{"-p", "timed-easy", "--trial", "30"},
		{"-p", "selective-d", "--narrow-max", "2"},
		{"-p", "selective-d", "--category-procs", "2", "--category-runtime", "600"},
		{"-p", "easy", "--seed", "3"}, // every policy takes --seed, so sweeps need no condition
		{"-p", "fcfs", "--seed", "3"},
		{"-p", "easy-p", "--predictor", "exact"},
	} {
		if _, errs, code := runCmd(t, tiny, args...); code != 0 {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
	// Flags of no policy in particular stay accepted everywhere.
	if _, errs, code := runCmd(t, tiny, "-p", "easy", "--no-kill", "--procs-from", "max", "--kill-warn", "0.5"); code != 0 {
		t.Errorf("general flags: exit %d, %s", code, errs)
	}
}

// --procs replaces the header's MaxProcs so that the output describes the
// machine it was scheduled on; the Note keeps the old value (review item 1).
func TestProcsRewritesHeader(t *testing.T) {
	out, errs, code := runCmd(t, tiny, "-p", "easy", "--procs", "8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "; MaxProcs: 8\n") || strings.Contains(out, "; MaxProcs: 4\n") {
		t.Errorf("MaxProcs not rewritten:\n%s", out)
	}
	if !strings.Contains(out, "; Note: swfsim MaxProcs set to 8 by --procs (input header: 4)\n") {
		t.Errorf("no Note with the old MaxProcs:\n%s", out)
	}
	// A header without MaxProcs gets one.
	in := "1 0 -1 1 2 -1 -1 2 1 -1 1 1 1 -1 1 -1 -1 -1\n"
	out, _, _ = runCmd(t, in, "-p", "fcfs", "--procs", "2")
	if !strings.Contains(out, "; MaxProcs: 2\n") || !strings.Contains(out, "(input header: none)") {
		t.Errorf("MaxProcs not added:\n%s", out)
	}
	// Without --procs the header's value is left alone and no Note is added.
	out, _, _ = runCmd(t, tiny, "-p", "easy")
	if !strings.Contains(out, "; MaxProcs: 4\n") || strings.Contains(out, "set to") {
		t.Errorf("header changed without --procs:\n%s", out)
	}
}

// Re-simulating a schedule drops the tokens the previous swfsim run wrote
// (review item 9): job 4 was killed under easy but not under --no-kill, and
// the stale bumps=, trial=, price=, fairstart= go while other tokens stay.
func TestOwnedTokensRemoved(t *testing.T) {
	first, errs, code := runCmd(t, tiny, "-p", "easy")
	if code != 0 || !strings.Contains(first, "killed=1") {
		t.Fatalf("exit %d, %s\n%s", code, errs, first)
	}
	stale := strings.Replace(first, "tag=x", "tag=x bumps=2 trial=30 price=1.5 fairstart=7 u=1", 1)
	out, errs, code := runCmd(t, stale, "-p", "easy", "--no-kill")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, tok := range []string{"killed=", "bumps=", "trial=", "price=", "fairstart="} {
		if strings.Contains(body(out), tok) {
			t.Errorf("output keeps %s:\n%s", tok, out)
		}
	}
	if !strings.Contains(out, "tag=x u=1") {
		t.Errorf("other tokens lost:\n%s", out)
	}
	// The schedule's runtimes are the simulated ones: job 4 now runs exactly
	// its estimate and is not killed, so the old killed=1 must go.
	again, _, _ := runCmd(t, first, "-p", "easy")
	if strings.Contains(body(again), "killed=1") || !strings.Contains(again, "0 killed at their requested time") {
		t.Errorf("stale killed=1:\n%s", again)
	}
}

// body returns the job lines of an SWF text.
func body(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if !strings.HasPrefix(l, ";") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// Skipped jobs leave MaxJobs and MaxRecords counting the output, with the
// input's values in a Note (review item 7); swfclean --check then finds no
// header_maxrecords / header_maxjobs.
func TestCountsRefreshed(t *testing.T) {
	in := strings.Replace(tiny, "; MaxProcs: 4\n", "; MaxJobs: 5\n; MaxRecords: 5\n; MaxProcs: 4\n", 1)
	out, errs, code := runCmd(t, in, "-p", "easy")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"; MaxJobs: 4\n", "; MaxRecords: 4\n",
		"; Note: swfsim MaxJobs 4 and MaxRecords 4 count the output, 1 records left out (input header: MaxJobs 5, MaxRecords 5)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var cout, cerr bytes.Buffer
	if code := cleancli.Run([]string{"swfclean", "--check"}, strings.NewReader(out), &cout, &cerr); code != 0 ||
		strings.Contains(cout.String()+cerr.String(), "header_max") {
		t.Errorf("swfclean --check: exit %d\n%s%s", code, cout.String(), cerr.String())
	}
	// Nothing skipped: the header's counts are left as they are.
	in = strings.Replace(in, "5 4 -1 -1 1", "5 4 -1 1 1", 1)
	out, _, _ = runCmd(t, in, "-p", "easy")
	if !strings.Contains(out, "; MaxRecords: 5\n") || strings.Contains(out, "count the output") {
		t.Errorf("counts changed with nothing skipped:\n%s", out)
	}
}

// --lenient skips malformed lines, counts them on stderr and in a Note, and
// goes on; without it the first one is an error (review item 5).
func TestLenient(t *testing.T) {
	in := strings.Replace(tiny, "3 2 -1 8 1", "3 2 -1 x 1", 1) + "garbage\n" +
		"6 5 -1 1 1 -1 -1 1 1 -1 1 7 1 -1 1 -1 -1 -1\n"
	if _, errs, code := runCmd(t, in, "-p", "easy"); code != 1 || !strings.Contains(errs, "<stdin>:6: field 4") {
		t.Errorf("without --lenient: exit %d, %q", code, errs)
	}
	out, errs, code := runCmd(t, in, "-p", "easy", "--lenient")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "swfsim: <stdin>: skipped 2 malformed lines (--lenient; lines 6, 9); first: <stdin>:6: field 4") {
		t.Errorf("stderr %q lacks the malformed count", errs)
	}
	for _, want := range []string{
		"; Note: swfsim skipped 2 malformed lines (--lenient; lines 6, 9)\n",
		// 7 records: 2 malformed and 1 unknown runtime left out.
		"; MaxRecords: 4\n", "3 records left out",
		"\n6 5 0 1 1 ", // the output keeps going after the bad lines
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(body(out), "garbage") || strings.Contains(body(out), "\n3 2 ") {
		t.Errorf("malformed lines written:\n%s", out)
	}
	// No line SWF: an error (exit 1, no output), not an empty schedule with exit 0.
	alea := "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n"
	out, errs, code = runCmd(t, "; MaxProcs: 64\n"+alea+alea, "-p", "easy", "--lenient")
	if code != 1 || out != "" || !strings.Contains(errs, "swfsim: <stdin>: no valid SWF record: --lenient skipped all 2 record lines as malformed; the first: <stdin>:2: field 19") ||
		!strings.Contains(errs, "swfclean --from alea FILE -o FILE.swf") {
		t.Errorf("no line SWF: exit %d, stderr %q, out %q", code, errs, out)
	}
}

// TestProvenancePredictorEffective: the Provenance line records the predictor
// a predictive policy runs with, also when --predictor is left at its
// default, so that a run with the default and one naming it explicitly give
// the same file (one configuration, one output) and a study's
// swfsim.predictor column says which predictor ran.
func TestProvenancePredictorEffective(t *testing.T) {
	for _, c := range []struct{ policy, want string }{
		{"easy-p", "last2"}, {"sjbf", "estimate"}, {"easy++", "last2"}, {"easy", `""`},
	} {
		def, errOut, code := runCmd(t, tiny, "--policy", c.policy)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.policy, code, errOut)
		}
		if !strings.Contains(def, " predictor="+c.want+" ") {
			t.Errorf("%s: Provenance line does not record predictor=%s:\n%s", c.policy, c.want, def)
		}
		if c.want == `""` {
			continue
		}
		named, _, _ := runCmd(t, tiny, "--policy", c.policy, "--predictor", c.want)
		if named != def {
			t.Errorf("%s: --predictor %s and the default give different files", c.policy, c.want)
		}
	}
}

// TestPriorityOrderNote: the Note says where unknown queues (-1) go, which
// depends on whether the order lists -1.
func TestPriorityOrderNote(t *testing.T) {
	for _, tt := range []struct{ order, want string }{
		{"", "; Note: swfsim priority-order: ascending queue number, unknown queue (-1) last\n"},
		{"1,0", "; Note: swfsim priority-order 1,0 (highest first; unlisted queues after, by number; unknown queue (-1) last)\n"},
		{"-1,1", "; Note: swfsim priority-order -1,1 (highest first; unlisted queues after, by number)\n"},
	} {
		args := []string{"-p", "priofifo", "--no-progress"}
		if tt.order != "" {
			args = append(args, "--priority-order", tt.order)
		}
		out, errs, code := runCmd(t, tiny, args...)
		if code != 0 || !strings.Contains(out, tt.want) {
			t.Errorf("--priority-order %q: exit %d, stderr %q; output lacks %q:\n%s", tt.order, code, errs, tt.want, out)
		}
	}
}

// TestPriorityOrderUnusedQueue: a --priority-order queue in which no job of
// the trace is orders nothing; stderr and a Note say so. An empty order is
// a usage error (its default is described, not a value).
func TestPriorityOrderUnusedQueue(t *testing.T) {
	out, errs, code := runCmd(t, tiny, "-p", "priofifo", "--no-progress", "--priority-order", "7,1,3")
	want := "--priority-order lists queue(s) 7,3, in which no simulated job is: they order nothing"
	if code != 0 || !strings.Contains(errs, "swfsim: warning: ") || !strings.Contains(errs, want) || !strings.Contains(out, "; Note: swfsim priofifo: "+want) {
		t.Errorf("exit %d, stderr %q, output:\n%s", code, errs, out)
	}
	if _, errs, code = runCmd(t, tiny, "-p", "priofifo", "--priority-order="); code != 2 || !strings.Contains(errs, `--priority-order "": give a value`) {
		t.Errorf("empty order: exit %d, %q", code, errs)
	}
}

// TestNoKillThatChangesNothing: --no-kill on a trace where no job outlives
// its estimate warns and says so in a Note; where one does, it says nothing.
func TestNoKillThatChangesNothing(t *testing.T) {
	exact := "; MaxProcs: 4\n1 0 -1 10 3 -1 -1 3 10 -1 1 7 1 -1 1 -1 -1 -1\n2 1 -1 5 4 -1 -1 4 20 -1 1 7 1 -1 1 -1 -1 -1\n"
	want := "--no-kill changes nothing here: no job runs past its requested time"
	out, errs, code := runCmd(t, exact, "-p", "easy", "--no-progress", "--no-kill")
	if code != 0 || !strings.Contains(errs, "swfsim: warning: <stdin>: "+want) || !strings.Contains(out, "; Note: swfsim "+want) {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	if _, errs, _ := runCmd(t, tiny, "-p", "easy", "--no-progress", "--no-kill"); strings.Contains(errs, "changes nothing") { // J4 runs 20 s on 10
		t.Errorf("tiny: %q", errs)
	}
}

// TestPartialExecutions: the parts of a partially executed job (status 2,
// 3, 4 of a Preemption: Yes log) are simulated as jobs of their own, each
// from the job's submit time, which offers more jobs and work than the log
// had: stderr and a Note say so, as swfstat does; a log without parts gets
// neither.
func TestPartialExecutions(t *testing.T) {
	parts := "; MaxProcs: 4\n; Preemption: Yes\n" +
		"1 0 5 10 2 -1 -1 2 15 -1 2 1 1 -1 1 -1 -1 -1\n" +
		"1 0 50 10 2 -1 -1 2 15 -1 3 1 1 -1 1 -1 -1 -1\n" +
		"1 0 70 5 2 -1 -1 2 15 -1 4 1 1 -1 1 -1 -1 -1\n" +
		"2 1 0 5 1 -1 -1 1 15 -1 1 1 1 -1 1 -1 -1 -1\n"
	want := "3 records are parts of partially executed jobs (status 2, 3 or 4), each simulated as a job of its own"
	out, errs, code := runCmd(t, parts, "-p", "easy", "--no-progress")
	if code != 0 || !strings.Contains(errs, "swfsim: warning: <stdin>: "+want) || !strings.Contains(out, "; Note: swfsim "+want) ||
		!strings.Contains(errs, "swfclean --rules default,merge_partial") {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	if out, errs, _ := runCmd(t, tiny, "-p", "easy", "--no-progress"); strings.Contains(errs+out, "partially executed") {
		t.Errorf("tiny: %q\n%s", errs, out)
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
	for _, args := range [][]string{{}, {"-p", "easy", "--fair-start"}} {
		for _, tc := range []struct{ name, stdin, stderr string }{
			{"sacct", sacct, "swfsim: <stdin>:1: field 1 (Job Number): expected a number, got \"JobID|JobName|Partition|Account|AllocCPU\"... (it looks like a Slurm `sacct --parsable2` dump: convert it to SWF first, swfclean --from sacct --timezone ZONE FILE -o FILE.swf)\n"},
			{"alea", alea, "swfsim: <stdin>:2: field 19 (extension token): expected a key=value extension token after the 18 SWF fields, got \"{1241,1241}\" (it looks like the Alea simulator's format, in which MetaCentrum publishes its logs: convert it to SWF first, swfclean --from alea FILE -o FILE.swf)\n"},
			{"SWF", "1 2 3\n", "swfsim: <stdin>:1: expected 18 whitespace-separated fields, got 3: fields 4 (Run Time) to 18 are missing\n"},
			{"sacct line after a record", "; MaxProcs: 8\n1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\nJobID|State\n", "swfsim: <stdin>:3: field 1 (Job Number): expected a number, got \"JobID|State\"\n"},
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

// TestCancelledUnstarted: a job cancelled before it started (status 5 with
// runtime 0, the archive's convention; swfclean's cancelled_unstarted) never
// ran, yet swfsim simulates it as a 0-second job that waits for its
// processors (under fcfs it holds back every later job until they are
// free): stderr and a Note count them and say how to leave them out. A
// cancelled job that ran (runtime > 0) is an ordinary job and is not counted.
func TestCancelledUnstarted(t *testing.T) {
	in := "; MaxProcs: 4\n" +
		"1 0 -1 100 2 -1 -1 2 100 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 1 -1 0 4 -1 -1 4 50 -1 5 1 1 -1 1 -1 -1 -1\n" +
		"3 2 -1 0 4 -1 -1 4 50 -1 5 1 1 -1 1 -1 -1 -1\n" +
		"4 3 -1 10 1 -1 -1 1 10 -1 5 1 1 -1 1 -1 -1 -1\n" +
		"5 4 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	want := "2 simulated jobs were cancelled before they started (status 5, runtime 0)"
	out, errs, code := runCmd(t, in, "-p", "fcfs", "--no-progress")
	if code != 0 || !strings.Contains(errs, "swfsim: warning: <stdin>: "+want) || !strings.Contains(out, "; Note: swfsim "+want) ||
		!strings.Contains(errs, "swfclean --rules cancelled_unstarted") {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	// The schedule is the documented one all the same: job 5 waits behind
	// the two 4-processor jobs that never ran until job 1 ends at 100.
	if !strings.Contains(out, "\n5 4 96 10 ") {
		t.Errorf("job 5 should wait 96 s behind the cancelled jobs:\n%s", out)
	}
	one := strings.Replace(in, "3 2 -1 0 4", "3 2 -1 1 4", 1)
	if _, errs, _ := runCmd(t, one, "-p", "fcfs", "--no-progress"); !strings.Contains(errs, "1 simulated job was cancelled before it started (status 5, runtime 0), simulated as a 0-second job") {
		t.Errorf("one job: %q", errs)
	}
	if out, errs, _ := runCmd(t, tiny, "-p", "easy", "--no-progress"); strings.Contains(errs+out, "cancelled before") {
		t.Errorf("tiny: %q\n%s", errs, out)
	}
}

// TestPrecedingJobNotSimulated: fields 17 and 18 (preceding job, think
// time) make a job wait for another's end in the log's model; swfsim
// submits every job at its field 2 regardless, which stderr and a Note say
// with the number of jobs that name a preceding job, so that a trace from a
// workload model with feedback is not simulated open-loop unsaid.
func TestPrecedingJobNotSimulated(t *testing.T) {
	in := "; MaxProcs: 4\n" +
		"1 0 -1 100 2 -1 -1 2 100 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 10 -1 10 2 -1 -1 2 50 -1 1 1 1 -1 1 -1 1 30\n" +
		"3 20 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	want := "1 simulated job names a preceding job (field 17, think time field 18): swfsim does not simulate dependencies"
	out, errs, code := runCmd(t, in, "-p", "easy", "--no-progress")
	if code != 0 || !strings.Contains(errs, "swfsim: warning: <stdin>: "+want) || !strings.Contains(out, "; Note: swfsim "+want) {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	// Job 2 starts at its submit time, not 30 s after job 1's end.
	if !strings.Contains(out, "\n2 10 0 10 ") {
		t.Errorf("job 2 should start at its submit time:\n%s", out)
	}
	if out, errs, _ := runCmd(t, tiny, "-p", "easy", "--no-progress"); strings.Contains(errs+out, "preceding job") {
		t.Errorf("tiny: %q\n%s", errs, out)
	}
}

// TestPartitionsNotSimulated: field 16 puts jobs on partitions of the
// machine (LLNL-Atlas's pbatch and pdebug, CEA-Curie's node types, LCG's 170
// sites); swfsim simulates one pool of the header's processors that any job
// may use. Simulated jobs in more than one partition get a warning and a
// Note that say so, with how to simulate one partition; jobs all in one
// partition (or with none, -1) get neither.
func TestPartitionsNotSimulated(t *testing.T) {
	in := "; MaxProcs: 4\n; Partition: 1 batch\n; Partition: 2 debug\n" +
		"1 0 -1 100 3 -1 -1 3 100 -1 1 1 1 -1 1 1 -1 -1\n" +
		"2 10 -1 10 1 -1 -1 1 50 -1 1 1 1 -1 1 2 -1 -1\n" +
		"3 20 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	want := "simulated jobs are in 2 partitions (field 16): swfsim simulates one machine of 4 processors (from MaxProcs) that any job may use, not the partitions"
	out, errs, code := runCmd(t, in, "-p", "easy", "--no-progress")
	if code != 0 || !strings.Contains(errs, "swfsim: warning: <stdin>: "+want) || !strings.Contains(out, "; Note: swfsim "+want) ||
		!strings.Contains(errs, "swfclean --keep 'partition=N'") {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	one := strings.Replace(in, "1 2 -1 -1\n", "1 1 -1 -1\n", 1)
	if out, errs, _ := runCmd(t, one, "-p", "easy", "--no-progress"); strings.Contains(errs+out, "partitions (field 16)") {
		t.Errorf("one partition: %q\n%s", errs, out)
	}
}

// TestNoEstimateCounted: a job without a requested time (field 9 -1 or 0)
// gets its runtime as its estimate, exact as no user's is: a policy that
// backfills on estimates (not on predictions, as easy++ and sjbf do)
// backfills it perfectly (NASA-iPSC and lublin_256 have none at all), and
// never kills it. stderr and a Note count them, in the same
// words for every policy (fcfs too: none of them is killed); a trace whose
// jobs all have one says nothing.
func TestNoEstimateCounted(t *testing.T) {
	in := "; MaxProcs: 4\n" +
		"1 0 -1 100 3 -1 -1 3 -1 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 10 -1 10 2 -1 -1 2 0 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"3 20 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	want := "2 of 3 simulated jobs have no requested time (field 9 -1 or 0): their estimate is their runtime, exact as no user's is"
	for _, p := range []string{"easy", "fcfs", "conservative"} {
		out, errs, code := runCmd(t, in, "-p", p, "--no-progress")
		if code != 0 || !strings.Contains(errs, "swfsim: warning: <stdin>: "+want) || !strings.Contains(out, "; Note: swfsim "+want) {
			t.Errorf("%s: exit %d, stderr %q:\n%s", p, code, errs, out)
		}
	}
	// One such job is said in the singular.
	one := strings.Replace(in, "2 -1 -1 2 0 -1", "2 -1 -1 2 50 -1", 1)
	wantOne := "1 of 3 simulated jobs has no requested time (field 9 -1 or 0): its estimate is its runtime, exact as no user's is (a policy that backfills on estimates, not predictions, backfills it perfectly; it is never killed)"
	if out, errs, _ := runCmd(t, one, "-p", "easy", "--no-progress"); !strings.Contains(errs, wantOne) || !strings.Contains(out, "; Note: swfsim "+wantOne) {
		t.Errorf("one job: %q\n%s", errs, out)
	}
	// Every job without one: "all N", not "N of N".
	all := strings.Replace(in, "3 20 -1 10 1 -1 -1 1 10 -1", "3 20 -1 10 1 -1 -1 1 -1 -1", 1)
	wantAll := "all 3 simulated jobs have no requested time (field 9 -1 or 0): their estimate is their runtime, exact as no user's is (a policy that backfills on estimates, not predictions, backfills them perfectly; none is killed)"
	if out, errs, _ := runCmd(t, all, "-p", "sjbf", "--no-progress"); !strings.Contains(errs, wantAll) || !strings.Contains(out, "; Note: swfsim "+wantAll) {
		t.Errorf("all jobs: %q\n%s", errs, out)
	}
	wantOnly := "the only simulated job has no requested time (field 9 -1 or 0)"
	if out, errs, _ := runCmd(t, "; MaxProcs: 4\n1 0 -1 100 3 -1 -1 3 -1 -1 1 1 1 -1 1 -1 -1 -1\n", "-p", "easy", "--no-progress"); !strings.Contains(errs, wantOnly) || !strings.Contains(out, "; Note: swfsim "+wantOnly) {
		t.Errorf("only job: %q\n%s", errs, out)
	}
	if out, errs, _ := runCmd(t, tiny, "-p", "easy", "--no-progress"); strings.Contains(errs+out, "no requested time") {
		t.Errorf("tiny: %q\n%s", errs, out)
	}
}

// TestOfferedLoadCountsWideJobs: the offered-load Note's input figure is the
// load swfaugment --target-load aims at (docs/swfaugment.md: every job of
// known submit time, runtime and processors), so a job wider than the
// machine, skipped, still counts there: its work is what the skip removed.
// Here 4x100 at 0, 200 and 400 and 9x100 at 100 on 8 processors over 400 s:
// input (1200 + 900) / 3200 = 0.6562, simulated 1200 / 3200 = 0.3750.
func TestOfferedLoadCountsWideJobs(t *testing.T) {
	in := "; MaxProcs: 8\n" +
		"1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n" +
		"2 100 -1 100 9 -1 -1 9 200 -1 1 1 1 -1 1 1 -1 -1\n" +
		"3 200 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n" +
		"4 300 -1 100 -1 -1 -1 -1 200 -1 1 1 1 -1 1 1 -1 -1\n" +
		"5 400 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n"
	want := "; Note: swfsim offered load (processors x runtime per processor-second of the submit span): input 0.6562 (1 job wider than the machine, not simulated, included), simulated jobs 0.3750 (0 killed at their requested time)\n"
	out, errs, code := runCmd(t, in, "-p", "easy", "--no-progress")
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	// Without a wide job the Note is as it was.
	if out, _, _ := runCmd(t, strings.Replace(in, " 9 -1 -1 9 ", " 2 -1 -1 2 ", 1), "-p", "easy", "--no-progress"); !strings.Contains(out, "input 0.4375, simulated jobs 0.4375 (0 killed") {
		t.Errorf("no wide job:\n%s", out)
	}
}

// TestOfferedLoadWideJobAtSpanEnd: both figures of the offered-load Note are
// per processor-second of one span, the input's (the wide jobs' submit times
// included), so that their difference is the work the skips and kills cut.
// A wide job submitted long before the others stretches that span: 9x100 at
// 0, then 4x100 at 9000, 9100 and 9200 on 8 processors, capacity 8 x 9200:
// input (900 + 1200) / 73600 = 0.0285, simulated 1200 / 73600 = 0.0163 (over
// the simulated jobs' own 200 s the simulated figure read 0.7500, 26 times
// the input's with nothing killed).
func TestOfferedLoadWideJobAtSpanEnd(t *testing.T) {
	in := "; MaxProcs: 8\n" +
		"1 0 -1 100 9 -1 -1 9 200 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 9000 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"3 9100 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"4 9200 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n"
	want := "input 0.0285 (1 job wider than the machine, not simulated, included), simulated jobs 0.0163 (0 killed at their requested time)\n"
	out, errs, code := runCmd(t, in, "-p", "easy", "--no-progress")
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d, stderr %q:\n%s", code, errs, out)
	}
	// One simulated job spans no time of its own, but the input does:
	// 9x100 at 0 and 4x100 at 100 on 8 processors, capacity 800: input
	// 1300 / 800 = 1.6250, simulated 400 / 800 = 0.5000.
	one := "; MaxProcs: 8\n" +
		"1 0 -1 100 9 -1 -1 9 200 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 100 -1 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n"
	want = "input 1.6250 (1 job wider than the machine, not simulated, included), simulated jobs 0.5000 (0 killed at their requested time)\n"
	if out, errs, code := runCmd(t, one, "-p", "easy", "--no-progress"); code != 0 || !strings.Contains(out, want) {
		t.Errorf("one simulated job: exit %d, stderr %q:\n%s", code, errs, out)
	}
}
