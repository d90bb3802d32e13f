package policy

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/augment"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
	"github.com/swfkit/swfkit/pkg/utility"
)

// augmentedWindow reads jobs [from, from+count) of an archive trace and
// augments them in memory as `swfaugment --utility --checkpoint --seed seed`
// would, with the default models (Lee 2.6 and 6.5).
func augmentedWindow(tb testing.TB, name string, from, count int, seed uint64) (*gaTrace, []utility.Func, []int64) {
	tb.Helper()
	path := testutil.Trace(tb, name)
	f, err := cmdio.Open(path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	r := swf.NewReader(f)
	h, err := r.Header()
	if err != nil {
		tb.Fatal(err)
	}
	procs, ok, _ := h.MaxProcs()
	if !ok {
		procs, _, _ = h.MaxNodes()
	}
	var recs []swf.Job
	for i := 0; len(recs) < count; i++ {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		if i >= from {
			recs = append(recs, j)
		}
	}
	if _, err := augment.GenerateUtility(recs, h, augment.UtilityConfig{}, augment.NewRand(seed, augment.StreamUtility)); err != nil {
		tb.Fatal(err)
	}
	if _, err := augment.Checkpoint(recs, augment.CheckpointConfig{}, augment.NewRand(seed, augment.StreamCheckpoint)); err != nil {
		tb.Fatal(err)
	}
	t := &gaTrace{procs: procs}
	var util []utility.Func
	var interval []int64
	for i := range recs {
		j := &recs[i]
		sj, ok := gaJob(j, procs)
		if !ok {
			continue
		}
		t.jobs = append(t.jobs, sj)
		var u utility.Func
		if v, ok := j.ExtraValue(utility.Key); ok {
			if err := u.Parse(v); err != nil {
				tb.Fatal(err)
			}
		}
		util = append(util, u)
		iv := int64(0)
		if v, ok := j.ExtraValue("ckpt"); ok {
			iv, _ = strconv.ParseInt(v, 10, 64)
		}
		interval = append(interval, max(iv, 0))
	}
	return t, util, interval
}

// BenchmarkGAAggregateUtility runs the policies of Lee's Table 4.1 and
// Figure 6.6 on utility-augmented windows and reports each run's aggregate
// utility (AU) and the GA's searches. Run with
//
//	go test -run '^$' -bench GAAggregateUtility -benchtime 1x ./pkg/policy
//
// SWFKIT_GA_SEEDS (default 1, to keep `make bench` short; the note used 3)
// sets how many augmentation seeds.
func BenchmarkGAAggregateUtility(b *testing.B) {
	seeds := 1
	if v := os.Getenv("SWFKIT_GA_SEEDS"); v != "" {
		seeds, _ = strconv.Atoi(v)
	}
	windows := []struct {
		trace     string
		from, len int
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 5000, 5000},
		{"LANL-CM5-1994-4.1-cln.swf.gz", 5000, 5000},
	}
	type pol struct {
		name string
		make func(tr *gaTrace, util []utility.Func, iv []int64, seed int64) sim.Policy
	}
	ga := func(cfg GAConfig, ckpt bool) func(*gaTrace, []utility.Func, []int64, int64) sim.Policy {
		return func(tr *gaTrace, util []utility.Func, iv []int64, seed int64) sim.Policy {
			cfg := cfg
			cfg.Seed = seed
			cfg.Generations, cfg.Mutation, cfg.RestartOverhead = -1, -1, -1
			g, err := NewGA(cfg, ckpt, util, iv)
			if err != nil {
				b.Fatal(err)
			}
			return g
		}
	}
	pols := []pol{
		{"conservative", func(tr *gaTrace, _ []utility.Func, _ []int64, _ int64) sim.Policy {
			return NewConservative(len(tr.jobs))
		}},
		{"easy", func(*gaTrace, []utility.Func, []int64, int64) sim.Policy { return &EASY{} }},
		{"priofifo", func(*gaTrace, []utility.Func, []int64, int64) sim.Policy { return NewPrioFIFO(nil) }},
		{"ga", ga(GAConfig{}, false)},
		{"ga-warm", ga(GAConfig{WarmStart: true}, false)},
		{"ga-ckpt", ga(GAConfig{}, true)},
		{"ga-ckpt-boost", ga(GAConfig{Boost: true}, true)},
		{"ga-ckpt-airline", ga(GAConfig{Airline: true}, true)},
		{"ga-ckpt-boost-airline", ga(GAConfig{Boost: true, Airline: true}, true)},
	}
	for _, w := range windows {
		for seed := 1; seed <= seeds; seed++ {
			tr, util, iv := augmentedWindow(b, w.trace, w.from, w.len, uint64(seed))
			for _, p := range pols {
				b.Run(fmt.Sprintf("%s/seed=%d/%s", w.trace[:4], seed, p.name), func(b *testing.B) {
					var au float64
					for b.Loop() {
						pol := p.make(tr, util, iv, int64(seed))
						jobs := tr.run(b, pol)
						au = aggregateUtility(jobs, util)
						if g, ok := pol.(*GA); ok {
							st := g.Stats()
							b.ReportMetric(float64(st.Searches), "searches")
							b.ReportMetric(float64(st.Bumps), "bumps")
						}
					}
					b.ReportMetric(au, "AU")
				})
			}
		}
	}
}

