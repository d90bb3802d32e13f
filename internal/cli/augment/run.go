package augmentcli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	_ "time/tzdata" // EndTime is rewritten in the header's TimeZoneString on any machine

	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/augment"
	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/swf"
)

// DefaultSeed is the seed used without --seed; it is printed in the header.
const DefaultSeed = 1

// MaxPoints bounds --points: intermediate points per utility function (Lee
// uses a handful; each is written in every job's u= token).
const MaxPoints = 1000

// Run runs swfaugment with args (args[0] is the program name) and returns the
// exit status.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cmdio.Run(NewApp(stdin, stdout, stderr), args, stderr)
}

// NewApp is swfaugment's command line: its flags, help and action. The man
// page and completion scripts are generated from it.
func NewApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := cmdio.NewApp("swfaugment", "add utility functions, checkpoint intervals, estimate errors and load scaling to an SWF trace", stdout, stderr)
	app.ArgsUsage = "[FILE]   (default or - : standard input; gzip/zstd/bzip2/xz detected)"
	app.Description = description
	app.Flags = flags()
	app.Action = func(c *cli.Context) error { return run(c, stdin, stdout, stderr) }
	cmdio.SetHelp(app, help)
	return app
}

const (
	catUtility    = "Utility functions (Lee 2009, 2.6):"
	catCheckpoint = "Checkpointing (Lee 2009, ch. 6):"
	catEstimate   = "Runtime estimates (Guim et al. 2007; Mu'alem & Feitelson):"
	catBounds     = "Category bounds (Guim et al. 2007, Tables 3-4):"
	catLoad       = "Load (Srinivasan et al. 2002, 4.2):"
)

func flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (.gz/.zst compress) instead of standard output"},
		&cli.Int64Flag{Name: "seed", Value: DefaultSeed, Usage: "random seed `S` (any integer, as in swfsim); every operation derives its own stream from it (accepted with any operation, also where nothing is random, so a sweep can always pass it)"},
		&cli.BoolFlag{Name: "lenient", Usage: "skip malformed job lines (counted on stderr) instead of failing; an input with no valid job line is still an error"},
		&cli.BoolFlag{Name: "verbose", Usage: "also print the header Notes on stderr"},

		&cli.BoolFlag{Name: "utility", Category: catUtility, Usage: "append a utility function u= to every job"},
		&cli.Float64Flag{Name: "deadline-factor", Value: 2, Category: catUtility, Usage: "deadline = max(min-deadline, `F` x wait in the log); Lee also uses 1 and 3"},
		&cli.Int64Flag{Name: "min-deadline", Value: 10, Category: catUtility, Usage: "least deadline, `SECONDS`"},
		&cli.StringFlag{Name: "decay", Value: "linear:1,exponential:1,step:1", Category: catUtility, Usage: "decay model `MIX` (shares of linear, exponential, step)"},
		&cli.IntFlag{Name: "points", Value: 4, Category: catUtility, Usage: "`N` intermediate points of the linear and exponential models (1-1000)"},
		&cli.Float64Flag{Name: "globmax", Value: 1, Category: catUtility, Usage: "top `V` of the value-per-processor-minute range split into priority bins"},
		&cli.Float64Flag{Name: "spread", Value: 0.5, Category: catUtility, Usage: "standard deviation of the start value, a `FRACTION` of a bin's width (0..1], 0 excluded"},
		&cli.Int64Flag{Name: "epsilon", Value: 1, Category: catUtility, Usage: "width of an approximated jump, `SECONDS`"},
		&cli.IntFlag{Name: "digits", Value: 6, Category: catUtility, Usage: "`N` significant digits of values (1-17)"},
		&cli.StringFlag{Name: "priority-order", Category: catUtility, Usage: "`QUEUES` from highest to lowest priority, '+' joins equals, e.g. 0,1+12,2", DefaultText: "header Queue lines that jobs are in, or queues in the trace, lowest number highest"},

		&cli.BoolFlag{Name: "checkpoint", Category: catCheckpoint, Usage: "mark checkpointing jobs with ckpt=SECONDS (survey model)"},
		&cli.Float64Flag{Name: "ckpt-jobs", Value: 0.16, Category: catCheckpoint, Usage: "`SHARE` of jobs that checkpoint (0..1], 0 excluded"},
		&cli.Float64Flag{Name: "ckpt-work", Value: 0.57, Category: catCheckpoint, Usage: "`SHARE` of processor-seconds in checkpointing jobs (0..1], 0 excluded"},
		&cli.Float64Flag{Name: "ckpt-debug", Value: 0.40, Category: catCheckpoint, Usage: "`SHARE` of jobs, the smallest, that never checkpoint (debug/trial runs; (0..1], 0 excluded)"},
		&cli.Float64Flag{Name: "ckpt-quarter", Value: 0.96, Category: catCheckpoint, Usage: "`SHARE` of checkpointing jobs with interval below a quarter of the runtime (0..1], 0 excluded"},
		&cli.Int64Flag{Name: "ckpt-min-runtime", Category: catCheckpoint, Usage: "jobs running less than `SECONDS` never checkpoint"},
		&cli.StringFlag{Name: "checkpoint-from", Category: catCheckpoint, Usage: "take known answers from `FILE` (lines: JOB SECONDS|none; - is standard input, when the trace is a file)"},
		&cli.BoolFlag{Name: "expand", Category: catCheckpoint, Usage: "with --checkpoint-from: fill unanswered jobs from the answers of jobs with the same user and processors"},

		&cli.StringFlag{Name: "estimate", Category: catEstimate, Usage: "estimate `MODEL`: exact, scale:R or uniform:A,B"},
		&cli.Float64Flag{Name: "error-quant", Category: catEstimate, Usage: "quantitative error, `PCT` of the runtime, 0 or more (Guim 3.2.3 used 5..10000: 5, 100, 200, 400, 600, 700, 800, 1000 and 10000)"},
		&cli.IntFlag{Name: "error-category", Category: catEstimate, Usage: "required with --error-quant: job category `N` of Guim et al.'s Table 2 (1-11): 1-9 the category's jobs estimated exactly, 10 none, 11 a random --perfect-share"},
		&cli.Float64Flag{Name: "perfect-share", Value: 0.5, Category: catEstimate, Usage: "category 11 (equal): `SHARE` of jobs estimated exactly (0..1], 0 excluded"},
		&cli.StringFlag{Name: "error-qual", Category: catEstimate, Usage: "qualitative conversion `TYPE`: s2l, l2s or both (Guim 3.3.1, Table 5)"},
		&cli.Float64Flag{Name: "error-percent", Category: catEstimate, Usage: "with --error-qual: mean `PCT` of jobs converted (0-100)"},
		&cli.Float64Flag{Name: "error-stdev", Category: catEstimate, Usage: "standard deviation `PCT` of the error or of the converted percentage (0-1000 in Guim's groups; more is accepted)"},
		&cli.BoolFlag{Name: "as-prediction", Category: catEstimate, Usage: "write the values of --estimate, --error-quant or --error-qual as pred= runtime predictions and leave field 9 (the kill time) alone; swfsim --predictor token reads them (Guim's setup as the docs read it)"},
		&cli.StringFlag{Name: "error-untouched", Value: "exact", Category: catEstimate, Usage: "field 9 of jobs --error-qual does not convert: `MODE` exact (runtime) or user (kept)"},

		&cli.Float64Flag{Name: "bound-percentile", Value: 0.95, Category: catBounds, Usage: "`FRACTION` (a percentile / 100) the upper bounds are based on (0..1], 0 excluded"},
		&cli.Float64Flag{Name: "bound-upper-frac", Value: 0.5, Category: catBounds, Usage: "upper bound = `FRACTION` x percentile (0..1], 0 excluded"},
		&cli.Float64Flag{Name: "bound-lower-frac", Value: 0.04, Category: catBounds, Usage: "lower bound = `FRACTION` x upper bound (Table 4; Table 3 says 0.05; 0..1], 0 excluded"},
		&cli.Float64Flag{Name: "rt-lower-bound", Aliases: []string{"rt-lower"}, Category: catBounds, Usage: "runtime lower bound (Guim's rt_lowerbound, swfstat's name), `SECONDS` (overrides; --rt-lower is a deprecated alias)"},
		&cli.Float64Flag{Name: "rt-upper-bound", Aliases: []string{"rt-upper"}, Category: catBounds, Usage: "runtime upper bound (Guim's rt_upperbound, swfstat's name), `SECONDS` (overrides; --rt-upper is a deprecated alias)"},
		&cli.Float64Flag{Name: "procs-lower", Category: catBounds, Usage: "processor lower bound `N` (overrides)"},
		&cli.Float64Flag{Name: "procs-upper", Category: catBounds, Usage: "processor upper bound `N` (overrides)"},
		&cli.Float64Flag{Name: "area-lower", Category: catBounds, Usage: "area lower bound, `PROC_SECONDS` (overrides)"},
		&cli.Float64Flag{Name: "area-upper", Category: catBounds, Usage: "area upper bound, `PROC_SECONDS` (overrides)"},
		&cli.IntFlag{Name: "top-apps", Value: 10, Category: catBounds, Usage: "category 7: the `N` most executed applications"},
		&cli.BoolFlag{Name: "bounds", Category: catBounds, Usage: "compute the bounds and record them in the header even without an error option"},

		&cli.Float64Flag{Name: "load", Category: catLoad, Usage: "divide inter-arrival times by `F` (needs no machine size: without one the Note says the offered load is unknown)"},
		&cli.Float64Flag{Name: "target-load", Category: catLoad, Usage: "choose F so that the offered load becomes `L` (needs the machine size: MaxProcs, MaxNodes or --procs)"},
		&cli.Int64Flag{Name: "procs", Category: catLoad, Usage: "machine size `N`; overrides the header's MaxProcs/MaxNodes (and rewrites MaxProcs), as in swfsim and swfstat"},
	}
}

