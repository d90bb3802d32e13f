package clean

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Config selects what a Cleaner does. The zero value does nothing.
type Config struct {
	// Rules names the registry rules to apply (see SelectRules); they run in
	// registry order whatever the order here.
	Rules []string
	// Drop removes the records matching any of these filters (--filter, the
	// archive's convention: its cleaned logs list the filters of removed jobs).
	Drop []*Filter
	// Keep removes the records matching none of these filters (--keep).
	Keep []*Filter
	// Machine overrides the machine size of too_big and clamp_too_big; 0 takes
	// MaxProcs, else MaxNodes, from the header.
	Machine int64
	// Flurry sets the thresholds of the flurries rule.
	Flurry FlurryConfig
	// Flurries, when not nil, are the flurries the flurries rule removes, found
	// by a first pass over the records that pass the filters (FlurryDetector,
	// Cleaner.Filter); the rule then streams. When nil, the rule finds them
	// itself and holds the whole trace.
	Flurries *[]Flurry
	// Tool names the program in Note lines ("swfclean" when empty).
	Tool string
}

// Tally counts what one step did. A record changed by one rule and dropped by a
// later one counts in both.
type Tally struct {
	Dropped int `json:"dropped"`
	Changed int `json:"changed"`
}

// StepReport is the accounting of one step: a rule, a filter or a keep.
type StepReport struct {
	Name string `json:"rule"`
	Tally
}

// Report is the accounting of a run: RecordsRead = Written + Dropped, and Dropped
// is Malformed plus the sum of the steps' drops.
type Report struct {
	RecordsRead int          `json:"records_read"`
	Written     int          `json:"records_written"`
	Dropped     int          `json:"records_dropped"`
	Malformed   int          `json:"malformed_skipped"`
	Steps       []StepReport `json:"rules"`
	Warnings    []string     `json:"warnings,omitempty"`
}

// Cleaner applies filters and rules to records. Use Apply record by record
// when WholeTrace is false, else ApplyAll on the whole trace; then Report and
// Annotate.
type Cleaner struct {
	cfg       Config
	hdr       *swf.Header
	steps     []step
	whole     bool
	read      int
	written   int
	seen      jobSet
	distinct  int
	carry     []string // comment lines of records dropped by ApplyAll
	warnings  []string
	notes     []string
	noteFuncs []func() []string // notes known once every record went through
	edits     []func(h *swf.Header)
	anon      *anonymizer
}

// New builds a Cleaner for a trace with this header. It fails on an unknown
// rule name or a malformed header value a selected rule needs.
func New(hdr *swf.Header, cfg Config) (*Cleaner, error) {
	if hdr == nil {
		hdr = &swf.Header{}
	}
	if cfg.Tool == "" {
		cfg.Tool = "swfclean"
	}
	c := &Cleaner{cfg: cfg, hdr: hdr}
	for _, f := range append(append([]*Filter(nil), cfg.Drop...), cfg.Keep...) {
		if err := f.Bind(hdr); err != nil {
			return nil, err
		}
	}
	for _, f := range cfg.Drop {
		f := f
		c.steps = append(c.steps, step{name: "filter " + f.String(), job: func(j *swf.Job) verdict {
			if f.Match(j) {
				return dropped
			}
			return kept
		}})
	}
	for _, f := range cfg.Keep {
		f := f
		c.steps = append(c.steps, step{name: "keep " + f.String(), job: func(j *swf.Job) verdict {
			if f.Match(j) {
				return kept
			}
			return dropped
		}})
	}
	selected := map[string]bool{}
	for _, name := range cfg.Rules {
		if _, ok := LookupRule(name); !ok {
			return nil, fmt.Errorf("clean: unknown rule %q", name)
		}
		selected[name] = true
	}
	for _, r := range Rules {
		if !selected[r.Name] {
			continue
		}
		s, err := r.build(c)
		if err != nil {
			return nil, err
		}
		s.name = r.Name
		c.whole = c.whole || s.trace != nil
		c.steps = append(c.steps, s)
	}
	return c, nil
}

// Filter reports whether the record passes the filters (Config.Drop and
// Config.Keep) without counting it: the first pass of a two-pass run.
func (c *Cleaner) Filter(j *swf.Job) bool {
	for _, s := range c.steps[:len(c.cfg.Drop)+len(c.cfg.Keep)] {
		if s.job(j) == dropped {
			return false
		}
	}
	return true
}

// Empty reports whether the Cleaner changes nothing (no rule, no filter), so a
// caller may copy its input through untouched.
func (c *Cleaner) Empty() bool { return len(c.steps) == 0 }

// WholeTrace reports whether a selected rule needs the whole trace (ApplyAll).
func (c *Cleaner) WholeTrace() bool { return c.whole }

// machineSize returns Config.Machine, else MaxProcs, else MaxNodes, else 0
// with a warning.
func (c *Cleaner) machineSize() (int64, error) {
	if c.cfg.Machine > 0 {
		return c.cfg.Machine, nil
	}
	for _, label := range []string{"MaxProcs", "MaxNodes"} {
		v, ok, err := c.hdr.Int(label)
		if err != nil {
			return 0, err
		}
		if ok && v > 0 {
			return v, nil
		}
	}
	c.warn("too_big/clamp_too_big not applied: the header has no MaxProcs or MaxNodes (give --procs)")
	return 0, nil
}

