package simcli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/schedcheck"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

// researchRuns are the research policies and parameters the checker runs.
var researchRuns = []struct {
	policy string
	params policy.ResearchParams
	fair   bool
}{
	{policy: "selective"},
	{policy: "selective", params: policy.ResearchParams{Threshold: "scaled-adaptive:1.5"}},
	{policy: "selective-d"},
	{policy: "timed-fcfs", fair: true},
	{policy: "timed-easy"},
	{policy: "easy-p"},
	{policy: "sjbf"},
	{policy: "easy++", params: policy.ResearchParams{Corrector: "ladder"}},
	{policy: "easy++", params: policy.ResearchParams{Repredict: true}},
}

// researchInput is a trace read once for the checker: its bytes (for
// Simulate), its records and machine size (for schedcheck).
type researchInput struct {
	path  string
	data  []byte
	in    []swf.Job
	procs int64
}

func readResearchInput(tb testing.TB, path string) *researchInput {
	tb.Helper()
	raw, err := cmdio.Open(path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	var data bytes.Buffer
	_, err = data.ReadFrom(raw)
	raw.Close()
	if err != nil {
		tb.Fatal(err)
	}
	hdr, in, err := schedcheck.ReadAll(bytes.NewReader(data.Bytes()), path)
	if err != nil {
		tb.Fatal(err)
	}
	procs, _, ok, err := sim.MachineSize(hdr)
	if err != nil || !ok {
		tb.Skipf("%s: no machine size", path)
	}
	return &researchInput{path: path, data: data.Bytes(), in: in, procs: procs}
}

// checkResearch simulates every research policy on a trace through the
// command's Simulate and runs the schedule checker over each output.
func checkResearch(tb testing.TB, path string, noKill bool) {
	tb.Helper()
	ri := readResearchInput(tb, path)
	for k := range researchRuns {
		checkResearchRun(tb, ri, k, noKill)
	}
}

// checkResearchRun simulates researchRuns[k] and checks its schedule.
func checkResearchRun(tb testing.TB, ri *researchInput, k int, noKill bool) {
	tb.Helper()
	r := researchRuns[k]
	var out bytes.Buffer
	opt := Options{Input: ri.path, Policy: r.policy, Params: policy.Params{Research: r.params}, NoKill: noKill, FairStart: r.fair}
	if err := Simulate(bytes.NewReader(ri.data), &out, opt); err != nil {
		tb.Fatalf("%s on %s: %v", r.policy, ri.path, err)
	}
	hdr, sched, err := schedcheck.ReadAll(&out, "output")
	if err != nil {
		tb.Fatal(err)
	}
	err = schedcheck.Check(ri.in, sched, schedcheck.Options{Procs: ri.procs, NoKill: noKill, Skipped: schedcheck.SkippedFromHeader(hdr)})
	if err != nil {
		tb.Errorf("%s (no-kill %v) on %s: %v", r.policy, noKill, filepath.Base(ri.path), err)
	}
	if r.fair {
		for i := range sched {
			if _, ok := sched[i].ExtraValue("fairstart"); !ok {
				tb.Errorf("%s: job %d has no fairstart token", r.policy, sched[i].JobNumber)
				break
			}
		}
	}
	checkTrialTokens(tb, r.policy, sched)
}

// checkTrialTokens: under timed runs every job had a trial, no later than its
// final start.
func checkTrialTokens(tb testing.TB, name string, sched []swf.Job) {
	if name != "timed-fcfs" && name != "timed-easy" {
		return
	}
	for i := range sched {
		v, ok := sched[i].ExtraValue("trial")
		if !ok {
			tb.Errorf("%s: job %d has no trial token", name, sched[i].JobNumber)
			return
		}
		var w int64
		for _, c := range v {
			w = 10*w + int64(c-'0')
		}
		if w > sched[i].WaitTime {
			tb.Errorf("%s: job %d had its trial %d s after submission but its final run at %d s", name, sched[i].JobNumber, w, sched[i].WaitTime)
			return
		}
	}
}

// smallResearchTraces are checked in the default tests.
// (CEA-Curie and lublin_256 are in the benchmark: their conservative runs are
// slow under -race.)
var smallResearchTraces = []string{
	"KTH-SP2-1996-2.1-cln.swf.gz", "NASA-iPSC-1993-3.1-cln.swf.gz", "HPC2N-2002-2-first3170.swf.gz",
}

func TestResearchPoliciesPassTheChecker(t *testing.T) {
	for _, name := range smallResearchTraces {
		t.Run(name, func(t *testing.T) {
			checkResearch(t, testutil.Trace(t, name), false)
			if name == "HPC2N-2002-2-first3170.swf.gz" {
				checkResearch(t, testutil.Trace(t, name), true)
			}
		})
	}
}

// BenchmarkResearchChecker runs the checker test on every trace in
// ../shared/data, one sub-benchmark per trace, policy and kill setting:
//
//	go test -run XXX -bench ResearchChecker -benchtime 1x ./internal/cli/sim
//	go test -run XXX -bench 'ResearchChecker/RICC.*/timed' -benchtime 1x ./internal/cli/sim
func BenchmarkResearchChecker(b *testing.B) {
	for _, path := range testutil.Traces(b) {
		var ri *researchInput
		for k, r := range researchRuns {
			for _, noKill := range []bool{false, true} {
				label := fmt.Sprintf("%s/%d-%s", filepath.Base(path), k, r.policy)
				if noKill {
					label += "/no-kill"
				}
				b.Run(label, func(b *testing.B) {
					if ri == nil {
						ri = readResearchInput(b, path)
					}
					for range b.N {
						checkResearchRun(b, ri, k, noKill)
					}
				})
			}
		}
	}
}
