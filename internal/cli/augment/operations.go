package augmentcli

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/augment"
	"github.com/swfkit/swfkit/pkg/swf"
)

// operations are one run's operations over a trace that is streamed, not
// held: a first pass shows every job to the surveys of the operations that
// need trace-wide numbers (observe), prepare solves them in the documented
// order, and a second pass sends every job through the operations in that
// order (apply). The Notes are known once the last job went through.
type operations struct {
	plan    *plan
	hdr     *swf.Header
	answers map[int64]int64 // nil without --checkpoint-from

	// The first pass; nil when not needed.
	queues   *augment.QueueSurvey // only for the default priorities
	ckpt     *augment.CheckpointSurvey
	answered *augment.AnswersSurvey
	bounds   *augment.BoundsSurvey
	load     *augment.LoadSurvey

	// Set by prepare: the operations, in order, and what each says once
	// every job went through it.
	steps   []func(*swf.Job) error
	reports []func() ([]string, error)
	first   string // the first Note
	utility *augment.UtilityGenerator
}

// newOperations returns the run's operations with the surveys they need.
func newOperations(p *plan, hdr *swf.Header, answers map[int64]int64) *operations {
	o := &operations{plan: p, hdr: hdr, answers: answers}
	if p.utility != nil && p.utility.Priorities == nil {
		o.queues = &augment.QueueSurvey{}
	}
	if p.ckpt != nil {
		o.ckpt = augment.NewCheckpointSurvey(*p.ckpt)
	}
	if answers != nil {
		o.answered = augment.NewAnswersSurvey(answers)
	}
	if p.wantBnds {
		o.bounds = &augment.BoundsSurvey{}
	}
	if p.load > 0 || p.target > 0 {
		o.load = &augment.LoadSurvey{}
	}
	return o
}

// mayNeedSurvey reports whether a run of p could need a first pass, before
// the header says whether the priorities can come from its Queue lines.
func mayNeedSurvey(p *plan) bool {
	return p.utility != nil && p.utility.Priorities == nil ||
		p.ckpt != nil || p.answers != "" || p.wantBnds || p.load > 0 || p.target > 0
}

// surveyed reports whether the operations need a first pass over the trace.
func (o *operations) surveyed() bool {
	return o.queues != nil || o.ckpt != nil || o.answered != nil || o.bounds != nil || o.load != nil
}

// observe shows the next job of the first pass to every survey.
func (o *operations) observe(j *swf.Job) {
	if o.queues != nil {
		o.queues.Observe(j)
	}
	if o.ckpt != nil {
		o.ckpt.Observe(j)
	}
	if o.answered != nil {
		o.answered.Observe(j)
	}
	if o.bounds != nil {
		o.bounds.Observe(j)
	}
	if o.load != nil {
		o.load.Observe(j)
	}
}

// apply sends the next job of the second pass through the operations.
func (o *operations) apply(j *swf.Job) error {
	for _, step := range o.steps {
		if err := step(j); err != nil {
			return err
		}
	}
	return nil
}

