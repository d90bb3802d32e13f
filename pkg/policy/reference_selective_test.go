package policy

// A second, deliberately simple implementation of selective reservation
// (selective and selective-d; Srinivasan, Kettimuthu, Subramani & Sadayappan,
// JSSPP 2002, section 4.1, and the choices of docs/swfsim-research.md),
// written from the documentation and the paper without reading selective.go
// or selpass.go. Plain slices: the guaranteed jobs' reservations are placed
// from scratch in an interval list (reference_test.go's), and a no-guarantee
// job starts when it fits at now for its whole estimate beside them.
//
// What it checks, start time for start time, against the real policies:
// selective with fixed thresholds (0, 1, 1.5, 2, 3, 10, 1e9), selective-d with
// per-category thresholds, and the adaptive and scaled-adaptive thresholds,
// with kills and --no-kill, on random workloads and on slices of the real
// traces (the auto threshold and non-default --well-estimated and
// --bsld-threshold: reference_selauto_test.go). The documentation's choices
// it follows: promotion checked in every pass before anything starts, in
// arrival order; "exceeds" strict; estimate 0
// counting as 1 s; categories by estimate; the guaranteed queue compressed
// after ends (rebuilt when a job is overdue) like conservative's, in arrival
// order (TestReferenceSelectiveGuaranteedOrder); adaptive averages of the
// paper's bounded slowdown over completed jobs that are well estimated by
// their simulated runtime (after any kill;
// TestReferenceSelectiveWellEstimatedKilled), infinite before the first.

