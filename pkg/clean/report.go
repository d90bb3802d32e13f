package clean

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Tally counts what one step did. Changed counts the records the step
// changed that are written: a record changed by one rule and dropped by a
// later one counts only as the later one's drop, so that the counts
// describe the output (and a rule's detail likewise counts records written).
type Tally struct {
	Dropped int `json:"dropped"`
	Changed int `json:"changed"`
}

// StepReport is the accounting of one step: a rule, a filter or a keep.
type StepReport struct {
	Name string `json:"rule"`
	Tally
	// JobNumbers is "input" when Name names job numbers (a filter or keep
	// whose NamesJobNumbers is true) and rule renumber gave the jobs
	// written new ones: the numbers in Name are the input's. Empty
	// otherwise.
	JobNumbers string `json:"job_numbers,omitempty"`
	// Detail says what the counts do not (records a rule left unchanged,
	// and why; records a filter compared with an unknown value); empty
	// when there is nothing to say.
	Detail string `json:"detail,omitempty"`
	// NotApplied says why a selected rule did nothing without looking at
	// a record (too_big without a machine size); empty when it ran.
	NotApplied string `json:"not_applied,omitempty"`
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

// Report returns the accounting; malformed is the number of lines a lenient
// reader skipped.
func (c *Cleaner) Report(malformed int) Report {
	for i, finish := range c.finishers {
		finish(c.steps[i].tally)
	}
	if n := c.dangling(); n > 0 {
		c.warn(danglingNote(n))
	}
	r := Report{
		RecordsRead: c.read + malformed, Written: c.written, Malformed: malformed,
		Dropped: malformed, Warnings: c.warnings,
		Steps: []StepReport{}, // "rules": [] in JSON, not null, when no rule ran
	}
	for _, s := range c.steps {
		sr := StepReport{Name: s.name, Tally: s.tally, NotApplied: s.notApplied}
		if s.detail != nil {
			sr.Detail = s.detail(s.noted)
		}
		if s.jobNumbers && c.renumbered {
			sr.JobNumbers = "input"
		}
		r.Steps = append(r.Steps, sr)
		r.Dropped += s.tally.Dropped
	}
	return r
}

// inputJobNumbers ends a Note that names job numbers (a filter's, a
// flurry's) when rule renumber gave the jobs written new ones: the filters
// and flurries chose jobs by the input's numbers, which the output's
// records no longer carry.
const inputJobNumbers = "job numbers are the input's, before rule renumber"

// earlierJobNumbers is the Note that follows renumber's counts when rule
// renumber gave a job a new number and the header holds Notes or
// Provenance lines from before this run: their job numbers (the archive's
// "user=4 and (job>=3874 and job<=5925)", an earlier run's filters and
// flurries) are free text, not rewritten, so a reader would take them for
// the output's. An earlier run may have renumbered too, so they may name an
// older numbering than the input's.
const earlierJobNumbers = "rule renumber: job numbers in the header's earlier Notes and Provenance lines " +
	"are the input's numbering, before this run's renumber (or an older one, where an earlier run renumbered)"

// holdsNotes reports whether h has a Note or a Provenance line.
func holdsNotes(h *swf.Header) bool {
	for _, l := range h.Lines {
		if !l.Continuation && (strings.EqualFold(l.Label, "Note") || strings.EqualFold(l.Label, "Provenance")) {
			return true
		}
	}
	return false
}

// inputNumbers returns "; "+inputJobNumbers when the job numbers a Note
// names are not the output's, else "".
func (c *Cleaner) inputNumbers() string {
	if !c.renumbered {
		return ""
	}
	return "; " + inputJobNumbers
}

// Annotate records the run in the header: Note lines naming every step with
// its counts, refreshed MaxJobs and MaxRecords, MaxProcs set to Config.Machine
// when that overrides it, the header changes rules make (shift_time's
// UnixStartTime, anonymize's Queue and Partition lines), and last Config.Set.
// A machine size that changes (Config.Machine, a MaxProcs or MaxNodes of
// Config.Set) gets a Note giving the value it replaces. Anonymize's Notes come
// after the other steps' and may add warnings to the Report (lines of free
// text that may name ids it renumbered): call Report again after Annotate.
// When rule renumber gave a job a new number, the Notes that name job
// numbers (a filter or keep whose NamesJobNumbers is true, a flurry) end by
// saying they are the input's (inputJobNumbers), as the Report's steps do
// (JobNumbers); and when the header held Notes or Provenance lines, one
// more Note after renumber's counts says theirs are not the output's
// (earlierJobNumbers).
func (c *Cleaner) Annotate(h *swf.Header, r Report) {
	// Read before this run adds its own Notes, which are not earlier ones.
	earlierNotes := c.renumbered && holdsNotes(h)
	for _, edit := range c.edits {
		edit(h)
	}
	// An overridden machine size goes down the pipe: the next tool reads
	// MaxProcs, and the Note keeps the value it replaces.
	if c.cfg.Machine > 0 {
		size := strconv.FormatInt(c.cfg.Machine, 10)
		if old, ok := h.Get("MaxProcs"); !ok || strings.TrimSpace(old) != size {
			was := "absent"
			if ok {
				was = strings.TrimSpace(old)
			}
			h.Set("MaxProcs", size)
			h.AddNote(fmt.Sprintf("%s --procs %s: MaxProcs was %s", c.cfg.Tool, size, was))
		} else if h.LowerBound("MaxProcs") {
			// The size a conversion wrote as the most its jobs showed is
			// the machine's: say so, or --check --submission keeps it a bound.
			h.AddNote(fmt.Sprintf("%s --procs %s: MaxProcs %s %s", c.cfg.Tool, size, size, swf.MachineConfirmed))
		}
	}
	for _, label := range machineLabels {
		set, ok := lastSetting(c.cfg.Set, label)
		if !ok {
			continue
		}
		if old, had := h.Get(label); had && strings.TrimSpace(old) == strings.TrimSpace(set.Value) && h.LowerBound(label) {
			h.AddNote(fmt.Sprintf("%s --set %s=%s: %s %s %s", c.cfg.Tool, label, strings.TrimSpace(set.Value), label, strings.TrimSpace(set.Value), swf.MachineConfirmed))
		} else if !had || strings.TrimSpace(old) != strings.TrimSpace(set.Value) {
			if had && sameSize(h, label, set.Value) {
				// The machine size stays (--procs wrote it, or the words
				// differ): no Note; the last loop writes the line.
				continue
			}
			was := "absent"
			if had {
				was = strings.TrimSpace(old)
			}
			// Written now, above the counts and notes, as --procs's is (the
			// last loop writes it again, in its place among the settings).
			h.Apply(set.Label, set.Value)
			h.AddNote(fmt.Sprintf("%s --set %s=%s: %s was %s", c.cfg.Tool, label, strings.TrimSpace(set.Value), label, was))
		}
	}
	// Counts first, so that a header without them gets them above the notes.
	h.SetCounts(c.distinct, c.written)
	h.AddNote(fmt.Sprintf("cleaned by %s: %d records read, %d written, %d dropped (%d malformed)",
		c.cfg.Tool, r.RecordsRead, r.Written, r.Dropped, r.Malformed))
	c.addStepNotes(h, r.Steps, earlierNotes)
	if n := c.dangling(); n > 0 {
		h.AddNote(c.cfg.Tool + " " + danglingNote(n))
	}
	notes := c.notes
	for _, f := range c.noteFuncs {
		notes = append(notes, f()...)
	}
	for _, n := range notes {
		h.AddNote(c.cfg.Tool + " " + n)
	}
	if c.anon != nil {
		// After every other note: a filter's or a flurry's names ids of
		// the input, from before the renumbering, which anonymize's notes
		// count.
		for _, n := range c.anon.notes(h, c.warn) {
			h.AddNote(c.cfg.Tool + " " + n)
		}
	}
	for _, s := range c.cfg.Set {
		h.Apply(s.Label, s.Value)
	}
	c.warnSetCounts(h)
}

// warnSetCounts warns when --set wrote a MaxJobs or MaxRecords the output
// contradicts, which --check flags (header_maxjobs, header_maxrecords): the
// value is the user's to give (a cleaned log may keep the original MaxJobs),
// so it is written, as --set writes any value the format allows, and the
// warning says what the output holds.
func (c *Cleaner) warnSetCounts(h *swf.Header) {
	if _, ok := lastSetting(c.cfg.Set, "MaxJobs"); ok {
		if v, ok, err := h.MaxJobs(); ok && err == nil && v != int64(c.distinct) && v != c.maxJob {
			c.warn(fmt.Sprintf("--set MaxJobs=%d: the output has %d distinct job numbers, the largest %d; --check flags it (header_maxjobs)", v, c.distinct, c.maxJob))
		}
	}
	if _, ok := lastSetting(c.cfg.Set, "MaxRecords"); ok {
		if v, ok, err := h.MaxRecords(); ok && err == nil && v != int64(c.written) {
			c.warn(fmt.Sprintf("--set MaxRecords=%d: the output has %d records; --check flags it (header_maxrecords)", v, c.written))
		}
	}
}

// danglingNote says that n records written name as their preceding job
// (field 17) a job this run removed: without rule renumber the reference
// is kept as read, and it now names a job the file does not hold.
func danglingNote(n int) string {
	records := "records written name"
	if n == 1 {
		records = "record written names"
	}
	return fmt.Sprintf("%d %s as preceding job (field 17) a job this run removed: kept as read, with its think time (field 18); rule renumber writes such a reference -1", n, records)
}

// addStepNotes adds a Note per step with its counts, and earlierJobNumbers
// after renumber's when earlierNotes.
func (c *Cleaner) addStepNotes(h *swf.Header, steps []StepReport, earlierNotes bool) {
	for _, s := range steps {
		note := fmt.Sprintf("%s %s: %s", c.cfg.Tool, stepLabel(s.Name), describeTally(s.Tally))
		if s.NotApplied != "" {
			note = fmt.Sprintf("%s %s: not applied: %s", c.cfg.Tool, stepLabel(s.Name), s.NotApplied)
		}
		if s.Detail != "" {
			note += "; " + s.Detail
		}
		if s.JobNumbers == "input" {
			note += " (" + inputJobNumbers + ")"
		}
		h.AddNote(note)
		if s.Name == "renumber" && earlierNotes {
			h.AddNote(c.cfg.Tool + " " + earlierJobNumbers)
		}
	}
}

// sameSize reports whether the header's label and value give the same
// machine size (both whole numbers, words after them aside).
func sameSize(h *swf.Header, label, value string) bool {
	old, ok, err := h.Int(label)
	if err != nil || !ok {
		return false
	}
	set := swf.Header{Lines: []swf.HeaderLine{{Label: label, Value: strings.TrimSpace(value)}}}
	v, ok, err := set.Int(label)
	return err == nil && ok && v == old
}

// lastSetting returns the last setting of label (any case): the one a
// header written with every setting in order keeps.
func lastSetting(set []Setting, label string) (Setting, bool) {
	for i := len(set) - 1; i >= 0; i-- {
		if strings.EqualFold(set[i].Label, label) {
			return set[i], true
		}
	}
	return Setting{}, false
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
