package simcli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/predict"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

// researchFlags are the flags of the research policies (selective,
// selective-d, timed-fcfs, timed-easy, easy-p, sjbf, easy++) and --fair-start.
// Their defaults are the papers' (docs/swfsim-research.md).
func researchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "threshold", Value: "auto", Usage: "selective starvation threshold: `X`, SN,SW,LN,LW (selective-d), auto, adaptive or scaled-adaptive:F"},
		&cli.Int64Flag{Name: "category-runtime", Aliases: []string{"short-max"}, Value: policy.DefaultShortMax, Usage: "selective-d: a job whose estimate is at most `SECONDS` is short (swfstat's name; --short-max is a deprecated alias)"},
		&cli.Int64Flag{Name: "category-procs", Aliases: []string{"narrow-max"}, Value: policy.DefaultNarrowMax, Usage: "selective-d: a job of at most `PROCS` processors is narrow (swfstat's name; --narrow-max is a deprecated alias)"},
		&cli.Float64Flag{Name: "well-estimated", Value: policy.DefaultWellEstimated, Usage: "selective auto/adaptive thresholds average the jobs whose runtime is within this `FACTOR` of their estimate"},
		&cli.Int64Flag{Name: "bsld-threshold", Aliases: []string{"slowdown-bound"}, Value: policy.DefaultSlowdownBound, Usage: "selective thresholds: runtime floor of the bounded slowdown, `SECONDS` (swfstat's name; --slowdown-bound is a deprecated alias)"},
		&cli.Int64Flag{Name: "trial", Value: policy.DefaultTrial, Usage: "timed-fcfs, timed-easy: trial-run length in `SECONDS` (0: no trial runs)"},
		&cli.StringFlag{Name: "predictor", Usage: "easy-p, sjbf, easy++: runtime predictor `NAME`: estimate, last2, lastk:K, exact, or token (each job's pred= token, as swfaugment --as-prediction writes; the estimate stays the kill time) (default: last2; sjbf: estimate)"},
		&cli.BoolFlag{Name: "repredict", Usage: "easy-p, sjbf, easy++ with --predictor last2 or lastk:K: recompute the predictions of a user's waiting jobs whenever a job of that user ends, instead of predicting once at submission"},
		&cli.StringFlag{Name: "corrector", Value: policy.DefaultCorrector, Usage: "easy-p, sjbf, easy++: prediction corrector `NAME`: estimate, ladder or double"},
		&cli.StringFlag{Name: "ladder", Value: predict.FormatLadder(predict.DefaultLadder), Usage: "rungs of --corrector ladder: `DURATIONS` with unit s, m, h or d"},
		&cli.BoolFlag{Name: "fair-start", Usage: "add fairstart=T to every job: its start under FCFS-conservative switched to strict FCFS at its arrival (Srinivasan et al. section 5)"},
	}
}

// researchParams reads the research flags; a bad value is a usage error.
func researchParams(c *cli.Context) (policy.ResearchParams, error) {
	r := policy.ResearchParams{
		Threshold:     c.String("threshold"),
		ShortMax:      c.Int64("category-runtime"),
		NarrowMax:     c.Int64("category-procs"),
		WellEstimated: c.Float64("well-estimated"),
		SlowdownBound: c.Int64("bsld-threshold"),
		Trial:         c.Int64("trial"),
		TrialSet:      true,
		Predictor:     c.String("predictor"),
		Corrector:     c.String("corrector"),
		Repredict:     c.Bool("repredict"),
		NoKill:        c.Bool("no-kill"),
	}
	switch {
	case c.IsSet("threshold") && strings.TrimSpace(r.Threshold) == "":
		return r, cmdio.Usagef("--threshold %q: want auto, adaptive, a number or per-category values (see --help)", r.Threshold)
	case r.ShortMax < 1:
		return r, cmdio.Usagef("--category-runtime %d: want a positive number of seconds", r.ShortMax)
	case r.NarrowMax < 1:
		return r, cmdio.Usagef("--category-procs %d: want a positive number of processors", r.NarrowMax)
	case !(r.WellEstimated >= 1):
		return r, cmdio.Usagef("--well-estimated %g: want a factor >= 1", r.WellEstimated)
	case r.SlowdownBound < 1:
		return r, cmdio.Usagef("--bsld-threshold %d: want a positive number of seconds", r.SlowdownBound)
	case r.Trial < 0 || r.Trial > swf.MaxTime:
		return r, cmdio.Usagef("--trial %d: want a number of seconds from 0 to %d", r.Trial, int64(swf.MaxTime))
	}
	if c.IsSet("ladder") && c.String("corrector") != predict.CorrectLadder {
		return r, cmdio.Usagef("--ladder sets the rungs of --corrector ladder; the corrector is %s, so it would change nothing", c.String("corrector"))
	}
	ladder, err := predict.ParseLadder(c.String("ladder"))
	if err != nil {
		return r, cmdio.Usagef("%s", flagNamed(err))
	}
	r.Ladder = ladder
	return r, nil
}