// plan is the parsed and checked command line.
type plan struct {
	seed     uint64
	draws    augment.Draws // what the run drew, counted by apply
	warnings []string      // said on stderr once apply is done (and in Notes)
	// inert says why the estimate operation's draws cannot change what it
	// writes ("" when they can): they are not counted in draws.
	inert    string
	utility  *augment.UtilityConfig
	ckpt     *augment.CheckpointConfig
	answers  string
	expand   bool
	model    *augment.Model
	quant    *augment.QuantConfig
	qual     *augment.QualConfig
	bounds   augment.BoundsConfig
	wantBnds bool
	load     float64
	target   float64
	procs    int64
}

// flagGroups lists, for every operation, the flags that only tune it: one of
// them given without the operation would be parsed and silently ignored.
var flagGroups = []struct {
	needs   string   // the operation flags, one of which must be given
	enabled []string // the flags that request the operation
	flags   []string // the flags that only tune it
}{
	{"--utility", []string{"utility"}, []string{"deadline-factor", "min-deadline", "decay", "points", "globmax", "spread", "epsilon", "digits", "priority-order"}},
	{"--checkpoint", []string{"checkpoint"}, []string{"ckpt-jobs", "ckpt-work", "ckpt-debug", "ckpt-quarter", "ckpt-min-runtime"}},
	{"--checkpoint-from", []string{"checkpoint-from"}, []string{"expand"}},
	{"--error-quant", []string{"error-quant"}, []string{"error-category", "perfect-share"}},
	{"--error-qual", []string{"error-qual"}, []string{"error-percent", "error-untouched"}},
	{"--error-quant or --error-qual", []string{"error-quant", "error-qual"}, []string{"error-stdev"}},
	{"--estimate, --error-quant or --error-qual", []string{"estimate", "error-quant", "error-qual"}, []string{"as-prediction"}},
	{"--bounds, --error-quant or --error-qual", []string{"bounds", "error-quant", "error-qual"}, []string{"bound-percentile", "bound-upper-frac", "bound-lower-frac", "rt-lower-bound", "rt-upper-bound", "procs-lower", "procs-upper", "area-lower", "area-upper", "top-apps"}},
	{"--load or --target-load", []string{"load", "target-load"}, []string{"procs"}},
}

// checkApplicable rejects a flag given without the operation it tunes.
func checkApplicable(c *cli.Context) error {
	for _, g := range flagGroups {
		on := false
		for _, e := range g.enabled {
			// A bool operation flag given as --x=false does not request it.
			if c.IsSet(e) && (c.Value(e) != false) {
				on = true
			}
		}
		if on {
			continue
		}
		for _, f := range g.flags {
			if c.IsSet(f) {
				return cmdio.Usagef("--%s needs %s (it tunes only that operation)", f, g.needs)
			}
		}
	}
	return nil
}

// zeroIsDefault are the flags whose value 0 in the configuration means "the
// default": given explicitly as 0 (or below) they would silently act as not
// given, so they must be positive.
var zeroIsDefault = []string{"deadline-factor", "min-deadline", "globmax", "epsilon", "digits",
	"rt-lower-bound", "rt-upper-bound", "procs-lower", "procs-upper", "area-lower", "area-upper", "procs", "top-apps"}

