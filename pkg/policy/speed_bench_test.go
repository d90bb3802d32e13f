package policy

import (
	"fmt"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// speedCase is one of issue 17's speed targets on RICC-2010-2: a policy with
// its flags, simulated whole (the auto thresholds' conservative run and the
// fair-start run included, as the command does).
type speedCase struct {
	label     string
	policy    string
	params    ResearchParams
	noKill    bool
	fairStart bool
}

var speedCases = []speedCase{
	{label: "easy", policy: "easy"},
	{label: "conservative", policy: "conservative"},
	{label: "conservative-nokill", policy: "conservative", noKill: true},
	{label: "selective-nokill", policy: "selective", noKill: true},
	{label: "selective-d-nokill", policy: "selective-d", noKill: true},
	{label: "easy-fairstart", policy: "easy", fairStart: true},
	{label: "timed-fcfs-fairstart", policy: "timed-fcfs", fairStart: true},
}

// run simulates c over a copy of tr's jobs.
func (c speedCase) run(b *testing.B, tr *researchTrace) {
	tr.simulate(b, c.policy, c.params, c.noKill)
	if c.fairStart {
		if _, err := FairStarts(sim.Config{Procs: tr.procs, NoKill: c.noKill}, tr.jobs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRICCTargets times issue 17's targets on the whole of RICC-2010-2,
// simulation only (the command adds about 1 s of reading and writing):
//
//	GOMAXPROCS=1 go test -run XXX -bench RICCTargets -benchtime 1x -benchmem ./pkg/policy
func BenchmarkRICCTargets(b *testing.B) {
	tr := loadResearchTrace(b, "RICC-2010-2.swf.gz")
	for _, c := range speedCases {
		b.Run(c.label, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				c.run(b, tr)
			}
			b.ReportMetric(float64(len(tr.jobs)), "jobs")
		})
	}
}

// BenchmarkRICCGrowth shows how the cost of each target grows with trace
// length (and so with queue length, RICC's queue being short at first and
// thousands long later), on RICC prefixes:
//
//	GOMAXPROCS=1 go test -run XXX -bench RICCGrowth -benchtime 1x ./pkg/policy
func BenchmarkRICCGrowth(b *testing.B) {
	all := loadResearchTrace(b, "RICC-2010-2.swf.gz")
	for _, c := range speedCases {
		for _, n := range []int{25000, 50000, 100000, 200000} {
			tr := &researchTrace{name: all.name, procs: all.procs, jobs: all.jobs[:n]}
			b.Run(fmt.Sprintf("%s/%d", c.label, n), func(b *testing.B) {
				for range b.N {
					c.run(b, tr)
				}
			})
		}
	}
}

// BenchmarkRICCFairStartPlays times the strict-FCFS plays of the fair starts
// alone (FairStartsOf over a finished conservative schedule), on the whole of
// RICC-2010-2 with and without kills:
//
//	GOMAXPROCS=1 go test -run XXX -bench RICCFairStartPlays -benchtime 1x -benchmem ./pkg/policy
func BenchmarkRICCFairStartPlays(b *testing.B) {
	tr := loadResearchTrace(b, "RICC-2010-2.swf.gz")
	for _, noKill := range []bool{false, true} {
		cfg := sim.Config{Procs: tr.procs, NoKill: noKill}
		b.Run(fmt.Sprintf("no-kill=%v", noKill), func(b *testing.B) {
			start, err := ConservativeStarts(cfg, append([]sim.Job(nil), tr.jobs...))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				FairStartsOf(cfg, tr.jobs, start)
			}
		})
	}
}

// BenchmarkRICCConservativeCounts reports what conservative backfilling's
// compressions and --no-kill rebuilds do on the whole of RICC-2010-2 (the
// counts docs/swfsim.md's speed notes quote; they do not depend on the
// machine):
//
//	go test -run XXX -bench RICCConservativeCounts -benchtime 1x ./pkg/policy
func BenchmarkRICCConservativeCounts(b *testing.B) {
	tr := loadResearchTrace(b, "RICC-2010-2.swf.gz")
	for _, noKill := range []bool{false, true} {
		label := "kill"
		if noKill {
			label = "nokill"
		}
		b.Run(label, func(b *testing.B) {
			for range b.N {
				_, p := tr.simulate(b, "conservative", ResearchParams{}, noKill)
				c := p.(*Conservative)
				n := c.Compressions
				for _, m := range []struct {
					v    float64
					unit string
				}{
					{float64(n.Runs), "compressions"},
					{float64(n.Moving), "moving"},
					{float64(n.Visits), "visits"},
					{float64(n.Proven), "proven"},
					{float64(n.Searched), "searched"},
					{float64(n.Moves), "moves"},
					{float64(n.ShortMoves), "moves<=7s"},
					{float64(n.SameShift), "same-shift"},
					{float64(n.MovedBy) / max(1, float64(n.Moves)), "s/move"},
					{float64(c.Rebuilds), "rebuilds"},
					{float64(c.Reused), "reused"},
					{float64(c.Placed), "placed"},
					{float64(c.TailPlaced), "tail-placed"},
					{float64(c.RebuildKinds.Fronts), "fronts"},
					{float64(c.RebuildKinds.FrontKept) / max(1, float64(c.RebuildKinds.Fronts)), "kept/front"},
					{float64(c.RebuildKinds.FrontPlaced) / max(1, float64(c.RebuildKinds.Fronts)), "placed/front"},
					{float64(c.RebuildKinds.Fresh), "fresh"},
					{float64(c.RebuildKinds.FreshPlaced), "fresh-placed"},
				} {
					b.ReportMetric(m.v, m.unit)
				}
			}
		})
	}
}