import (
	"cmp"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"sort"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// selRefConfig is what the reference needs to know of a selective setting.
type selRefConfig struct {
	differential bool       // selective-d: thresholds per category
	thresholds   [4]float64 // SN, SW, LN, LW (selective: all four equal)
	adaptive     bool       // running average of completed well-estimated jobs
	scale        float64    // scaled-adaptive factor (adaptive only; 0 means 1)
	shortMax     int64      // 0: DefaultShortMax
	narrowMax    int64      // 0: DefaultNarrowMax
	well         float64    // 0: DefaultWellEstimated
	bound        int64      // 0: DefaultSlowdownBound
	auto         bool       // thresholds from a conservative run first (reference_selauto_test.go)
	// autoAllPerCategory: with no well-estimated job, auto averages all jobs
	// per category (false: one average over all jobs for every category).
	autoAllPerCategory bool
	// cons, if not nil, is the reference's own conservative schedule of the
	// same jobs (selRefRun at threshold 0), which auto would compute.
	cons []int64
	// promotionOrder keeps the guaranteed queue (compression and rebuild
	// order) in promotion order; false keeps it in arrival order.
	promotionOrder bool
}

type selRefSim struct {
	refSim
	cfg        selRefConfig
	noGuar     []int // the no-guarantee queue, arrival order
	guaranteed []int // the all-guaranteed queue, arrival order
	sum        [5]float64
	count      [5]int64 // adaptive: per category, [4] overall
	promotions int      // jobs moved to the guaranteed queue
}

// selRefRun simulates jobs under cfg and returns their start times.
func selRefRun(jobs []refJob, procs int64, noKill bool, cfg selRefConfig) []int64 {
	start, _, _ := selRefRunStats(jobs, procs, noKill, cfg)
	return start
}

// selRefRunStats is selRefRun that also returns the number of jobs promoted
// and, for auto, the number of jobs the thresholds averaged.
func selRefRunStats(jobs []refJob, procs int64, noKill bool, cfg selRefConfig) (start []int64, promotions, autoJobs int) {
	cfg = selRefDefaults(cfg)
	if cfg.auto {
		cfg.thresholds, autoJobs = selRefAuto(jobs, procs, noKill, cfg)
		cfg.auto = false
	}
	n := len(jobs)
	r := &selRefSim{cfg: cfg}
	r.refSim = refSim{procs: procs, noKill: noKill, jobs: jobs,
		start: make([]int64, n), end: make([]int64, n), held: make([]int64, n), resv: make([]int64, n)}
	for i := range r.resv {
		r.resv[i] = -1
	}
	order := arrivalOrder(n, func(i int) int64 { return jobs[i].submit })
	return r.run(order), r.promotions, autoJobs
}

// selRefDefaults fills in the documented defaults of cfg's zero fields.
func selRefDefaults(cfg selRefConfig) selRefConfig {
	if cfg.shortMax == 0 {
		cfg.shortMax = DefaultShortMax
	}
	if cfg.narrowMax == 0 {
		cfg.narrowMax = DefaultNarrowMax
	}
	if cfg.well == 0 {
		cfg.well = DefaultWellEstimated
	}
	if cfg.bound == 0 {
		cfg.bound = DefaultSlowdownBound
	}
	if cfg.scale == 0 {
		cfg.scale = 1
	}
	return cfg
}

// run simulates the jobs, given in arrival order, and returns the starts.
func (r *selRefSim) run(order []int) []int64 {
	jobs, n := r.jobs, len(r.jobs)
	next, done := 0, 0
	for done < n {
		t := int64(1) << 62
		if next < n {
			t = jobs[order[next]].submit
		}
		for _, k := range r.running {
			t = min(t, r.end[k])
		}
		r.now = t
		ended := false
		var still []int
		for _, k := range r.running {
			if r.end[k] == t {
				ended = true
				done++
				r.completed(k)
			} else {
				still = append(still, k)
			}
		}
		r.running = still
		for next < n && jobs[order[next]].submit == t {
			r.noGuar = append(r.noGuar, order[next])
			next++
		}
		r.pass(ended)
	}
	return r.start
}

// category is 0 SN, 1 SW, 2 LN, 3 LW, by estimate and processors.
func (r *selRefSim) category(k int) int {
	c := 0
	if r.jobs[k].est > r.cfg.shortMax {
		c += 2
	}
	if r.jobs[k].procs > r.cfg.narrowMax {
		c++
	}
	return c
}

// completed adds a job's bounded slowdown (section 2, from the simulated wait
// and runtime) to the adaptive averages if it is well estimated.
func (r *selRefSim) completed(k int) {
	run, est := r.end[k]-r.start[k], r.jobs[k].est
	if float64(est)/r.cfg.well > float64(run) || float64(run) > float64(est)*r.cfg.well {
		return
	}
	b := float64(max(run, r.cfg.bound))
	bsld := (float64(r.start[k]-r.jobs[k].submit) + b) / b
	for _, c := range []int{r.category(k), 4} {
		r.sum[c] += bsld
		r.count[c]++
	}
}

func (r *selRefSim) threshold(k int) float64 {
	c := r.category(k)
	if !r.cfg.adaptive {
		if !r.cfg.differential {
			return r.cfg.thresholds[0]
		}
		return r.cfg.thresholds[c]
	}
	if !r.cfg.differential || r.count[c] == 0 {
		c = 4
	}
	if r.count[c] == 0 {
		return math.Inf(1)
	}
	return r.cfg.scale * r.sum[c] / float64(r.count[c])
}

// xfactor is (wait + estimate) / estimate, estimate 0 counting as 1 s.
func (r *selRefSim) xfactor(k int) float64 {
	e := max(r.jobs[k].est, 1)
	return float64(r.now-r.jobs[k].submit+e) / float64(e)
}

// pass is one scheduling pass: the guaranteed queue as conservative treats
// its jobs (rebuild when a job is overdue, compression after ends), then
// promotions in arrival order, starts at reservations, and the no-guarantee
// jobs that fit now in arrival order.
func (r *selRefSim) pass(ended bool) {
	r.queue = r.guaranteed // refSim.intervals reads r.queue
	overdue := false
	for _, k := range r.running {
		if r.held[k] <= r.now {
			r.held[k] = r.now + 1
			overdue = true
		}
	}
	for _, k := range r.guaranteed {
		if r.resv[k] < r.now {
			overdue = true
		}
	}
	switch {
	case overdue:
		for _, k := range r.guaranteed {
			r.resv[k] = -1
		}
		for _, k := range r.guaranteed {
			r.place(k)
		}
	case ended:
		for _, k := range r.guaranteed {
			before := r.resv[k]
			r.place(k)
			if r.resv[k] > before {
				panic("selective reference: compression moved a job later")
			}
		}
	}
	var stay []int
	for _, k := range r.noGuar {
		if r.xfactor(k) > r.threshold(k) {
			r.promotions++
			r.guaranteed = append(r.guaranteed, k)
			if !r.cfg.promotionOrder {
				sort.SliceStable(r.guaranteed, func(a, b int) bool {
					ja, jb := r.guaranteed[a], r.guaranteed[b]
					return r.jobs[ja].submit < r.jobs[jb].submit ||
						r.jobs[ja].submit == r.jobs[jb].submit && ja < jb
				})
			}
			r.queue = r.guaranteed
			r.place(k)
		} else {
			stay = append(stay, k)
		}
	}
	r.noGuar = stay
	for _, k := range append([]int(nil), r.guaranteed...) {
		if r.resv[k] == r.now {
			r.queue = r.guaranteed
			r.startJob(k)
			r.guaranteed = r.queue
			r.resv[k] = -1
		}
	}
	r.queue = r.guaranteed
	ivs := r.intervals(-1)
	stay = nil
	for _, k := range r.noGuar {
		j := r.jobs[k]
		if fitsNow(ivs, r.procs, r.now, max(j.est, 1), j.procs) {
			r.queue = append(append([]int(nil), r.guaranteed...), k) // startJob removes it
			r.startJob(k)
			ivs = append(ivs, interval{r.now, r.held[k], j.procs})
		} else {
			stay = append(stay, k)
		}
	}
	r.noGuar = stay
}

// place reserves job k at its earliest start in the profile of the running
// jobs and the other reservations. It is reference_test.go's place with
// earliestSteps, which gives the same start (both try now and every time
// processors are freed) in O(m log m) instead of O(m^3) for m intervals.
func (r *selRefSim) place(k int) {
	j := r.jobs[k]
	r.resv[k] = earliestSteps(r.intervals(k), r.procs, r.now, max(j.est, 1), j.procs)
}

// earliestSteps turns the intervals into a step function of the free
// processors from `from` on and slides a window of d seconds over it.
func earliestSteps(ivs []interval, procs, from, d, need int64) int64 {
	type change struct{ at, delta int64 }
	var changes []change
	for _, iv := range ivs {
		if iv.to > from {
			changes = append(changes, change{max(iv.from, from), -iv.procs}, change{iv.to, iv.procs})
		}
	}
	slices.SortFunc(changes, func(a, b change) int { return cmp.Compare(a.at, b.at) })
	type step struct{ at, free int64 } // free from at to the next step
	steps := []step{{from, procs}}
	for _, c := range changes {
		if last := &steps[len(steps)-1]; last.at == c.at {
			last.free += c.delta
		} else {
			steps = append(steps, step{c.at, last.free + c.delta})
		}
	}
	for i := 0; i < len(steps); {
		fits := true
		for j := i; j < len(steps) && steps[j].at < steps[i].at+d; j++ {
			if steps[j].free < need {
				fits, i = false, j+1
				break
			}
		}
		if fits {
			return steps[i].at
		}
	}
	panic("selective reference: no fit")
}

// fitsNow says whether need processors are free from now for d seconds:
// at now and at every interval start inside the window.
func fitsNow(ivs []interval, procs, now, d, need int64) bool {
	if freeAt(ivs, procs, now) < need {
		return false
	}
	for _, iv := range ivs {
		if iv.from > now && iv.from < now+d && freeAt(ivs, procs, iv.from) < need {
			return false
		}
	}
	return true
}

// selCase is one selective setting compared with selRefRun.
type selCase struct {
	name   string // subtest name
	policy string
	ref    selRefConfig
	params ResearchParams
}

func (c selCase) String() string { return c.name }

// selCases lists the settings compared on a machine of procs processors:
// selective with fixed thresholds (0 is conservative, 1 promotes after one
// second of wait, 1e9 never promotes), selective-d with per-category
// thresholds and the given boundaries, and the adaptive thresholds.
func selCases(shortMax, narrow int64, noKill bool) []selCase {
	fixed := func(x float64) selCase {
		return selCase{name: fmt.Sprintf("selective-%g", x), policy: "selective",
			ref:    selRefConfig{thresholds: [4]float64{x, x, x, x}},
			params: ResearchParams{Threshold: fmt.Sprint(x), NoKill: noKill}}
	}
	diff := func(x [4]float64) selCase {
		s := fmt.Sprintf("%g,%g,%g,%g", x[0], x[1], x[2], x[3])
		return selCase{name: "selective-d-" + s, policy: "selective-d",
			ref:    selRefConfig{differential: true, thresholds: x, shortMax: shortMax, narrowMax: narrow},
			params: ResearchParams{Threshold: s, ShortMax: shortMax, NarrowMax: narrow, NoKill: noKill}}
	}
	adaptive := func(policy string, scale float64) selCase {
		c := selCase{name: policy + "-adaptive", policy: policy,
			ref:    selRefConfig{differential: policy == "selective-d", adaptive: true, scale: scale, shortMax: shortMax, narrowMax: narrow},
			params: ResearchParams{Threshold: "adaptive", ShortMax: shortMax, NarrowMax: narrow, NoKill: noKill}}
		if scale != 0 {
			c.name = fmt.Sprintf("%s-scaled-adaptive:%g", policy, scale)
			c.params.Threshold = fmt.Sprintf("scaled-adaptive:%g", scale)
		}
		return c
	}
	return []selCase{
		fixed(0), fixed(1), fixed(1.5), fixed(2), fixed(3), fixed(10), fixed(1e9),
		diff([4]float64{1, 2, 1.5, 3}),
		diff([4]float64{0, 5, 1.2, 1e9}),
		diff([4]float64{4, 1, 1e9, 1.1}),
		adaptive("selective", 0),
		adaptive("selective", 1.5),
		adaptive("selective-d", 0),
	}
}

// selTraceCases is the part of selCases the default trace comparisons run.
func selTraceCases(shortMax, narrow int64, noKill bool) []selCase {
	all := selCases(shortMax, narrow, noKill)
	return []selCase{all[2], all[4], all[7], all[11], all[12]}
}

// compareSelective runs c's policy and the reference over jobs and reports
// every start time that differs; it returns the number that differ.
func compareSelective(t *testing.T, c selCase, procs int64, noKill bool, jobs []sim.Job) int {
	t.Helper()
	want := selRefRun(toRef(jobs), procs, noKill, c.ref)
	got := runPolicyWith(t, c.policy, Params{Research: c.params}, procs, noKill, append([]sim.Job(nil), jobs...))
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
	}
	return bad
}

func TestReferenceSelectiveRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	for round := range referenceRounds(16, 6) {
		procs := int64(1 + rng.Intn(32))
		var jobs []sim.Job
		if round%4 == 3 {
			jobs = bagWorkload(rng, 20+rng.Intn(120), procs)
		} else {
			jobs = randomWorkload(rng, 20+rng.Intn(120), procs)
		}
		for _, noKill := range []bool{false, true} {
			for _, c := range selCases(50, max(1, procs/2), noKill) {
				t.Run(fmt.Sprintf("%d/%s/nokill=%v", round, c, noKill), func(t *testing.T) {
					compareSelective(t, c, procs, noKill, jobs)
				})
			}
		}
	}
}

// TestReferenceSelectiveTraces compares slices of the real traces where
// jobs wait (waitingSlices), a fifth as long as the other cross-checks'
// with five of the settings; with -long, four times longer with every one
// (about 4 CPU minutes).
func TestReferenceSelectiveTraces(t *testing.T) {
	cases := selTraceCases
	if *long {
		cases = selCases
	}
	for _, tc := range waitingSlices(5) {
		procs, jobs := tc.load(t)
		for _, noKill := range []bool{false, true} {
			for _, c := range cases(DefaultShortMax, DefaultNarrowMax, noKill) {
				t.Run(fmt.Sprintf("%s/%s/nokill=%v", tc.name, c, noKill), func(t *testing.T) {
					compareSelective(t, c, procs, noKill, jobs)
				})
			}
		}
	}
}

