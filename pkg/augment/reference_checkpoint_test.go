package augment_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/augment"
	"github.com/swfkit/swfkit/pkg/swf"
)

// refArea: processors x runtime, -1 when either is unknown.
func refArea(j *swf.Job) float64 {
	p := refProcs(j)
	if p <= 0 || j.RunTime < 0 {
		return -1
	}
	return float64(p) * float64(j.RunTime)
}

// TestReferenceCheckpoint holds --checkpoint to the documented rules: ckpt=
// only on jobs of known size above the debug cut and not shorter than
// --ckpt-min-runtime, with probability min(1, C x size^beta) (C, beta from
// the report), an interval from the 12-point survey model in seconds, every
// other job's ckpt= removed, nothing else changed. Exactly: the debug jobs
// are the round(0.4 n) smallest in size order, ties in file order (the
// documented reading, docs/swfaugment.md), jobs of probability 0 are never marked and of
// probability 1 always, the report's expected shares are the model's sums;
// statistically: the jobs marked number the expected count within 5 sd of
// a sum of Bernoullis, and the intervals at or above runtime/4 (when one
// below exists) are (1 - 0.96) x P(an unrestricted draw is) of them.
func TestReferenceCheckpoint(t *testing.T) {
	inputs := map[string][]byte{
		"KTH-SP2":          refSharedTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz", 0),
		"LANL-CM5[:30000]": refSharedTrace(t, "LANL-CM5-1994-4.1-cln.swf.gz", 30000),
		"RICC[:15000]":     refSharedTrace(t, "RICC-2010-2.swf.gz", 15000),
		"random":           refGenTrace(81, 3000, false),
	}
	for name, data := range inputs {
		for _, minRT := range []int64{0, 600} {
			t.Run(fmt.Sprintf("%s min-runtime %d", name, minRT), func(t *testing.T) {
				in := refRead(t, data)
				lib := refRead(t, data)
				cfg := augment.CheckpointConfig{MinRuntime: minRT}
				rep, err := augment.Checkpoint(lib.jobs, cfg, augment.NewRand(1, augment.StreamCheckpoint))
				if err != nil {
					t.Fatal(err)
				}
				out := refWriteRead(t, lib.hdr, lib.jobs)
				var areas []float64
				var sumArea float64
				for i := range in.jobs {
					if a := refArea(&in.jobs[i]); a >= 0 {
						areas = append(areas, a)
						sumArea += a
					}
				}
				sort.Float64s(areas)
				n := len(areas)
				// "The smallest 40% of jobs by size": round(0.4 n) jobs, in
				// size order, ties at the cut in file order.
				var known []int
				for i := range in.jobs {
					if refArea(&in.jobs[i]) >= 0 {
						known = append(known, i)
					}
				}
				sort.SliceStable(known, func(a, b int) bool { return refArea(&in.jobs[known[a]]) < refArea(&in.jobs[known[b]]) })
				nDebug := int(math.Round(0.4 * float64(n)))
				debug := map[int]bool{}
				for _, i := range known[:nDebug] {
					debug[i] = true
				}
				if nDebug > 0 && rep.DebugArea != areas[nDebug-1] {
					t.Errorf("debug cut %v, model %v", rep.DebugArea, areas[nDebug-1])
				}
				if rep.Known != n {
					t.Errorf("known %d, model %d", rep.Known, n)
				}
				prob := func(i int) float64 {
					j := &in.jobs[i]
					a := refArea(j)
					if a <= 0 || debug[i] || j.RunTime < minRT {
						return 0
					}
					return math.Min(1, rep.C*math.Pow(a, rep.Beta))
				}
				var expJobs, expWork, varJobs float64
				marked := 0
				var outside, outsideExp, outsideVar float64
				bad := 0
				refCompare(t, in.jobs, out, func(i int) refExpect {
					j := &in.jobs[i]
					e := refExpectFrom(j)
					p := prob(i)
					expJobs += p
					expWork += p * math.Max(0, refArea(j))
					varJobs += p * (1 - p)
					s, has := out[i].ExtraValue(augment.KeyCheckpoint)
					if has {
						marked++
						e.set[augment.KeyCheckpoint] = s
						sec, err := strconv.ParseInt(s, 10, 64)
						ok := err == nil && sec%60 == 0
						var below, belowW, allW float64
						for _, c := range augment.SurveyIntervals {
							allW += c.Weight
							if float64(c.Minutes*60) < float64(j.RunTime)/4 {
								below++
								belowW += c.Weight
							}
						}
						inSet := false
						for _, c := range augment.SurveyIntervals {
							inSet = inSet || c.Minutes*60 == sec
						}
						if !inSet || !ok || p == 0 {
							bad++
							if bad < 10 {
								t.Errorf("job line %d: ckpt=%s (probability %v, area %v, runtime %d)", j.Line, s, p, refArea(j), j.RunTime)
							}
						}
						if below > 0 {
							q := (1 - 0.96) * (1 - belowW/allW)
							outsideExp += q
							outsideVar += q * (1 - q)
							if float64(sec) >= float64(j.RunTime)/4 {
								outside++
							}
						}
					} else {
						e.removed[augment.KeyCheckpoint] = true
						if p == 1 {
							bad++
							if bad < 10 {
								t.Errorf("job line %d: probability 1 but no ckpt=", j.Line)
							}
						}
					}
					_, had := j.ExtraValue(augment.KeyCheckpoint)
					e.changed = has || had
					return e
				})
				if math.Abs(rep.ExpJobs-expJobs/float64(n)) > 1e-9 || math.Abs(rep.ExpWork-expWork/sumArea) > 1e-9 {
					t.Errorf("expected shares %v/%v, model %v/%v", rep.ExpJobs, rep.ExpWork, expJobs/float64(n), expWork/sumArea)
				}
				if rep.Solved && (math.Abs(rep.ExpJobs-0.16) > 1e-3 || math.Abs(rep.ExpWork-0.57) > 1e-3) {
					t.Errorf("solved, but expected shares %v/%v, targets 0.16/0.57", rep.ExpJobs, rep.ExpWork)
				}
				if rep.Jobs != marked {
					t.Errorf("report marked %d, model %d", rep.Jobs, marked)
				}
				if math.Abs(float64(marked)-expJobs) > 5*math.Sqrt(varJobs)+1 {
					t.Errorf("marked %d, expected %v +- %v", marked, expJobs, 5*math.Sqrt(varJobs))
				}
				if math.Abs(outside-outsideExp) > 5*math.Sqrt(outsideVar)+1 {
					t.Errorf("intervals >= runtime/4 where one below exists: %v, model %v +- %v", outside, outsideExp, 5*math.Sqrt(outsideVar))
				}
			})
		}
	}
}

