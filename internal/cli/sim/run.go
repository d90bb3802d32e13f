// Package simcli is the swfsim command: flags, reading the trace, running the
// simulation, writing the schedule. See docs/swfsim.md.
package simcli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/predict"
	"github.com/swfkit/swfkit/pkg/sim"
)

// progressMinJobs is the trace length from which a terminal gets a progress bar.
const progressMinJobs = 50000

// Run runs swfsim with args (args[0] is the program name) and returns the exit
// status.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cmdio.Run(NewApp(stdin, stdout, stderr), args, stderr)
}

// NewApp is swfsim's command line: its flags, help and action. The man page
// and completion scripts are generated from it.
func NewApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := cmdio.NewApp("swfsim", "simulate a scheduling policy over an SWF trace", stdout, stderr)
	app.UsageText = "swfsim --policy NAME [OPTIONS] [FILE]"
	app.Description = "Reads FILE (or stdin; gzip/zstd/bzip2/xz detected) and writes the simulated schedule as SWF:\n" +
		"field 3 = simulated wait, field 4 = simulated runtime, status 0 and killed=1 for a job killed at\n" +
		"its requested time, everything else unchanged. Policies: " + policy.Names() + "."
	app.Flags = []cli.Flag{
		&cli.StringFlag{Name: "policy", Aliases: []string{"p"}, Usage: "scheduling policy `NAME` (required; see --list-policies)"},
		&cli.BoolFlag{Name: "list-policies", Usage: "list the policies with a one-line summary and exit"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (.gz/.zst compress) instead of stdout"},
		&cli.Int64Flag{Name: "procs", Usage: "machine size `N` (overrides the header's MaxProcs/MaxNodes)"},
		&cli.BoolFlag{Name: "no-kill", Usage: "let jobs run past their requested time instead of killing them at it"},
		&cli.BoolFlag{Name: "strict", Usage: "fail on the first job that cannot be simulated instead of skipping it"},
		&cli.BoolFlag{Name: "lenient", Usage: "skip malformed lines (counted on stderr and in a header Note) instead of failing on the first; an input with no valid job line is still an error"},
		&cli.StringFlag{Name: "procs-from", Value: "requested", Usage: "processor count `RULE`: requested (field 8, else 5), requested-only, allocated (field 5) or max"},
		&cli.Float64Flag{Name: "lxfw-weight", Value: policy.DefaultLXFWWeight, Usage: "lxfw: weight `W` of the wait, per hour, added to the expansion factor"},
		&cli.StringFlag{Name: "priority-order", Usage: "priofifo, and ga's priority seed: `QUEUES` from highest to lowest priority, '+' joins equals, e.g. 0,1+12,2 (as swfaugment's)", DefaultText: "ascending queue number, unknown last"},
		&cli.StringFlag{Name: "kill-warn", Value: cmdio.KillWarnDefault, Usage: "warn when more than this `SHARE` of jobs (0..1, or a percentage such as 5%) would be killed at their requested time; 0 warns at any kill, off never (as swfstat's --kill-warn)"},
		&cli.BoolFlag{Name: "no-progress", Usage: "never show a progress bar (it shows only on a terminal, for long traces)"},
		&cli.Int64Flag{Name: "seed", Value: 1, Usage: "random seed `S` of the randomised policies ga and ga-ckpt (and given to an exec program in its first message); accepted (and recorded in the Provenance line) by every policy, so a sweep can pass it to all"},
	}
	app.Flags = append(app.Flags, researchFlags()...)
	app.Flags = append(app.Flags, gaFlags()...)
	app.Flags = append(app.Flags, execFlags()...)
	app.Action = func(c *cli.Context) error { return action(c, stdin, stdout, stderr) }
	cmdio.SetHelp(app, help())
	return app
}

