package clean_test

// Flurries: the model's windows (crosscheck_model_test.go) against
// clean.FlurryDetector, on random bursty traces with small thresholds and on
// the archive traces with the defaults, whose candidate counts the page
// states; and --drop-flurries through the command against the model's drops.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/clean"
	"github.com/swfkit/swfkit/pkg/swf"
)

func detect(jobs []swf.Job, cfg clean.FlurryConfig) []clean.Flurry {
	d := clean.NewFlurryDetector(cfg)
	for i := range jobs {
		d.Add(&jobs[i])
	}
	return d.Flurries()
}

func compareFlurries(t *testing.T, name string, jobs []swf.Job, cfg clean.FlurryConfig) bool {
	t.Helper()
	model := modelFlurries(jobs, cfg.Window, cfg.MinJobs, cfg.MinShare)
	got := detect(jobs, cfg)
	if len(got) != len(model) {
		t.Errorf("%s %+v: %d flurries, model %d:\n tool  %+v\n model %+v", name, cfg, len(got), len(model), got, model)
		return false
	}
	for i := range got {
		g, m := got[i], model[i]
		if g.User != m.User || g.FirstJob != m.FirstJob || g.LastJob != m.LastJob ||
			g.Start != m.Start || g.End != m.End || g.Jobs != m.Jobs || g.Total != m.Total {
			t.Errorf("%s %+v: flurry %d\n tool  %+v\n model %+v", name, cfg, i, g, m)
			return false
		}
		if want := fmt.Sprintf("user=%d and job>=%d and job<=%d", m.User, m.FirstJob, m.LastJob); g.Filter() != want {
			t.Errorf("%s: filter %q, want %q", name, g.Filter(), want)
		}
		if share := float64(m.Jobs) / float64(m.Total); g.Share() != share {
			t.Errorf("%s: share %v, want %v", name, g.Share(), share)
		}
	}
	return true
}

// xcBurstyTrace has a few users, one of whom sometimes submits a burst.
func xcBurstyTrace(r *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("; MaxProcs: 16\n; UnixStartTime: 5000\n")
	t := int64(r.IntN(100))
	for i := 1; i <= n; i++ {
		user := int64(1 + r.IntN(4))
		if r.IntN(10) < 3 {
			user = 1
		}
		step := pick(r, 0, 1, 3, 10, 40, 200)
		if r.IntN(20) == 0 {
			step = pick(r, 500, 1000)
		}
		t += step
		sub := t
		if r.IntN(30) == 0 {
			sub = -1
		}
		if r.IntN(30) == 0 {
			user = -1
		}
		job := int64(i)
		if r.IntN(15) == 0 {
			job = int64(r.IntN(i) + 1)
		}
		fmt.Fprintf(&b, "%d %d 0 %d 1 -1 -1 1 -1 -1 %d %d 1 -1 1 -1 -1 -1\n", job, sub,
			pick(r, 0, 5, 10), pick(r, 1, 1, 0, 5), user)
	}
	return b.String()
}

func TestCrossCheckFlurriesRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 200; i++ {
		text := xcBurstyTrace(r, 20+r.IntN(200))
		_, jobs := xcRead(t, text)
		cfg := clean.FlurryConfig{
			Window:   pick(r, 60, 100, 101, 600, 3600),
			MinJobs:  int(pick(r, 2, 3, 5, 10)),
			MinShare: []float64{0.3, 0.5, 0.6, 0.9}[r.IntN(4)],
		}
		if !compareFlurries(t, fmt.Sprintf("trace %d", i), jobs, cfg) {
			t.Logf("input:\n%s", text)
			return
		}
	}
}

// TestCrossCheckFlurriesTraces: with the defaults the page counts 0
// candidates in KTH-SP2 (both), 1 in the HPC2N slice, 2 in the CEA-Curie
// sample, 5 in LLNL-Atlas and 9 in LANL-CM5.
func TestCrossCheckFlurriesTraces(t *testing.T) {
	for _, tc := range []struct {
		name string
		want int
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 0},
		{"KTH-SP2-1996-2-unfiltered.swf.gz", 0},
		{"HPC2N-2002-2-first3170.swf.gz", 1},
		{"CEA-Curie-2011-sample.swf.gz", 2},
		{"LLNL-Atlas-2006-2.1-cln.swf.gz", 5},
		{"LANL-CM5-1994-4.1-cln.swf.gz", 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, jobs := xcRead(t, xcTrace(t, tc.name, 0))
			if !compareFlurries(t, tc.name, jobs, clean.FlurryConfig{}) {
				return
			}
			if n := len(modelFlurries(jobs, 0, 0, 0)); n != tc.want {
				t.Errorf("%d candidates, the page says %d", n, tc.want)
			}
		})
	}
}

// TestCrossCheckDropFlurries: --drop-flurries (alone and with the default
// rules) through the command, against the model's drops and one Note per
// flurry naming its filter.
func TestCrossCheckDropFlurries(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 25; i++ {
		text := xcBurstyTrace(r, 20+r.IntN(150))
		window, minJobs, share := pick(r, 100, 600), int(pick(r, 3, 5)), []float64{0.3, 0.5}[r.IntN(2)]
		flags := []string{"--flurry-window", fmt.Sprint(window), "--flurry-min-jobs", fmt.Sprint(minJobs), "--flurry-share", fmt.Sprint(share)}
		for _, c := range []xcCleanCase{
			{rules: []string{"flurries"}, args: append([]string{"--rules", "flurries"}, flags...)},
			{rules: append([]string{"flurries"}, clean.DefaultRules()...), args: append([]string{"--drop-flurries"}, flags...)},
		} {
			c.flurry = [3]float64{float64(window), float64(minJobs), share}
			if !compareClean(t, fmt.Sprintf("trace %d", i), text, c) {
				t.Logf("input:\n%s", text)
				return
			}
			_, jobs := xcRead(t, text)
			run := xcSwfclean(t, text, c.args...)
			oh, _ := xcRead(t, run.stdout)
			notes := strings.Join(oh.GetAll("Note"), "\n")
			for _, f := range modelFlurries(jobs, window, minJobs, share) {
				filter := fmt.Sprintf("user=%d and job>=%d and job<=%d", f.User, f.FirstJob, f.LastJob)
				if !strings.Contains(notes, filter) {
					t.Errorf("trace %d: no Note with %q in\n%s", i, filter, notes)
					return
				}
			}
		}
	}
}