// BenchmarkGALANL5000 is the speed target of issue 7: ga at 20 x 100 over a
// 5,000-job LANL-CM5 window (jobs 5000-9999). It reports the time per search
// overall and by plan size.
func BenchmarkGALANL5000(b *testing.B) {
	tr, util, _ := augmentedWindow(b, "LANL-CM5-1994-4.1-cln.swf.gz", 5000, 5000, 1)
	for _, warm := range []bool{false, true} {
		b.Run(fmt.Sprintf("warm=%v", warm), func(b *testing.B) {
			var st GAStats
			for b.Loop() {
				g, err := NewGA(GAConfig{Seed: 1, Generations: -1, Mutation: -1, WarmStart: warm}, false, util, nil)
				if err != nil {
					b.Fatal(err)
				}
				jobs := tr.run(b, g)
				st = g.Stats()
				b.ReportMetric(aggregateUtility(jobs, util), "AU")
			}
			b.ReportMetric(float64(st.Searches), "searches")
			b.ReportMetric(float64(st.SearchTime.Microseconds())/float64(max(st.Searches, 1)), "µs/search")
			for k, bs := range st.BySize {
				if bs.Searches > 0 {
					b.Logf("plan size %d-%d: %d searches, %v each", 1<<k, 1<<(k+1)-1, bs.Searches, bs.Time/time.Duration(bs.Searches))
				}
			}
		})
	}
}

// BenchmarkGADampingSelection tests an explanation of why --boost lowers
// aggregate utility here: the boost adds the kept jobs' start values to
// every ordering's fitness alike, which flattens fitness-proportional
// selection; elitism (which does not depend on the spread) should then
// recover part of the loss. KTH-SP2 jobs 5000-9999, three seeds:
//
//	go test -run '^$' -bench GADampingSelection -benchtime 1x ./pkg/policy
func BenchmarkGADampingSelection(b *testing.B) {
	variants := []struct {
		name string
		cfg  GAConfig
	}{
		{"ga-ckpt", GAConfig{}},
		{"ga-ckpt-elitism", GAConfig{Elitism: true}},
		{"ga-ckpt-boost", GAConfig{Boost: true}},
		{"ga-ckpt-boost-elitism", GAConfig{Boost: true, Elitism: true}},
		// Restart overhead sensitivity: 0.1 s per processor instead of 1.
		{"ga-ckpt-overhead0.1", GAConfig{RestartOverhead: 0.1}},
		{"ga-ckpt-boost-airline-overhead0.1", GAConfig{Boost: true, Airline: true, RestartOverhead: 0.1}},
	}
	for seed := 1; seed <= 3; seed++ {
		tr, util, iv := augmentedWindow(b, "KTH-SP2-1996-2.1-cln.swf.gz", 5000, 5000, uint64(seed))
		for _, v := range variants {
			b.Run(fmt.Sprintf("seed=%d/%s", seed, v.name), func(b *testing.B) {
				cfg := v.cfg
				cfg.Seed, cfg.Generations, cfg.Mutation = int64(seed), -1, -1
				if cfg.RestartOverhead == 0 {
					cfg.RestartOverhead = -1 // the default
				}
				var au float64
				for b.Loop() {
					g, err := NewGA(cfg, true, util, iv)
					if err != nil {
						b.Fatal(err)
					}
					au = aggregateUtility(tr.run(b, g), util)
					b.ReportMetric(float64(g.Stats().Bumps), "bumps")
				}
				b.ReportMetric(au, "AU")
			})
		}
	}
}
