package convert

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Sentinel errors wrapped by the *swf.ParseError values of this package.
var (
	// ErrHeaderLine: the log's column header is missing or unreadable.
	ErrHeaderLine = errors.New("no column header")
	// ErrDelimiter: the columns are separated by something other than the format's delimiter.
	ErrDelimiter = errors.New("wrong delimiter")
	// ErrMissingColumn: a column the conversion needs is absent.
	ErrMissingColumn = errors.New("required column missing")
	// ErrColumnCount: a line has another number of columns than the header.
	ErrColumnCount = errors.New("wrong number of columns")
	// ErrTruncated: the last line ends before its last column (no final newline).
	ErrTruncated = errors.New("truncated last line")
	// ErrValue: a column's value cannot be read.
	ErrValue = errors.New("malformed value")
	// ErrRange: a column's value, or what the conversion makes of it, does not
	// fit in 64 bits or in the toolkit's bounds (swf.MaxTime, swf.MaxProcessors,
	// MaxMemoryKB). It wraps swf.ErrRange, so that errors.Is(err,
	// swf.ErrRange) finds every value out of range, read or converted.
	ErrRange = fmt.Errorf("value %w", swf.ErrRange)
	// ErrState: a job state the conversion does not know.
	ErrState = errors.New("unknown job state")
	// ErrNoJobs: the log holds no job that could be converted.
	ErrNoJobs = errors.New("no jobs")
)

// MaxMemoryKB bounds memory sizes (fields 7 and 10, KB): sizes are computed in
// float64, which holds whole numbers exactly up to 2^53 (8 ZiB, far beyond any
// machine).
const MaxMemoryKB = 1 << 53

// Bounds as error messages say them.
const (
	procsBound  = "2147483647, swfkit's bound for a processor count"
	timeBound   = "2^40 s (about 34,800 years), swfkit's bound for a time"
	memoryBound = "2^53 KB (8 ZiB; sizes are computed in float64, exact up to 2^53)"
)

// MaxKeptErrors is how many malformed-line errors a lenient conversion keeps.
const MaxKeptErrors = 5

// Config is what a conversion needs beyond the log itself. The zero value
// converts with times in UTC and an unknown machine size.
type Config struct {
	// Name is the input's name in errors and header notes.
	Name string
	// Location is the time zone of the log's printed times (sacct prints local
	// time) and of the header's StartTime and EndTime; nil means UTC.
	Location *time.Location
	// Procs and Nodes are the machine size for MaxProcs and MaxNodes; 0 means
	// unknown: the largest job is written as a lower bound, with a warning.
	Procs, Nodes int64
	// Lenient skips and counts malformed lines instead of failing on the first.
	Lenient bool
	// Tool names the converting program and options for the Conversion label,
	// e.g. "swfclean 0.2 --from sacct --timezone Europe/Prague".
	Tool string

	// nodesNamed is the number of distinct nodes the log's node lists name
	// (Alea), a lower bound on the machine's nodes; 0 unknown.
	nodesNamed int64
}

func (c Config) location() *time.Location {
	if c.Location == nil {
		return time.UTC
	}
	return c.Location
}

// Skip is a count of input lines that are not jobs in the output, by reason.
type Skip struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// Accounting says where every input line went. Lines = HeaderLines + BlankLines +
// JobLines + StepLines + the skipped counts + Malformed; Jobs (the SWF records
// written) is JobLines plus the extra jobs of lines that stand for several
// (sacct's one line for the never-started tasks of an array: ExpandedLines).
// Parts of those records are partial executions (status 2) of a job written
// on several lines (sacct's runs before a requeue): Jobs - Parts jobs.
type Accounting struct {
	Format      string   `json:"format"`
	File        string   `json:"file"`
	Lines       int      `json:"lines_read"`
	HeaderLines int      `json:"header_lines"`
	BlankLines  int      `json:"blank_lines"`
	JobLines    int      `json:"job_lines"`
	StepLines   int      `json:"step_lines"`
	Skipped     []Skip   `json:"skipped"`
	Malformed   int      `json:"malformed_skipped"`
	FirstErrors []string `json:"malformed_first,omitempty"`
	Jobs        int      `json:"jobs_written"`
	// ExpandedLines counts job lines that stood for more than one job.
	ExpandedLines int `json:"expanded_lines,omitempty"`
	// Parts counts the records written as earlier partial executions
	// (status 2) of a job whose last part is another record.
	Parts int `json:"partial_records,omitempty"`
}