// TestReferenceSelectiveGuaranteedOrder pins the one reading the comparisons
// found the documentation leaves open: the guaranteed queue is compressed
// (and rebuilt) in arrival order, as conservative's queue, not in the order
// jobs were promoted. Two processors, threshold 3, kills. Job 0 (1 proc,
// estimate 27, runs 10) starts at 3. At 10 job 2 (2 procs, 1 s, submitted 7)
// has XFactor 4 > 3 and gets a reservation at 30, behind job 0's estimate;
// job 3 (1 proc, estimate 14, runs 8) starts beside job 0. At 13 job 0 ends:
// job 2 moves to 24 (job 3's estimate), and job 1 (2 procs, 3 s, submitted
// 6, XFactor 10/3) is promoted behind it at 25. At 18 job 3 ends and the
// compression re-inserts job 1 first (it arrived first): 18, then job 2 at 21.
// Compressing in promotion order would give job 2 18 and job 1 19.
func TestReferenceSelectiveGuaranteedOrder(t *testing.T) {
	jobs := []sim.Job{
		{Submit: 3, Runtime: 10, Estimate: 27, Procs: 1},
		{Submit: 6, Runtime: 3, Estimate: 3, Procs: 2},
		{Submit: 7, Runtime: 1, Estimate: 1, Procs: 2},
		{Submit: 10, Runtime: 8, Estimate: 14, Procs: 1},
	}
	for i := range jobs {
		jobs[i].Queue, jobs[i].User = -1, -1
	}
	cfg := selRefConfig{thresholds: [4]float64{3, 3, 3, 3}}
	arrival := []int64{3, 18, 21, 10}
	if got := selRefRun(toRef(jobs), 2, false, cfg); !slices.Equal(got, arrival) {
		t.Fatalf("reference, arrival order: starts %v, want %v", got, arrival)
	}
	cfg.promotionOrder = true
	if got, want := selRefRun(toRef(jobs), 2, false, cfg), []int64{3, 19, 18, 10}; !slices.Equal(got, want) {
		t.Fatalf("reference, promotion order: starts %v, want %v", got, want)
	}
	got := runPolicyWith(t, "selective", Params{Research: ResearchParams{Threshold: "3"}}, 2, false, jobs)
	for i := range arrival {
		if got[i].Start != arrival[i] {
			t.Errorf("selective --threshold 3: job %d starts at %d, want %d (guaranteed queue compressed in arrival order)",
				i, got[i].Start, arrival[i])
		}
	}
}

