package policy

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// runWithPredictions runs policy name over jobs whose pred= tokens are given
// (-1: no token) and returns the policy and the jobs after the run.
func runWithPredictions(t *testing.T, name string, params ResearchParams, jobs []rjob, given []int64) (sim.Policy, []sim.Job) {
	t.Helper()
	info, ok := Lookup(name)
	if !ok {
		t.Fatalf("policy %q not registered", name)
	}
	extra := func(id int32, key string) (string, bool) {
		if key != KeyPrediction || given == nil || given[id] < 0 {
			return "", false
		}
		return strconv.FormatInt(given[id], 10), true
	}
	sj := rcase{jobs: jobs}.simJobs()
	p, err := info.New(Params{Research: params, Extra: extra}, len(sj))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sim.Config{Procs: 10}, sj)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(p); err != nil {
		t.Fatal(err)
	}
	return p, sj
}

func startsEnds(jobs []sim.Job) (starts, ends []int64) {
	for _, j := range jobs {
		starts, ends = append(starts, j.Start), append(ends, j.End)
	}
	return starts, ends
}

// tokenJobs on 10 processors: H (all processors) waits for A's end at 100.
// X (estimate 1000) and Y (estimate 30, runs 60) could backfill only on
// their predictions.
var tokenJobs = []rjob{
	{submit: 0, procs: 6, runtime: 100, estimate: 100, user: 1}, // A, pred=100
	{submit: 1, procs: 10, runtime: 10, estimate: 10, user: 2},  // H, no token
	{submit: 2, procs: 2, runtime: 50, estimate: 1000, user: 3}, // X, pred=40
	{submit: 3, procs: 2, runtime: 60, estimate: 30, user: 4},   // Y, pred=5000
}

// TestPredictorToken checks that the pred= token drives the scheduler while
// the estimate stays the kill time (Guim et al.'s setup):
//   - EASY: X's estimate ends at 1002 > shadow 100 (extra 0), so X waits for H
//     (100-110) and starts at 110; Y (3+30 <= 100) backfills at 3 and is killed
//     at its estimate, 33.
//   - easy-p --predictor token: X is predicted 40 s (2+40 <= 100) and backfills
//     at 2; at 42 it is still running, the prediction is corrected to the
//     estimate, and it ends at 52. Y's pred=5000 is capped at its estimate 30,
//     so Y backfills at 3 as under EASY and is still killed at 33. H has no
//     token: predicted its estimate. First predictions 100, 10, 40, 30 against
//     runs 100, 10, 50, 30: one underprediction in four.
func TestPredictorToken(t *testing.T) {
	given := []int64{100, -1, 40, 5000}
	_, easy := runWithPredictions(t, "easy", ResearchParams{}, tokenJobs, nil)
	if s, e := startsEnds(easy); !slices.Equal(s, []int64{0, 100, 110, 3}) || !slices.Equal(e, []int64{100, 110, 160, 33}) {
		t.Errorf("easy: starts %v ends %v, want [0 100 110 3] [100 110 160 33]", s, e)
	}
	for _, name := range []string{"easy-p", "easy++"} {
		p, jobs := runWithPredictions(t, name, ResearchParams{Predictor: "token"}, tokenJobs, given)
		if s, e := startsEnds(jobs); !slices.Equal(s, []int64{0, 100, 2, 3}) || !slices.Equal(e, []int64{100, 110, 52, 33}) {
			t.Errorf("%s: starts %v ends %v, want [0 100 2 3] [100 110 52 33]", name, s, e)
		}
		if !jobs[3].Killed || jobs[2].Killed {
			t.Errorf("%s: killed X=%v Y=%v, want only Y killed (at its estimate)", name, jobs[2].Killed, jobs[3].Killed)
		}
		note := p.(Noter).Note()
		for _, want := range []string{"predictor token", "1 jobs without pred= predicted their estimate", "25.00% underpredicted", "1 corrections of 1 jobs"} {
			if !strings.Contains(note, want) {
				t.Errorf("%s: Note %q lacks %q", name, note, want)
			}
		}
	}
}

func TestPredictorTokenErrors(t *testing.T) {
	info, _ := Lookup("easy-p")
	params := Params{Research: ResearchParams{Predictor: "token"}}
	if _, err := info.New(params, 3); err == nil || !strings.Contains(err.Error(), "no job has a pred= token") {
		t.Errorf("no tokens: error %v, want one saying no job has a pred= token", err)
	}
	params.Extra = func(id int32, key string) (string, bool) { return "-5", id == 1 && key == KeyPrediction }
	if _, err := info.New(params, 3); err == nil || !strings.Contains(err.Error(), "job 2: pred=-5") {
		t.Errorf("negative token: error %v, want one naming job 2 and pred=-5", err)
	}
}

// repredictJobs follows the situation of pyss's EASY++ tests plus_plus_easy.10
// and .11 (a waiting job's prediction is recomputed after newer jobs of the
// same user finish); the jobs and times here are our own. On 10 processors,
// H (all processors) waits for A's end at 100. User 1's X (estimate 1000, runs
// 20) arrives with no history, so last2 predicts 1000 and X cannot backfill.
// User 1's newer U1a and U1b (estimates 20, run 10) backfill at 3 and end at
// 13; Z (user 4, 40 s) arrived at 4 when no processor was free.
var repredictJobs = []rjob{
	{submit: 0, procs: 6, runtime: 100, estimate: 100, user: 2}, // A
	{submit: 1, procs: 10, runtime: 10, estimate: 10, user: 3},  // H
	{submit: 2, procs: 4, runtime: 20, estimate: 1000, user: 1}, // X
	{submit: 3, procs: 2, runtime: 10, estimate: 20, user: 1},   // U1a
	{submit: 3, procs: 2, runtime: 10, estimate: 20, user: 1},   // U1b
	{submit: 4, procs: 4, runtime: 40, estimate: 40, user: 4},   // Z
}

// TestRepredict: at 13 user 1's last two runtimes are 10 and 10.
//   - Predicting once (default): X keeps 1000; SJBF tries Z (40) first,
//     13+40 <= 100, Z runs 13-53; X (1000) never fits before the shadow and
//     starts after H, at 110.
//   - --repredict: X's prediction becomes 10 when U1b ends, so SJBF tries X
//     before Z: X runs from 13 (corrected at 23, ends at 33), then Z
//     (33+40 <= 100) from 33 to 73.
func TestRepredict(t *testing.T) {
	for _, tc := range []struct {
		repredict  bool
		starts     []int64
		ends       []int64
		noteRepred bool
	}{
		{false, []int64{0, 100, 110, 3, 3, 13}, []int64{100, 110, 130, 13, 13, 53}, false},
		{true, []int64{0, 100, 13, 3, 3, 33}, []int64{100, 110, 33, 13, 13, 73}, true},
	} {
		p, jobs := runWithPredictions(t, "easy++", ResearchParams{Repredict: tc.repredict}, repredictJobs, nil)
		if s, e := startsEnds(jobs); !slices.Equal(s, tc.starts) || !slices.Equal(e, tc.ends) {
			t.Errorf("repredict %v: starts %v ends %v, want %v %v", tc.repredict, s, e, tc.starts, tc.ends)
		}
		if got := strings.Contains(p.(Noter).Note(), "repredict"); got != tc.noteRepred {
			t.Errorf("repredict %v: Note %q mentions repredict: %v", tc.repredict, p.(Noter).Note(), got)
		}
	}
}
