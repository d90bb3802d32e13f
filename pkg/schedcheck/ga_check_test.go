package schedcheck_test

import (
	"bufio"
	"bytes"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	augmentcli "github.com/swfkit/swfkit/internal/cli/augment"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/schedcheck"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

// augmentedHead returns the first n jobs of a trace (with its header)
// after swfaugment --utility --checkpoint --seed 3.
func augmentedHead(t *testing.T, path string, n int) []byte {
	t.Helper()
	f, err := cmdio.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var head strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for jobs := 0; sc.Scan() && jobs < n; {
		if !strings.HasPrefix(sc.Text(), ";") {
			jobs++
		}
		head.WriteString(sc.Text() + "\n")
	}
	var out, errb bytes.Buffer
	if code := augmentcli.Run([]string{"swfaugment", "--utility", "--checkpoint", "--seed", "3"}, strings.NewReader(head.String()), &out, &errb); code != 0 {
		t.Fatalf("swfaugment: %s", errb.String())
	}
	return out.Bytes()
}

// The policies that need utility functions (ga, ga-ckpt with each damping)
// on augmented small traces, with and without kills; a small GA keeps it
// quick.
func TestCheckGASchedules(t *testing.T) {
	names := small
	if testing.Short() {
		names = names[:1]
	}
	gaCfg := policy.GAConfig{Population: 8, Generations: 5, Mutation: 0.1, Seed: 1, BumpLimit: 1, RestartOverhead: 1}
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			data := augmentedHead(t, testutil.Trace(t, n), 600)
			hin, in, err := schedcheck.ReadAll(bytes.NewReader(data), n)
			if err != nil {
				t.Fatal(err)
			}
			procs, _, ok, _ := sim.MachineSize(hin)
			if !ok {
				t.Skipf("%s: no machine size", n)
			}
			for _, c := range []struct {
				policy         string
				boost, airline bool
			}{{"ga", false, false}, {"ga-ckpt", false, false}, {"ga-ckpt", true, true}} {
				for _, noKill := range []bool{false, true} {
					if c.policy == "ga-ckpt" && !noKill {
						continue // see checkBumped
					}
					cfg := gaCfg
					cfg.Boost, cfg.Airline = c.boost, c.airline
					var out bytes.Buffer
					opt := simcli.Options{Policy: c.policy, NoKill: noKill, Params: policy.Params{GA: cfg}}
					if err := simcli.Simulate(bytes.NewReader(data), &out, opt); err != nil {
						t.Fatal(err)
					}
					hout, outJobs, err := schedcheck.ReadAll(&out, "out")
					if err != nil {
						t.Fatal(err)
					}
					want := in
					if c.policy == "ga-ckpt" {
						want = checkBumped(t, in, outJobs)
					}
					copt := schedcheck.Options{Procs: procs, NoKill: noKill, Skipped: schedcheck.SkippedFromHeader(hout)}
					if err := schedcheck.Check(want, outJobs, copt); err != nil {
						t.Errorf("%s %s boost=%v airline=%v no-kill=%v: %v", filepath.Base(n), c.policy, c.boost, c.airline, noKill, err)
					}
				}
			}
		})
	}
}

// checkBumped verifies the jobs ga-ckpt bumped (bumps=N in the output, run
// with --no-kill): bumped once at most, and their last run lasts their
// runtime less a whole number of checkpoint intervals (the work saved, less
// than the runtime) plus the restart overhead of 1 s per processor. It
// returns the input with those jobs' runtimes set to their last run, so that
// Check verifies everything else (the checker sees only a job's last run, so
// processors held by a run that was bumped are not checked).
func checkBumped(t *testing.T, in, out []swf.Job) []swf.Job {
	t.Helper()
	byNumber := map[int64]int{}
	for k := range in {
		byNumber[in[k].JobNumber] = k
	}
	adjusted := slices.Clone(in)
	bumped := 0
	for _, oj := range out {
		b, ok := oj.ExtraValue("bumps")
		if !ok {
			continue
		}
		bumped++
		k := byNumber[oj.JobNumber]
		ij := &in[k]
		iv, _ := strconv.ParseInt(func() string { v, _ := ij.ExtraValue("ckpt"); return v }(), 10, 64)
		p := ij.RequestedProcs
		if p <= 0 {
			p = ij.AllocatedProcs
		}
		saved := ij.RunTime + p - oj.RunTime
		if b != "1" || iv <= 0 || saved < 0 || saved%iv != 0 || saved >= max(ij.RunTime, 1) {
			t.Errorf("job %d: bumps=%s, ckpt=%d, runtime %d, last run %d: not a restart from a checkpoint with %d s overhead",
				oj.JobNumber, b, iv, ij.RunTime, oj.RunTime, p)
		}
		adjusted[k].RunTime = oj.RunTime
	}
	t.Logf("%d jobs bumped", bumped)
	return adjusted
}