// prepare solves the surveys and sets up the operations in the documented
// order. An error is one operation's: steps then holds the operations
// before it, whose errors over the jobs come first (as when each operation
// ran over the whole trace before the next).
func (o *operations) prepare() error {
	p, hdr := o.plan, o.hdr
	var names []string
	if p.utility != nil {
		names = append(names, "utility")
	}
	if p.ckpt != nil || o.answers != nil {
		names = append(names, "checkpoint")
	}
	if p.model != nil || p.quant != nil || p.qual != nil {
		names = append(names, "estimate")
	}
	if p.load > 0 || p.target > 0 {
		names = append(names, "load")
	}
	if len(names) == 0 && !p.wantBnds {
		return cmdio.Usagef("nothing to do: give --utility, --checkpoint, --checkpoint-from, --estimate, --error-quant, --error-qual, --bounds, --load or --target-load")
	}
	// The same seed whether given or left to its default: the Provenance
	// line cannot tell them apart, so neither may the file (one
	// configuration, one file; swfstat --replay leaves defaults out).
	seedText := strconv.FormatInt(int64(p.seed), 10) // as --seed takes it
	o.first = fmt.Sprintf("swfaugment %s: seed=%s; operations in order: %v", cmdio.BuildVersion(), seedText, names)
	draws := &p.draws

	if p.utility != nil {
		if err := o.prepareUtility(draws.NewRand(p.seed, augment.StreamUtility)); err != nil {
			return err
		}
	}
	if o.ckpt != nil {
		m, err := o.ckpt.Model(draws.NewRand(p.seed, augment.StreamCheckpoint))
		if err != nil {
			return cmdio.Usagef("%v", err)
		}
		o.step(func(j *swf.Job) error { m.Apply(j); return nil }, func() ([]string, error) { return m.Report().Notes(), nil })
	}
	if o.answered != nil {
		m := o.answered.Marker(p.expand, draws.NewRand(p.seed, augment.StreamCheckpoint))
		o.step(func(j *swf.Job) error { m.Apply(j); return nil }, func() ([]string, error) { return m.Report().Notes(), nil })
	}
	var bounds *augment.Bounds
	if o.bounds != nil {
		b, err := o.bounds.Bounds(p.bounds)
		if err != nil {
			return fmt.Errorf("%s: %w", hdr.File, err) // what the trace holds
		}
		bounds = b
		if none := b.Unbounded(); len(none) > 0 {
			// Such a variable decides no job's category, so the run goes
			// on; the Note, which swfstat reads, says "none".
			p.warnings = append(p.warnings, fmt.Sprintf("bounds: none for %s, which no job has known (see the bounds Note)", strings.Join(none, ", ")))
		}
		o.step(nil, func() ([]string, error) { return []string{b.Note()}, nil })
	}
	estDraws := draws
	if p.inert != "" {
		// Draws that cannot change the output do not make the seed
		// matter: counted apart.
		estDraws = &augment.Draws{}
	}
	estRand := estDraws.NewRand(p.seed, augment.StreamEstimate)
	var est *augment.Estimator
	var err error
	switch {
	case p.model != nil:
		est = augment.NewModelEstimator(*p.model, estRand)
	case p.quant != nil:
		est, err = augment.NewQuantitative(bounds, *p.quant, estRand)
	case p.qual != nil:
		est, err = augment.NewQualitative(bounds, *p.qual, estRand)
	}
	if err != nil {
		return cmdio.Usagef("%v", err)
	}
	if est != nil {
		apply := func(j *swf.Job) error {
			est.Apply(j)
			if o.utility != nil {
				// The output's field 9 is the kill time that decides
				// which jobs earn 0 under any schedule.
				o.utility.Settle(j)
			}
			return nil
		}
		o.step(apply, func() ([]string, error) {
			rep := est.Report()
			if w := rep.CategoryWarning(); w != "" {
				p.warnings = append(p.warnings, w)
			}
			if n := rep.Unshortened; n > 0 {
				p.warnings = append(p.warnings, fmt.Sprintf("--error-qual: %d large jobs drawn for conversion were left as they are: the lower runtime bound %s s is at or below 1 s, the smallest estimate written, so no estimate makes them short (see the bounds Note; --rt-lower-bound sets the bound)", n, strconv.FormatFloat(bounds.RuntimeLower, 'f', -1, 64)))
			}
			return rep.Notes(), nil
		})
	}
	if o.load != nil {
		if err := o.prepareLoad(); err != nil {
			return err
		}
	}
	return nil
}

// step adds an operation: apply (nil for none) for every job, then report
// for its Notes.
func (o *operations) step(apply func(*swf.Job) error, report func() ([]string, error)) {
	if apply != nil {
		o.steps = append(o.steps, apply)
	}
	o.reports = append(o.reports, report)
}