func parsePlan(c *cli.Context) (*plan, error) {
	if err := checkApplicable(c); err != nil {
		return nil, err
	}
	for _, name := range zeroIsDefault {
		if c.IsSet(name) && !(c.Float64(name) > 0 || c.Int64(name) > 0 || c.Int(name) > 0) {
			return nil, cmdio.Usagef("--%s %v: must be positive (leave the flag out for the default)", name, c.Value(name))
		}
	}
	// The runtime bounds are times, the processor bounds machine sizes: what
	// swfkit reads in an SWF field (the area is their product).
	for name, bound := range map[string]float64{"rt-lower-bound": swf.MaxTime, "rt-upper-bound": swf.MaxTime,
		"procs-lower": math.MaxInt32, "procs-upper": math.MaxInt32,
		"area-lower": swf.MaxTime * math.MaxInt32, "area-upper": swf.MaxTime * math.MaxInt32} {
		if v := c.Float64(name); v > bound {
			return nil, cmdio.Usagef("--%s %v: want at most %.0f", name, v, bound)
		}
	}
	if n := c.Int64("procs"); n > math.MaxInt32 {
		return nil, cmdio.Usagef("--procs %d: want a machine size from 1 to %d", n, math.MaxInt32)
	}
	p := &plan{seed: uint64(c.Int64("seed")), procs: c.Int64("procs")}
	if c.Bool("utility") {
		w, err := augment.ParseDecayWeights(c.String("decay"))
		if err != nil {
			return nil, cmdio.Usagef("--decay: %v", err)
		}
		// Shape flags of a model the mix leaves out would change nothing.
		if c.IsSet("epsilon") && w[augment.DecayStep] == 0 {
			return nil, cmdio.Usagef("--epsilon shapes the step model, which --decay %s gives no share, so it would change nothing", c.String("decay"))
		}
		if c.IsSet("points") && w[augment.DecayLinear] == 0 && w[augment.DecayExponential] == 0 {
			return nil, cmdio.Usagef("--points shapes the linear and exponential models, which --decay %s gives no share, so it would change nothing", c.String("decay"))
		}
		u := &augment.UtilityConfig{
			GlobMax: c.Float64("globmax"), Spread: c.Float64("spread"),
			DeadlineFactor: c.Float64("deadline-factor"), MinDeadline: c.Int64("min-deadline"),
			Weights: w, Points: c.Int("points"), Epsilon: c.Int64("epsilon"), Digits: c.Int("digits"),
		}
		if c.IsSet("priority-order") {
			pr, err := augment.ParsePriorities(c.String("priority-order"))
			if err != nil {
				return nil, cmdio.Usagef("--priority-order: %v", err)
			}
			u.Priorities = pr
		}
		if sp := c.Float64("spread"); !(sp > 0 && sp <= 1) {
			return nil, cmdio.Usagef("--spread %v: want a fraction of a bin's width in (0, 1]", sp)
		}
		if n := c.Int("digits"); n > 17 {
			// A float64 holds 17 significant digits; said here, where
			// the flag's name is known.
			return nil, cmdio.Usagef("--digits %d: want 1 to 17", n)
		}
		if n := c.Int("points"); n < 1 || n > MaxPoints {
			return nil, cmdio.Usagef("--points %d: want 1 to %d", n, MaxPoints)
		}
		p.utility = u
	}

	if c.Bool("checkpoint") && c.IsSet("checkpoint-from") {
		return nil, cmdio.Usagef("--checkpoint and --checkpoint-from exclude each other")
	}
	if c.Bool("checkpoint") {
		p.ckpt = &augment.CheckpointConfig{
			JobShare: c.Float64("ckpt-jobs"), WorkShare: c.Float64("ckpt-work"),
			DebugShare: c.Float64("ckpt-debug"), QuarterShare: c.Float64("ckpt-quarter"),
			MinRuntime: c.Int64("ckpt-min-runtime"),
		}
		for _, f := range []string{"ckpt-jobs", "ckpt-work", "ckpt-debug", "ckpt-quarter"} {
			if x := c.Float64(f); !(x > 0 && x <= 1) {
				return nil, cmdio.Usagef("--%s must be in (0, 1]", f)
			}
		}
		if j, d := c.Float64("ckpt-jobs"), c.Float64("ckpt-debug"); j+d > 1 {
			return nil, cmdio.Usagef("--ckpt-jobs %g plus --ckpt-debug %g exceed 1: the checkpointing jobs are drawn from those that are not debug runs", j, d)
		}
		if m := c.Int64("ckpt-min-runtime"); m < 0 || m > swf.MaxTime {
			return nil, cmdio.Usagef("--ckpt-min-runtime %d: want seconds from 0 to %d", m, int64(swf.MaxTime))
		}
	}
	p.answers, p.expand = c.String("checkpoint-from"), c.Bool("expand")

	n := 0
	for _, f := range []string{"estimate", "error-quant", "error-qual"} {
		if c.IsSet(f) {
			n++
		}
	}
	if n > 1 {
		return nil, cmdio.Usagef("--estimate, --error-quant and --error-qual exclude each other")
	}
	switch {
	case c.IsSet("estimate"):
		m, err := augment.ParseModel(c.String("estimate"))
		if err != nil {
			return nil, cmdio.Usagef("--estimate: %v", err)
		}
		p.model = &m
	case c.IsSet("error-quant"):
		if !c.IsSet("error-category") {
			return nil, cmdio.Usagef("--error-quant needs --error-category (1-11, Table 2)")
		}
		cat := augment.Category(c.Int("error-category"))
		if cat < 1 || cat > 11 {
			return nil, cmdio.Usagef("--error-category %d: want 1-11", cat)
		}
		ps := c.Float64("perfect-share")
		if !(ps > 0 && ps <= 1) {
			return nil, cmdio.Usagef("--perfect-share must be in (0, 1]")
		}
		if c.IsSet("perfect-share") && cat != augment.Category(11) {
			return nil, cmdio.Usagef("--perfect-share is the share of category 11 (equal); --error-category %d estimates its own jobs exactly, so it would change nothing", cat)
		}
		if e := c.Float64("error-quant"); e < 0 {
			return nil, cmdio.Usagef("--error-quant %v: want a percentage of the runtime, 0 or more", e)
		}
		if sd := c.Float64("error-stdev"); sd < 0 {
			return nil, cmdio.Usagef("--error-stdev %v: want 0 or more", sd)
		}
		p.quant = &augment.QuantConfig{Error: c.Float64("error-quant"), Stdev: c.Float64("error-stdev"), Category: cat, PerfectShare: ps}
	case c.IsSet("error-qual"):
		conv, err := augment.ParseConversion(c.String("error-qual"))
		if err != nil {
			return nil, cmdio.Usagef("--error-qual: %v", err)
		}
		if !c.IsSet("error-percent") {
			return nil, cmdio.Usagef("--error-qual needs --error-percent")
		}
		if pc := c.Float64("error-percent"); pc < 0 || pc > 100 {
			return nil, cmdio.Usagef("--error-percent %v: want 0-100", pc)
		}
		if sd := c.Float64("error-stdev"); sd < 0 {
			return nil, cmdio.Usagef("--error-stdev %v: want 0 or more", sd)
		}
		q := &augment.QualConfig{Conversion: conv, Percent: c.Float64("error-percent"), Stdev: c.Float64("error-stdev")}
		switch c.String("error-untouched") {
		case "exact":
		case "user":
			q.Untouched = augment.UntouchedUser
		default:
			return nil, cmdio.Usagef("--error-untouched %q: want exact or user", c.String("error-untouched"))
		}
		p.qual = q
	}
	if c.Bool("as-prediction") {
		switch {
		case p.model != nil:
			p.model.Target = augment.TargetPrediction
		case p.quant != nil:
			p.quant.Target = augment.TargetPrediction
		case p.qual != nil:
			p.qual.Target = augment.TargetPrediction
		}
	}
	if c.Float64("error-stdev") < 0 {
		return nil, cmdio.Usagef("--error-stdev must be non-negative")
	}
	p.bounds = augment.BoundsConfig{
		Percentile: c.Float64("bound-percentile"), UpperFraction: c.Float64("bound-upper-frac"),
		LowerFraction: c.Float64("bound-lower-frac"), TopApps: c.Int("top-apps"),
		RuntimeLower: c.Float64("rt-lower-bound"), RuntimeUpper: c.Float64("rt-upper-bound"),
		ProcsLower: c.Float64("procs-lower"), ProcsUpper: c.Float64("procs-upper"),
		AreaLower: c.Float64("area-lower"), AreaUpper: c.Float64("area-upper"),
	}
	if pc := p.bounds.Percentile; !(pc > 0 && pc <= 1) {
		return nil, cmdio.Usagef("--bound-percentile must be in (0, 1]")
	}
	if !(p.bounds.UpperFraction > 0) || !(p.bounds.LowerFraction > 0) {
		return nil, cmdio.Usagef("--bound-upper-frac and --bound-lower-frac must be positive")
	}
	if p.bounds.UpperFraction > 1 || p.bounds.LowerFraction > 1 {
		return nil, cmdio.Usagef("--bound-upper-frac %g, --bound-lower-frac %g: want fractions in (0, 1]", p.bounds.UpperFraction, p.bounds.LowerFraction)
	}
	if lo, hi := p.bounds.RuntimeLower, p.bounds.RuntimeUpper; lo > 0 && hi > 0 && lo > hi {
		return nil, cmdio.Usagef("--rt-lower-bound %g is above --rt-upper-bound %g", lo, hi)
	}
	p.inert = inertEstimate(p)
	p.wantBnds = c.Bool("bounds") || p.quant != nil || p.qual != nil
	if c.IsSet("top-apps") && !c.Bool("bounds") && (p.quant == nil || p.quant.Category != augment.CatTopApps) {
		what := "--error-qual does not use categories"
		if p.quant != nil {
			what = fmt.Sprintf("--error-category %d does not use it", p.quant.Category)
		}
		return nil, cmdio.Usagef("--top-apps sets category 7 (the most executed applications); %s, so it would change only the Note (give --bounds to record the list in the header)", what)
	}
	if err := checkBoundReaders(c, p); err != nil {
		return nil, err
	}

	if c.IsSet("load") && c.IsSet("target-load") {
		return nil, cmdio.Usagef("--load and --target-load exclude each other")
	}
	p.load, p.target = c.Float64("load"), c.Float64("target-load")
	if c.IsSet("load") && !(p.load > 0) {
		return nil, cmdio.Usagef("--load must be positive")
	}
	if c.IsSet("target-load") && !(p.target > 0) {
		return nil, cmdio.Usagef("--target-load must be positive")
	}
	if c.NArg() > 1 {
		return nil, cmdio.Usagef("at most one input file, got %d", c.NArg())
	}
	return p, nil
}