// SkippedTotal is the number of lines skipped for a reason (not malformed).
func (a *Accounting) SkippedTotal() int {
	n := 0
	for _, s := range a.Skipped {
		n += s.Count
	}
	return n
}

// Balanced reports whether every line read is accounted for exactly once.
func (a *Accounting) Balanced() bool {
	return a.Lines == a.HeaderLines+a.BlankLines+a.JobLines+a.StepLines+a.SkippedTotal()+a.Malformed
}

func (a *Accounting) skip(reason string) {
	for i := range a.Skipped {
		if a.Skipped[i].Reason == reason {
			a.Skipped[i].Count++
			return
		}
	}
	a.Skipped = append(a.Skipped, Skip{Reason: reason, Count: 1})
}

// String is the one-line summary used on stderr and in the header's Note.
func (a *Accounting) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d lines read = %d header + %d job lines + %d step lines + %d skipped",
		a.Lines, a.HeaderLines, a.JobLines, a.StepLines, a.SkippedTotal())
	if a.BlankLines > 0 {
		fmt.Fprintf(&b, " + %d blank", a.BlankLines)
	}
	if a.Malformed > 0 {
		fmt.Fprintf(&b, " + %d malformed (--lenient)", a.Malformed)
	}
	if len(a.Skipped) > 0 {
		parts := make([]string, len(a.Skipped))
		for i, s := range a.Skipped {
			parts[i] = fmt.Sprintf("%s: %d", s.Reason, s.Count)
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(parts, "; "))
	}
	if a.Parts > 0 {
		fmt.Fprintf(&b, "; %d records written: %d jobs, and %d earlier runs of them as partial executions", a.Jobs, a.Jobs-a.Parts, a.Parts)
	} else {
		fmt.Fprintf(&b, "; %d jobs written", a.Jobs)
	}
	if a.ExpandedLines > 0 {
		fmt.Fprintf(&b, " (%d of the job lines stood for several never-started array tasks each)", a.ExpandedLines)
	}
	return b.String()
}

// NameMapping is one name mapped to an integer id: kind is user, group, queue or
// partition.
type NameMapping struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	ID   int64  `json:"id"`
}

// Result is a converted log.
type Result struct {
	Header *swf.Header
	// Jobs in submit order, numbered 1..len(Jobs).
	Jobs       []swf.Job
	Accounting Accounting
	// Names maps every name written as an integer, by kind then id.
	Names []NameMapping
	// Warnings say what the output cannot know (an unknown machine size).
	Warnings []string
}

// pending is one job before ordering: absolute Unix times (-1 unknown), names,
// and the SWF fields that do not depend on the order. A name "" keeps the job's
// own field (formats whose ids are numbers already).
type pending struct {
	id                 string
	submit, start, end int64
	user, group        string
	queue, partition   string
	// run is the run time of a job whose start is unknown (Alea: an
	// unknown wait beside a known run time), valid when runSet.
	run     int64
	runSet  bool
	nodes   int64 // nodes used, for the MaxNodes lower bound; -1 unknown
	listLen int64 // entries of Alea's node list (one per processor); 0 none
	job     swf.Job
	order   int64 // input order, for ties
	line    int   // the line of the log it came from, for errors
	// parts are the job's earlier partial executions (status 2), in the
	// order they ran, each with its own start, end and fields: written
	// before the job's record, with its number and submit time.
	parts []pending
}

