package policy

import (
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

func TestFairStarts(t *testing.T) {
	for _, tc := range []struct {
		name string
		jobs []rjob
		want []int64
	}{
		{
			// Conservative runs A at 0, reserves B (all 4 processors) at 100,
			// backfills C at 2 and reserves D at 52. Strict FCFS from each
			// arrival: A at 0; B after A, 100; C after B, 110; D after B (A and C
			// done by 100), 110.
			name: "exact estimates",
			jobs: []rjob{
				{submit: 0, procs: 2, runtime: 100, estimate: 100},
				{submit: 1, procs: 4, runtime: 10, estimate: 10},
				{submit: 2, procs: 2, runtime: 50, estimate: 50},
				{submit: 3, procs: 2, runtime: 20, estimate: 20},
			},
			want: []int64{0, 100, 110, 110},
		},
		{
			// A really ends at 60, not at its estimate 100: the fair starts use
			// the real ends, B at 60, C and D after B at 70.
			name: "real runtimes",
			jobs: []rjob{
				{submit: 0, procs: 2, runtime: 60, estimate: 100},
				{submit: 1, procs: 4, runtime: 10, estimate: 10},
				{submit: 2, procs: 2, runtime: 50, estimate: 50},
				{submit: 3, procs: 2, runtime: 20, estimate: 20},
			},
			want: []int64{0, 60, 70, 70},
		},
		{
			// Killed at the estimate: A's 500 s run is cut at 100.
			name: "kill at estimate",
			jobs: []rjob{
				{submit: 0, procs: 4, runtime: 500, estimate: 100},
				{submit: 5, procs: 1, runtime: 1, estimate: 1},
				{submit: 5, procs: 4, runtime: 1, estimate: 1},
				{submit: 5, procs: 1, runtime: 1, estimate: 1},
			},
			want: []int64{0, 100, 101, 102},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jobs := rcase{jobs: tc.jobs}.simJobs()
			got, err := FairStarts(sim.Config{Procs: 4}, jobs)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("FairStarts = %v, want %v", got, tc.want)
			}
			for i := range jobs {
				if jobs[i].State != sim.Pending || jobs[i].Start != 0 {
					t.Fatalf("FairStarts modified its input job %d", i)
				}
			}
		})
	}
}

func TestParseThreshold(t *testing.T) {
	for _, tc := range []struct {
		spec    string
		diff    bool
		kind    thresholdKind
		values  [4]float64
		scale   float64
		wantErr string
	}{
		{spec: "", kind: thrAuto},
		{spec: "auto", kind: thrAuto},
		{spec: "adaptive", kind: thrAdaptive, scale: 1},
		{spec: "scaled-adaptive:1.5", kind: thrAdaptive, scale: 1.5},
		{spec: "3.92", kind: thrFixed, values: [4]float64{3.92, 3.92, 3.92, 3.92}},
		{spec: "0", kind: thrFixed},
		{spec: "3.55,21.53,1.35,2.27", diff: true, kind: thrFixed, values: [4]float64{3.55, 21.53, 1.35, 2.27}},
		{spec: "LW=2.27,SN=3.55,sw=21.53,LN=1.35", diff: true, kind: thrFixed, values: [4]float64{3.55, 21.53, 1.35, 2.27}},
		{spec: "3.55,21.53,1.35,2.27", wantErr: "selective takes one number"},
		{spec: "1,2,3", diff: true, wantErr: "one number or four"},
		{spec: "SN=1,SN=2,LN=3,LW=4", diff: true, wantErr: "each category once"},
		{spec: "SN=1,XX=2,LN=3,LW=4", diff: true, wantErr: "each category once"},
		{spec: "-1", wantErr: "not a number >= 0"},
		{spec: "NaN", wantErr: "not a number >= 0"},
		{spec: "fast", wantErr: "not a number >= 0"},
		{spec: "scaled-adaptive:0", wantErr: "positive"},
		{spec: "scaled-adaptive:", wantErr: "positive"},
		{spec: "scaled-adaptive:inf", wantErr: "positive"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			r, err := parseThreshold(tc.spec, tc.diff)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("parseThreshold(%q) error = %v, want %q", tc.spec, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.kind != tc.kind || r.values != tc.values || r.scale != tc.scale {
				t.Errorf("parseThreshold(%q) = %+v", tc.spec, r)
			}
		})
	}
}

