package policy

import (
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

// researchTrace is an archive trace as simulation jobs with the default
// semantics (internal/simtest, sim.FromSWF).
type researchTrace struct {
	name  string
	procs int64
	jobs  []sim.Job
}

func loadResearchTrace(tb testing.TB, name string) *researchTrace {
	tb.Helper()
	tr := simtest.Load(tb, testutil.Trace(tb, name), false)
	return &researchTrace{name: name, procs: tr.Procs, jobs: tr.Jobs}
}

// simulate runs policy name with params over a copy of the trace's jobs.
func (tr *researchTrace) simulate(tb testing.TB, name string, params ResearchParams, noKill bool) ([]sim.Job, sim.Policy) {
	tb.Helper()
	jobs := append([]sim.Job(nil), tr.jobs...)
	info, ok := Lookup(name)
	if !ok {
		tb.Fatalf("policy %q not registered", name)
	}
	p, err := info.New(Params{Research: params}, len(jobs))
	if err != nil {
		tb.Fatal(err)
	}
	s, err := sim.New(sim.Config{Procs: tr.procs, NoKill: noKill}, jobs)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Run(p); err != nil {
		tb.Fatalf("%s on %s: %v", name, tr.name, err)
	}
	return jobs, p
}

// sameSchedule fails unless every job starts and ends at the same times.
func sameSchedule(tb testing.TB, what string, got, want []sim.Job) {
	tb.Helper()
	diffs := 0
	for i := range want {
		if got[i].Start != want[i].Start || got[i].End != want[i].End || got[i].Killed != want[i].Killed {
			if diffs < 3 {
				tb.Errorf("%s: job %d (submit %d) starts %d ends %d, want %d and %d", what, i, want[i].Submit,
					got[i].Start, got[i].End, want[i].Start, want[i].End)
			}
			diffs++
		}
	}
	if diffs > 0 {
		tb.Errorf("%s: %d of %d jobs differ", what, diffs, len(want))
	}
}

// smallTraces run in the default tests; the big ones only in benchmarks.
// (CEA-Curie-2011-sample is in BenchmarkDegenerateCases, to keep the
// race-enabled package under a minute.)
var smallTraces = []string{
	"KTH-SP2-1996-2.1-cln.swf.gz",
	"NASA-iPSC-1993-3.1-cln.swf.gz",
	"lublin_256.swf.gz",
	"HPC2N-2002-2-first3170.swf.gz",
}

// degenerate lists the equalities the research policies must meet on whole
// traces: each policy with the given parameters against a base policy.
var degenerate = []struct {
	name, policy, base string
	params             ResearchParams
	equalEstimates     bool
}{
	{"selective threshold 0 is conservative", "selective", "conservative", ResearchParams{Threshold: "0"}, false},
	{"selective-d threshold 0 is conservative", "selective-d", "conservative", ResearchParams{Threshold: "0,0,0,0"}, false},
	{"timed-fcfs trial 0 is fcfs", "timed-fcfs", "fcfs", ResearchParams{TrialSet: true}, false},
	{"timed-easy trial 0 is easy", "timed-easy", "easy", ResearchParams{TrialSet: true}, false},
	{"easy-p predictor estimate is easy", "easy-p", "easy", ResearchParams{Predictor: "estimate"}, false},
	{"sjbf with equal estimates is easy", "sjbf", "easy", ResearchParams{}, true},
}

// equalEstimates returns a copy of tr whose estimates are all the largest one.
func (tr *researchTrace) equalEstimates() *researchTrace {
	cp := *tr
	cp.jobs = append([]sim.Job(nil), tr.jobs...)
	var longest int64
	for _, j := range cp.jobs {
		longest = max(longest, j.Estimate)
	}
	for i := range cp.jobs {
		cp.jobs[i].Estimate = longest
	}
	return &cp
}

// baseRuns caches the base policies' schedules of one trace.
type baseRuns map[string][]sim.Job

// checkDegenerate runs degenerate case d on tr and compares it, job for job,
// with its base policy.
func checkDegenerate(tb testing.TB, tr *researchTrace, d int, noKill bool, cache baseRuns) {
	tb.Helper()
	c := degenerate[d]
	trace, key := tr, c.base
	if c.equalEstimates {
		trace = tr.equalEstimates()
		key += "/equal"
	}
	what := c.name + " on " + tr.name
	if noKill {
		key += "/nokill"
		what += " (--no-kill)"
	}
	if _, ok := cache[key]; !ok {
		cache[key], _ = trace.simulate(tb, c.base, ResearchParams{}, noKill)
	}
	got, _ := trace.simulate(tb, c.policy, c.params, noKill)
	sameSchedule(tb, what, got, cache[key])
}

// noKillTraces are the small traces on which the degenerate cases are also
// checked with --no-kill (both have jobs running past their estimates).
var noKillTraces = map[string]bool{"KTH-SP2-1996-2.1-cln.swf.gz": true, "HPC2N-2002-2-first3170.swf.gz": true}

// TestDegenerateCasesOnTraces holds every degenerate case on the small traces,
// and on two of them with --no-kill too.
func TestDegenerateCasesOnTraces(t *testing.T) {
	for _, name := range smallTraces {
		t.Run(name, func(t *testing.T) {
			tr := loadResearchTrace(t, name)
			cache := baseRuns{}
			for d := range degenerate {
				for _, noKill := range []bool{false, true} {
					if noKill && !noKillTraces[name] {
						continue
					}
					checkDegenerate(t, tr, d, noKill, cache)
				}
			}
		})
	}
}

// BenchmarkDegenerateCases holds every degenerate case on the big traces (and
// lublin_256), one sub-benchmark per trace and case:
//
//	go test -run XXX -bench DegenerateCases -benchtime 1x ./pkg/policy
//	go test -run XXX -bench 'DegenerateCases/RICC.*/timed' -benchtime 1x ./pkg/policy
func BenchmarkDegenerateCases(b *testing.B) {
	for _, name := range []string{"lublin_256.swf.gz", "CEA-Curie-2011-sample.swf.gz", "LANL-CM5-1994-4.1-cln.swf.gz", "KTH-SP2-1996-2-unfiltered.swf.gz",
		"LLNL-Atlas-2006-2.1-cln.swf.gz", "RICC-2010-2.swf.gz", "LCG-2005-1.swf.gz"} {
		for d, c := range degenerate {
			b.Run(name+"/"+c.policy, func(b *testing.B) {
				tr := loadResearchTrace(b, name)
				for range b.N {
					checkDegenerate(b, tr, d, false, baseRuns{})
				}
			})
		}
	}
}
