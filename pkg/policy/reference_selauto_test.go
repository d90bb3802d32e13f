package policy

// The selective reference (reference_selective_test.go) extended to the
// `auto` threshold and to non-default --well-estimated, --bsld-threshold and
// selective-d category boundaries, written from docs/swfsim-research.md
// ("Selective reservation"), `go doc ./pkg/policy Selective` and Srinivasan
// et al. sections 2 and 4.3 only, not from selective.go or selpass.go.
//
// What the documents say auto is:
//   - "a conservative run of the same trace first; threshold = average bounded
//     slowdown of its well-estimated jobs (per category for selective-d)";
//     conservative runs "with the same machine size and --no-kill setting".
//     The reference's conservative is its own selective with threshold 0
//     ("--threshold 0 is conservative backfilling, job for job"), checked
//     against reference_test.go's refRun on the random workloads.
//   - bounded slowdown (w + max(r, T)) / max(r, T), T = --bsld-threshold, w and
//     r as simulated (r after any kill); well estimated: estimate/F <= r <=
//     estimate*F, F = --well-estimated, r as simulated;
//   - categories by estimate (<= --category-runtime is short) and processors
//     (<= --category-procs is narrow);
//   - "A category without well-estimated jobs takes the overall average; if
//     no job at all is well estimated, auto averages all jobs."
//
// Ambiguities, and the reading taken:
//   - "if no job at all is well estimated, auto averages all jobs": for
//     selective-d this could be one average over all jobs for every category,
//     or per-category averages over all jobs. The doc comment says "auto uses
//     the average over all jobs" (one average), so the reference gives every
//     category the one average over all jobs (TestReferenceSelectiveAutoNoneWell
//     pins the case).
//   - The inequality estimate/F <= r <= estimate*F is evaluated as written,
//     in float64 (estimate divided by F); a form such as r*F >= estimate can
//     differ in the last bit for F like 1.1.
//   - The averages are summed in file order (the order of the jobs, which is
//     how a log is averaged); another order can differ in the last bit.

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// selRefAuto returns the auto thresholds (SN, SW, LN, LW; all four equal
// for selective) of cfg over jobs, and the number of jobs averaged.
func selRefAuto(jobs []refJob, procs int64, noKill bool, cfg selRefConfig) ([4]float64, int) {
	cons := cfg.cons
	if cons == nil {
		cons = selRefRun(jobs, procs, noKill, selRefConfig{}) // threshold 0: conservative
	}
	cfg = selRefDefaults(cfg)
	r := &selRefSim{cfg: cfg}
	r.jobs = jobs
	var sum [5]float64
	var count [5]int64
	var all float64
	for k, j := range jobs {
		run := j.run
		if !noKill && run > j.est {
			run = j.est
		}
		b := float64(max(run, cfg.bound))
		bsld := (float64(cons[k]-j.submit) + b) / b
		all += bsld
		if float64(j.est)/cfg.well > float64(run) || float64(run) > float64(j.est)*cfg.well {
			continue
		}
		for _, c := range []int{r.category(k), 4} {
			sum[c] += bsld
			count[c]++
		}
	}
	var th [4]float64
	if count[4] == 0 {
		if cfg.autoAllPerCategory { // the other reading, for TestReferenceSelectiveAutoNoneWell
			for k := range jobs {
				run := jobs[k].run
				if !noKill && run > jobs[k].est {
					run = jobs[k].est
				}
				b := float64(max(run, cfg.bound))
				bsld := (float64(cons[k]-jobs[k].submit) + b) / b
				sum[r.category(k)] += bsld
				count[r.category(k)]++
			}
			for c := range th {
				th[c] = all / float64(len(jobs))
				if cfg.differential && count[c] > 0 {
					th[c] = sum[c] / float64(count[c])
				}
			}
			return th, len(jobs)
		}
		avg := all / float64(len(jobs))
		return [4]float64{avg, avg, avg, avg}, len(jobs)
	}
	for c := range th {
		if cfg.differential && count[c] > 0 {
			th[c] = sum[c] / float64(count[c])
		} else {
			th[c] = sum[4] / float64(count[4])
		}
	}
	return th, int(count[4])
}

// selAutoCase is a selCase with auto thresholds: the reference computes them
// before it runs.
func selAutoCase(name, policy string, shortMax, narrow int64, well float64, bound int64, noKill bool) selCase {
	return selCase{name: name, policy: policy,
		ref: selRefConfig{differential: policy == "selective-d", auto: true,
			shortMax: shortMax, narrowMax: narrow, well: well, bound: bound},
		params: ResearchParams{Threshold: "auto", ShortMax: shortMax, NarrowMax: narrow,
			WellEstimated: well, SlowdownBound: bound, NoKill: noKill}}
}