// inertEstimate says why the estimate operation's draws cannot change what
// it writes, or "" when they can (or there is none): every job then gets
// the same value whatever the seed, so a sweep over seeds repeats one
// point, as with an operation that draws nothing.
func inertEstimate(p *plan) string {
	switch {
	case p.model != nil && p.model.Kind == "uniform" && p.model.A == p.model.B:
		return fmt.Sprintf("--estimate uniform:%s,%s draws every factor as %s", fmtFlag(p.model.A), fmtFlag(p.model.B), fmtFlag(p.model.A))
	case p.quant != nil && p.quant.Error == 0 && p.quant.Stdev == 0:
		return "--error-quant 0 with --error-stdev 0 estimates every job at its runtime" + floorText
	case p.quant != nil && p.quant.Category == augment.CatEqual && p.quant.PerfectShare == 1:
		return "--perfect-share 1 estimates every job at its runtime" + floorText
	case p.qual != nil && p.qual.Stdev == 0 && p.qual.Percent == 100:
		return "--error-percent 100 with --error-stdev 0 converts every short and large job the conversion names"
	case p.qual != nil && p.qual.Stdev == 0 && p.qual.Percent == 0:
		return "--error-percent 0 with --error-stdev 0 converts no job"
	}
	return ""
}

// floorText qualifies "every job at its runtime": a runtime of 0 is written
// as the smallest estimate, 1 s (the estimate Note counts such jobs as over).
const floorText = " (a runtime of 0 as 1 s, the smallest estimate)"