func TestResearchParamErrors(t *testing.T) {
	for _, tc := range []struct {
		policy  string
		params  ResearchParams
		wantErr string
	}{
		{"selective", ResearchParams{Threshold: "x"}, "not a number"},
		{"selective-d", ResearchParams{WellEstimated: 0.5}, "--well-estimated >= 1"},
		{"timed-easy", ResearchParams{Trial: -5}, "negative"},
		{"easy-p", ResearchParams{Predictor: "last3"}, "unknown predictor"},
		{"easy++", ResearchParams{Corrector: "triple"}, "unknown corrector"},
		{"sjbf", ResearchParams{Corrector: "ladder", Ladder: []int64{5, 1}}, "strictly increasing"},
	} {
		info, _ := Lookup(tc.policy)
		_, err := info.New(Params{Research: tc.params}, 1)
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s %+v: error %v, want %q", tc.policy, tc.params, err, tc.wantErr)
		}
	}
}

func TestRunViewShadow(t *testing.T) {
	var v runView
	jobs := []sim.Job{{ID: 0, Procs: 2}, {ID: 1, Procs: 3}, {ID: 2, Procs: 1}, {ID: 3, Procs: 4}}
	v.add(&jobs[0], 50)
	v.add(&jobs[1], 30)
	v.add(&jobs[2], 50)
	v.add(&jobs[3], 8) // overdue at now = 10: expected at 11
	for _, tc := range []struct {
		from, free, procs, shadow, extra int64
	}{
		{from: 10, free: 3, procs: 3, shadow: 10, extra: 0},
		{from: 10, free: 0, procs: 4, shadow: 11, extra: 0},
		{from: 10, free: 1, procs: 6, shadow: 30, extra: 2},
		{from: 10, free: 1, procs: 8, shadow: 30, extra: 0},
		{from: 10, free: 1, procs: 9, shadow: 50, extra: 2}, // both jobs ending at 50 count
		{from: 40, free: 1, procs: 4, shadow: 50, extra: 7}, // not before 40
		{from: 60, free: 0, procs: 4, shadow: 60, extra: 6}, // all done before 60
	} {
		s, e := v.shadow(10, tc.from, tc.free, tc.procs)
		if s != tc.shadow || e != tc.extra {
			t.Errorf("shadow(from %d, free %d, procs %d) = %d, %d; want %d, %d", tc.from, tc.free, tc.procs, s, e, tc.shadow, tc.extra)
		}
	}
	v.remove(&jobs[1], 30)
	if s, _ := v.shadow(10, 10, 1, 6); s != 50 {
		t.Errorf("after remove: shadow %d, want 50", s)
	}
	defer func() {
		if recover() == nil {
			t.Error("removing an absent job did not panic")
		}
	}()
	v.remove(&jobs[1], 30)
}

func FuzzParseThreshold(f *testing.F) {
	for _, s := range []string{"auto", "adaptive", "scaled-adaptive:1.5", "3.92", "0", "3.55,21.53,1.35,2.27",
		"SN=1,SW=2,LN=3,LW=4", "sn=1,SN=2", "1e400", "-0", "scaled-adaptive:-1", ",,,"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, spec string, diff bool) {
		r, err := parseThreshold(spec, diff)
		if err != nil {
			return
		}
		for _, v := range r.values {
			if v < 0 || v != v {
				t.Fatalf("parseThreshold(%q) accepted threshold %v", spec, v)
			}
		}
		if r.kind == thrAdaptive && !(r.scale > 0) {
			t.Fatalf("parseThreshold(%q) accepted scale %v", spec, r.scale)
		}
		if !diff && r.kind == thrFixed && (r.values[1] != r.values[0] || r.values[3] != r.values[0]) {
			t.Fatalf("selective threshold %q gave per-category values %v", spec, r.values)
		}
	})
}

// Continuing the last arrival's play (arrivals of one round) gives what
// playing the queue from scratch at every arrival gives.
// TestFairStartsContinuedPlay holds FairStarts, which plays a finished
// conservative schedule again only from the first changed start (fcfsplay.go),
// to strict-FCFS plays from scratch at every arrival inside the conservative
// simulation, on random workloads (bags of equal jobs, many starts at once,
// kills, zero runtimes).
func TestFairStartsContinuedPlay(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for round := 0; round < 400; round++ {
		procs := int64(1 + rng.Intn(24))
		var jobs []sim.Job
		if round%2 == 0 {
			jobs = bagWorkload(rng, 40+rng.Intn(160), procs)
		} else {
			jobs = randomWorkload(rng, 40+rng.Intn(160), procs)
		}
		if round%5 == 0 {
			// Submit times out of file order: the engine sorts arrivals.
			rng.Shuffle(len(jobs), func(a, b int) { jobs[a], jobs[b] = jobs[b], jobs[a] })
		}
		for _, noKill := range []bool{false, true} {
			cfg := sim.Config{Procs: procs, NoKill: noKill}
			want, err := fairStartsInSim(cfg, jobs, true)
			if err != nil {
				t.Fatal(err)
			}
			got, err := FairStarts(cfg, jobs)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("round %d, no-kill %v: continued plays %v, plays from scratch %v", round, noKill, got, want)
			}
			if kept, err := fairStartsInSim(cfg, jobs, false); err != nil || !slices.Equal(kept, want) {
				t.Fatalf("round %d, no-kill %v: plays kept in the simulation %v (%v), from scratch %v", round, noKill, kept, err, want)
			}
		}
	}
}