// waitRun returns the job's SWF wait and run time (-1 unknown).
func (p *pending) waitRun() (wait, run int64) {
	wait, run = -1, -1
	switch {
	case p.start != -1:
		wait = p.start - p.submit
		if p.end != -1 {
			run = p.end - p.start
		}
	case p.runSet:
		run = p.run
	}
	return wait, run
}

// names numbers names 1..n in order of first use.
type names struct {
	kind string
	ids  map[string]int64
	list []string
}

func newNames(kind string) *names { return &names{kind: kind, ids: map[string]int64{}} }

func (n *names) id(name string) int64 {
	if name == "" {
		return -1
	}
	if id, ok := n.ids[name]; ok {
		return id
	}
	n.list = append(n.list, name)
	id := int64(len(n.list))
	n.ids[name] = id
	return id
}

func (n *names) mappings() []NameMapping {
	out := make([]NameMapping, len(n.list))
	for i, name := range n.list {
		out[i] = NameMapping{Kind: n.kind, Name: name, ID: int64(i + 1)}
	}
	return out
}

// finish orders, numbers and maps the pending jobs and builds the header. format
// is the log format's name for the notes; notes are added after the standard ones.
// columns names, per SWF field, the log's column it comes from, for the error
// of a job that would not read back as SWF (outOfBounds).
func finish(format string, cfg Config, jobs []pending, acct Accounting, notes []string, columns *[swf.NumFields]string) (*Result, error) {
	if len(jobs) == 0 {
		if acct.Lines == 0 {
			return nil, &swf.ParseError{File: cfg.Name, Line: 1, Err: ErrNoJobs,
				Detail: fmt.Sprintf("empty input: no job could be converted (%s)", acct.String())}
		}
		return noJobs(format, cfg, acct, notes), nil
	}
	sort.SliceStable(jobs, func(a, b int) bool {
		if jobs[a].submit != jobs[b].submit {
			return jobs[a].submit < jobs[b].submit
		}
		return jobs[a].order < jobs[b].order
	})
	users, groups := newNames("user"), newNames("group")
	queues, partitions := newNames("queue"), newNames("partition")
	first := jobs[0].submit
	last := first
	var maxProcs, maxNodes int64
	out := make([]swf.Job, 0, len(jobs))
	refs := precedingRefs{numbers: map[string]int64{}}
	for i := range jobs {
		p := &jobs[i]
		j := p.job
		j.JobNumber = int64(i + 1)
		refs.rewrite(&j, p)
		j.SubmitTime = p.submit - first
		j.WaitTime, j.RunTime = p.waitRun()
		mapName(&j.UserID, users, p.user)
		mapName(&j.GroupID, groups, p.group)
		mapName(&j.Queue, queues, p.queue)
		mapName(&j.Partition, partitions, p.partition)
		if n := outOfBounds(&j); n > 0 {
			return dropOutOfBounds(format, cfg, jobs, acct, notes, columns)
		}
		j.Extra = append([]string{"jobid=" + p.id}, j.Extra...)
		// The parts' fields are bounded where read, as the job's are, and
		// their waits count from the job's submit, as its own does.
		for k := range p.parts {
			part := &p.parts[k]
			pj := part.job
			pj.JobNumber, pj.SubmitTime = j.JobNumber, j.SubmitTime
			pj.WaitTime, pj.RunTime = part.start-p.submit, -1
			if part.end != -1 {
				pj.RunTime = part.end - part.start
			}
			pj.UserID, pj.GroupID, pj.Queue, pj.Partition = j.UserID, j.GroupID, j.Queue, j.Partition
			pj.Extra = append([]string{"jobid=" + p.id}, pj.Extra...)
			out = append(out, pj)
			last = max(last, part.start, part.end)
			maxProcs = max(maxProcs, pj.AllocatedProcs, pj.RequestedProcs)
			maxNodes = max(maxNodes, part.nodes)
		}
		out = append(out, j)
		last = max(last, p.submit, p.start, p.end)
		maxProcs = max(maxProcs, j.AllocatedProcs, j.RequestedProcs)
		maxNodes = max(maxNodes, p.nodes)
	}
	acct.Jobs = len(out)
	res := &Result{Jobs: out, Accounting: acct}
	for _, n := range []*names{users, groups, queues, partitions} {
		res.Names = append(res.Names, n.mappings()...)
	}
	res.Header = header(format, cfg, first, last, machineSeen{maxProcs, peakProcs(jobs), maxNodes}, queues, partitions, res)
	if acct.Parts > 0 {
		// A job on several lines (SWF's partial executions).
		res.Header.Set("Preemption", "Yes")
		res.Header.SetCounts(len(jobs), len(out))
	}
	for _, n := range notes {
		res.Header.AddNote(n)
	}
	if n := refs.note(); n != "" {
		res.Header.AddNote(n)
		if refs.unset > 0 {
			res.Warnings = append(res.Warnings, n)
		}
	}
	res.Header.AddNote(fmt.Sprintf("converted from %s (%s): %s", cfg.Name, format, acct.String()))
	res.Header.Lines = append(res.Header.Lines, swf.HeaderLine{Raw: ";"})
	return res, nil
}

