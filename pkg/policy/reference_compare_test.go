package policy

import (
	"flag"
	"fmt"
	"math/rand"
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

var long = flag.Bool("long", false, "run the reference comparisons and pruning checks on larger slices of the traces")

func toRef(jobs []sim.Job) []refJob {
	out := make([]refJob, len(jobs))
	for i, j := range jobs {
		out[i] = refJob{submit: j.Submit, run: j.Runtime, est: j.Estimate, procs: int64(j.Procs)}
	}
	return out
}

func runPolicy(t testing.TB, name string, procs int64, noKill bool, jobs []sim.Job) []sim.Job {
	t.Helper()
	return runPolicyWith(t, name, Params{}, procs, noKill, jobs)
}

// runPolicyWith simulates jobs in place under policy name with params.
func runPolicyWith(t testing.TB, name string, params Params, procs int64, noKill bool, jobs []sim.Job) []sim.Job {
	t.Helper()
	info, ok := Lookup(name)
	if !ok {
		t.Fatalf("no policy %s", name)
	}
	s, err := sim.New(sim.Config{Procs: procs, NoKill: noKill}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	p, err := info.New(params, len(jobs))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(p); err != nil {
		t.Fatal(err)
	}
	return jobs
}

func compareWithReference(t *testing.T, name string, procs int64, noKill bool, jobs []sim.Job) {
	t.Helper()
	want := refRun(toRef(jobs), procs, noKill, name)
	got := runPolicy(t, name, procs, noKill, append([]sim.Job(nil), jobs...))
	bad := 0
	for i := range got {
		if got[i].Start != want[i] {
			if bad < 3 {
				t.Errorf("%s job %d (submit %d, run %d, est %d, procs %d): start %d, reference %d",
					name, i, jobs[i].Submit, jobs[i].Runtime, jobs[i].Estimate, jobs[i].Procs, got[i].Start, want[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d start times differ from the reference", name, bad, len(got))
	}
}

// randomWorkload makes n jobs on a machine of procs processors with bursts of
// equal submit times, zero runtimes and estimates, under- and overestimates.
func randomWorkload(rng *rand.Rand, n int, procs int64) []sim.Job {
	jobs := make([]sim.Job, n)
	var t int64
	for i := range jobs {
		if rng.Intn(3) > 0 {
			t += int64(rng.Intn(40))
		}
		run := int64(rng.Intn(100))
		if rng.Intn(10) == 0 {
			run = 0
		}
		est := run + int64(rng.Intn(60))
		switch rng.Intn(8) {
		case 0:
			est = run / 2 // killed
		case 1:
			est = 0
		case 2:
			est = run
		}
		jobs[i] = sim.Job{Submit: t, Runtime: run, Estimate: est, Procs: int32(1 + rng.Int63n(procs)), Queue: -1}
	}
	return jobs
}

// bagWorkload makes n jobs that come in bags: runs of jobs with the same
// width and estimate submitted together or close together, with their own
// runtimes, as the bag-of-tasks users of RICC submit them. Conservative
// settles such runs of equal queued jobs together (compress).
func bagWorkload(rng *rand.Rand, n int, procs int64) []sim.Job {
	jobs := make([]sim.Job, 0, n)
	var t int64
	for len(jobs) < n {
		w := int32(1 + rng.Int63n(max(1, procs/2)))
		est := int64(1 + rng.Intn(80))
		if rng.Intn(6) == 0 {
			w = int32(procs) // now and then a whole-machine job
		}
		for k := 1 + rng.Intn(12); k > 0 && len(jobs) < n; k-- {
			if rng.Intn(4) == 0 {
				t += int64(rng.Intn(5))
			}
			run := int64(rng.Intn(int(est) + 1))
			if rng.Intn(10) == 0 {
				run = est + int64(rng.Intn(20)) // killed, or runs on with --no-kill
			}
			jobs = append(jobs, sim.Job{Submit: t, Runtime: run, Estimate: est, Procs: w, Queue: -1})
		}
		t += int64(rng.Intn(60))
	}
	return jobs
}

func TestReferenceBags(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	rounds := 40
	if *long {
		rounds = 400
	}
	for round := 0; round < rounds; round++ {
		procs := int64(1 + rng.Intn(24))
		jobs := bagWorkload(rng, 30+rng.Intn(150), procs)
		for _, noKill := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d/nokill=%v", round, noKill), func(t *testing.T) {
				compareWithReference(t, "conservative", procs, noKill, jobs)
			})
		}
	}
}

func TestReferenceRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	rounds := 30
	if testing.Short() {
		rounds = 10
	}
	if *long {
		rounds = 300
	}
	for round := 0; round < rounds; round++ {
		procs := int64(1 + rng.Intn(32))
		jobs := randomWorkload(rng, 20+rng.Intn(120), procs)
		for _, name := range []string{"easy", "conservative"} {
			for _, noKill := range []bool{false, true} {
				t.Run(fmt.Sprintf("%d/%s/nokill=%v", round, name, noKill), func(t *testing.T) {
					compareWithReference(t, name, procs, noKill, jobs)
				})
			}
		}
	}
}

// The real traces: the whole of the small ones, the start of the others.
func TestReferenceTraces(t *testing.T) {
	traces := []struct {
		name string
		jobs int
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 1500},
		{"HPC2N-2002-2-first3170.swf.gz", 1000},
		{"lublin_256.swf.gz", 600},
		{"NASA-iPSC-1993-3.1-cln.swf.gz", 1000},
		{"CEA-Curie-2011-sample.swf.gz", 600},
		{"LANL-CM5-1994-4.1-cln.swf.gz", 1000},
		{"LLNL-Atlas-2006-2.1-cln.swf.gz", 1000},
	}
	if *long {
		// go test ./pkg/policy -run Reference -long: larger slices.
		for i := range traces {
			traces[i].jobs *= 8
		}
	}
	if testing.Short() {
		traces = traces[:2]
	}
	for _, tc := range traces {
		tr := simtest.Load(t, testutil.Trace(t, tc.name), false)
		jobs := tr.Jobs
		if tc.jobs > 0 && len(jobs) > tc.jobs {
			jobs = jobs[:tc.jobs]
		}
		for _, name := range []string{"easy", "conservative"} {
			for _, noKill := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/nokill=%v", tc.name, name, noKill), func(t *testing.T) {
					compareWithReference(t, name, tr.Procs, noKill, jobs)
				})
			}
		}
	}
}