func fmtFlag(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// boundReaders lists, for each processor and area bound flag, the
// categories that read the bound: with --error-qual (the runtime bounds
// alone) or another category the flag would change only the bounds Note,
// whose runtime bounds alone swfstat reads. --bounds asks for the Note. An
// upper bound is also read where its lower bound is, when that follows from
// it (the lower bound not given).
var boundReaders = []struct {
	flag, lower    string // lower: the flag of the lower bound an upper one sets
	what           string
	cats, viaLower []augment.Category
	list           string // the categories, as the message names them
}{
	{"procs-lower", "", "the processor lower bound", []augment.Category{augment.CatLowProcs, augment.CatShortNarrow, augment.CatNotSmall}, nil, "2, 8 and 9"},
	{"procs-upper", "procs-lower", "the processor upper bound", []augment.Category{augment.CatHighProcs}, []augment.Category{augment.CatLowProcs, augment.CatShortNarrow, augment.CatNotSmall}, "1 (and 2, 8 and 9 without --procs-lower)"},
	{"area-lower", "", "the area lower bound", []augment.Category{augment.CatLowArea}, nil, "6"},
	{"area-upper", "area-lower", "the area upper bound", []augment.Category{augment.CatHighArea}, []augment.Category{augment.CatLowArea}, "5 (and 6 without --area-lower)"},
}

// checkBoundReaders refuses a processor or area bound flag that no
// category of the run reads (as --top-apps outside category 7).
func checkBoundReaders(c *cli.Context, p *plan) error {
	if c.Bool("bounds") {
		return nil
	}
	for _, g := range boundReaders {
		if !c.IsSet(g.flag) {
			continue
		}
		if p.quant != nil && (slices.Contains(g.cats, p.quant.Category) ||
			(g.lower != "" && !c.IsSet(g.lower) && slices.Contains(g.viaLower, p.quant.Category))) {
			continue
		}
		what := "--error-qual reads only the runtime bounds"
		if p.quant != nil {
			what = fmt.Sprintf("--error-category %d does not", p.quant.Category)
			if g.lower != "" && c.IsSet(g.lower) && slices.Contains(g.viaLower, p.quant.Category) {
				what += fmt.Sprintf(" when --%s is given", g.lower)
			}
		}
		return cmdio.Usagef("--%s sets %s, which only --error-category %s read; %s, so it would change only the Note (give --bounds to record it in the header)", g.flag, g.what, g.list, what)
	}
	return nil
}

func run(c *cli.Context, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	p, err := parsePlan(c)
	if err != nil {
		return err
	}
	name := c.Args().First()
	files := cmdio.NewFiles(stdin, stdout)
	files.Input("", name)
	files.Input("--checkpoint-from", p.answers)
	files.Output("-o", c.String("output"))
	if err := files.Check(); err != nil {
		return err
	}
	defer files.Finish(&err)
	answers, answersDigest, err := readAnswers(files, p.answers, stderr)
	if err != nil {
		return err
	}
	in, err := openTrace(files, name, mayNeedSurvey(p))
	if err != nil {
		return err
	}
	defer in.close()
	rd := in.reader(c.Bool("lenient"))
	hdr, err := rd.Header()
	if err != nil {
		return err
	}
	if err := cmdio.CheckRecords(rd, "swfaugment", stderr); err != nil {
		return err
	}
	ops := newOperations(p, hdr, answers)
	second := rd // the reader of the pass that writes
	if ops.surveyed() {
		if err := survey(rd, ops); err != nil {
			return err
		}
		if err := cmdio.AllMalformed(rd, "swfaugment"); err != nil {
			return err
		}
		printMalformed(rd, stderr)
		// Said of the first pass, like the skipped lines: the second
		// reads the same text.
		cmdio.WarnUnterminated(rd, "swfaugment", stderr)
		if second, err = in.again(c.Bool("lenient")); err != nil {
			return err
		}
	} else {
		in.single()
	}

	// The header's Notes say what the operations did to every job, so the
	// jobs are written to a spool first, the header and the spool then.
	prepErr := ops.prepare()
	var body *bodySpool
	if prepErr == nil {
		if body, err = newBodySpool(rd, hdr); err != nil {
			return err
		}
		defer body.remove()
	}
	readErr, opErr := transform(second, ops, body)
	if readErr != nil {
		return readErr // the input first, as when it was read whole before any operation
	}
	if !ops.surveyed() {
		if err := cmdio.AllMalformed(second, "swfaugment"); err != nil {
			return err
		}
		printMalformed(second, stderr)
		cmdio.WarnUnterminated(second, "swfaugment", stderr)
	}
	if opErr != nil {
		return opErr
	}
	if prepErr != nil {
		return prepErr
	}
	if err := in.unchanged(); err != nil {
		return err
	}
	if err := annotate(c, ops, hdr, second, in.digest, answersDigest, stderr); err != nil {
		return err
	}
	out, err := files.Create(c.String("output"))
	if err != nil {
		return err
	}
	w := swf.NewWriter(out)
	w.Follow(rd)
	w.WriteHeader(hdr)
	if err := w.Flush(); err != nil {
		return err
	}
	return body.copyTo(out)
}

// readAnswers reads the --checkpoint-from file, nil without one, and
// returns the hash of its bytes (decompressed), which the Provenance line
// records: the answers change the records as the trace does.
func readAnswers(files *cmdio.Files, name string, stderr io.Writer) (map[int64]int64, *cmdio.Digest, error) {
	if name == "" {
		return nil, nil, nil
	}
	// "-" is standard input, as for every file the toolkit reads; Check
	// refused it when the trace is read from there too.
	f, digest, err := files.OpenHashed(name)
	if err != nil {
		return nil, nil, err
	}
	answers, cut, err := augment.ReadAnswersCut(digest, cmdio.DisplayName(name))
	if err == nil {
		// ReadAnswersCut stops at the end of the text: the hash needs the
		// reader's io.EOF (and a compressed file's trailer checked).
		_, err = io.Copy(io.Discard, digest)
		err = cmdio.InFile(cmdio.DisplayName(name), err)
	}
	err = cmdio.DamagedOr(f, err)
	f.Close()
	if err != nil {
		return nil, nil, err
	}
	if cut > 0 {
		fmt.Fprintf(stderr, "swfaugment: warning: %s:%d: the last answer has no newline after it: if the file was cut short there, its interval may be cut too (600 read as 60)\n", cmdio.DisplayName(name), cut)
	}
	if len(answers) == 0 {
		// As for a header-only trace: valid, but what a cut file leaves.
		fmt.Fprintf(stderr, "swfaugment: warning: %s: no answers (comment or blank lines only): no job is answered\n", cmdio.DisplayName(name))
	}
	return answers, digest, nil
}

// annotate adds the Notes and the Provenance line to the header, once
// every job went through the operations, and says the warnings on stderr.
func annotate(c *cli.Context, ops *operations, hdr *swf.Header, rd *swf.Reader, digest, answersDigest *cmdio.Digest, stderr io.Writer) error {
	p := ops.plan
	notes, err := ops.notes()
	if err != nil {
		return err
	}
	for _, w := range p.warnings {
		fmt.Fprintf(stderr, "swfaugment: warning: %s: %s\n", hdr.File, w)
	}
	if c.IsSet("seed") && p.draws.Count() == 0 {
		if p.inert != "" {
			fmt.Fprintf(stderr, "swfaugment: warning: --seed %d changes nothing: the run's draws cannot change the output (%s) and no other operation of the run draws\n", int64(p.seed), p.inert)
		} else {
			fmt.Fprintf(stderr, "swfaugment: warning: --seed %d changes nothing: the run drew no random number (only --utility, --checkpoint, --checkpoint-from --expand, a random --estimate model and the estimate errors draw, for the jobs they apply to)\n", int64(p.seed))
		}
	}
	if n, first := rd.Malformed(); n > 0 {
		// The output has fewer jobs than the input: the header says so.
		notes = append(notes, malformedNote(n, first))
	}
	for _, n := range notes {
		hdr.AddNote(n)
		if c.Bool("verbose") {
			fmt.Fprintln(stderr, n)
		}
	}
	// The whole input was read: its hash is known.
	r := cmdio.WithInputSHA256(cmdio.Provenance(c), digest)
	provenance.AddTo(hdr, cmdio.WithSideInputSHA256(r, "checkpoint-from", answersDigest))
	return nil
}

// survey is the first pass: every job, in file order, to the surveys.
func survey(rd *swf.Reader, ops *operations) error {
	rd.ReuseRecord = true
	var job swf.Job // one variable: &job escapes
	for {
		var err error
		job, err = rd.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return cmdio.ReadError(rd, "swfaugment", err)
		}
		ops.observe(&job)
	}
}