// TestFairStartsContinuedPlayTraces is TestFairStartsContinuedPlay on real
// traces (skipped when ../shared/data is absent): the fast play against the
// plays kept inside the simulation, and on the smaller traces against plays
// from scratch at every arrival.
func TestFairStartsContinuedPlayTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("real traces: not with -short")
	}
	for _, tc := range []struct {
		name    string
		scratch bool
	}{
		{"HPC2N-2002-2-first3170.swf.gz", true},
		{"lublin_256.swf.gz", true},
		{"KTH-SP2-1996-2.1-cln.swf.gz", false},
		{"CEA-Curie-2011-sample.swf.gz", false},
	} {
		tr := loadResearchTrace(t, tc.name)
		for _, noKill := range []bool{false, true} {
			cfg := sim.Config{Procs: tr.procs, NoKill: noKill}
			want, err := fairStartsInSim(cfg, tr.jobs, tc.scratch)
			if err != nil {
				t.Fatal(err)
			}
			got, err := FairStarts(cfg, tr.jobs)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%s, no-kill %v: job %d: fast play %d, play in the simulation %d", tc.name, noKill, i, got[i], want[i])
				}
			}
		}
	}
}

// TestSelectiveSharedConservativeRun: selective's auto thresholds from
// ResearchParams.ConservativeStarts schedule exactly as from their own
// conservative run.
func TestSelectiveSharedConservativeRun(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for round := 0; round < 60; round++ {
		procs := int64(1 + rng.Intn(24))
		jobs := randomWorkload(rng, 40+rng.Intn(160), procs)
		for _, name := range []string{"selective", "selective-d"} {
			for _, noKill := range []bool{false, true} {
				cfg := sim.Config{Procs: procs, NoKill: noKill}
				start, err := ConservativeStarts(cfg, append([]sim.Job(nil), jobs...))
				if err != nil {
					t.Fatal(err)
				}
				run := func(r ResearchParams) ([]sim.Job, string) {
					info, _ := Lookup(name)
					p, err := info.New(Params{Research: r}, len(jobs))
					if err != nil {
						t.Fatal(err)
					}
					cp := append([]sim.Job(nil), jobs...)
					s, err := sim.New(cfg, cp)
					if err != nil {
						t.Fatal(err)
					}
					if err := s.Run(p); err != nil {
						t.Fatal(err)
					}
					return cp, p.(Noter).Note()
				}
				want, wantNote := run(ResearchParams{})
				got, gotNote := run(ResearchParams{ConservativeStarts: start})
				sameSchedule(t, fmt.Sprintf("round %d %s no-kill %v", round, name, noKill), got, want)
				if gotNote != wantNote {
					t.Fatalf("round %d %s no-kill %v: note %q, want %q", round, name, noKill, gotNote, wantNote)
				}
			}
		}
	}
}

// TestConservativeFairStartsStreamed: the plays that follow the conservative
// run in another goroutine give the starts and fair starts of the run made
// first and played after, whatever the batches the starts come in (one
// start, a few, more than the trace holds), with and without kills.
func TestConservativeFairStartsStreamed(t *testing.T) {
	defer func(b int) { streamBatch = b }(streamBatch)
	rng := rand.New(rand.NewSource(23))
	check := func(what string, cfg sim.Config, jobs []sim.Job) {
		t.Helper()
		wantStart, err := ConservativeStarts(cfg, append([]sim.Job(nil), jobs...))
		if err != nil {
			t.Fatal(err)
		}
		wantFair := FairStartsOf(cfg, jobs, wantStart)
		for _, batch := range []int{1, 3, 64, 1 << 20} {
			streamBatch = batch
			start, fair, err := ConservativeFairStarts(cfg, append([]sim.Job(nil), jobs...))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(start, wantStart) || !slices.Equal(fair, wantFair) {
				t.Fatalf("%s, no-kill %v, batches of %d: streamed plays differ from plays after the run", what, cfg.NoKill, batch)
			}
		}
	}
	for round := 0; round < 100; round++ {
		procs := int64(1 + rng.Intn(24))
		jobs := bagWorkload(rng, 40+rng.Intn(160), procs)
		if round%2 == 1 {
			jobs = randomWorkload(rng, 40+rng.Intn(160), procs)
		}
		for _, noKill := range []bool{false, true} {
			check(fmt.Sprintf("round %d", round), sim.Config{Procs: procs, NoKill: noKill}, jobs)
		}
	}
	if !testing.Short() {
		tr := loadResearchTrace(t, "HPC2N-2002-2-first3170.swf.gz")
		for _, noKill := range []bool{false, true} {
			check(tr.name, sim.Config{Procs: tr.procs, NoKill: noKill}, tr.jobs)
		}
	}
}

