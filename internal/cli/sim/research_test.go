package simcli

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/predict"
	"github.com/swfkit/swfkit/pkg/sim"
)

// parseResearch runs a throwaway app with the research flags over args.
func parseResearch(t *testing.T, args ...string) (policy.ResearchParams, error) {
	t.Helper()
	var got policy.ResearchParams
	var perr error
	app := &cli.App{Flags: researchFlags(), Action: func(c *cli.Context) error {
		got, perr = researchParams(c)
		return nil
	}}
	if err := app.Run(append([]string{"swfsim"}, args...)); err != nil {
		t.Fatalf("flags %v: %v", args, err)
	}
	return got, perr
}

func TestResearchParams(t *testing.T) {
	r, err := parseResearch(t)
	if err != nil {
		t.Fatal(err)
	}
	want := policy.ResearchParams{Threshold: "auto", ShortMax: 3600, NarrowMax: 8, WellEstimated: 2, SlowdownBound: 10,
		Trial: 90, TrialSet: true, Corrector: "estimate", Ladder: predict.DefaultLadder}
	if !slices.Equal(r.Ladder, want.Ladder) {
		t.Errorf("default ladder %v", r.Ladder)
	}
	r.Ladder, want.Ladder = nil, nil
	if !reflect.DeepEqual(r, want) {
		t.Errorf("defaults = %+v, want %+v", r, want)
	}

	r, err = parseResearch(t, "--threshold", "SN=1,SW=2,LN=3,LW=4", "--narrow-max", "64", "--trial", "0",
		"--predictor", "lastk:3", "--corrector", "ladder", "--ladder", "30s,2m,1h")
	if err != nil {
		t.Fatal(err)
	}
	if r.Threshold != "SN=1,SW=2,LN=3,LW=4" || r.NarrowMax != 64 || r.Trial != 0 || !r.TrialSet ||
		r.Predictor != "lastk:3" || r.Corrector != "ladder" || !slices.Equal(r.Ladder, []int64{30, 120, 3600}) {
		t.Errorf("parsed %+v", r)
	}

	for _, bad := range [][]string{
		{"--trial", "-1"}, {"--short-max", "0"}, {"--narrow-max", "-3"}, {"--well-estimated", "0.5"},
		{"--slowdown-bound", "0"}, {"--ladder", "5m,1m"}, {"--ladder", "1w"},
	} {
		_, err := parseResearch(t, bad...)
		var usage *cmdio.UsageError
		if !errors.As(err, &usage) {
			t.Errorf("%v: error %v, want a usage error", bad, err)
		}
	}
}

func TestFairStartTokens(t *testing.T) {
	jobs := []sim.Job{
		{Submit: 0, Procs: 2, Runtime: 100, Estimate: 100, Queue: -1, User: -1},
		{Submit: 1, Procs: 4, Runtime: 10, Estimate: 10, Queue: -1, User: -1, Tokens: []string{"trial=0"}},
	}
	if err := fairStartTokens(sim.Config{Procs: 4}, jobs); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(jobs[0].Tokens, []string{"fairstart=0"}) || !slices.Equal(jobs[1].Tokens, []string{"trial=0", "fairstart=100"}) {
		t.Errorf("tokens %q, %q", jobs[0].Tokens, jobs[1].Tokens)
	}
}