// transform is the second pass: every job through the operations, then to
// body (nil: nowhere, when the operations could not all be prepared and
// only those before the failing one run, for their errors). After an
// operation's error the input is still read to its end, so that a read
// error, which the first pass (or the whole read of before) would have met
// first, is the one reported.
func transform(rd *swf.Reader, ops *operations, body *bodySpool) (readErr, opErr error) {
	rd.ReuseRecord = true
	var job swf.Job
	for {
		var err error
		job, err = rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return cmdio.ReadError(rd, "swfaugment", err), nil
		}
		if opErr != nil {
			continue
		}
		if opErr = ops.apply(&job); opErr == nil && body != nil {
			if err := body.w.Write(&job); err != nil {
				return nil, err
			}
		}
	}
	if body != nil && opErr == nil {
		body.w.WriteTrailer(rd.Trailer())
		opErr = body.w.Flush()
	}
	return nil, opErr
}

// printMalformed says on stderr how many lines --lenient skipped.
func printMalformed(rd *swf.Reader, stderr io.Writer) {
	if n, first := rd.Malformed(); n > 0 {
		fmt.Fprintf(stderr, "swfaugment: skipped %d malformed lines; first: %v\n", n, first[0])
	}
}

// malformedNote is the header Note for the lines --lenient skipped.
func malformedNote(n int, first []*swf.ParseError) string {
	lines := make([]string, len(first))
	for i, e := range first {
		lines[i] = strconv.Itoa(e.Line)
	}
	more := ""
	if n > len(first) {
		more = ", ..."
	}
	return fmt.Sprintf("swfaugment --lenient: %d malformed lines skipped (not in the output); lines %s%s", n, strings.Join(lines, ", "), more)
}

