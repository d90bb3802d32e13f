package simcli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/predict"
	"github.com/swfkit/swfkit/pkg/sim"
)

// parseResearch runs a throwaway app with the research flags over args.
func parseResearch(t *testing.T, args ...string) (policy.ResearchParams, error) {
	t.Helper()
	var got policy.ResearchParams
	var perr error
	app := &cli.App{Flags: researchFlags(), Action: func(c *cli.Context) error {
		got, perr = researchParams(c)
		return nil
	}}
	if err := app.Run(append([]string{"swfsim"}, args...)); err != nil {
		t.Fatalf("flags %v: %v", args, err)
	}
	return got, perr
}

func TestResearchParams(t *testing.T) {
	r, err := parseResearch(t)
	if err != nil {
		t.Fatal(err)
	}
	want := policy.ResearchParams{Threshold: "auto", ShortMax: 3600, NarrowMax: 8, WellEstimated: 2, SlowdownBound: 10,
		Trial: 90, TrialSet: true, Corrector: "estimate", Ladder: predict.DefaultLadder}
	if !slices.Equal(r.Ladder, want.Ladder) {
		t.Errorf("default ladder %v", r.Ladder)
	}
	r.Ladder, want.Ladder = nil, nil
	if !reflect.DeepEqual(r, want) {
		t.Errorf("defaults = %+v, want %+v", r, want)
	}

	r, err = parseResearch(t, "--threshold", "SN=1,SW=2,LN=3,LW=4", "--narrow-max", "64", "--trial", "0",
		"--predictor", "lastk:3", "--corrector", "ladder", "--ladder", "30s,2m,1h")
	if err != nil {
		t.Fatal(err)
	}
	if r.Threshold != "SN=1,SW=2,LN=3,LW=4" || r.NarrowMax != 64 || r.Trial != 0 || !r.TrialSet ||
		r.Predictor != "lastk:3" || r.Corrector != "ladder" || !slices.Equal(r.Ladder, []int64{30, 120, 3600}) {
		t.Errorf("parsed %+v", r)
	}

	for _, bad := range [][]string{
		{"--trial", "-1"}, {"--short-max", "0"}, {"--narrow-max", "-3"}, {"--well-estimated", "0.5"},
		{"--slowdown-bound", "0"}, {"--ladder", "5m,1m"}, {"--ladder", "1w"},
	} {
		_, err := parseResearch(t, bad...)
		var usage *cmdio.UsageError
		if !errors.As(err, &usage) {
			t.Errorf("%v: error %v, want a usage error", bad, err)
		}
	}
}

func TestFairStartTokens(t *testing.T) {
	jobs := []sim.Job{
		{Submit: 0, Procs: 2, Runtime: 100, Estimate: 100, Queue: -1, User: -1},
		{Submit: 1, Procs: 4, Runtime: 10, Estimate: 10, Queue: -1, User: -1, Tokens: []string{"trial=0"}},
	}
	f := startFairStarts(true, policy.Info{Name: "easy"}, &policy.ResearchParams{}, sim.Config{Procs: 4}, jobs)
	fair, err := f.finish(jobs)
	if err != nil {
		t.Fatal(err)
	}
	fairStartTokens(jobs, fair)
	if !slices.Equal(jobs[0].Tokens, []string{"fairstart=0"}) || !slices.Equal(jobs[1].Tokens, []string{"trial=0", "fairstart=100"}) {
		t.Errorf("tokens %q, %q", jobs[0].Tokens, jobs[1].Tokens)
	}
	// The token slices share one array: a later token must not overwrite
	// the next job's.
	jobs[0].Tokens = append(jobs[0].Tokens, "price=1")
	if !slices.Equal(jobs[1].Tokens, []string{"trial=0", "fairstart=100"}) {
		t.Errorf("after appending to job 0: job 1 tokens %q", jobs[1].Tokens)
	}
}