func action(c *cli.Context, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	if c.Bool("list-policies") {
		if err := cmdio.ListingOnly(c, "list-policies"); err != nil {
			return err
		}
		return cmdio.WriteListing(c, stdin, stdout, func(w io.Writer) error {
			tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
			for _, in := range policy.List() {
				fmt.Fprintf(tw, "%s\t%s\n", in.Name, in.Summary)
			}
			return tw.Flush()
		})
	}
	opt, err := optionsFrom(c)
	if errors.Is(err, errNoPolicy) {
		// Input errors first, as every swfkit command reports a missing or
		// malformed file with status 1; then the usage error.
		if in, oerr := cmdio.Open(opt.Input, stdin); oerr != nil {
			return oerr
		} else if _, lerr := load(in, opt, nil); lerr != nil {
			in.Close()
			return lerr
		}
	}
	if err != nil {
		return err
	}
	files := cmdio.NewFiles(stdin, stdout)
	files.Input("", opt.Input)
	// An exec program reads its own files: the output must not replace them.
	for _, f := range execFiles(opt.Params.Exec.Command) {
		files.Input("--exec", f)
	}
	files.Output("-o", c.String("output"))
	if err := files.Check(); err != nil {
		return err
	}
	defer files.Finish(&err)
	in, digest, err := files.OpenHashed(opt.Input)
	if err != nil {
		return err
	}
	opt.InputDigest = digest
	defer in.Close()
	out, err := files.Create(c.String("output"))
	if err != nil {
		return err
	}
	opt.Warn = stderr
	prov := cmdio.Provenance(c)
	// The effective predictor, not "" for "the policy's default": a run with
	// the default and one naming it are one configuration.
	for i, f := range prov.Fields {
		if f.Key == "predictor" && f.Value == "" {
			prov.Fields[i].Value = policy.DefaultPredictor(opt.Policy)
		}
	}
	if opt.Params.Exec.Command != nil {
		prov = withExecFiles(prov, opt.Params.Exec.Command)
	}
	opt.Provenance = &prov
	if !c.Bool("no-progress") && isTerminal(stderr) {
		opt.PriceProgress = stderr
		opt.Progress = func(total int) func(done int) {
			if total < progressMinJobs {
				return nil
			}
			bar := progressbar.NewOptions(total,
				progressbar.OptionSetWriter(stderr),
				progressbar.OptionSetDescription("swfsim "+opt.Policy),
				progressbar.OptionShowCount(),
				progressbar.OptionThrottle(100e6),
				progressbar.OptionClearOnFinish())
			return func(done int) {
				_ = bar.Set(done)
				if done == total {
					_ = bar.Finish()
				}
			}
		}
	}
	return Simulate(in, out, opt)
}

var errNoPolicy = errors.New("--policy is required (see --list-policies)")