// selAutoCases lists the auto settings, and adaptive ones with non-default
// --well-estimated and --bsld-threshold, compared on a machine with the
// given selective-d boundaries.
func selAutoCases(shortMax, narrow int64, noKill bool) []selCase {
	auto := func(policy string, well float64, bound int64) selCase {
		name := policy + "-auto"
		if well != 0 {
			name += fmt.Sprintf("-well%g", well)
		}
		if bound != 0 {
			name += fmt.Sprintf("-bsld%d", bound)
		}
		return selAutoCase(name, policy, shortMax, narrow, well, bound, noKill)
	}
	adaptive := func(policy string, scale, well float64, bound int64) selCase {
		c := selCase{name: fmt.Sprintf("%s-adaptive-well%g-bsld%d", policy, well, bound), policy: policy,
			ref: selRefConfig{differential: policy == "selective-d", adaptive: true, scale: scale,
				shortMax: shortMax, narrowMax: narrow, well: well, bound: bound},
			params: ResearchParams{Threshold: "adaptive", ShortMax: shortMax, NarrowMax: narrow,
				WellEstimated: well, SlowdownBound: bound, NoKill: noKill}}
		if scale != 0 {
			c.name = fmt.Sprintf("%s-scaled-adaptive:%g-well%g-bsld%d", policy, scale, well, bound)
			c.params.Threshold = fmt.Sprintf("scaled-adaptive:%g", scale)
		}
		return c
	}
	dflt := auto("selective", 0, 0)
	dflt.name, dflt.params.Threshold = "selective-default", "" // empty means auto
	return []selCase{
		dflt,
		auto("selective", 0, 0),
		auto("selective-d", 0, 0),
		auto("selective", 1, 0),
		auto("selective", 1.1, 1),
		auto("selective-d", 4, 60),
		auto("selective-d", 1e12, 3600),
		auto("selective", 1.5, 100),
		adaptive("selective", 0, 1.1, 1),
		adaptive("selective-d", 0, 4, 60),
		adaptive("selective", 1.5, 1e12, 3600),
		adaptive("selective-d", 0, 1, 100),
	}
}