// TestReferenceCheckpointIntervals: on jobs long enough that every interval
// is below a quarter of the runtime (> 4 x 240 min), the intervals drawn
// follow the survey weights: each interval's count within 5 binomial sd.
func TestReferenceCheckpointIntervals(t *testing.T) {
	rng := rand.New(rand.NewPCG(91, 1))
	var b strings.Builder
	b.WriteString("; MaxProcs: 4096\n")
	for i := 1; i <= 20000; i++ {
		fmt.Fprintf(&b, "%d %d 0 %d %d -1 -1 %d %d -1 1 1 1 1 1 1 -1 -1\n", i, i*10, 60000+rng.IntN(100000), 1+rng.IntN(4096), -1, 200000)
	}
	lib := refRead(t, []byte(b.String()))
	rep, err := augment.Checkpoint(lib.jobs, augment.CheckpointConfig{JobShare: 0.5, WorkShare: 0.6, DebugShare: 0.1}, augment.NewRand(3, augment.StreamCheckpoint))
	if err != nil {
		t.Fatal(err)
	}
	count := map[int64]int{}
	total := 0
	for i := range lib.jobs {
		if s, ok := lib.jobs[i].ExtraValue(augment.KeyCheckpoint); ok {
			sec, _ := strconv.ParseInt(s, 10, 64)
			count[sec/60]++
			total++
		}
	}
	var allW float64
	for _, c := range augment.SurveyIntervals {
		allW += c.Weight
	}
	for _, c := range augment.SurveyIntervals {
		p := c.Weight / allW
		want := p * float64(total)
		if tol := 5 * math.Sqrt(float64(total)*p*(1-p)); math.Abs(float64(count[c.Minutes])-want) > tol {
			t.Errorf("%d min: %d of %d, model %v +- %v", c.Minutes, count[c.Minutes], total, want, tol)
		}
	}
	if total < 5000 || rep.Jobs != total {
		t.Errorf("marked %d (report %d): too few to test", total, rep.Jobs)
	}
}