// TestFairStartsAroundTheRun: the fair starts computed before the run are
// those of the jobs as they are after it: computed again when the run changed
// an estimate (ga-ckpt's bumps), taken from the run's own schedule under
// conservative.
func TestFairStartsAroundTheRun(t *testing.T) {
	cfg := sim.Config{Procs: 4}
	newJobs := func() []sim.Job {
		return []sim.Job{
			{Submit: 0, Procs: 2, Runtime: 100, Estimate: 100, Queue: -1, User: -1},
			{Submit: 1, Procs: 4, Runtime: 10, Estimate: 10, Queue: -1, User: -1},
			{Submit: 2, Procs: 2, Runtime: 50, Estimate: 50, Queue: -1, User: -1},
			{Submit: 3, Procs: 2, Runtime: 20, Estimate: 20, Queue: -1, User: -1},
		}
	}
	// run simulates as Simulate does, the fair-start plays following the
	// run when they can (follow).
	run := func(name string, jobs []sim.Job, f *fairStarts, follow bool) {
		info, _ := policy.Lookup(name)
		p, err := info.New(policy.Params{}, len(jobs))
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if follow {
			f.followRun(p, jobs)
			if (f.follow != nil) != (name == "conservative") {
				t.Fatalf("%s: plays follow the run: %v", name, f.follow != nil)
			}
		}
		if err := s.Run(p); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		policy       string
		bump, follow bool
	}{{"easy", false, true}, {"easy", true, true}, {"conservative", false, false}, {"conservative", false, true}} {
		jobs := newJobs()
		f := startFairStarts(true, policy.Info{Name: tc.policy}, &policy.ResearchParams{}, cfg, jobs)
		run(tc.policy, jobs, f, tc.follow)
		if tc.bump {
			jobs[0].Estimate = 40 // as ga-ckpt does when it bumps a job
		}
		got, err := f.finish(jobs)
		if err != nil {
			t.Fatal(err)
		}
		want, err := policy.FairStarts(cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s, estimate changed %v, plays following %v: fair starts %v, want %v", tc.policy, tc.bump, tc.follow, got, want)
		}
	}
}

// runSwfsim runs the command with args over stdin and returns stdout, stderr
// and the exit status.
func runSwfsim(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut strings.Builder
	code := Run(append([]string{"swfsim"}, args...), strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

// fig2SWF is the instance of Thebe et al., Fig. 2, as SWF (C runs 250 s).
const fig2SWF = `; MaxProcs: 100
1 0 -1 300 80 -1 -1 80 1000 -1 1 1 1 -1 -1 -1 -1 -1
2 100 -1 40 100 -1 -1 100 1000 -1 1 2 1 -1 -1 -1 -1 -1
3 110 -1 250 20 -1 -1 20 1000 -1 1 3 1 -1 -1 -1 -1 -1
`

func TestSwfsimResearchCommand(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		want    []string // substrings of stdout
		wantErr string   // substring of stderr
	}{
		{name: "timed-fcfs Fig. 2", args: []string{"--policy", "timed-fcfs"}, want: []string{
			"1 0 0 300 80 -1 -1 80 1000 -1 1 1 1 -1 -1 -1 -1 -1 trial=0\n",
			"2 100 200 40 100 -1 -1 100 1000 -1 1 2 1 -1 -1 -1 -1 -1 trial=200\n",
			"3 110 230 250 20 -1 -1 20 1000 -1 1 3 1 -1 -1 -1 -1 -1 trial=0\n",
			"; Note: swfsim timed-fcfs: base fcfs, trial 90 s; 3 trial runs, 1 jobs finished within their trial, 0 after it before being needed, 1 continued as committed runs, 1 kills losing 3800 processor-seconds\n",
		}},
		{name: "trial 0 is fcfs", args: []string{"--policy", "timed-fcfs", "--trial", "0"}, want: []string{
			"3 110 230 250 20", "trial 0 s; 0 trial runs",
		}},
		{name: "fair-start", args: []string{"--policy", "easy", "--fair-start"}, want: []string{
			"1 0 0 300 80 -1 -1 80 1000 -1 1 1 1 -1 -1 -1 -1 -1 fairstart=0\n",
			"2 100 200 40 100 -1 -1 100 1000 -1 1 2 1 -1 -1 -1 -1 -1 fairstart=300\n",
			"3 110 230 250 20 -1 -1 20 1000 -1 1 3 1 -1 -1 -1 -1 -1 fairstart=340\n",
			"; Note: swfsim fair-start:",
		}},
		{name: "selective fixed threshold", args: []string{"--policy", "selective", "--threshold", "2"}, want: []string{
			"; Note: swfsim selective: fixed threshold 2.0000;",
		}},
		{name: "easy++ ladder", args: []string{"--policy", "easy++", "--corrector", "ladder", "--ladder", "1m,1h"}, want: []string{
			"; Note: swfsim easy++: predictor last2, corrector ladder:1m,1h, sjbf true;",
		}},
		{name: "bad threshold", args: []string{"--policy", "selective", "--threshold", "often"}, code: 2, wantErr: "not a number"},
		{name: "per-category threshold for selective", args: []string{"--policy", "selective", "--threshold", "1,2,3,4"}, code: 2, wantErr: "selective-d"},
		{name: "bad predictor", args: []string{"--policy", "easy-p", "--predictor", "last3"}, code: 2, wantErr: "unknown predictor"},
		{name: "bad corrector", args: []string{"--policy", "easy++", "--corrector", "triple"}, code: 2, wantErr: "unknown corrector"},
		{name: "negative trial", args: []string{"--policy", "timed-easy", "--trial", "-1"}, code: 2, wantErr: "--trial -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runSwfsim(t, fig2SWF, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			if tc.wantErr != "" && !strings.Contains(errOut, tc.wantErr) {
				t.Errorf("stderr %q lacks %q", errOut, tc.wantErr)
			}
		})
	}
}

