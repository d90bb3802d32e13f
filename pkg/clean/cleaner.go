package clean

import (
	"fmt"
	"math/bits"
	"sort"
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
	// MaxProcs, else MaxNodes, from the header as it will be written (with Set).
	Machine int64
	// Set are the header lines the output gets over the input's (swfclean
	// --set), applied by Annotate last, in order (swf.Header.Apply). A
	// MaxProcs or MaxNodes among them is the machine the rules check, as the
	// tools downstream will read it: a MaxProcs written over the size the
	// rules used would describe a machine the output's jobs do not fit.
	Set []Setting
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

// Setting is one header line of Config.Set: "; Label: Value".
type Setting struct{ Label, Value string }

// machineLabels are the header labels that give the machine size, in the
// order they are read.
var machineLabels = []string{"MaxProcs", "MaxNodes"}

// isMachineLabel reports whether label (any case) gives the machine size.
func isMachineLabel(label string) bool {
	return strings.EqualFold(label, "MaxProcs") || strings.EqualFold(label, "MaxNodes")
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
	maxJob    int64    // largest job number written
	carry     []string // comment lines of records dropped by ApplyAll
	warnings  []string
	notes     []string
	noteFuncs []func() []string // notes known once every record went through
	// finishers warn, given their step's tally, of what is known once
	// every record went through; one per filter and keep step, in order.
	finishers []func(t Tally)
	edits     []func(h *swf.Header)
	anon      *anonymizer
	// removedJobs are the job numbers of the records a step dropped.
	// unresolved counts, by job number, the records written that name as
	// their preceding job (field 17) a number no record written before them
	// had, kept as read when rule renumber (which writes such a reference
	// -1) is not run: once every record went through, those whose number
	// a step removed and no record written has name a job the file does
	// not hold (dangling). Only such references are kept, not one per
	// record: the preceding job comes before its job in a trace.
	removedJobs jobSet
	unresolved  map[int64]int
	renumbers   bool
	// renumbered: rule renumber gave a job a new number, so the job
	// numbers the filters' and flurries' Notes name are not the output's.
	renumbered bool
	// bitStep is, by change-mark place (step.bit), the step's index.
	bitStep []int
}

// A record's change marks say which steps changed it (bit 2*step.bit) and
// which noted it (bit 2*step.bit+1). They are counted into the steps'
// tallies only when the record is written (credit): a record a later step
// drops counts only as that drop.

// mark adds to marks what step s's verdict v says about one record.
func mark(marks *uint64, s *step, v verdict) {
	switch v {
	case changed:
		*marks |= 1 << (2 * s.bit)
	case noted:
		*marks |= 1 << (2*s.bit + 1)
	}
}

// credit counts the marks of a record that is written.
func (c *Cleaner) credit(marks uint64) {
	for marks != 0 {
		b := bits.TrailingZeros64(marks)
		marks &= marks - 1
		s := &c.steps[c.bitStep[b/2]]
		if b%2 == 0 {
			s.tally.Changed++
		} else {
			s.noted++
		}
	}
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
		c.steps = append(c.steps, c.filterStep(f, true))
	}
	for _, f := range cfg.Keep {
		c.steps = append(c.steps, c.filterStep(f, false))
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
		s.bit = len(c.bitStep)
		if 2*s.bit+1 >= 64 {
			panic("clean: more rules than a record's change marks hold")
		}
		c.bitStep = append(c.bitStep, len(c.steps))
		c.renumbers = c.renumbers || r.Name == "renumber"
		c.whole = c.whole || s.trace != nil
		c.steps = append(c.steps, s)
	}
	return c, nil
}

// filterStep is the step of a --filter (drop) or --keep. Its detail counts
// the records it compared with an unknown value (a -1 compares as -1, as
// the archive's filters do), and it warns of those and of a filter that
// removed every record it saw, which is rarely what was meant.
func (c *Cleaner) filterStep(f *Filter, drop bool) step {
	kind := "keep "
	if drop {
		kind = "filter "
	}
	unknown := f.NewUnknownTally()
	seen := 0
	s := step{name: kind + f.String(), jobNumbers: f.NamesJobNumbers(), bit: -1}
	s.job = func(j *swf.Job) verdict {
		seen++
		if f.MatchCounting(j, unknown) == drop {
			return dropped
		}
		return kept
	}
	s.detail = func(int) string { return unknown.String() }
	c.finishers = append(c.finishers, func(t Tally) {
		if d := unknown.String(); d != "" {
			c.warn(fmt.Sprintf("%s%s: %s, which compares as -1", kind, f.String(), d))
		}
		if seen > 0 && t.Dropped == seen {
			c.warn(fmt.Sprintf("%s%s removed every record it saw (%d)", kind, f.String(), seen))
		}
	})
	return s
}