// compareSelectiveCounts is compareSelective that also checks the counts
// the Note reports: jobs promoted ("N jobs got a reservation") and, for auto,
// the jobs the thresholds averaged (AutoJobs).
func compareSelectiveCounts(t *testing.T, c selCase, procs int64, noKill bool, jobs []sim.Job) {
	t.Helper()
	want, promotions, autoJobs := selRefRunStats(toRef(jobs), procs, noKill, c.ref)
	info, _ := Lookup(c.policy)
	p, err := info.New(Params{Research: c.params}, len(jobs))
	if err != nil {
		t.Fatal(err)
	}
	got := append([]sim.Job(nil), jobs...)
	s, err := sim.New(sim.Config{Procs: procs, NoKill: noKill}, got)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(p); err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i := range got {
		if got[i].Start != want[i] {
			if bad < 3 {
				j := jobs[i]
				t.Errorf("%s job %d (submit %d, run %d, est %d, procs %d): start %d, reference %d",
					c, i, j.Submit, j.Runtime, j.Estimate, j.Procs, got[i].Start, want[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d start times differ from the reference", c, bad, len(got))
		return
	}
	sel, ok := p.(*Selective)
	if !ok {
		t.Fatalf("%s is a %T, not a *Selective", c.policy, p)
	}
	if sel.Promotions != int64(promotions) {
		t.Errorf("%s: %d jobs got a reservation, reference %d", c, sel.Promotions, promotions)
	}
	if c.ref.auto && sel.AutoJobs != int64(autoJobs) {
		t.Errorf("%s: auto thresholds averaged %d jobs, reference %d", c, sel.AutoJobs, autoJobs)
	}
}

func TestReferenceSelectiveAutoRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	for round := range referenceRounds(10, 4) {
		procs := int64(1 + rng.Intn(32))
		var jobs []sim.Job
		if round%4 == 3 {
			jobs = bagWorkload(rng, 20+rng.Intn(120), procs)
		} else {
			jobs = randomWorkload(rng, 20+rng.Intn(120), procs)
		}
		for _, noKill := range []bool{false, true} {
			// The reference's conservative is its selective with threshold 0.
			cons := selRefRun(toRef(jobs), procs, noKill, selRefConfig{})
			if ref := refRun(toRef(jobs), procs, noKill, "conservative"); !slices.Equal(cons, ref) {
				t.Fatalf("%d/nokill=%v: selective reference at threshold 0 is not refRun's conservative", round, noKill)
			}
			for _, c := range selAutoCases(50, max(1, procs/2), noKill) {
				c.ref.cons = cons
				t.Run(fmt.Sprintf("%d/%s/nokill=%v", round, c, noKill), func(t *testing.T) {
					compareSelectiveCounts(t, c, procs, noKill, jobs)
				})
			}
		}
	}
}

// TestReferenceSelectiveAutoTraces compares 1,000-job slices of two real
// traces (KTH-SP2, whose estimates are user estimates, and LANL-CM5, whose
// jobs take 32 processors or more) under auto, with the default and with
// other selective-d boundaries, and with the conservative run given from
// outside (ResearchParams.ConservativeStarts, as swfsim --fair-start shares
// it).
func TestReferenceSelectiveAutoTraces(t *testing.T) {
	traces := []traceSlice{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 3000, 1000, 1},
		{"LANL-CM5-1994-4.1-cln.swf.gz", 21000, 1000, 1},
	}
	if testing.Short() {
		traces = traces[:1]
	}
	for _, tc := range traces {
		procs, jobs := tc.load(t)
		for _, noKill := range []bool{false, true} {
			cases := []selCase{
				selAutoCase("selective-auto", "selective", 0, 0, 0, 0, noKill),
				selAutoCase("selective-d-auto", "selective-d", 0, 0, 0, 0, noKill),
				selAutoCase("selective-d-auto-600s-64p-well1.5-bsld60", "selective-d", 600, 64, 1.5, 60, noKill),
			}
			shared := selAutoCase("selective-d-auto-shared", "selective-d", 0, 0, 0, 0, noKill)
			cons, err := ConservativeStarts(sim.Config{Procs: procs, NoKill: noKill}, append([]sim.Job(nil), jobs...))
			if err != nil {
				t.Fatal(err)
			}
			shared.params.ConservativeStarts = cons
			cases = append(cases, shared)
			ref := selRefRun(toRef(jobs), procs, noKill, selRefConfig{}) // the reference's conservative, once
			for _, c := range cases {
				c.ref.cons = ref
				t.Run(fmt.Sprintf("%s/%s/nokill=%v", tc.name, c, noKill), func(t *testing.T) {
					compareSelectiveCounts(t, c, procs, noKill, jobs)
				})
			}
		}
	}
}

// TestReferenceSelectiveAutoNoneWell pins the reading taken where the
// documentation is ambiguous: with no well-estimated job, selective-d's auto
// gives every category the one average over all jobs ("auto uses the average
// over all jobs"), not per-category averages over all jobs. Three
// processors, kills, --category-runtime 10, --category-procs 1,
// --well-estimated 1 (only runtime = estimate counts; no job has it). Job 0
// (3 procs, est 11, runs 10, submit 1; LW), job 1 (3 procs, est 19, runs 1,
// submit 1; LW), job 2 (2 procs, est 8, runs 4, submit 1; SW).
//
// Conservative: job 0 runs 1-11; at 11 job 1 starts, ends 12; job 2 starts
// 12. Bounded slowdowns (bound 10): job 0 (0+10)/10 = 1, job 1 (10+10)/10 = 2,
// job 2 (11+10)/10 = 2.1; one average 5.1/3 = 1.7.
//
// One average (documented): at 11 job 1's XFactor (10+19)/19 = 1.53 does not
// exceed 1.7, job 2's (10+8)/8 = 2.25 does: job 2 is reserved at 11 and
// starts; job 1 (3 procs) no longer fits. At 15 job 2 ends, job 1's XFactor
// 33/19 = 1.74 > 1.7: it starts at 15. Starts 1, 15, 11.
//
// Per category over all jobs: LW = (1+2)/2 = 1.5, SW = 2.1. At 11 job 1 (1.53
// > 1.5) is promoted first and starts at 11; job 2 (2.25 > 2.1) is reserved
// behind it and moves to 12 when job 1 ends. Starts 1, 11, 12 (conservative's).
func TestReferenceSelectiveAutoNoneWell(t *testing.T) {
	jobs := []sim.Job{
		{Submit: 1, Runtime: 10, Estimate: 11, Procs: 3},
		{Submit: 1, Runtime: 1, Estimate: 19, Procs: 3},
		{Submit: 1, Runtime: 4, Estimate: 8, Procs: 2},
	}
	for i := range jobs {
		jobs[i].Queue, jobs[i].User = -1, -1
	}
	c := selAutoCase("selective-d-auto", "selective-d", 10, 1, 1, 0, false)
	documented := []int64{1, 15, 11}
	if th, n := selRefAuto(toRef(jobs), 3, false, selRefDefaults(c.ref)); n != 3 || slices.ContainsFunc(th[:], func(x float64) bool { return math.Abs(x-1.7) > 1e-9 }) {
		t.Fatalf("reference: auto thresholds %v over %d jobs, want 1.7 over 3", th, n)
	}
	if got := selRefRun(toRef(jobs), 3, false, c.ref); !slices.Equal(got, documented) {
		t.Fatalf("reference: starts %v, want %v", got, documented)
	}
	other := c.ref
	other.autoAllPerCategory = true
	if got, want := selRefRun(toRef(jobs), 3, false, other), []int64{1, 11, 12}; !slices.Equal(got, want) {
		t.Fatalf("reference, per-category reading: starts %v, want %v", got, want)
	}
	compareSelectiveCounts(t, c, 3, false, jobs) // AutoJobs: all 3 jobs
	got := runPolicyWith(t, c.policy, Params{Research: c.params}, 3, false, jobs)
	for i := range documented {
		if got[i].Start != documented[i] {
			t.Errorf("selective-d auto, no job well estimated: job %d starts at %d, want %d (one average over all jobs)",
				i, got[i].Start, documented[i])
		}
	}
}
