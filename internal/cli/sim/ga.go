// Package simcli is the swfsim command. This file holds what ga, ga-ckpt
// and the price mechanisms add to it: their flags, the GAConfig they build,
// and the price= tokens written after a run.
package simcli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/ga"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/predict"
	"github.com/swfkit/swfkit/pkg/price"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
	"github.com/swfkit/swfkit/pkg/utility"
)

const (
	gaCategory   = "Genetic-algorithm scheduler, ga and ga-ckpt (Lee 2009, ch. 3, 6.7):"
	ckptCategory = "Checkpoint-aware ga-ckpt damping and restarts (Lee 2009, 6.7.1):"
	seedDefault  = "arrival,priority,density,value"
)

// gaFlags are the flags of ga and ga-ckpt and of --price.
func gaFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "ga-population", Value: ga.DefaultPopulation, Category: gaCategory,
			Usage: "`N` individuals per generation (constant)"},
		&cli.IntFlag{Name: "ga-generations", Value: ga.DefaultGenerations, Category: gaCategory,
			Usage: "`N` generations bred per scheduling decision (0: best of the initial population)"},
		&cli.Float64Flag{Name: "ga-mutation", Value: ga.DefaultMutation, Category: gaCategory,
			Usage: "probability `P` that a child gets one point mutation (two jobs swap)"},
		&cli.BoolFlag{Name: "ga-elitism", Category: gaCategory,
			Usage: "carry the best ordering ever seen into each generation (the thesis only keeps it aside)"},
		&cli.StringFlag{Name: "ga-seeds", Value: seedDefault, Category: gaCategory,
			Usage: "special orderings (`LIST`) in each initial population: arrival, priority, density, value, or none"},
		&cli.BoolFlag{Name: "ga-warm-start", Category: gaCategory,
			Usage: "also seed each search with the previous best ordering (thesis 7.2.1)"},
		&cli.IntFlag{Name: "ga-workers", Category: gaCategory,
			Usage: "`N` goroutines evaluating fitness (0: one per CPU); never changes results"},
		&cli.IntFlag{Name: "bump-limit", Value: 1, Category: ckptCategory,
			Usage: "`N` times a job may be terminated and requeued (-1: no limit)"},
		&cli.BoolFlag{Name: "boost", Category: ckptCategory,
			Usage: "add a running job's start value to its utility when an ordering keeps it running"},
		&cli.BoolFlag{Name: "airline", Category: ckptCategory,
			Usage: "bumped jobs keep the front of the queue; the search orders the rest"},
		&cli.Float64Flag{Name: "restart-overhead", Value: policy.DefaultRestartOverhead, Category: ckptCategory,
			Usage: "restart cost of a bumped job, `SECONDS` per processor (0-3600)"},
		&cli.StringFlag{Name: "price", Category: "Prices (Lee 2009, 3.4.3):",
			Usage: "append price= to every job: `MODE` first (utility at its turnaround) or vcg (approximate opportunity cost)"},
		&cli.StringFlag{Name: "price-window", Value: "thesis", Category: "Prices (Lee 2009, 3.4.3):",
			Usage: "vcg `WINDOW`: thesis (waiting at submission + arriving while running) or whole-wait (+ arriving while waiting)"},
	}
}