// The Note lines quoted in docs/swfsim-research.md are what the command
// writes on KTH-SP2 (review item 10: the doc had gone stale).
func TestDocsResearchNotes(t *testing.T) {
	trace := testutil.Trace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	doc, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "docs", "swfsim-research.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(doc), "\n") {
		quoted, ok := strings.CutPrefix(line, "    ; Note: swfsim ")
		if !ok {
			continue
		}
		pol, _, _ := strings.Cut(quoted, ":")
		n++
		out, errs, code := runCmd(t, "", "--policy", pol, trace)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", pol, code, errs)
		}
		if !strings.Contains(out, strings.TrimPrefix(line, "    ")+"\n") {
			t.Errorf("docs quote\n%s\nbut swfsim --policy %s writes\n%s", line, pol, grepNote(out, pol))
		}
	}
	if n < 3 {
		t.Errorf("found %d quoted Note lines in the doc, want 3", n)
	}
}

func grepNote(out, pol string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "; Note: swfsim "+pol+":") {
			return l
		}
	}
	return "(none)"
}

// A schedule that would write a time past swf.MaxTime is refused, naming the
// line and the job, since no tool could read it back; an empty --threshold is
// a usage error, not auto.
func TestSwfsimOutputBound(t *testing.T) {
	const b = "1099511627776" // swf.MaxTime
	edge := "; MaxProcs: 8\n1 " + b + " -1 10 8 -1 -1 8 10 -1 1 1 1 -1 1 -1 -1 -1\n2 " + b + " -1 10 8 -1 -1 8 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	if out, _, code := runSwfsim(t, edge, "--no-progress", "-p", "easy"); code != 0 || !strings.Contains(out, "\n2 "+b+" 10 10 ") {
		t.Fatalf("easy near the bound: exit %d, output %q", code, out)
	}
	_, errOut, code := runSwfsim(t, edge, "--no-progress", "-p", "easy", "--fair-start")
	if code != 1 || !strings.Contains(errOut, "<stdin>:3: job 2: its simulated fair-start time, 1099511627786 s, is beyond") {
		t.Errorf("fair start past the bound: exit %d, %q", code, errOut)
	}
	var long strings.Builder
	long.WriteString("; MaxProcs: 8\n")
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&long, "%d %s -1 %s 8 -1 -1 8 %s -1 1 1 1 -1 1 -1 -1 -1\n", i, b, b, b)
	}
	_, errOut, code = runSwfsim(t, long.String(), "--no-progress", "-p", "fcfs")
	if code != 1 || !strings.Contains(errOut, "<stdin>:4: job 3: its simulated wait (field 3), 2199023255552 s, is beyond") {
		t.Errorf("wait past the bound: exit %d, %q", code, errOut)
	}
	_, errOut, code = runSwfsim(t, fig2SWF, "--no-progress", "-p", "selective", "--threshold", "")
	if code != 2 || !strings.Contains(errOut, `--threshold ""`) {
		t.Errorf("--threshold \"\": exit %d, %q", code, errOut)
	}
}