// TestReferenceSelectiveWellEstimatedKilled pins the second reading the
// documentation leaves open: a job killed at its estimate is well estimated
// for the adaptive threshold (its simulated runtime equals its estimate),
// whatever its runtime in the trace. Three processors, adaptive, kills. Job 0
// (1 proc, estimate 3, runs 9) is killed at 6 with bounded slowdown 1, so the
// threshold becomes 1. Job 1 (3 procs, estimate 0) waits behind job 2 (2
// procs, 5-8); at 6 both it (XFactor 3) and job 3 (1 proc, estimate 5,
// XFactor 1.2) are promoted: job 1 reserves 8 and job 3 9, moved to 8 when job
// 1 is killed at once. Judged by the trace's runtime (9 > 2 x 3) job 0 would
// not count, the threshold would stay infinite and job 3 would start at 6 in
// the processor job 2 leaves free.
func TestReferenceSelectiveWellEstimatedKilled(t *testing.T) {
	jobs := []sim.Job{
		{Submit: 3, Runtime: 9, Estimate: 3, Procs: 1},
		{Submit: 4, Runtime: 2, Estimate: 0, Procs: 3},
		{Submit: 5, Runtime: 11, Estimate: 3, Procs: 2},
		{Submit: 5, Runtime: 1, Estimate: 5, Procs: 1},
	}
	for i := range jobs {
		jobs[i].Queue, jobs[i].User = -1, -1
	}
	want := []int64{3, 8, 5, 8}
	if got := selRefRun(toRef(jobs), 3, false, selRefConfig{adaptive: true}); !slices.Equal(got, want) {
		t.Fatalf("reference: starts %v, want %v", got, want)
	}
	got := runPolicyWith(t, "selective", Params{Research: ResearchParams{Threshold: "adaptive"}}, 3, false, jobs)
	for i := range want {
		if got[i].Start != want[i] {
			t.Errorf("selective --threshold adaptive: job %d starts at %d, want %d (killed job 0 well estimated)",
				i, got[i].Start, want[i])
		}
	}
}
