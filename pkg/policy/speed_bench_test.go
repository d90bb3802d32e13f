package policy

import (
	"fmt"
	"math/rand/v2"
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
					{float64(n.Chained), "chained"},
					{float64(n.Flushes), "profile-moves"},
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

// cascadeCounts is a compressWatcher that counts where conservative's moves
// are (BenchmarkRICCCascades).
type cascadeCounts struct {
	moves, serial, vacated int
	// sameShape counts moves of a job of the shape the compression's move
	// before moved, chained those of them that move one job to the start
	// the move before left, when it moved one job too.
	sameShape, chained int
	last               [4]int64      // the compression's last move: procs, dur, old, m (m 0: none yet)
	vacant             map[int64]int // starts the compression's moves left, with their jobs
	perCompression     []int         // moves of each compression
	at                 []int64       // its time
	waiting            []int         // its queue
	cur, biggest       compressionShapes
}

// compressionShapes describes one compression's moves by job shape.
type compressionShapes struct {
	moves, waiting int
	byShape        map[[2]int64]int // moves by (procs, duration)
	runs, longest  int              // runs of moves of one shape in walk order, the longest
	run            int              // the current run's length
	last           [2]int64         // the last move's shape
}

func (w *cascadeCounts) moved(procs, dur, old, t int64, m int) {
	w.moves++
	if procs == 1 {
		w.serial++
	}
	if n := w.vacant[t]; n > 0 {
		w.vacated++
		w.vacant[t] = max(0, n-m)
	}
	w.vacant[old] += m
	if l := w.last; l[3] > 0 && l[0] == procs && l[1] == dur {
		w.sameShape++
		if t == l[2] && m == 1 && l[3] == 1 {
			w.chained++
		}
	}
	w.last = [4]int64{procs, dur, old, int64(m)}
	c, shape := &w.cur, [2]int64{procs, dur}
	if c.byShape == nil {
		c.byShape = map[[2]int64]int{}
	}
	c.byShape[shape]++
	if c.moves == 0 || shape != c.last {
		c.runs, c.run, c.last = c.runs+1, 0, shape
	}
	c.moves++
	c.run++
	c.longest = max(c.longest, c.run)
}

func (w *cascadeCounts) compressed(now int64, waiting, moves int) {
	w.perCompression = append(w.perCompression, moves)
	w.at = append(w.at, now)
	w.waiting = append(w.waiting, waiting)
	if w.cur.moves > w.biggest.moves {
		w.cur.waiting = waiting
		w.biggest = w.cur
	}
	w.cur = compressionShapes{}
	w.last = [4]int64{}
	clear(w.vacant)
}

// watchedConservative runs conservative with kills over jobs with a
// cascadeCounts watching, and checks that it saw every move and compression
// the policy counted.
func watchedConservative(tb testing.TB, procs int64, jobs []sim.Job) *cascadeCounts {
	tb.Helper()
	c := NewConservative(len(jobs))
	w := &cascadeCounts{vacant: map[int64]int{}}
	c.watch = w
	s, err := sim.New(sim.Config{Procs: procs}, jobs)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Run(c); err != nil {
		tb.Fatal(err)
	}
	if w.moves == 0 || w.moves != c.Compressions.Moves || len(w.perCompression) != c.Compressions.Runs {
		tb.Fatalf("watched %d moves in %d compressions, counted %d in %d", w.moves, len(w.perCompression), c.Compressions.Moves, c.Compressions.Runs)
	}
	return w
}

// BenchmarkRICCCascades reports where conservative's compression moves are
// on the whole of RICC-2010-2 with kills (docs/swfsim.md, round 18): the
// share of moves made in compressions that move 1,000 jobs or more; the share
// in the busiest twentieth of the simulated span (by moves) and the queue
// there; the share of moves of 1-processor jobs; and the share that move a
// job to a start another job left earlier in the same compression (a
// cascade: each job takes a slot the one before it gave up), the share of
// the same shape as the move before it in the compression, and the share
// that move one job to the very start the move before left (it moving one
// job too: a chain, whose intermediate profile edits cancel); and the
// compression with the most moves: its queue, the moves of its two commonest
// job shapes, and its runs of moves of one shape in walk order:
//
//	go test -run XXX -bench RICCCascades -benchtime 1x ./pkg/policy
func BenchmarkRICCCascades(b *testing.B) {
	tr := loadResearchTrace(b, "RICC-2010-2.swf.gz")
	for range b.N {
		w := watchedConservative(b, tr.procs, append([]sim.Job(nil), tr.jobs...))
		big := 0
		const parts = 20
		first, last := w.at[0], w.at[len(w.at)-1]
		var partMoves, partRuns, partWaiting [parts]int
		for i, m := range w.perCompression {
			if m >= 1000 {
				big += m
			}
			k := min(parts-1, int((w.at[i]-first)*parts/(last-first+1)))
			partMoves[k] += m
			partRuns[k]++
			partWaiting[k] += w.waiting[i]
		}
		busiest := 0
		for k := range parts {
			if partMoves[k] > partMoves[busiest] {
				busiest = k
			}
		}
		share := func(n int) float64 { return 100 * float64(n) / float64(max(1, w.moves)) }
		b.ReportMetric(float64(w.moves), "moves")
		b.ReportMetric(share(big), "%moves-in-1000+")
		b.ReportMetric(share(partMoves[busiest]), "%moves-busiest-20th")
		b.ReportMetric(float64(partWaiting[busiest])/float64(max(1, partRuns[busiest])), "queue-busiest-20th")
		b.ReportMetric(share(w.serial), "%moves-1-proc")
		b.ReportMetric(share(w.vacated), "%moves-to-vacated")
		b.ReportMetric(share(w.sameShape), "%moves-shape-of-last")
		b.ReportMetric(share(w.chained), "%moves-to-last-old")
		// The compression with the most moves, and its two commonest shapes.
		big1, big2 := 0, 0
		var shape1, shape2 [2]int64
		for shape, n := range w.biggest.byShape {
			if n > big1 {
				big1, big2, shape1, shape2 = n, big1, shape, shape1
			} else if n > big2 {
				big2, shape2 = n, shape
			}
		}
		b.Logf("biggest compression's commonest shapes (processors, duration s): %v %d moves, %v %d moves", shape1, big1, shape2, big2)
		b.ReportMetric(float64(w.biggest.moves), "biggest-moves")
		b.ReportMetric(float64(w.biggest.waiting), "biggest-queue")
		b.ReportMetric(float64(big1), "biggest-shape1-moves")
		b.ReportMetric(float64(big2), "biggest-shape2-moves")
		b.ReportMetric(float64(w.biggest.runs), "biggest-shape-runs")
		b.ReportMetric(float64(w.biggest.longest), "biggest-longest-run")
	}
}

// burstTrace is n jobs submitted at once on a machine of 1,024 processors,
// of random widths (1-1,024) and runtimes (1 s to about 28 h), each
// requesting 1-3 times its runtime: a queue of n jobs of n shapes, which
// the proofs of conservative's compressions (by shape) rarely settle.
func burstTrace(n int) *researchTrace {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	tr := &researchTrace{name: fmt.Sprintf("burst of %d", n), procs: 1024}
	for i := range n {
		r := int64(1 + rng.IntN(100000))
		tr.jobs = append(tr.jobs, sim.Job{ID: int32(i), Procs: int32(1 + rng.IntN(1024)), Queue: -1, User: -1,
			Runtime: r, Estimate: r * int64(1+rng.IntN(3))})
	}
	return tr
}

// BenchmarkBurst times conservative backfilling and selective reservation
// against EASY on a burst of n jobs of random shapes (burstTrace), whose
// queue holds every job at first: each early end compresses the whole
// queue, and each job's search reads the profile of the jobs before it,
// so the cost grows about as n^3 (docs/swfsim.md, Speed and memory):
//
//	go test -run XXX -bench Burst -benchtime 1x ./pkg/policy
func BenchmarkBurst(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		tr := burstTrace(n)
		for _, policy := range []string{"easy", "conservative", "selective"} {
			b.Run(fmt.Sprintf("%s/%d", policy, n), func(b *testing.B) {
				for range b.N {
					_, p := tr.simulate(b, policy, ResearchParams{}, false)
					if c, ok := p.(*Conservative); ok {
						// Nearly every look moves its job: the moves, not
						// only the searches, grow as n^2 (docs/swfsim.md).
						b.ReportMetric(float64(c.Compressions.Runs), "compressions")
						b.ReportMetric(float64(c.Compressions.Visits), "looks")
						b.ReportMetric(float64(c.Compressions.Moves), "moves")
					}
				}
			})
		}
	}
}
