package simcli

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/utility"
)

// parseGA runs a throwaway app with the GA flags and returns what gaConfig
// and parsePrice make of args.
func parseGA(t *testing.T, args ...string) (policy.GAConfig, priceSetup, error) {
	t.Helper()
	var cfg policy.GAConfig
	var ps priceSetup
	var err error
	app := cmdio.NewApp("swfsim", "", io.Discard, io.Discard)
	app.Flags = gaFlags()
	app.Action = func(c *cli.Context) error {
		if cfg, err = gaConfig(c, 7); err != nil {
			return err
		}
		ps, err = parsePrice(c)
		return err
	}
	if runErr := app.Run(append([]string{"swfsim"}, args...)); runErr != nil && err == nil {
		err = runErr
	}
	return cfg, ps, err
}

func TestGAFlags(t *testing.T) {
	cfg, ps, err := parseGA(t)
	if err != nil {
		t.Fatal(err)
	}
	want := policy.GAConfig{Population: 20, Generations: 100, Mutation: 0.1, Seed: 7, Seeds: policy.SeedNames,
		BumpLimit: 1, RestartOverhead: 1}
	if !slices.Equal(cfg.Seeds, want.Seeds) {
		t.Errorf("seeds %v, want %v", cfg.Seeds, want.Seeds)
	}
	cfg.Seeds = want.Seeds
	if !equalConfig(cfg, want) || ps.mode != "" {
		t.Errorf("defaults %+v %+v, want %+v and no price", cfg, ps, want)
	}
	cfg, ps, err = parseGA(t, "--ga-population", "1", "--ga-generations", "0", "--ga-seeds", "arrival",
		"--ga-warm-start", "--bump-limit", "-1", "--boost", "--airline", "--restart-overhead", "0.5", "--price", "vcg",
		"--price-window", "whole-wait")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Population != 1 || cfg.Generations != 0 || !slices.Equal(cfg.Seeds, []string{"arrival"}) || !cfg.WarmStart ||
		cfg.BumpLimit != -1 || !cfg.Boost || !cfg.Airline || cfg.RestartOverhead != 0.5 || ps.mode != "vcg" || !ps.wholeWait {
		t.Errorf("parsed %+v %+v", cfg, ps)
	}
	for _, bad := range [][]string{
		{"--ga-population", "0"}, {"--ga-generations", "-1"}, {"--ga-mutation", "1.5"}, {"--ga-seeds", "fifo"},
		{"--bump-limit", "0"}, {"--restart-overhead", "-1"}, {"--restart-overhead", "3601"}, {"--restart-overhead", "1e18"}, {"--price", "second"}, {"--price-window", "week"},
		{"--price-window", "whole-wait"}, {"--price", "first", "--price-window", "whole-wait"}, // vcg's window only
	} {
		_, _, err := parseGA(t, bad...)
		var usage *cmdio.UsageError
		if !errors.As(err, &usage) {
			t.Errorf("%v: error %v, want a usage error", bad, err)
		}
	}
}

// The restart overhead of a job as wide as the machine stays far below the
// time bound: an hour a processor is refused on a machine of a million.
func TestRestartOverheadAgainstTheMachine(t *testing.T) {
	if err := checkRestartOverhead(3600, 100); err != nil {
		t.Errorf("3600 s on 100 processors: %v", err)
	}
	var usage *cmdio.UsageError
	if err := checkRestartOverhead(3600, 1_000_000); !errors.As(err, &usage) || !strings.Contains(err.Error(), "--restart-overhead 3600") {
		t.Errorf("3600 s on a million processors: %v, want a usage error", err)
	}
}

func equalConfig(a, b policy.GAConfig) bool {
	a.Seeds, b.Seeds = nil, nil
	return a.Population == b.Population && a.Generations == b.Generations && a.Mutation == b.Mutation &&
		a.Elitism == b.Elitism && a.Workers == b.Workers && a.Seed == b.Seed && a.WarmStart == b.WarmStart &&
		a.BumpLimit == b.BumpLimit && a.Boost == b.Boost && a.Airline == b.Airline && a.RestartOverhead == b.RestartOverhead
}

func TestComputePrices(t *testing.T) {
	// One machine-filling job A (0..100) delays urgent B (submitted at 10).
	input := []sim.Job{
		{Procs: 4, Submit: 0, Runtime: 100, Estimate: 100},
		{Procs: 4, Submit: 10, Runtime: 50, Estimate: 50},
	}
	result := slices.Clone(input)
	s, err := sim.New(sim.Config{Procs: 4}, result)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(&policy.EASY{}); err != nil {
		t.Fatal(err)
	}
	tokens := map[int32]string{0: "0:10,1000:0", 1: "0:1000,200:0"}
	extra := func(id int32, key string) (string, bool) {
		v, ok := tokens[id]
		return v, ok && key == utility.Key
	}
	first, note, err := computePrices(priceSetup{mode: "first"}, input, result, extra, 4, false, nil, nil, nil)
	if err != nil || !strings.Contains(note, "first price") {
		t.Fatalf("first: %v, note %q", err, note)
	}
	if want := []float64{10 - 0.01*100, 1000 - 5*140}; !slices.Equal(first, want) {
		t.Errorf("first prices %v, want %v", first, want)
	}
	params := policy.Params{GA: policy.GAConfig{Population: 4, Generations: 3, Mutation: 0.1, BumpLimit: 1}}
	var bar strings.Builder
	vcg, note, err := computePrices(priceSetup{mode: "vcg"}, input, result, extra, 4, false, repricer("ga", params, nil), nil, &bar)
	if err != nil || !strings.Contains(note, "VCG") {
		t.Fatalf("vcg: %v, note %q", err, note)
	}
	// Without A, B runs 10..60: utility 750 instead of 300.
	if want := []float64{450, 0}; !slices.Equal(vcg, want) {
		t.Errorf("vcg prices %v, want %v", vcg, want)
	}
	addPriceTokens(result, first)
	result[0].Tokens = append(result[0].Tokens, "bumps=1")
	addPriceTokens(result, vcg)
	if !slices.Equal(result[0].Tokens, []string{"price=450", "bumps=1"}) || !slices.Equal(result[1].Tokens, []string{"price=0"}) {
		t.Errorf("tokens %q %q", result[0].Tokens, result[1].Tokens)
	}
	if _, _, err := computePrices(priceSetup{mode: "first"}, input, result, func(int32, string) (string, bool) { return "", false }, 4, false, nil, nil, nil); !errors.Is(err, policy.ErrNoUtility) {
		t.Errorf("no u= tokens: error %v, want ErrNoUtility", err)
	}
}