func optionsFrom(c *cli.Context) (Options, error) {
	opt := Options{Policy: c.String("policy"), NoKill: c.Bool("no-kill"), Strict: c.Bool("strict"), Lenient: c.Bool("lenient"),
		Procs: c.Int64("procs")}
	if c.NArg() > 1 {
		return opt, cmdio.Usagef("at most one input file, got %d", c.NArg())
	}
	opt.Input = c.Args().First()
	if opt.Policy == "" {
		return opt, &cmdio.UsageError{Err: errNoPolicy}
	}
	info, ok := policy.Lookup(opt.Policy)
	if !ok {
		return opt, cmdio.Usagef("unknown policy %q (one of %s)", opt.Policy, policy.Names())
	}
	if err := checkPolicyFlags(c, info); err != nil {
		return opt, err
	}
	if err := checkThresholdFlags(c, info.Name); err != nil {
		return opt, err
	}
	if c.IsSet("procs") && (opt.Procs < 1 || opt.Procs > math.MaxInt32) {
		return opt, cmdio.Usagef("--procs %d: must be between 1 and %d", opt.Procs, math.MaxInt32)
	}
	pf, err := sim.ParseProcsFrom(c.String("procs-from"))
	if err != nil {
		return opt, cmdio.Usagef("%v", err)
	}
	opt.ProcsFrom = pf
	opt.Params.LXFWWeight = c.Float64("lxfw-weight")
	opt.Params.UseLXFWWeight = true
	if opt.Params.LXFWWeight < 0 {
		return opt, cmdio.Usagef("--lxfw-weight %g: must not be negative", opt.Params.LXFWWeight)
	}
	if s := c.String("priority-order"); s != "" {
		order, err := policy.ParsePriorityOrder(s)
		if err != nil {
			return opt, cmdio.Usagef("--%v", strings.Replace(err.Error(), "priority order", "priority-order", 1))
		}
		opt.Params.PriorityOrder = order
	}
	if opt.Params.GA, err = gaConfig(c, c.Int64("seed")); err != nil {
		return opt, err
	}
	if seeds := opt.Params.GA.Seeds; opt.Params.PriorityOrder != nil && seeds != nil && !slices.Contains(seeds, "priority") {
		// ga reads the order in its priority seed only.
		return opt, cmdio.Usagef("--priority-order orders ga's priority seed, which --ga-seeds %s leaves out, so it would change nothing", c.String("ga-seeds"))
	}
	if opt.Price, err = parsePrice(c); err != nil {
		return opt, err
	}
	if opt.Price.mode == "vcg" && !vcgPolicies[info.Name] && info.Name != "exec" {
		return opt, cmdio.Usagef("--price vcg re-simulates each job's window with the jobs running then already started, which --policy %s cannot take over (its reservations or trial state would miss them); it is available with %s",
			info.Name, vcgPolicyList())
	}
	if opt.Params.Research, err = researchParams(c); err != nil {
		return opt, err
	}
	if opt.Params.Exec, err = execParams(c, info); err != nil {
		return opt, err
	}
	opt.FairStart = c.Bool("fair-start")
	// Parameter values are checked before reading, by building the policy once;
	// policies that need per-job tokens (ga) cannot be built before the trace is
	// read, and gaConfig has checked their parameters already.
	if info.New != nil && len(info.Needs) == 0 {
		if _, err := info.New(opt.Params, 0); err != nil {
			return opt, cmdio.Usagef("%s", flagNamed(err))
		}
	}
	if opt.KillWarn, err = cmdio.ParseKillWarn(c.String("kill-warn")); err != nil {
		return opt, cmdio.Usagef("--kill-warn %s: %v", c.String("kill-warn"), err)
	}
	return opt, nil
}

// flagNamed words a policy's parameter error (policy.ParamError,
// predict.SpecError) with the flag behind it, as the command line has it:
// "--threshold x: ...". Other errors keep their text.
func flagNamed(err error) string {
	var pe *policy.ParamError
	if errors.As(err, &pe) {
		return flagValue(pe.Param, pe.Value, pe.Msg)
	}
	var se *predict.SpecError
	if errors.As(err, &se) {
		return flagValue(se.Kind, se.Spec, se.Msg)
	}
	return err.Error()
}

func flagValue(flag, value, msg string) string {
	if value == "" {
		return "--" + flag + ": " + msg
	}
	return "--" + flag + " " + value + ": " + msg
}

// checkPolicyFlags rejects a policy-specific flag given for a policy that does
// not read it, rather than ignoring it. Which flags are policy-specific, and
// which policies read them, comes from the registry's Info.Params.
func checkPolicyFlags(c *cli.Context, chosen policy.Info) error {
	users := map[string][]string{}
	var flags []string
	for _, in := range policy.List() {
		for _, p := range in.Params {
			if users[p] == nil {
				flags = append(flags, p)
			}
			users[p] = append(users[p], in.Name)
		}
	}
	for _, f := range flags {
		if c.IsSet(f) && !slices.Contains(chosen.Params, f) {
			return cmdio.Usagef("--%s does not apply to policy %s; it is used by %s",
				f, chosen.Name, strings.Join(users[f], ", "))
		}
	}
	return nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
