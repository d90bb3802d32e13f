package policy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

// crossing is the first second at which promote's own test passes.
func TestCrossingIsFirstSecondOver(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 37))
	thresholds := []float64{0, 0.5, 1, 1.0000001, 1.5, 2, 3.3333, 10, 77.7, 1e6}
	for range 3000 {
		j := &sim.Job{Submit: r.Int64N(1000), Estimate: r.Int64N(5000) - 10}
		thr := thresholds[r.IntN(len(thresholds))]
		if r.IntN(2) == 0 {
			thr = 1 + r.Float64()*20
		}
		d := float64(duration(j))
		exceeds := func(t int64) bool { return (float64(t-j.Submit)+d)/d > thr }
		got := crossing(j, thr)
		if !exceeds(got) || got > j.Submit && exceeds(got-1) {
			t.Fatalf("crossing(submit %d, estimate %d, threshold %v) = %d, not the first second over", j.Submit, j.Estimate, thr, got)
		}
		if thr < 100 { // and by a plain scan
			want := j.Submit
			for !exceeds(want) {
				want++
			}
			if got != want {
				t.Fatalf("crossing(submit %d, estimate %d, threshold %v) = %d, want %d", j.Submit, j.Estimate, thr, got, want)
			}
		}
	}
	for _, thr := range []float64{math.Inf(1), math.NaN(), 1e300} {
		if got := crossing(&sim.Job{Submit: 5, Estimate: 100}, thr); got != sim.Never {
			t.Errorf("crossing with threshold %v = %d, want Never", thr, got)
		}
	}
}

// Promoting from the heap of crossing times gives the schedule of testing
// every waiting job in every pass, for fixed and auto thresholds, one or per
// category, with and without kills.
func TestPromoteDueMatchesWalk(t *testing.T) {
	for _, tc := range []struct {
		trace     string
		from, n   int
		threshold string
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 0, 5000, "2"},
		{"KTH-SP2-1996-2.1-cln.swf.gz", 0, 5000, "auto"},
		{"RICC-2010-2.swf.gz", 30000, 2500, "1.5"},
		{"RICC-2010-2.swf.gz", 30000, 2500, "auto"},
		{"LANL-CM5-1994-4.1-cln.swf.gz", 4000, 3000, "3"},
		{"lublin_256.swf.gz", 0, 3000, "0.5"},
	} {
		for _, diff := range []bool{false, true} {
			for _, noKill := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/diff=%v/nokill=%v", tc.trace, tc.threshold, diff, noKill), func(t *testing.T) {
					tr := simtest.Load(t, testutil.Trace(t, tc.trace), false)
					tr.Jobs = tr.Jobs[tc.from:min(tc.from+tc.n, len(tr.Jobs))]
					run := func(walk bool) ([]sim.Job, *Selective) {
						jobs := tr.Clone()
						s, err := sim.New(sim.Config{Procs: tr.Procs, NoKill: noKill}, jobs)
						if err != nil {
							t.Fatal(err)
						}
						p, err := newSelective(ResearchParams{Threshold: tc.threshold}, diff, len(jobs))
						if err != nil {
							t.Fatal(err)
						}
						sel := p.(*Selective)
						sel.walkPromote = walk
						if err := s.Run(sel); err != nil {
							t.Fatal(err)
						}
						return jobs, sel
					}
					a, sa := run(true)
					b, sb := run(false)
					for i := range a {
						if a[i].Start != b[i].Start || a[i].End != b[i].End {
							t.Fatalf("job %d: walk starts %d ends %d, heap starts %d ends %d", i, a[i].Start, a[i].End, b[i].Start, b[i].End)
						}
					}
					if sa.Promotions != sb.Promotions || sb.Promotions == 0 {
						t.Errorf("promotions: walk %d, heap %d (the slice should promote some)", sa.Promotions, sb.Promotions)
					}
				})
			}
		}
	}
}