// Filter reports whether the record passes the filters (Config.Drop and
// Config.Keep) without counting it: the first pass of a two-pass run.
func (c *Cleaner) Filter(j *swf.Job) bool {
	for _, f := range c.cfg.Drop {
		if f.Match(j) {
			return false
		}
	}
	for _, f := range c.cfg.Keep {
		if !f.Match(j) {
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

// machineSize returns Config.Machine, else MaxProcs, else MaxNodes of the
// header as it will be written, else 0, with a warning and why.
func (c *Cleaner) machineSize() (size int64, why string, err error) {
	if c.cfg.Machine > 0 {
		return c.cfg.Machine, "", nil
	}
	h := c.machineHeader()
	for _, label := range machineLabels {
		v, ok, err := h.Int(label)
		if err != nil {
			return 0, "", err
		}
		if ok && v > 0 {
			return v, "", nil
		}
	}
	why = h.NotAMachineSize()
	if why == "" {
		why = "the header has no MaxProcs or MaxNodes"
	}
	c.warn("too_big/clamp_too_big not applied: " + why + " (give --procs)")
	return 0, why, nil
}

// machineHeader is the header with the machine-size labels of Config.Set
// written over it: the labels the output will have.
func (c *Cleaner) machineHeader() *swf.Header {
	h := c.hdr
	for _, s := range c.cfg.Set {
		if !isMachineLabel(s.Label) {
			continue
		}
		if h == c.hdr {
			h = &swf.Header{File: c.hdr.File, Lines: append([]swf.HeaderLine(nil), c.hdr.Lines...)}
		}
		h.Apply(s.Label, s.Value)
	}
	return h
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
	var marks uint64
	for i := range c.steps {
		s := &c.steps[i]
		if s.job == nil {
			continue
		}
		v := s.job(j)
		if v == dropped {
			s.tally.Dropped++
			c.removedJobs.add(j.JobNumber)
			return false
		}
		mark(&marks, s, v)
	}
	c.credit(marks)
	c.emitted(j)
	return true
}

func (c *Cleaner) emitted(j *swf.Job) {
	if p := j.PrecedingJob; p > 0 && !c.renumbers && !c.seen.has(p) {
		// Resolved at the end (dangling): the job may be removed, or
		// written, after this record, in the stream as in the held trace.
		if c.unresolved == nil {
			c.unresolved = map[int64]int{}
		}
		c.unresolved[p]++
	}
	c.written++
	if c.written == 1 || j.JobNumber > c.maxJob {
		c.maxJob = j.JobNumber
	}
	if c.seen.add(j.JobNumber) {
		c.distinct++
	}
}

// dangling returns the number of records written whose preceding job (field
// 17) a step removed and no record written holds, once every record went
// through; 0 with rule renumber, which writes such references -1.
func (c *Cleaner) dangling() int {
	n := 0
	for p, records := range c.unresolved {
		if c.removedJobs.has(p) && !c.seen.has(p) {
			n += records
		}
	}
	return n
}

// tracker lets a whole-trace step report drops and changes; the comment lines
// of a dropped record move to the next kept one, or to the trailer. marks
// are the records' change marks, by index into the jobs the step gets:
// a stage drops records only through keep and reorders them only through
// sortStable, which move the marks with them.
type tracker struct {
	step    *step
	carry   *[]string
	marks   []uint64
	removed *jobSet // the job numbers of the records dropped
}

// changeAt marks the record at index i as changed by the step.
func (t *tracker) changeAt(i int) { mark(&t.marks[i], t.step, changed) }

// keep filters jobs in place, keeping those for which keepFn, given the
// record's index, is true.
func (t *tracker) keep(jobs []swf.Job, keepFn func(i int, j *swf.Job) bool) []swf.Job {
	out := jobs[:0]
	var pending []string
	for i := range jobs {
		j := &jobs[i] // not a copy: a copy would escape to the heap once per record
		if !keepFn(i, j) {
			t.step.tally.Dropped++
			t.removed.add(j.JobNumber)
			pending = append(pending, j.Comments...)
			continue
		}
		if len(pending) > 0 {
			j.Comments = append(pending, j.Comments...)
			pending = nil
		}
		t.marks[len(out)] = t.marks[i]
		out = append(out, *j) // in place: len(out) <= i
	}
	*t.carry = append(*t.carry, pending...)
	t.marks = t.marks[:len(out)]
	return out
}

// sortStable sorts jobs as sort.SliceStable does with less, and their
// marks with them.
func (t *tracker) sortStable(jobs []swf.Job, less func(a, b *swf.Job) bool) {
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return less(&jobs[order[a]], &jobs[order[b]]) })
	// Place i gets the record at order[i]: follow each cycle of the
	// permutation once, moving records in place.
	for start := range order {
		if order[start] < 0 {
			continue
		}
		job, marks := jobs[start], t.marks[start]
		at := start
		for {
			from := order[at]
			order[at] = -1
			if from == start {
				jobs[at], t.marks[at] = job, marks
				break
			}
			jobs[at], t.marks[at] = jobs[from], t.marks[from]
			at = from
		}
	}
}

// ApplyAll runs every step over the whole trace (in file order) and returns the
// records to write, in order. Comment lines of dropped records that no kept
// record follows are returned by Trailer.
func (c *Cleaner) ApplyAll(jobs []swf.Job) []swf.Job {
	c.read += len(jobs)
	marks := make([]uint64, len(jobs))
	for i := range c.steps {
		s := &c.steps[i]
		t := &tracker{step: s, carry: &c.carry, marks: marks, removed: &c.removedJobs}
		switch {
		case s.job != nil:
			jobs = t.keep(jobs, func(i int, j *swf.Job) bool {
				v := s.job(j)
				mark(&t.marks[i], s, v)
				return v != dropped
			})
		case s.trace != nil:
			jobs = s.trace.applyAll(jobs, t)
		}
		marks = t.marks
	}
	for i := range jobs {
		c.credit(marks[i])
		c.emitted(&jobs[i])
	}
	return jobs
}

// Trailer returns the comment lines of records dropped by ApplyAll that no
// kept record followed; write them before the input's trailer.
func (c *Cleaner) Trailer() []string { return c.carry }