// TestReferenceCheckpointFrom: known answers without --expand are exact (an
// answer S > 0 gives ckpt=S, "none" and no answer give no ckpt=); with
// --expand an unanswered job takes an answer of an answered job with its user
// and processors (so ckpt= is one of that pool's intervals, absent only when
// the pool holds a "none" or is empty, or user or processors are unknown).
// One run goes through the command with the answers in a file.
func TestReferenceCheckpointFrom(t *testing.T) {
	data := refGenTrace(101, 2000, false)
	in := refRead(t, data)
	rng := rand.New(rand.NewPCG(5, 5))
	answers := map[int64]int64{}
	var file strings.Builder
	for i := range in.jobs {
		if rng.IntN(10) < 4 {
			v := int64(augment.NoCheckpoint)
			if rng.IntN(3) > 0 {
				v = int64(60 * (1 + rng.IntN(3)))
			}
			answers[in.jobs[i].JobNumber] = v
			if v < 0 {
				fmt.Fprintf(&file, "%d none\n", in.jobs[i].JobNumber)
			} else {
				fmt.Fprintf(&file, "%d %d\n", in.jobs[i].JobNumber, v)
			}
		}
	}
	type key struct{ user, procs int64 }
	pool := map[key][]int64{}
	for i := range in.jobs {
		j := &in.jobs[i]
		if v, ok := answers[j.JobNumber]; ok {
			k := key{j.UserID, refProcs(j)}
			pool[k] = append(pool[k], v)
		}
	}
	for _, expand := range []bool{false, true} {
		lib := refRead(t, data)
		rep := augment.CheckpointFrom(lib.jobs, answers, expand, augment.NewRand(1, augment.StreamCheckpoint))
		var outs [][]swf.Job
		outs = append(outs, refWriteRead(t, lib.hdr, lib.jobs))
		if !expand {
			path := filepath.Join(t.TempDir(), "answers")
			if err := os.WriteFile(path, []byte(file.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			outs = append(outs, refRead(t, refRun(t, data, "--checkpoint-from", path)).jobs)
		}
		for _, out := range outs {
			marked := 0
			refCompare(t, in.jobs, out, func(i int) refExpect {
				j := &in.jobs[i]
				e := refExpectFrom(j)
				s, has := out[i].ExtraValue(augment.KeyCheckpoint)
				_, had := j.ExtraValue(augment.KeyCheckpoint)
				e.changed = has || had
				e.removed[augment.KeyCheckpoint] = !has
				if has {
					marked++
					e.set[augment.KeyCheckpoint] = s
				}
				got := int64(augment.NoCheckpoint)
				if has {
					got, _ = strconv.ParseInt(s, 10, 64)
				}
				if v, ok := answers[j.JobNumber]; ok {
					if got != max(v, augment.NoCheckpoint) {
						t.Errorf("job %d answered %d: ckpt %d", j.JobNumber, v, got)
					}
					return e
				}
				k := key{j.UserID, refProcs(j)}
				if !expand || j.UserID < 0 || k.procs <= 0 || len(pool[k]) == 0 {
					if has {
						t.Errorf("job %d unanswered (expand %v, user %d, procs %d): ckpt=%s", j.JobNumber, expand, j.UserID, k.procs, s)
					}
					return e
				}
				inPool := false
				for _, v := range pool[k] {
					inPool = inPool || v == got
				}
				if !inPool {
					t.Errorf("job %d: ckpt %d not among its pool's answers %v", j.JobNumber, got, pool[k])
				}
				return e
			})
			if rep.Checkpoints != marked {
				t.Errorf("expand %v: report %d marked, model %d", expand, rep.Checkpoints, marked)
			}
		}
	}
}

// TestReferenceCheckpointDebugTies pins the reading of "the smallest 40%"
// when jobs share the cut's size. Ten jobs of one processor: jobs 1-3 run
// 1 s, jobs 4-10 run 2 s (areas 1,1,1,2,2,2,2,2,2,2). --ckpt-debug 0.4: the
// debug jobs are the round(0.4 x 10) = 4 smallest, ties in file order: jobs
// 1-4 (DebugArea 2); jobs 5-10, of the same size as job 4, are eligible.
// With --ckpt-jobs 0.6 --ckpt-work 12/17 (their exact shares) the model
// solves C=1, beta=0 and marks all six, and job 4 never.
func TestReferenceCheckpointDebugTies(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := 1; i <= 10; i++ {
		r := 2
		if i <= 3 {
			r = 1
		}
		fmt.Fprintf(&b, "%d %d 0 %d 1 -1 -1 1 %d -1 1 1 1 1 1 1 -1 -1\n", i, 10*i, r, r)
	}
	lib := refRead(t, []byte(b.String()))
	rep, err := augment.Checkpoint(lib.jobs, augment.CheckpointConfig{JobShare: 0.6, WorkShare: 12.0 / 17}, augment.NewRand(1, augment.StreamCheckpoint))
	if err != nil {
		t.Fatal(err)
	}
	if rep.DebugArea != 2 {
		t.Fatalf("debug cut %v, hand computation 2", rep.DebugArea)
	}
	for i := range lib.jobs {
		_, ok := lib.jobs[i].ExtraValue(augment.KeyCheckpoint)
		if want := i >= 4; ok != want {
			t.Errorf("job %d (area %v): marked %v, want %v", lib.jobs[i].JobNumber, refArea(&lib.jobs[i]), ok, want)
		}
	}
}