// gaConfig reads the GA flags. seed is the run's --seed.
func gaConfig(c *cli.Context, seed int64) (policy.GAConfig, error) {
	seeds, err := policy.ParseSeeds(c.String("ga-seeds"))
	if err != nil {
		return policy.GAConfig{}, cmdio.Usagef("%s", flagNamed(err))
	}
	cfg := policy.GAConfig{
		Population:      c.Int("ga-population"),
		Generations:     c.Int("ga-generations"),
		Mutation:        c.Float64("ga-mutation"),
		Elitism:         c.Bool("ga-elitism"),
		Workers:         c.Int("ga-workers"),
		Seed:            seed,
		Seeds:           seeds,
		WarmStart:       c.Bool("ga-warm-start"),
		BumpLimit:       c.Int("bump-limit"),
		Boost:           c.Bool("boost"),
		Airline:         c.Bool("airline"),
		RestartOverhead: c.Float64("restart-overhead"),
	}
	switch {
	case cfg.Population < 1 || cfg.Population > maxPopulation:
		return cfg, cmdio.Usagef("--ga-population %d: want 1 to %d", cfg.Population, maxPopulation)
	case cfg.Workers > maxWorkers:
		return cfg, cmdio.Usagef("--ga-workers %d: want 0 to %d", cfg.Workers, maxWorkers)
	case cfg.Generations < 0:
		return cfg, cmdio.Usagef("--ga-generations %d: want 0 or more", cfg.Generations)
	case !(cfg.Mutation >= 0 && cfg.Mutation <= 1):
		return cfg, cmdio.Usagef("--ga-mutation %g: want a probability in [0, 1]", cfg.Mutation)
	case cfg.Workers < 0:
		return cfg, cmdio.Usagef("--ga-workers %d: want 0 or more", cfg.Workers)
	case cfg.BumpLimit == 0:
		// No job could be bumped: ga-ckpt would be ga, which is not
		// what a user who asks for ga-ckpt expects to get silently.
		return cfg, cmdio.Usagef("--bump-limit 0: no job could be bumped, and ga-ckpt would schedule exactly as ga: use --policy ga for that; want 1 or more, or -1 for no limit")
	case cfg.BumpLimit < -1:
		return cfg, cmdio.Usagef("--bump-limit %d: want 1 or more, or -1 for no limit", cfg.BumpLimit)
	case !(cfg.RestartOverhead >= 0 && cfg.RestartOverhead <= maxRestartOverhead):
		return cfg, cmdio.Usagef("--restart-overhead %g: want seconds per processor from 0 to %d", cfg.RestartOverhead, maxRestartOverhead)
	}
	// Flags the others leave without effect (docs/swfsim.md): breeding
	// flags without generations to breed, seed orderings beyond the
	// population that holds them.
	if cfg.Generations == 0 {
		for _, f := range []string{"ga-mutation", "ga-elitism"} {
			if c.IsSet(f) {
				return cfg, cmdio.Usagef("--%s acts when generations are bred; --ga-generations 0 keeps the best of the initial population, so it would change nothing", f)
			}
		}
	}
	// Seeds beyond the population are never used. (With --ga-warm-start,
	// whose ordering goes first in every search after the first, a full
	// population of seeds loses its last from the second search on: all
	// are used in the first.)
	if len(cfg.Seeds) > cfg.Population {
		if c.IsSet("ga-seeds") {
			return cfg, cmdio.Usagef("--ga-seeds lists %d orderings, but --ga-population %d holds %d: the last would be left out; list at most %d", len(cfg.Seeds), cfg.Population, cfg.Population, cfg.Population)
		}
		cfg.Seeds = cfg.Seeds[:cfg.Population] // the default's first ones, as the Note says
	}
	return cfg, nil
}

// maxRestartOverhead bounds --restart-overhead, in seconds per processor: an
// hour a processor is far beyond any restart cost reported, and keeps a
// restart's cost on a big machine far from swfkit's time bound (checked
// against the machine once it is known: checkRestartOverhead).
const maxRestartOverhead = 3600

// checkRestartOverhead refuses a --restart-overhead whose restart of a job
// as wide as the machine would cost more than a 1024th of swfkit's time bound
// (34 years), so that no bumped job's simulated runtime can pass the bound
// because of it.
func checkRestartOverhead(overhead float64, procs int64) error {
	if limit := float64(swf.MaxTime) / 1024; overhead*float64(procs) > limit {
		return cmdio.Usagef("--restart-overhead %g: a bumped job as wide as the %d-processor machine would cost %.3g s to restart, beyond %.3g s (swfkit's time bound / 1024); give at most %.3g", overhead, procs, overhead*float64(procs), limit, limit/float64(procs))
	}
	return nil
}

// priceSetup is what --price needs, checked before the run.
// vcgPolicies can run a VCG re-simulation, which starts the jobs running at
// the window's start before the policy's first pass (pkg/price pinFirst):
// policies that keep reservations or per-job state of their own (conservative,
// selective, the timed and predictive ones) cannot take jobs started behind
// their back.
var vcgPolicies = map[string]bool{"fcfs": true, "easy": true, "priofifo": true, "sjf": true,
	"lxf": true, "lxfw": true, "ga": true, "ga-ckpt": true}