// noJobs is the conversion of a log with lines but no job to convert (a
// dump of a period without jobs, or of jobs all pending or running): a
// header-only trace, as a header without records is a valid empty trace in
// every tool, without the dates no job gives, and a warning.
func noJobs(format string, cfg Config, acct Accounting, notes []string) *Result {
	res := &Result{Accounting: acct}
	h := header(format, cfg, 0, 0, machineSeen{}, newNames("queue"), newNames("partition"), res)
	kept := h.Lines[:0]
	for _, l := range h.Lines {
		switch l.Label {
		case "UnixStartTime", "StartTime", "EndTime":
		default:
			kept = append(kept, l)
		}
	}
	h.Lines = kept
	res.Header = h
	for _, n := range notes {
		h.AddNote(n)
	}
	msg := fmt.Sprintf("converted from %s (%s): %s; no job could be converted, so the trace has no records", cfg.Name, format, acct.String())
	h.AddNote(msg)
	res.Warnings = append(res.Warnings, msg)
	h.Lines = append(h.Lines, swf.HeaderLine{Raw: ";"})
	return res
}

// precedingRefs rewrites field 17 (preceding job), which a log gives as one of
// its own job ids, to the new job numbers, as swfclean's renumber rule does: a
// reference to a job written before becomes that job's number; one to a job
// not written before (not in the log, a later job, itself) becomes -1, and so
// does its think time (field 18), which is measured from that job's end. Only
// -1 means none (Alea's job ids start at 0); another negative is kept for
// --check to report.
type precedingRefs struct {
	numbers          map[string]int64 // the log's job id (canonical) -> job number
	rewritten, unset int
	firstUnset       string
}

func (r *precedingRefs) rewrite(j *swf.Job, p *pending) {
	if j.PrecedingJob >= 0 {
		if n, ok := r.numbers[strconv.FormatInt(j.PrecedingJob, 10)]; ok {
			j.PrecedingJob = n
			r.rewritten++
		} else {
			if r.unset == 0 {
				r.firstUnset = fmt.Sprintf("line %d, job %s: preceding job %d", p.line, p.id, j.PrecedingJob)
			}
			r.unset++
			j.PrecedingJob, j.ThinkTime = -1, -1
		}
	}
	r.numbers[canonicalID(p.id)] = j.JobNumber
}

// canonicalID is a numeric job id as strconv writes it ("007" and "7.0" are
// job 7), so that field 17's number finds it; other ids are kept as they are.
func canonicalID(id string) string {
	if v, err := strconv.ParseFloat(id, 64); err == nil && v == math.Trunc(v) && math.Abs(v) <= 1<<53 {
		return strconv.FormatInt(int64(v), 10)
	}
	return id
}