// Flags the other flags leave without effect are usage errors, not silent
// no-ops recorded in Provenance.
func TestFlagsWithoutEffect(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-p", "selective", "--threshold", "3", "--well-estimated", "10"}, "--well-estimated feeds the auto and adaptive thresholds only"},
		{[]string{"-p", "selective-d", "--threshold", "1,2,3,4", "--bsld-threshold", "100"}, "--bsld-threshold feeds"},
		{[]string{"-p", "selective-d", "--threshold", "3", "--category-procs", "64"}, "--category-procs sorts jobs"},
		{[]string{"-p", "selective-d", "--threshold", "1,1,2,2", "--category-procs", "3"}, "--category-procs tells narrow and wide jobs (SN and SW, LN and LW) apart; --threshold 1,1,2,2 gives them the same threshold"},
		{[]string{"-p", "selective-d", "--threshold", "1,2,1,2", "--category-runtime", "30"}, "--category-runtime tells short and long jobs (SN and LN, SW and LW) apart"},
		// Every threshold below 1 promotes at arrival: 0 and 0.5 are one.
		{[]string{"-p", "selective-d", "--threshold", "0,0.5,0,0.5", "--category-procs", "8"}, "is one for every category (thresholds below 1 count as one"},
		{[]string{"-p", "selective-d", "--threshold", "0,0.5,2,2", "--category-procs", "8"}, "--category-procs tells narrow and wide jobs (SN and SW, LN and LW) apart; --threshold 0,0.5,2,2 gives them the same threshold"},
		{[]string{"-p", "easy-p", "--ladder", "1m,2m"}, "--ladder sets the rungs of --corrector ladder"},
		{[]string{"-p", "sjbf", "--corrector", "double"}, "with predictor estimate every prediction is the estimate already"},
		// Correctors are capped at the estimate: --no-kill does not help.
		{[]string{"-p", "easy-p", "--predictor", "estimate", "--corrector", "ladder", "--no-kill"}, "with predictor estimate every prediction is the estimate already"},
		{[]string{"-p", "easy-p", "--predictor", "exact", "--corrector", "ladder"}, "predictor exact is never outlived"},
	} {
		_, errOut, code := runSwfsim(t, fig2SWF, append([]string{"--no-progress"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	for _, args := range [][]string{
		{"-p", "selective", "--well-estimated", "3"},
		{"-p", "selective-d", "--threshold", "1,2,3,4", "--category-procs", "64"},
		{"-p", "selective-d", "--threshold", "1,1,2,2", "--category-runtime", "30"},
		{"-p", "selective-d", "--threshold", "1,2,1,3", "--category-procs", "3", "--category-runtime", "30"},
		{"-p", "selective-d", "--threshold", "0.5,1,0.5,1", "--category-procs", "3"}, // 1 is not below 1
		{"-p", "easy-p", "--corrector", "ladder", "--ladder", "1m,2m"},
		{"-p", "sjbf", "--predictor", "last2", "--corrector", "double", "--no-kill"},
	} {
		if _, errOut, code := runSwfsim(t, fig2SWF, append([]string{"--no-progress"}, args...)...); code != 0 {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
}