// idlePolicy starts nothing; panicPolicy panics in its first pass.
type idlePolicy struct{ sim.Base }

func (idlePolicy) Schedule(*sim.Sim) {}

type panicPolicy struct{ sim.Base }

func (panicPolicy) Schedule(*sim.Sim) { panic("boom") }

// TestStartStreamFailures: a run that fails is the stream's error once the
// plays ask for a start it never made (no hang), and a run that panics makes
// the plays' goroutine panic with the same value.
func TestStartStreamFailures(t *testing.T) {
	jobs := []sim.Job{{Submit: 0, Procs: 1, Runtime: 5, Estimate: 5}, {Submit: 10, Procs: 1, Runtime: 5, Estimate: 5}}
	run := func(p sim.Policy) *startStream {
		s, err := sim.New(sim.Config{Procs: 4}, append([]sim.Job(nil), jobs...))
		if err != nil {
			t.Fatal(err)
		}
		f := newStartStream(len(jobs))
		go f.produce(s, p)
		return f
	}
	f := run(idlePolicy{})
	if got := f.before(100); len(got) != 0 {
		t.Errorf("failed run: starts %v", got)
	}
	if err := f.wait(); err == nil || !strings.Contains(err.Error(), "waiting") {
		t.Errorf("failed run: error %v", err)
	}
	f = run(panicPolicy{})
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("panicking run: plays recovered %v", r)
		}
	}()
	f.before(100)
	t.Error("panicking run: the plays went on")
}

// TestFollowFairStarts: plays that follow a conservative run started by its
// caller give FairStartsOf's fair starts of that run, also when the run makes
// far more batches after the last arrival than the channel holds (the run
// must not wait on plays that are done), and the run's error comes back.
func TestFollowFairStarts(t *testing.T) {
	defer func(b int) { streamBatch = b }(streamBatch)
	rng := rand.New(rand.NewSource(29))
	var queued []sim.Job // all at once on one processor: every start after the last arrival
	for i := 0; i < 300; i++ {
		queued = append(queued, sim.Job{Submit: int64(i % 3), Procs: 1, Runtime: 5, Estimate: 9})
	}
	cases := [][]sim.Job{queued}
	for i := 0; i < 40; i++ {
		cases = append(cases, bagWorkload(rng, 40+rng.Intn(160), 16))
	}
	for k, jobs := range cases {
		procs := int64(16)
		if k == 0 {
			procs = 1
		}
		for _, noKill := range []bool{false, true} {
			for _, batch := range []int{1, 512} {
				streamBatch = batch
				cfg := sim.Config{Procs: procs, NoKill: noKill}
				run := append([]sim.Job(nil), jobs...)
				c := NewConservative(len(run))
				s, err := sim.New(cfg, run)
				if err != nil {
					t.Fatal(err)
				}
				finish, ok := FollowFairStarts(c, cfg, run)
				if !ok {
					t.Fatal("conservative not followed")
				}
				fair, err := finish(s.Run(c))
				if err != nil {
					t.Fatal(err)
				}
				start := make([]int64, len(run))
				for i := range run {
					start[i] = run[i].Start
				}
				if want := FairStartsOf(cfg, jobs, start); !slices.Equal(fair, want) {
					t.Fatalf("case %d, no-kill %v, batches of %d: followed %v, after the run %v", k, noKill, batch, fair, want)
				}
			}
		}
	}
	if _, ok := FollowFairStarts(idlePolicy{}, sim.Config{Procs: 1}, queued); ok {
		t.Error("a policy other than conservative was followed")
	}
	c := NewConservative(len(queued))
	finish, _ := FollowFairStarts(c, sim.Config{Procs: 1}, queued)
	if _, err := finish(errors.New("run failed")); err == nil || err.Error() != "run failed" {
		t.Errorf("failed run: %v", err)
	}
}