// note says what rewrite did, "" when no job had a preceding job.
func (r *precedingRefs) note() string {
	if r.rewritten == 0 && r.unset == 0 {
		return ""
	}
	var parts []string
	if r.rewritten > 0 {
		parts = append(parts, fmt.Sprintf("rewritten to the new job numbers (%d jobs)", r.rewritten))
	}
	if r.unset > 0 {
		parts = append(parts, fmt.Sprintf("%d jobs whose preceding job is not written before them (not in the log, later, or themselves) get -1 "+
			"with their think time (field 18), first %s", r.unset, r.firstUnset))
	}
	return "field 17 (preceding job): " + strings.Join(parts, "; ")
}

// outOfBounds returns the first field of j beyond the bounds swf.Reader
// enforces (swf.MaxTime, swf.MaxProcessors), 0 when there is none. The readers
// bound every column where they read it; this is what makes sure that the
// converted log reads back, so that every error names the log's own line.
func outOfBounds(j *swf.Job) int {
	for n := swf.FieldSubmitTime; n <= swf.NumFields; n++ {
		v := j.Field(n)
		switch n {
		case swf.FieldSubmitTime, swf.FieldWaitTime, swf.FieldRunTime, swf.FieldAverageCPUTime,
			swf.FieldRequestedTime, swf.FieldThinkTime:
			if !(math.Abs(v) <= swf.MaxTime) { // NaN too
				return n
			}
		case swf.FieldAllocatedProcs, swf.FieldRequestedProcs:
			if math.Abs(v) > swf.MaxProcessors {
				return n
			}
		}
	}
	return 0
}

// dropOutOfBounds reports the first line of the log whose job has a field
// beyond the SWF bounds, or with cfg.Lenient counts every such line as
// malformed, drops its jobs and finishes without them.
func dropOutOfBounds(format string, cfg Config, jobs []pending, acct Accounting, notes []string, columns *[swf.NumFields]string) (*Result, error) {
	first := jobs[0].submit
	for i := range jobs {
		first = min(first, jobs[i].submit)
	}
	bad := map[int]*swf.ParseError{} // line: its error
	perLine := map[int]int{}         // line: its jobs
	var lines []int
	for i := range jobs {
		p := &jobs[i]
		perLine[p.line]++
		j := p.job
		j.SubmitTime = p.submit - first
		j.WaitTime, j.RunTime = p.waitRun()
		n := outOfBounds(&j)
		if n == 0 || bad[p.line] != nil {
			continue
		}
		bad[p.line] = lineError(cfg.Name, p.line, columns[n-1], ErrRange, "gives field %d (%s) = %v, beyond the SWF bound (±%d)",
			n, swf.FieldNames[n-1], j.Field(n), boundOf(n))
		lines = append(lines, p.line)
	}
	sort.Ints(lines)
	if !cfg.Lenient {
		return nil, bad[lines[0]]
	}
	kept := jobs[:0]
	for _, p := range jobs {
		if bad[p.line] == nil {
			kept = append(kept, p)
		}
	}
	for _, line := range lines {
		acct.JobLines--
		acct.Malformed++
		if perLine[line] > 1 {
			acct.ExpandedLines--
		}
		if len(acct.FirstErrors) < MaxKeptErrors {
			acct.FirstErrors = append(acct.FirstErrors, bad[line].Error())
		}
	}
	return finish(format, cfg, kept, acct, notes, columns)
}

func boundOf(field int) int64 {
	if field == swf.FieldAllocatedProcs || field == swf.FieldRequestedProcs {
		return swf.MaxProcessors
	}
	return swf.MaxTime
}