// checkThresholdFlags refuses selective's flags that a fixed --threshold
// leaves without effect: --well-estimated and --bsld-threshold feed only the
// auto and adaptive thresholds, and selective-d's category bounds only sort
// jobs for per-category thresholds (a fixed one, or auto and adaptive's
// per-category averages).
func checkThresholdFlags(c *cli.Context, policyName string) error {
	if policyName != "selective" && policyName != "selective-d" {
		return nil
	}
	th := c.String("threshold")
	spec, ok := policy.FixedThreshold(th, policyName == "selective-d")
	if !ok || !spec.Fixed {
		return nil // auto and adaptive read them; a bad spec is the policy's to report
	}
	for _, f := range []string{"well-estimated", "bsld-threshold"} {
		if c.IsSet(f) {
			return cmdio.Usagef("--%s feeds the auto and adaptive thresholds only; --threshold %s is fixed, so it would change nothing", f, th)
		}
	}
	if policyName == "selective-d" {
		// Thresholds below 1 all promote every job at arrival: one rule.
		belowOne := ""
		if spec.BelowOne {
			belowOne = " (thresholds below 1 count as one: each promotes every job at arrival)"
		}
		for _, f := range []struct {
			name, split string
			matters     bool
		}{{"category-runtime", "short and long jobs (SN and LN, SW and LW)", spec.ByLength}, {"category-procs", "narrow and wide jobs (SN and SW, LN and LW)", spec.ByWidth}} {
			switch {
			case !c.IsSet(f.name) || f.matters:
			case !spec.ByWidth && !spec.ByLength:
				return cmdio.Usagef("--%s sorts jobs into categories for per-category thresholds; --threshold %s is one for every category%s, so it would change nothing", f.name, th, belowOne)
			default:
				return cmdio.Usagef("--%s tells %s apart; --threshold %s gives them the same threshold%s, so it would change nothing", f.name, f.split, th, belowOne)
			}
		}
	}
	return nil
}

// fairStarts computes every job's fair-start time (policy.FairStarts) for
// --fair-start. The conservative run it needs is made over the jobs before
// their own run (startFairStarts), so that a large trace is not held twice,
// and the times are those of the jobs as they are after it: finish computes
// them again if the run changed an estimate (ga-ckpt's bumps do). With
// --policy conservative the run itself is that conservative run; selective's
// auto thresholds take their conservative run from there too.
type fairStarts struct {
	on        bool
	cfg       sim.Config
	fair      []int64
	err       error
	estimates []int64 // the jobs' estimates when fair was computed
	fromRun   bool    // compute fair from the run's own schedule
	// follow, with fromRun, gives the fair starts the plays made while the
	// run went on (follow); nil if they did not follow it.
	follow func(runErr error) ([]int64, error)
}

// followRun lets the fair-start plays follow the run of p over jobs (with
// --policy conservative), in a second goroutine; finish then waits for them.
func (f *fairStarts) followRun(p sim.Policy, jobs []sim.Job) {
	if f.on && f.fromRun {
		f.follow, _ = policy.FollowFairStarts(p, f.cfg, jobs)
	}
}

// abandon ends plays that follow a run that failed.
func (f *fairStarts) abandon(runErr error) {
	if f.follow != nil {
		f.follow(runErr)
		f.follow = nil
	}
}

