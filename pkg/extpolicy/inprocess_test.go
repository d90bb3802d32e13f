package extpolicy_test

import (
	"math/rand/v2"
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/sim"
)

// builtin runs a registered policy and returns the start times.
func builtin(t *testing.T, name string, procs int64, noKill bool, jobs []sim.Job) []int64 {
	t.Helper()
	info, _ := policy.Lookup(name)
	p, err := info.New(policy.Params{}, len(jobs))
	if err != nil {
		t.Fatal(err)
	}
	jobs = append([]sim.Job(nil), jobs...)
	s, err := sim.New(sim.Config{Procs: procs, NoKill: noKill}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(p); err != nil {
		t.Fatal(err)
	}
	return starts(jobs)
}

func starts(jobs []sim.Job) []int64 {
	out := make([]int64, len(jobs))
	for i := range jobs {
		out[i] = jobs[i].Start
	}
	return out
}

// compare holds the in-process client to the built-in policy, asking for
// every decision and with start_head.
func compare(t *testing.T, name string, procs int64, noKill bool, jobs []sim.Job) {
	t.Helper()
	want := builtin(t, name, procs, noKill, jobs)
	for _, startHead := range []bool{false, true} {
		got := append([]sim.Job(nil), jobs...)
		if _, err := runInProcess(procs, noKill, got, name == "easy", startHead); err != nil {
			t.Fatal(err)
		}
		for i, s := range starts(got) {
			if s != want[i] {
				t.Fatalf("%s noKill=%v startHead=%v: job %d starts at %d through the protocol, %d built in", name, noKill, startHead, i, s, want[i])
			}
		}
	}
}

// The in-process client, which knows only what the messages say, makes the
// built-in fcfs and easy schedules: the messages carry what these policies need.
func TestInProcessMatchesBuiltin(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	for k := 0; k < 40; k++ {
		procs := int64(1 + rng.IntN(16))
		jobs := simtest.RandomJobs(rng, 1+rng.IntN(150), procs)
		for _, name := range []string{"fcfs", "easy"} {
			for _, noKill := range []bool{false, true} {
				compare(t, name, procs, noKill, jobs)
			}
		}
	}
}

func TestInProcessMatchesBuiltinKTH(t *testing.T) {
	tr := simtest.Load(t, "../../testdata/KTH-SP2-1996-2.1-cln.swf.gz", false)
	jobs := tr.Jobs[:4000]
	for _, name := range []string{"fcfs", "easy"} {
		for _, noKill := range []bool{false, true} {
			compare(t, name, tr.Procs, noKill, jobs)
		}
	}
}
