package policy

import (
	"errors"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/utility"
)

func mustGA(t *testing.T, cfg GAConfig, ckpt bool, util []utility.Func, interval []int64) *GA {
	t.Helper()
	g, err := NewGA(cfg, ckpt, util, interval)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGAZeroGenerationsArrivalSeedIsEASY(t *testing.T) {
	for _, name := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "LANL-CM5-1994-4.1-cln.swf.gz"} {
		t.Run(name, func(t *testing.T) {
			tr := loadGATrace(t, name, 5000)
			easy := tr.run(t, &EASY{})
			// ga starts what easyPass starts over the best ordering; ga-ckpt
			// with no checkpointing job starts what the fitness model's
			// pass at Now starts (ga.Plan.StartsNow): both must be EASY.
			for _, ckpt := range []bool{false, true} {
				var interval []int64
				if ckpt {
					interval = make([]int64, len(tr.jobs))
				}
				g := mustGA(t, GAConfig{Population: 1, Generations: 0, Seeds: []string{"arrival"}, Workers: 2},
					ckpt, tr.syntheticUtilities(1), interval)
				got := tr.run(t, g)
				compareRuns(t, easy, got)
				if g.Stats().Searches == 0 {
					t.Errorf("no search ran: the test compares nothing")
				}
				t.Logf("ckpt %v: %d jobs, %d passes, %d searches", ckpt, len(easy), g.Stats().Passes, g.Stats().Searches)
			}
		})
	}
}

func compareRuns(t *testing.T, easy, got []sim.Job) {
	t.Helper()
	diff := 0
	for i := range easy {
		if easy[i].Start != got[i].Start || easy[i].End != got[i].End {
			if diff < 5 {
				t.Errorf("job %d: easy ran %d..%d, ga %d..%d", i+1, easy[i].Start, easy[i].End, got[i].Start, got[i].End)
			}
			diff++
		}
	}
	if diff > 0 {
		t.Errorf("%d of %d jobs differ", diff, len(easy))
	}
}

// aggregateUtility sums each job's utility at its simulated turnaround.
func aggregateUtility(jobs []sim.Job, util []utility.Func) float64 {
	var total float64
	for i, j := range jobs {
		total += util[i].Value(float64(j.End - j.Submit))
	}
	return total
}

func TestGAPrefersTheUrgentJob(t *testing.T) {
	// 10 processors. A fills the machine until 100. At 1 a wide job W
	// (low value, no hurry) arrives, at 2 a narrow urgent job U: under
	// arrival order W goes first; the GA puts U first.
	jobs := []sim.Job{
		{Procs: 10, Submit: 0, Runtime: 100, Estimate: 100},
		{Procs: 10, Submit: 1, Runtime: 1000, Estimate: 1000},
		{Procs: 10, Submit: 2, Runtime: 50, Estimate: 50},
	}
	util := []utility.Func{
		{Points: []utility.Point{{Time: 0, Value: 10}, {Time: 1e6, Value: 0}}},
		{Points: []utility.Point{{Time: 0, Value: 100}, {Time: 1e6, Value: 0}}},
		{Points: []utility.Point{{Time: 0, Value: 1000}, {Time: 200, Value: 0}}},
	}
	run := func(p sim.Policy) []sim.Job {
		js := append([]sim.Job(nil), jobs...)
		s, err := sim.New(sim.Config{Procs: 10}, js)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(p); err != nil {
			t.Fatal(err)
		}
		return js
	}
	easy := run(&EASY{})
	got := run(mustGA(t, GAConfig{Seed: 1, Generations: -1, Mutation: -1}, false, util, nil))
	if easy[2].Start != 1100 {
		t.Fatalf("easy started U at %d, want 1100 (the case is wrong)", easy[2].Start)
	}
	if got[2].Start != 100 || got[1].Start != 150 {
		t.Errorf("ga started U at %d and W at %d, want 100 and 150", got[2].Start, got[1].Start)
	}
	if a, b := aggregateUtility(got, util), aggregateUtility(easy, util); !(a > b) {
		t.Errorf("ga aggregate utility %v not above easy's %v", a, b)
	}
}

func TestGADeterministic(t *testing.T) {
	tr := loadGATrace(t, "KTH-SP2-1996-2.1-cln.swf.gz", 1000)
	util := tr.syntheticUtilities(2)
	var first []sim.Job
	for _, workers := range []int{1, 2, 1} {
		cfg := GAConfig{Seed: 7, Population: 10, Generations: 10, Mutation: -1, Workers: workers, WarmStart: true}
		got := tr.run(t, mustGA(t, cfg, false, util, nil))
		if first == nil {
			first = got
			continue
		}
		for i := range got {
			if got[i].Start != first[i].Start {
				t.Fatalf("workers %d: job %d starts at %d, first run %d", workers, i+1, got[i].Start, first[i].Start)
			}
		}
	}
}

func TestGARequiresUtilities(t *testing.T) {
	in, _ := Lookup("ga")
	_, err := in.New(Params{Extra: func(int32, string) (string, bool) { return "", false }}, 3)
	if !errors.Is(err, ErrNoUtility) || !strings.Contains(err.Error(), "swfaugment --utility") {
		t.Errorf("error %v, want ErrNoUtility naming swfaugment --utility", err)
	}
	_, err = in.New(Params{}, 3)
	if !errors.Is(err, ErrNoUtility) {
		t.Errorf("nil Extra: error %v, want ErrNoUtility", err)
	}
	bad := func(id int32, key string) (string, bool) {
		if key == "u" && id == 1 {
			return "0:5,10:7", true
		}
		return "", false
	}
	if _, err = in.New(Params{Extra: bad}, 3); err == nil || !strings.Contains(err.Error(), "job 2") {
		t.Errorf("malformed u=: error %v, want one naming job 2", err)
	}
	ok := func(id int32, key string) (string, bool) {
		if key == "u" {
			return "0:5,10:0", true
		}
		return "", false
	}
	if _, err = in.New(Params{Extra: ok}, 3); err != nil {
		t.Errorf("well-formed u=: %v", err)
	}
	ck, _ := Lookup("ga-ckpt")
	badCkpt := func(id int32, key string) (string, bool) {
		if key == "ckpt" {
			return "0", true
		}
		return ok(id, key)
	}
	if _, err = ck.New(Params{Extra: badCkpt}, 3); err == nil || !strings.Contains(err.Error(), "ckpt=0") {
		t.Errorf("ckpt=0: error %v, want a complaint", err)
	}
}