func vcgPolicyList() string {
	var names []string
	for _, in := range policy.List() {
		if vcgPolicies[in.Name] {
			names = append(names, in.Name)
		}
	}
	return strings.Join(names, ", ")
}

type priceSetup struct {
	mode      string // "", "first" or "vcg"
	wholeWait bool
}

func parsePrice(c *cli.Context) (priceSetup, error) {
	ps := priceSetup{mode: c.String("price")}
	switch ps.mode {
	case "", "first", "vcg":
	default:
		return ps, cmdio.Usagef("--price %q: want first or vcg", ps.mode)
	}
	switch w := c.String("price-window"); w {
	case "thesis":
	case "whole-wait":
		ps.wholeWait = true
	default:
		return ps, cmdio.Usagef("--price-window %q: want thesis or whole-wait", w)
	}
	if c.IsSet("price-window") && ps.mode != "vcg" {
		// Read by vcg only: silently ignored otherwise, as a policy's flag
		// given to another policy would be.
		return ps, cmdio.Usagef("--price-window applies to --price vcg only")
	}
	return ps, nil
}

// computePrices returns each simulated job's price (indexed by sim job ID)
// and a Note describing how. input are the jobs as given to the
// simulation, result after it. newPolicy builds a fresh policy of the run's
// kind for a VCG re-simulation (given its jobs' original IDs, -1 for pinned
// jobs, and their utilities). progress, if not nil, receives a progress bar.
func computePrices(ps priceSetup, input, result []sim.Job, extra func(int32, string) (string, bool),
	procs int64, noKill bool, newPolicy func(priced int32, ids []int32, util []utility.Func) (sim.Policy, error),
	interrupted []price.Interruption, progress io.Writer) ([]float64, string, error) {
	util, missing, err := policy.Utilities(len(result), extra)
	if err != nil {
		return nil, "", fmt.Errorf("--price: %w", err)
	}
	note := ""
	if missing > 0 {
		note = fmt.Sprintf(" (%d jobs without u= pay 0)", missing)
	}
	if ps.mode == "first" {
		return price.First(result, util), "price= is each job's utility at its simulated turnaround (first price, Lee 3.4.3)" + note, nil
	}
	cfg := price.VCGConfig{Procs: procs, NoKill: noKill, NewPolicy: newPolicy, WholeWait: ps.wholeWait, Interruptions: interrupted}
	if progress != nil {
		bar := progressbar.NewOptions(len(result), progressbar.OptionSetWriter(progress),
			progressbar.OptionSetDescription("vcg prices"), progressbar.OptionShowCount(),
			progressbar.OptionThrottle(200_000_000), progressbar.OptionClearOnFinish())
		cfg.Progress = func(done, total int) { _ = bar.Set(done) }
		defer bar.Finish()
	}
	prices, err := price.VCG(input, result, util, cfg)
	if err != nil {
		return nil, "", err
	}
	window := "the jobs waiting at its submission and those submitted while it ran (Lee 3.4.3)"
	if ps.wholeWait {
		window = "the jobs waiting at its submission and those submitted until its end"
	}
	return prices, "price= approximates each job's VCG price: the utility the other jobs of its window, " + window +
		", gain when the same scheduler runs again without it, clamped at 0" + note, nil
}

// addPriceTokens appends price=P (8 significant digits) to each job's
// Tokens, replacing an earlier price=.
func addPriceTokens(jobs []sim.Job, prices []float64) {
	for i := range jobs {
		tok := "price=" + strconv.FormatFloat(prices[i], 'g', 8, 64)
		replaced := false
		for k, t := range jobs[i].Tokens {
			if strings.HasPrefix(t, "price=") {
				jobs[i].Tokens[k], replaced = tok, true
			}
		}
		if !replaced {
			jobs[i].Tokens = append(jobs[i].Tokens, tok)
		}
	}
}