// startFairStarts makes the conservative run over jobs, which are about to be
// simulated with cfg (without its progress) and info's policy, when the fair
// starts (on) or selective's auto thresholds need it, and computes the fair
// starts; the auto thresholds get its starts through research.
func startFairStarts(on bool, info policy.Info, research *policy.ResearchParams, cfg sim.Config, jobs []sim.Job) *fairStarts {
	f := &fairStarts{on: on, cfg: cfg}
	auto := (info.Name == "selective" || info.Name == "selective-d") && (research.Threshold == "" || research.Threshold == "auto")
	if on && info.Name == "conservative" {
		f.fromRun = true
		return f
	}
	if !on && !auto {
		return f
	}
	var start []int64
	var err error
	if on {
		// The plays follow the run in a second goroutine.
		start, f.fair, err = policy.ConservativeFairStarts(cfg, jobs)
	} else {
		start, err = policy.ConservativeStarts(cfg, jobs)
	}
	if err != nil {
		f.err = err // selective runs its own and reports it
		f.fair = nil
		return f
	}
	if auto {
		research.ConservativeStarts = start
	}
	if on {
		f.estimates = make([]int64, len(jobs))
		for i := range jobs {
			f.estimates[i] = jobs[i].Estimate
		}
	}
	return f
}

// finish returns the fair starts of the simulated jobs (nil without
// --fair-start).
func (f *fairStarts) finish(jobs []sim.Job) ([]int64, error) {
	switch {
	case !f.on:
		return nil, nil
	case f.fromRun && f.follow != nil:
		fair, err := f.follow(nil)
		f.follow = nil
		if err != nil {
			return nil, fmt.Errorf("fair-start times: %w", err)
		}
		return fair, nil
	case f.fromRun:
		start := make([]int64, len(jobs))
		for i := range jobs {
			start[i] = jobs[i].Start
		}
		return policy.FairStartsOf(f.cfg, jobs, start), nil
	case f.err != nil:
		return nil, fmt.Errorf("fair-start times: %w", f.err)
	}
	for i := range jobs {
		if jobs[i].Estimate != f.estimates[i] {
			fair, err := policy.FairStarts(f.cfg, jobs)
			if err != nil {
				return nil, fmt.Errorf("fair-start times: %w", err)
			}
			return fair, nil
		}
	}
	return f.fair, nil
}

// fairStartKey begins a job's fair-start token, fairstart=T.
const fairStartKey = "fairstart="

// fairStartTokens appends fairstart=T to each job's tokens. The tokens are
// substrings of one string and the token slices parts of one array: two
// allocations instead of two a job (a million on a large trace).
func fairStartTokens(jobs []sim.Job, fair []int64) {
	var digits [20]byte
	size, slots := 0, 0
	for i := range jobs {
		size += len(fairStartKey) + len(strconv.AppendInt(digits[:0], fair[i], 10))
		slots += len(jobs[i].Tokens) + 1
	}
	var text strings.Builder
	text.Grow(size)
	for i := range jobs {
		text.WriteString(fairStartKey)
		text.Write(strconv.AppendInt(digits[:0], fair[i], 10))
	}
	all := text.String()
	block := make([]string, 0, slots)
	at := 0
	for i := range jobs {
		j := &jobs[i]
		n := len(fairStartKey) + len(strconv.AppendInt(digits[:0], fair[i], 10))
		k := len(block)
		block = append(block, j.Tokens...)
		block = append(block, all[at:at+n])
		at += n
		j.Tokens = block[k:len(block):len(block)]
	}
}

// researchNotes adds the policy's own report to the header (thresholds used,
// trial runs, prediction accuracy: policy.Noter) and, with fair (the fair
// starts of --fair-start), their note. The fair-start tokens are added to
// the jobs' tokens only when tokens (prices) follow them (toTokens);
// otherwise write adds each as it writes the job's line, so that half a
// million token strings are not held at once (a large trace's heap is at
// its fullest then).
func researchNotes(hdr *swf.Header, info policy.Info, p sim.Policy, jobs []sim.Job, fair []int64, toTokens bool) {
	if n, ok := p.(policy.Noter); ok {
		hdr.AddNote("swfsim " + info.Name + ": " + n.Note())
	}
	if fair == nil {
		return
	}
	if toTokens {
		fairStartTokens(jobs, fair)
	}
	hdr.AddNote("swfsim fair-start: fairstart=T is the start under conservative backfilling switched to strict FCFS at the job's arrival (Srinivasan et al. section 5), from real runtimes")
}