func (o *operations) prepareUtility(rng *rand.Rand) error {
	p, hdr := o.plan, o.hdr
	cfg := *p.utility
	if cfg.Priorities == nil {
		// The header's Queue lines that jobs are in, else the queues
		// the survey saw.
		cfg.Priorities = o.queues.Priorities(hdr)
	}
	gen, err := augment.NewUtilityGenerator(cfg, rng)
	if err != nil {
		return cmdio.Usagef("%v", err)
	}
	o.utility = gen
	apply := func(j *swf.Job) error {
		err := gen.Apply(j)
		var pe *swf.ParseError
		if errors.As(err, &pe) {
			pe.File = hdr.File // a value of the trace, not of a flag
		}
		return err
	}
	o.step(apply, func() ([]string, error) {
		rep := gen.Report()
		notes := rep.Notes()
		if u := rep.UnknownWait; 2*u > rep.Jobs {
			// Lee's deadlines follow the logged waits: a log of submit
			// times only (a model's output, NASA-iPSC) gives most jobs
			// the least deadline, which the Note alone left unsaid.
			p.warnings = append(p.warnings, fmt.Sprintf("--utility: %d of %d jobs have no logged wait (field 3 is -1), so their deadline is --min-deadline, %d s, whatever --deadline-factor", u, rep.Jobs, rep.Config.MinDeadline))
		}
		if msg := rep.PastDeadlineText(); msg != "" {
			// Lee's deadline follows the logged wait, not the run time:
			// on LANL-CM5 most jobs earn 0 under every schedule, which
			// the rankings of policies would otherwise hide.
			p.warnings = append(p.warnings, "--utility: "+msg)
			notes = append(notes, "swfaugment utility: "+msg)
		}
		if pr := rep.Config.Priorities; len(pr.Unused) > 0 {
			// As for --priority-order below: a declared queue without
			// jobs is an empty bin that moves every job's values.
			msg := fmt.Sprintf("the header's Queue lines list queue(s) %s, in which no job is: their ranks hold no job but count in the bins (give --priority-order to rank only the queues used)", joinInts(pr.Unused))
			if len(pr.Groups) == 0 {
				msg = fmt.Sprintf("the header's Queue lines list queue(s) %s, in which no job is: no job is in a listed queue, so every job is in one rank, as without Queue lines", joinInts(pr.Unused))
			}
			p.warnings = append(p.warnings, "--utility: "+msg)
			notes = append(notes, "swfaugment utility: "+msg)
		}
		if q := rep.EmptyQueues; len(q) > 0 && rep.Config.Priorities.Source == "flag" {
			s := make([]string, len(q))
			for i, v := range q {
				s[i] = strconv.FormatInt(v, 10)
			}
			msg := fmt.Sprintf("--priority-order lists queue(s) %s, in which no job given a utility function is: they rank nothing", strings.Join(s, ","))
			p.warnings = append(p.warnings, msg)
			notes = append(notes, "swfaugment utility: "+msg)
		}
		return notes, nil
	})
	return nil
}

// prepareLoad chooses the load factor and rewrites the header's machine
// size and EndTime, which need only the factor and the first submit time:
// the header's read lines are final before the first job is written.
func (o *operations) prepareLoad() error {
	p, hdr := o.plan, o.hdr
	machine, procsNote, unknown, err := machineSize(hdr, p.procs)
	if err != nil {
		return err
	}
	if unknown != "" && p.target > 0 {
		// The target is a share of the machine: no size, no factor.
		return cmdio.Usagef("--target-load needs the machine size, unknown: %s; give --procs N (or a MaxProcs header line)", unknown)
	}
	s, err := o.load.Scaler(machine, p.load, p.target)
	if err != nil {
		return fmt.Errorf("%s: %w", hdr.File, err) // what the trace holds
	}
	if rep := s.Report(); rep.LoadUnknown != "" && !rep.Empty {
		// A factor given needs no load: the jobs are scaled, and only
		// the Note's figure is missing, which a study may have expected.
		why := rep.LoadUnknown
		if unknown != "" {
			why = "machine size unknown: " + unknown + "; give --procs N (or a MaxProcs header line)"
		}
		p.warnings = append(p.warnings, "--load: submit times scaled, but the offered load is unknown: "+why)
	}
	endNote := augment.ScaleEndTime(hdr, s.Report())
	o.step(func(j *swf.Job) error { s.Apply(j); return nil }, func() ([]string, error) {
		var notes []string
		if procsNote != "" {
			notes = append(notes, procsNote) // after the first Note, the run's own
		}
		rep, err := s.Finish()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", hdr.File, err) // what the trace holds
		}
		notes = append(notes, rep.Notes()...)
		if endNote != "" {
			notes = append(notes, endNote)
		}
		return notes, nil
	})
	return nil
}

// notes returns the run's Notes, once every job went through the
// operations.
func (o *operations) notes() ([]string, error) {
	notes := []string{o.first}
	for _, report := range o.reports {
		n, err := report()
		if err != nil {
			return nil, err
		}
		notes = append(notes, n...)
	}
	switch {
	case o.plan.draws.Count() > 0:
	case o.plan.inert != "":
		notes[0] += "; the run's draws cannot change the output (" + o.plan.inert + "): the output is the same for every seed"
	default:
		notes[0] += "; the run drew no random number: the output is the same for every seed"
	}
	return notes, nil
}

// joinInts writes queue numbers as a list, 0,1,2.
func joinInts(xs []int64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, ",")
}
