package policy

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/utility"
)

func TestGACkptBumpsForTheUrgentJob(t *testing.T) {
	// L fills the 10-processor machine for 10000 s, checkpointing every
	// 100 s, and is worth little; U arrives at 550, wants the machine for
	// 50 s and is worth a lot if done within 200 s.
	jobs := []sim.Job{
		{Procs: 10, Submit: 0, Runtime: 10000, Estimate: 10000},
		{Procs: 10, Submit: 550, Runtime: 50, Estimate: 50},
	}
	util := []utility.Func{
		{Points: []utility.Point{{Time: 0, Value: 10}, {Time: 1e6, Value: 0}}},
		{Points: []utility.Point{{Time: 0, Value: 1000}, {Time: 200, Value: 0}}},
	}
	interval := []int64{100, 0}
	run := func(ckpt bool) ([]sim.Job, *GA) {
		js := slices.Clone(jobs)
		g := mustGA(t, GAConfig{Seed: 3, Generations: -1, Mutation: -1, RestartOverhead: -1}, ckpt, util, interval)
		s, err := sim.New(sim.Config{Procs: 10}, js)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(g); err != nil {
			t.Fatal(err)
		}
		return js, g
	}
	plain, _ := run(false)
	if plain[1].Start != 10000 {
		t.Fatalf("ga started U at %d, want 10000", plain[1].Start)
	}
	got, g := run(true)
	// Bump at 550: 500 s saved, 50 s lost, 10 s overhead (1 s x 10
	// processors); L restarts at 600 with 9510 s of work.
	if got[1].Start != 550 || got[1].End != 600 {
		t.Errorf("U ran %d..%d, want 550..600", got[1].Start, got[1].End)
	}
	if got[0].Runs != 2 || got[0].Start != 600 || got[0].End != 600+9510 {
		t.Errorf("L: %d runs, last %d..%d; want 2 runs, last 600..10110", got[0].Runs, got[0].Start, got[0].End)
	}
	if !slices.Contains(got[0].Tokens, "bumps=1") {
		t.Errorf("L tokens %v, want bumps=1", got[0].Tokens)
	}
	// runtotal: L ran 0..550 and 600..10110, 550 + 9510 s; U was never bumped.
	if !slices.Contains(got[0].Tokens, "runtotal=10060") || slices.ContainsFunc(got[1].Tokens, func(t string) bool { return strings.HasPrefix(t, "runtotal=") }) {
		t.Errorf("tokens L %v, U %v; want runtotal=10060 on L only", got[0].Tokens, got[1].Tokens)
	}
	st := g.Stats()
	if st.Bumps != 1 || st.LostWork != 500 || st.Overhead != 100 {
		t.Errorf("stats %+v, want 1 bump, 500 processor-s lost, 100 processor-s overhead", st)
	}
	if want := (Bump{ID: 0, At: 550, Ran: 550, Saved: 500, Overhead: 10}); len(g.Bumps()) != 1 || g.Bumps()[0] != want {
		t.Errorf("bump log %+v, want [%+v]", g.Bumps(), want)
	}
	if a, b := aggregateUtility(got, util), aggregateUtility(plain, util); !(a > b) {
		t.Errorf("ga-ckpt aggregate utility %v not above ga's %v", a, b)
	}
}

// checkpointIntervals marks a share of the trace's jobs as checkpointing
// every few minutes.
func checkpointIntervals(n int, share float64, seed int64) []int64 {
	rng := rand.New(rand.NewSource(seed))
	iv := make([]int64, n)
	for i := range iv {
		if rng.Float64() < share {
			iv[i] = int64(60 * (1 + rng.Intn(30)))
		}
	}
	return iv
}

func TestGACkptDampingOnTrace(t *testing.T) {
	tr := loadGATrace(t, "KTH-SP2-1996-2.1-cln.swf.gz", 1000)
	util := tr.syntheticUtilities(4)
	interval := checkpointIntervals(len(tr.jobs), 0.5, 5)
	for _, c := range []struct {
		name  string
		limit int
	}{{"limit 1", 0}, {"limit 2", 2}, {"no limit", -1}} {
		t.Run(c.name, func(t *testing.T) {
			g := mustGA(t, GAConfig{Seed: 1, Population: 10, Generations: 10, Mutation: -1, RestartOverhead: -1,
				BumpLimit: c.limit, Boost: c.limit == 2, Airline: c.limit == 2}, true, util, interval)
			jobs := tr.run(t, g)
			per := make(map[int32]int)
			for _, b := range g.Bumps() {
				per[b.ID]++
				iv := interval[b.ID]
				if iv <= 0 {
					t.Fatalf("job %d bumped without checkpointing", b.ID+1)
				}
				if b.Saved%iv != 0 || b.Saved > b.Ran || b.Ran-b.Saved >= iv {
					t.Fatalf("job %d bumped after %d s with %d s saved: lost work beyond the last checkpoint (interval %d)", b.ID+1, b.Ran, b.Saved, iv)
				}
			}
			most := 0
			for id, k := range per {
				most = max(most, k)
				if int(jobs[id].Runs) != k+1 {
					t.Errorf("job %d: %d runs after %d bumps", id+1, jobs[id].Runs, k)
				}
			}
			limit := c.limit
			if limit == 0 {
				limit = 1
			}
			if limit > 0 && most > limit {
				t.Errorf("a job was bumped %d times, limit %d", most, limit)
			}
			// A job bumped once restarts with its work less the checkpointed
			// part plus the overhead: its last run lasts exactly that (or
			// until the restart estimate, which kills it where the original
			// estimate would have).
			if c.limit == 0 {
				for _, b := range g.Bumps() {
					in, out := tr.jobs[b.ID], jobs[b.ID]
					want := min(in.Runtime, in.Estimate) - b.Saved + b.Overhead
					if out.End-out.Start != want {
						t.Errorf("job %d: last run %d s, want %d (runtime %d, estimate %d, saved %d, overhead %d)",
							b.ID+1, out.End-out.Start, want, in.Runtime, in.Estimate, b.Saved, b.Overhead)
					}
				}
			}
			if len(g.Bumps()) == 0 {
				t.Errorf("no bumps: the case tests nothing")
			}
			t.Logf("%d bumps of %d jobs, at most %d per job; %s", len(g.Bumps()), len(per), most, g.Note())
		})
	}
}