// header builds the SWF header of a converted log; it records the machine-size
// warnings in res.
func header(format string, cfg Config, first, last int64, seen machineSeen, queues, partitions *names, res *Result) *swf.Header {
	h := &swf.Header{File: cfg.Name}
	loc := cfg.location()
	const dateLayout = "Mon Jan _2 15:04:05 MST 2006" // date(1), as the archive writes
	set := func(label, value string) { h.Set(label, value) }
	set("Version", "2.2")
	conv := "swfkit pkg/convert from " + format
	if cfg.Tool != "" {
		conv = cfg.Tool
	}
	set("Conversion", conv)
	set("Preemption", "No")
	set("UnixStartTime", strconv.FormatInt(first, 10))
	set("TimeZoneString", loc.String())
	set("StartTime", time.Unix(first, 0).In(loc).Format(dateLayout))
	set("EndTime", time.Unix(last, 0).In(loc).Format(dateLayout))
	h.SetCounts(len(res.Jobs), len(res.Jobs))
	// Without the machine size, the most the log shows: the largest job, or
	// more when its jobs held more at once (or its node lists name more
	// nodes), so that the tools downstream never see a machine the log
	// itself overfills.
	machine := func(label string, given, largest, more int64, why, flag string) {
		if given > 0 {
			set(label, strconv.FormatInt(given, 10))
			return
		}
		bound := max(largest, more)
		if bound <= 0 {
			return
		}
		set(label, strconv.FormatInt(bound, 10))
		what := "the largest job's"
		if more > largest {
			what = fmt.Sprintf("%s (the largest job's: %d)", why, largest)
		}
		msg := fmt.Sprintf("%s %d is %s, %s (%s)", label, bound, what, swf.MachineLowerBound, flag)
		h.AddNote(msg)
		res.Warnings = append(res.Warnings, msg)
	}
	machine("MaxNodes", cfg.Nodes, largestOr(seen.largestNodes), cfg.nodesNamed, "the number of nodes the node lists name", "--nodes")
	machine("MaxProcs", cfg.Procs, seen.largestProcs, seen.peakProcs, "the most processors the jobs held at once", "--procs")
	if len(queues.list) > 0 {
		set("MaxQueues", strconv.Itoa(len(queues.list)))
		for i, q := range queues.list {
			h.Lines = append(h.Lines, queueLine("Queue", int64(i+1), q))
		}
	}
	if len(partitions.list) > 0 {
		set("MaxPartitions", strconv.Itoa(len(partitions.list)))
		for i, p := range partitions.list {
			h.Lines = append(h.Lines, queueLine("Partition", int64(i+1), p))
		}
	}
	return h
}

// machineSeen is what the converted jobs show of the machine's size.
type machineSeen struct {
	largestProcs int64 // the largest job's processors (field 5 or 8)
	peakProcs    int64 // the most processors (field 5) jobs held at once
	largestNodes int64 // the largest job's nodes; -1 unknown
}

// peakProcs returns the most processors (field 5) that jobs with a known
// start and end held at once; a job ending at t no longer holds them at t.
func peakProcs(jobs []pending) int64 {
	type change struct{ t, procs int64 }
	var changes []change
	hold := func(p *pending) {
		if n := p.job.AllocatedProcs; n > 0 && p.start != -1 && p.end > p.start {
			changes = append(changes, change{p.start, n}, change{p.end, -n})
		}
	}
	for i := range jobs {
		hold(&jobs[i])
		for k := range jobs[i].parts {
			hold(&jobs[i].parts[k])
		}
	}
	sort.Slice(changes, func(a, b int) bool {
		if changes[a].t != changes[b].t {
			return changes[a].t < changes[b].t
		}
		return changes[a].procs < changes[b].procs // ends first
	})
	var held, peak int64
	for _, c := range changes {
		held += c.procs
		peak = max(peak, held)
	}
	return peak
}

func mapName(field *int64, n *names, name string) {
	if name != "" {
		*field = n.id(name)
	}
}

func largestOr(n int64) int64 {
	if n < 0 {
		return 0
	}
	return n
}

func queueLine(label string, n int64, name string) swf.HeaderLine {
	v := strconv.FormatInt(n, 10) + " " + name
	return swf.HeaderLine{Raw: "; " + label + ": " + v, Label: label, Value: v}
}

// lineError builds the error for a line: column is the column's name ("" for the
// whole line).
func lineError(file string, line int, column string, err error, format string, args ...any) *swf.ParseError {
	detail := fmt.Sprintf(format, args...)
	if column != "" {
		detail = "column " + column + ": " + detail
	}
	return &swf.ParseError{File: file, Line: line, Err: err, Detail: detail}
}