// machineSize is --procs, else MaxProcs, else MaxNodes (DESIGN.md), as in
// swfsim and swfstat. Given --procs, MaxProcs is rewritten and a Note keeps
// the old value, so that the next tool in a pipe sees the same machine (they
// read MaxProcs before MaxNodes, which is left). A size unknown is 0 with
// why it is unknown, for the caller to say (an error for --target-load, a
// warning for --load).
func machineSize(h *swf.Header, procs int64) (n int64, note, unknown string, err error) {
	if procs > 0 {
		old, had := h.Get("MaxProcs")
		if !had {
			old = "none"
		}
		if old != strconv.FormatInt(procs, 10) {
			h.Set("MaxProcs", strconv.FormatInt(procs, 10))
			// MaxNodes counts nodes, not processors: it stays the logged
			// machine's, and the Note says so rather than leaving a reader
			// to wonder which of the two describes the jobs.
			nodes := ""
			if n, had := h.Get("MaxNodes"); had {
				nodes = fmt.Sprintf("; MaxNodes (%s) left as the logged machine's node count", strings.TrimSpace(n))
			}
			return procs, fmt.Sprintf("swfaugment MaxProcs set to %d by --procs (input header: %s)%s", procs, old, nodes), "", nil
		}
		return procs, "", "", nil
	}
	if n, ok, err := h.MaxProcs(); err != nil {
		return 0, "", "", err
	} else if ok && n > 0 {
		return n, "", "", nil
	}
	if n, ok, err := h.MaxNodes(); err != nil {
		return 0, "", "", err
	} else if ok && n > 0 {
		return n, "", "", nil
	}
	if why := h.NotAMachineSize(); why != "" {
		return 0, "", why, nil
	}
	return 0, "", "the header has neither MaxProcs nor MaxNodes", nil
}