// repricer returns the policy constructor of VCG re-simulations for a run
// of policy name: ga and ga-ckpt are rebuilt with the run's GAConfig (one
// fitness worker each, since re-simulations already run in parallel) over
// the window's utilities and checkpoint intervals; other policies through
// the registry.
func repricer(name string, params policy.Params, interval []int64) func(int32, []int32, []utility.Func) (sim.Policy, error) {
	return func(_ int32, ids []int32, util []utility.Func) (sim.Policy, error) {
		if name != "ga" && name != "ga-ckpt" {
			info, ok := policy.Lookup(name)
			if !ok {
				return nil, fmt.Errorf("policy %q not registered", name)
			}
			return info.New(params, len(ids))
		}
		cfg := params.GA
		cfg.Workers = 1
		if cfg.PriorityOrder == nil {
			cfg.PriorityOrder = params.PriorityOrder // as newGAFromParams
		}
		var iv []int64
		if name == "ga-ckpt" {
			iv = make([]int64, len(ids))
			for k, id := range ids {
				if id >= 0 && int(id) < len(interval) {
					iv[k] = interval[id]
				}
			}
		}
		return policy.NewGA(cfg, name == "ga-ckpt", util, iv)
	}
}

// jobTokens keeps the u=, ckpt= and pred= values of the simulated jobs, in
// job order, for Params.Extra.
type jobTokens struct {
	u, ckpt, pred          []string
	hasU, hasCkpt, hasPred []bool
	// checkU, checkCkpt and checkPred say which tokens the run reads: only
	// those are checked (a token the run ignores is passed through).
	checkU, checkCkpt, checkPred bool
}

// add keeps the u=, ckpt= and pred= tokens of a simulated job, checked here, where
// the record's file and line are known: a malformed one is a ParseError that
// names them, not a policy error about the n-th simulated job.
func (t *jobTokens) add(sj *swf.Job, file string) error {
	u, okU := sj.ExtraValue(utility.Key)
	c, okC := sj.ExtraValue("ckpt")
	if okU && t.checkU {
		if _, err := utility.Parse(u); err != nil {
			return sj.TokenError(file, utility.Key, fmt.Sprintf("%s=%s: %v", utility.Key, clip(u), err))
		}
	}
	if okC && t.checkCkpt {
		if iv, err := strconv.ParseInt(c, 10, 64); err != nil || iv < -1 || iv == 0 || iv > swf.MaxTime {
			return sj.TokenError(file, "ckpt", fmt.Sprintf("ckpt=%s: want a checkpoint interval in seconds, 1 to %d, or -1", c, int64(swf.MaxTime)))
		}
	}
	// The reader reuses its record: keep copies.
	t.u = append(t.u, strings.Clone(u))
	t.hasU = append(t.hasU, okU)
	t.ckpt = append(t.ckpt, strings.Clone(c))
	t.hasCkpt = append(t.hasCkpt, okC)
	p, okP := sj.ExtraValue(policy.KeyPrediction)
	if okP && t.checkPred {
		if s, err := strconv.ParseInt(p, 10, 64); err != nil || s < 0 || s > swf.MaxTime {
			return sj.TokenError(file, policy.KeyPrediction, fmt.Sprintf("%s=%s: want a runtime prediction in whole seconds, 0 to %d (swfaugment --as-prediction writes pred=S)", policy.KeyPrediction, clip(p), int64(swf.MaxTime)))
		}
	}
	t.pred = append(t.pred, strings.Clone(p))
	t.hasPred = append(t.hasPred, okP)
	return nil
}

// maxPopulation and maxWorkers bound the GA's flags: each individual holds
// an ordering of the queue, so a population of millions exhausts memory (the
// process died of it) where Lee uses 20; workers beyond the cores only cost.
const (
	maxPopulation = 10000
	maxWorkers    = 1024
)

// clip shortens a token value for a message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func (t *jobTokens) value(id int32, key string) (string, bool) {
	switch key {
	case utility.Key:
		return t.u[id], t.hasU[id]
	case "ckpt":
		return t.ckpt[id], t.hasCkpt[id]
	case policy.KeyPrediction:
		return t.pred[id], t.hasPred[id]
	}
	return "", false
}

// needsTokens reports whether the run reads u=/ckpt=/pred= tokens.
func needsTokens(info policy.Info, opt Options) bool {
	return info.Name == "ga" || info.Name == "ga-ckpt" || opt.Price.mode != "" ||
		(slices.Contains(info.Params, "predictor") && opt.Params.Research.Predictor == predict.NameToken)
}