func (c *Cleaner) warn(msg string) {
	for _, w := range c.warnings {
		if w == msg {
			return
		}
	}
	c.warnings = append(c.warnings, msg)
}

// Apply runs every step on one record and reports whether to write it. It
// panics when WholeTrace is true.
func (c *Cleaner) Apply(j *swf.Job) bool {
	if c.whole {
		panic("clean: Apply with a whole-trace rule; use ApplyAll")
	}
	c.read++
	for i := range c.steps {
		s := &c.steps[i]
		if s.job == nil {
			continue
		}
		switch s.job(j) {
		case changed:
			s.tally.Changed++
		case dropped:
			s.tally.Dropped++
			return false
		}
	}
	c.emitted(j)
	return true
}

func (c *Cleaner) emitted(j *swf.Job) {
	c.written++
	if c.seen.add(j.JobNumber) {
		c.distinct++
	}
}

// tracker lets a whole-trace step report drops and changes; the comment lines
// of a dropped record move to the next kept one, or to the trailer.
type tracker struct {
	tally *Tally
	carry *[]string
}

func (t *tracker) change() { t.tally.Changed++ }

// keep filters jobs in place, keeping those for which keepFn is true.
func (t *tracker) keep(jobs []swf.Job, keepFn func(j *swf.Job) bool) []swf.Job {
	out := jobs[:0]
	var pending []string
	for i := range jobs {
		j := &jobs[i] // not a copy: a copy would escape to the heap once per record
		if !keepFn(j) {
			t.tally.Dropped++
			pending = append(pending, j.Comments...)
			continue
		}
		if len(pending) > 0 {
			j.Comments = append(pending, j.Comments...)
			pending = nil
		}
		out = append(out, *j) // in place: len(out) <= i
	}
	*t.carry = append(*t.carry, pending...)
	return out
}

// ApplyAll runs every step over the whole trace (in file order) and returns the
// records to write, in order. Comment lines of dropped records that no kept
// record follows are returned by Trailer.
func (c *Cleaner) ApplyAll(jobs []swf.Job) []swf.Job {
	c.read += len(jobs)
	for i := range c.steps {
		s := &c.steps[i]
		t := &tracker{tally: &s.tally, carry: &c.carry}
		switch {
		case s.job != nil:
			jobs = t.keep(jobs, func(j *swf.Job) bool {
				switch s.job(j) {
				case changed:
					s.tally.Changed++
				case dropped:
					return false
				}
				return true
			})
		case s.trace != nil:
			jobs = s.trace.applyAll(jobs, t)
		}
	}
	for i := range jobs {
		c.emitted(&jobs[i])
	}
	return jobs
}

// Trailer returns the comment lines of records dropped by ApplyAll that no
// kept record followed; write them before the input's trailer.
func (c *Cleaner) Trailer() []string { return c.carry }

// Report returns the accounting; malformed is the number of lines a lenient
// reader skipped.
func (c *Cleaner) Report(malformed int) Report {
	r := Report{
		RecordsRead: c.read + malformed, Written: c.written, Malformed: malformed,
		Dropped: malformed, Warnings: c.warnings,
	}
	for _, s := range c.steps {
		r.Steps = append(r.Steps, StepReport{Name: s.name, Tally: s.tally})
		r.Dropped += s.tally.Dropped
	}
	return r
}

// Annotate records the run in the header: Note lines naming every step with
// its counts, refreshed MaxJobs and MaxRecords, and the header changes rules
// make (shift_time's UnixStartTime, anonymize's Queue and Partition lines).
func (c *Cleaner) Annotate(h *swf.Header, r Report) {
	for _, edit := range c.edits {
		edit(h)
	}
	// Counts first, so that a header without them gets them above the notes.
	h.Set("MaxJobs", strconv.Itoa(c.distinct))
	h.Set("MaxRecords", strconv.Itoa(c.written))
	h.AddNote(fmt.Sprintf("cleaned by %s: %d records read, %d written, %d dropped (%d malformed)",
		c.cfg.Tool, r.RecordsRead, r.Written, r.Dropped, r.Malformed))
	for _, s := range r.Steps {
		h.AddNote(fmt.Sprintf("%s %s: %s", c.cfg.Tool, stepLabel(s.Name), describeTally(s.Tally)))
	}
	notes := c.notes
	for _, f := range c.noteFuncs {
		notes = append(notes, f()...)
	}
	for _, n := range notes {
		h.AddNote(c.cfg.Tool + " " + n)
	}
}

func stepLabel(name string) string {
	if strings.HasPrefix(name, "filter ") || strings.HasPrefix(name, "keep ") {
		return name
	}
	return "rule " + name
}

func describeTally(t Tally) string {
	var parts []string
	if t.Dropped > 0 {
		parts = append(parts, jobCount(t.Dropped)+" removed")
	}
	if t.Changed > 0 {
		parts = append(parts, jobCount(t.Changed)+" changed")
	}
	if len(parts) == 0 {
		return "no jobs affected"
	}
	return strings.Join(parts, ", ")
}

func jobCount(n int) string {
	if n == 1 {
		return "1 job"
	}
	return strconv.Itoa(n) + " jobs"
}
