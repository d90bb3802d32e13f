package convert

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Sacct columns. The first six are required (AllocCPUS or NCPUS); the others are
// used when present; every other column is ignored.
var (
	SacctRequired = []string{"JobID", "Submit", "Start", "End", "State"}
	SacctOptional = []string{"JobIDRaw", "ReqCPUS", "NNodes", "Timelimit", "User", "Group",
		"Partition", "QOS", "ReqMem", "MaxRSS", "NTasks", "TotalCPU", "ElapsedRaw", "ExitCode", "NodeList"}
)

// SacctStatus maps the Slurm job states of finished jobs to SWF status (field 11).
// A state in SacctUnfinished is skipped and counted; any other state is an error.
// PREEMPTED (a job stopped for another, not requeued) ended without completing: 0.
var SacctStatus = map[string]int64{
	"COMPLETED": swf.StatusCompleted,
	"FAILED":    swf.StatusFailed, "TIMEOUT": swf.StatusFailed, "NODE_FAIL": swf.StatusFailed,
	"OUT_OF_MEMORY": swf.StatusFailed, "BOOT_FAIL": swf.StatusFailed, "DEADLINE": swf.StatusFailed,
	"PREEMPTED": swf.StatusFailed,
	"CANCELLED": swf.StatusCancelled,
}

// SacctUnfinished are the states of jobs that had not finished when sacct was run:
// they are not jobs of the log. REQUEUED (with --duplicates, a run that was
// requeued) is a partial execution of its job when that job is written.
var SacctUnfinished = []string{"PENDING", "RUNNING", "REQUEUED", "SUSPENDED", "RESIZING",
	"REQUEUE_HOLD", "REQUEUE_FED", "SPECIAL_EXIT", "REVOKED", "CONFIGURING", "COMPLETING",
	"STOPPED", "SIGNALING", "STAGE_OUT", "RESV_DEL_HOLD"}

// SacctTimeLayout is how sacct prints times (its default SLURM_TIME_FORMAT).
const SacctTimeLayout = "2006-01-02T15:04:05"

// sacctFieldColumns names the columns each SWF field comes from, for errors.
var sacctFieldColumns = [swf.NumFields]string{"JobID", "Submit", "Submit, Start", "Start, End (or ElapsedRaw)",
	"AllocCPUS (or NCPUS)", "TotalCPU", "MaxRSS", "ReqCPUS", "Timelimit", "ReqMem", "State", "User", "Group",
	"", "QOS", "Partition", "", ""}

// sacctColumns holds the index of each known column, -1 when absent.
type sacctColumns struct {
	index map[string]int
	n     int
}

func (c *sacctColumns) at(name string) int {
	if i, ok := c.index[strings.ToLower(name)]; ok {
		return i
	}
	return -1
}

// sacctReader is the state of one conversion.
type sacctReader struct {
	cfg      Config
	cols     sacctColumns
	loc      *time.Location
	acct     Accounting
	jobs     []pending
	explicit map[string]int // job ids that have a line of their own: that line
	// arrayLines are lines for several never-started array tasks, added last.
	arrayLines []arrayLine
	// requeuedSubmit is the earliest Submit of each job id's REQUEUED
	// lines (sacct --duplicates): the job's real submit time.
	requeuedSubmit map[string]int64
	// requeuedRuns are each job id's REQUEUED lines, the runs before a
	// requeue (in requeuedOrder, the order their ids first came in), and
	// runKey the key under which the step lines that follow a job line
	// are credited: its id, or for a REQUEUED line the run's own key, so
	// that each run gets its own steps.
	requeuedRuns  map[string][]requeuedRun
	requeuedOrder []string
	runKey        map[string]string
	stepCPU       map[string]float64
	stepRSS       map[string]int64
	// stepLines counts the step lines of each job id, jobLines the job ids
	// with a line of their own (any state): a step whose job has none is
	// skipped as a step without its job.
	stepLines map[string]int
	// skippedRun marks the job ids whose latest job line was skipped (not
	// finished, a requeued run with --duplicates, or with --lenient a
	// malformed line, such as a second line of a job): sacct prints a job's
	// steps right after its line, so the steps that follow belong to that
	// run and are skipped with it, not credited to another run of the id.
	// The value is the skip reason of those steps.
	skippedRun map[string]string
	jobLines   map[string]bool
	names      map[string]string // intern's copies
	jobCPU     []float64         // TotalCPU of the allocation line, seconds; -1 absent
	started    []bool
	alloc      []int64
	trailing   bool // --parsable: every line ends with '|'
	// Lines whose times are out of order, kept as given for --check and the
	// cleaning rules (wait_neg, run_neg): counts and the first line of each.
	startBeforeSubmit, endBeforeStart int
	firstEarlyStart, firstEarlyEnd    int
	// Lines whose ReqMem is per node (4000Mn) in a dump without the NNodes
	// column: field 10 is -1, and a warning says why.
	perNodeNoNodes, firstPerNodeNoNodes int
}

// ReadSacct converts the output of `sacct --parsable2` (with its header line) to
// SWF. One job per allocation line: step lines (ID.batch, ID.extern, ID.0, ...)
// only add their CPU time and memory to their job; array tasks (ID_N) and
// heterogeneous components (ID+N) are jobs of their own; a line for several
// never-started array tasks (ID_[2-4%1]) stands for each of them that has no
// line of its own (Slurm may still list a task that started). Jobs not
// finished at dump time (SacctUnfinished) are skipped and counted per state.
// A requeued job's earlier runs (REQUEUED lines, sacct --duplicates) that
// started are its partial executions (status 2, then 3 or 4 for its last
// run; Preemption: Yes), each a record with the job's number and submit
// time (applyRequeuedRuns).
//
// Fields: 3 and 4 from Submit, Start, End (ElapsedRaw when End is unknown); 5
// AllocCPUS (or NCPUS) when the job started, else -1; 6 TotalCPU (the job's, or
// its steps' sum) / processors; 7 the largest MaxRSS x NTasks / AllocCPUS of
// its lines in KB per processor (MaxRSS alone without NTasks); 8
// ReqCPUS (else AllocCPUS); 9 Timelimit; 10 ReqMem in KB per requested
// processor (field 8, else AllocCPUS); 11 State
// (SacctStatus); 12, 13, 15, 16 User, Group, QOS, Partition names numbered in
// order of first appearance. A job that ended while pending (Start None, or
// Start = End with NodeList "None assigned": cancelled, or past its deadline)
// did not start: fields 3-6 are -1.
func ReadSacct(r io.Reader, cfg Config) (*Result, error) {
	s := &sacctReader{cfg: cfg, loc: cfg.location(), explicit: map[string]int{},
		stepCPU: map[string]float64{}, stepRSS: map[string]int64{}, stepLines: map[string]int{}, jobLines: map[string]bool{}, names: map[string]string{},
		skippedRun: map[string]string{}, requeuedSubmit: map[string]int64{}, requeuedRuns: map[string][]requeuedRun{},
		runKey: map[string]string{}}
	s.acct.Format, s.acct.File = "sacct", cfg.Name
	br := bufio.NewReaderSize(r, 64<<10)
	lineNo := 0
	for {
		line, err := br.ReadString('\n')
		if line == "" && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			// The reader's own error, as pkg/swf returns it: the
			// toolkit's readers (cmdio) and os.File name the file.
			return nil, err
		}
		complete := err == nil
		lineNo++
		s.acct.Lines++
		line = strings.TrimRight(line, "\r\n")
		if lineNo == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		if s.cols.index == nil {
			if strings.TrimSpace(line) == "" {
				s.acct.BlankLines++
				continue
			}
			if err := s.readHeader(line, lineNo); err != nil {
				return nil, err
			}
			s.acct.HeaderLines++
			continue
		}
		if strings.TrimSpace(line) == "" {
			s.acct.BlankLines++
			continue
		}
		if perr := s.readLine(line, lineNo, complete); perr != nil {
			if !cfg.Lenient {
				return nil, perr
			}
			s.acct.Malformed++
			if len(s.acct.FirstErrors) < MaxKeptErrors {
				s.acct.FirstErrors = append(s.acct.FirstErrors, perr.Error())
			}
		}
		if err == io.EOF {
			break
		}
	}
	if s.cols.index == nil {
		return nil, lineError(cfg.Name, 1, "", ErrHeaderLine, "empty input: expected the header line of `sacct --parsable2` (JobID|Submit|...)")
	}
	if perr := s.addArrayLines(); perr != nil {
		return nil, perr
	}
	s.skipOrphanSteps()
	s.fillFromSteps()
	requeued, parts := s.applyRequeuedRuns()
	notes := []string{fmt.Sprintf("sacct times read as local time in %s; field 6 = TotalCPU / processors; "+
		"field 7 = the largest MaxRSS x NTasks / AllocCPUS of the job's lines (MaxRSS alone on a line without NTasks); field 10 = ReqMem per requested processor (field 8); "+
		"queue numbers are QOS names, partition numbers partition names (Queue and Partition lines); "+
		"user and group numbers are names in order of first appearance", s.loc)}
	if requeued > 0 {
		notes = append(notes, fmt.Sprintf("requeued jobs: %d; their submit time is their first run's (the Submit of "+
			"their first REQUEUED line: Slurm resets it at a requeue); each run that ended in a requeue (a REQUEUED line "+
			"of sacct --duplicates that started: %d) is written as a partial execution, status 2, with its job's number "+
			"and submit time (Preemption: Yes), and the job's last run with status 3 when it completed, else 4 (failed, "+
			"timed out or cancelled); each part's wait counts from the job's submit; swfclean --rules default,merge_partial "+
			"makes one record of each job", requeued, parts))
	}
	var warnings []string
	for _, w := range []struct {
		n, line int
		what    string
	}{{s.startBeforeSubmit, s.firstEarlyStart, "Start before Submit (a negative wait)"},
		{s.endBeforeStart, s.firstEarlyEnd, "End before Start (a negative run time)"}} {
		if w.n > 0 {
			warnings = append(warnings, fmt.Sprintf("%d job lines have %s, first line %d: kept as given, for --check "+
				"(wait_neg, run_neg) and the cleaning rules", w.n, w.what, w.line))
		}
	}
	if s.perNodeNoNodes > 0 {
		warnings = append(warnings, fmt.Sprintf("%d job lines have ReqMem per node (such as 4000Mn), first line %d, but the dump "+
			"has no NNodes column: their field 10 is -1 (unknown); add NNodes to sacct's --format", s.perNodeNoNodes, s.firstPerNodeNoNodes))
	}
	res, err := finish("sacct", cfg, s.jobs, s.acct, append(notes, warnings...), &sacctFieldColumns)
	if res != nil {
		res.Warnings = append(res.Warnings, warnings...)
	}
	return res, err
}

// readHeader reads the column names.
func (s *sacctReader) readHeader(line string, lineNo int) error {
	name := s.cfg.Name
	if !strings.Contains(line, "|") {
		fields := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == '\t' || r == ';' || r == ' ' })
		if len(fields) > 0 && looksLikeJobID(fields[0]) {
			return lineError(name, lineNo, "", ErrHeaderLine,
				"expected the header line of `sacct --parsable2` (column names such as JobID|Submit|State), got a job line %q: run sacct without --noheader", shortText(line))
		}
		for _, d := range []struct{ sep, name string }{{",", "commas"}, {"\t", "tabs"}, {";", "semicolons"}, {" ", "spaces"}} {
			if strings.Contains(line, d.sep) && strings.Contains(strings.ToLower(line), "jobid") {
				return lineError(name, lineNo, "", ErrDelimiter,
					"the columns are separated by %s, not '|': dump with `sacct --parsable2` (or --delimiter='|')", d.name)
			}
		}
		return lineError(name, lineNo, "", ErrHeaderLine,
			"expected the header line of `sacct --parsable2` (column names such as JobID|Submit|State), got %q", shortText(line))
	}
	cols := strings.Split(line, "|")
	if cols[len(cols)-1] == "" {
		s.trailing = true // sacct --parsable ends every line with '|'
		cols = cols[:len(cols)-1]
	}
	if len(cols) > 0 && looksLikeJobID(cols[0]) {
		return lineError(name, lineNo, "", ErrHeaderLine,
			"expected the header line of `sacct --parsable2` (column names such as JobID|Submit|State), got a job line: run sacct without --noheader")
	}
	s.cols = sacctColumns{index: map[string]int{}, n: len(cols)}
	used := map[string]string{} // the columns the conversion reads, by lower-case name
	for _, c := range append(append([]string{"AllocCPUS", "NCPUS"}, SacctRequired...), SacctOptional...) {
		used[strings.ToLower(c)] = c
	}
	for i, c := range cols {
		key := strings.ToLower(strings.TrimSpace(c))
		prev, dup := s.cols.index[key]
		if !dup {
			s.cols.index[key] = i
			continue
		}
		// Which of the two to read would be a guess; a column the
		// conversion does not read may come twice.
		if name, ok := used[key]; ok {
			return lineError(s.cfg.Name, lineNo, name, ErrHeaderLine,
				"twice in the header (columns %d and %d): list each column once in sacct's --format", prev+1, i+1)
		}
	}
	var missing []string
	for _, c := range SacctRequired {
		if s.cols.at(c) < 0 {
			missing = append(missing, c)
		}
	}
	if s.cols.at("AllocCPUS") < 0 && s.cols.at("NCPUS") < 0 {
		missing = append(missing, "AllocCPUS (or NCPUS)")
	}
	if len(missing) > 0 {
		return lineError(name, lineNo, "", ErrMissingColumn,
			"the header lacks the column(s) %s: dump with the --format of docs/swfclean.md", strings.Join(missing, ", "))
	}
	return nil
}

func looksLikeJobID(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

func shortText(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// sacctLine is one split line with its position, for column errors.
type sacctLine struct {
	s      *sacctReader
	fields []string
	lineNo int
}

func (l *sacctLine) get(col string) (string, bool) {
	i := l.s.cols.at(col)
	if i < 0 {
		return "", false
	}
	return strings.TrimSpace(l.fields[i]), true
}

func (l *sacctLine) err(col string, e error, format string, args ...any) *swf.ParseError {
	return lineError(l.s.cfg.Name, l.lineNo, col, e, format, args...)
}

// readLine converts one line: an allocation (a job), a step, or a skipped job.
func (s *sacctReader) readLine(line string, lineNo int, complete bool) *swf.ParseError {
	fields := strings.Split(line, "|")
	if s.trailing && len(fields) > 0 && fields[len(fields)-1] == "" {
		fields = fields[:len(fields)-1]
	}
	l := &sacctLine{s: s, fields: fields, lineNo: lineNo}
	switch {
	case len(fields) > s.cols.n:
		return lineError(s.cfg.Name, lineNo, "", ErrColumnCount,
			"%d columns, the header has %d: a value contains '|' (a job name? leave JobName out of --format, or use --delimiter with a character no name holds)",
			len(fields), s.cols.n)
	case len(fields) < s.cols.n && !complete:
		return lineError(s.cfg.Name, lineNo, "", ErrTruncated,
			"the last line ends after %d of %d columns, without a newline: the dump was cut short", len(fields), s.cols.n)
	case !complete:
		// sacct ends every line with a newline, so a last line without one
		// was cut, possibly inside its last value ("4G" of "4Gn"), which no
		// column count can tell.
		return lineError(s.cfg.Name, lineNo, "", ErrTruncated,
			"the last line has no newline: the dump was cut short, possibly inside its last value (sacct ends every line with a newline)")
	case len(fields) < s.cols.n:
		return lineError(s.cfg.Name, lineNo, "", ErrColumnCount, "%d columns, the header has %d", len(fields), s.cols.n)
	}
	id, _ := l.get("JobID")
	// The id outlives the line (the job, the maps by id): a copy, so that
	// the line's text is not kept with it.
	id = strings.Clone(id)
	base, step, ok := splitJobID(id)
	if !ok {
		return l.err("JobID", ErrValue, "expected a Slurm job id (123, 123_4, 123_[1-3], 123+0, optionally .step), got %q", id)
	}
	if step != "" {
		return s.readStep(l, base)
	}
	if perr := s.readJobLine(l, id, base); perr != nil {
		// Skipped as malformed with --lenient: the steps after it are its
		// own, not those of an earlier line of the id (a job listed twice).
		s.skippedRun[base] = stepOfMalformed
		return perr
	}
	return nil
}

// Skip reasons of the step lines that follow a skipped job line.
const (
	stepOfSkipped   = "step of a skipped job line"
	stepOfMalformed = "step of a malformed job line"
)

// readJobLine reads a job line (not a step): a job, array tasks, or a skipped
// unfinished job.
func (s *sacctReader) readJobLine(l *sacctLine, id, base string) *swf.ParseError {
	lineNo := l.lineNo
	s.jobLines[base] = true
	state, _ := l.get("State")
	word, _, _ := strings.Cut(state, " ") // "CANCELLED by 1002"
	word = strings.TrimSuffix(word, "+")
	status, finished := SacctStatus[word]
	if !finished {
		if !containsString(SacctUnfinished, word) {
			return l.err("State", ErrState, "unknown Slurm job state %q (expected one of COMPLETED, FAILED, TIMEOUT, CANCELLED, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE, PREEMPTED, or an unfinished state such as PENDING, RUNNING)", state)
		}
		if word == "REQUEUED" {
			delete(s.skippedRun, base)
			return s.readRequeuedRun(l, id)
		}
		s.skippedRun[base] = stepOfSkipped
		s.acct.skip(word + " (not finished)")
		return nil
	}
	delete(s.skippedRun, base)
	delete(s.runKey, base)
	if prev := s.explicit[id]; prev > 0 {
		return l.err("JobID", ErrValue, "job %s is also on line %d: sacct prints a job once (two dumps of overlapping periods put together?)", id, prev)
	}
	p, cpu, alloc, started, perr := s.readJob(l, id, status, word)
	if perr != nil {
		return perr
	}
	tasks, perr := expandArray(l, id)
	if perr != nil {
		return perr
	}
	s.countOutOfOrder(p, started, lineNo)
	if v, _ := l.get("ReqMem"); strings.HasSuffix(v, "n") && p.job.RequestedMemory < 0 && s.cols.at("NNodes") < 0 {
		if s.perNodeNoNodes == 0 {
			s.firstPerNodeNoNodes = lineNo
		}
		s.perNodeNoNodes++
	}
	s.acct.JobLines++
	if strings.Contains(id, "_[") {
		// Added at the end: Slurm may list a task here that also has a line of its own.
		s.arrayLines = append(s.arrayLines, arrayLine{tasks: tasks, job: p, cpu: cpu, alloc: alloc, started: started, line: lineNo})
		return nil
	}
	s.explicit[id] = lineNo
	s.add(p, id, cpu, alloc, started, lineNo, 0)
	return nil
}

// Skip reasons of REQUEUED job lines (sacct --duplicates: a run that ended
// in a requeue) that are not written as partial executions.
const (
	// SkipRequeuedRun: the job's last run is not written (not finished at
	// dump time, or not in the dump).
	SkipRequeuedRun = "REQUEUED (an earlier run of a job not written)"
	// SkipRequeuedUnstarted: the run never started.
	SkipRequeuedUnstarted = "REQUEUED (an earlier run of a requeued job that did not start)"
	// SkipRequeuedNotRestarted: the last line of a requeued job that ended
	// before it started again; its last run that started is written as its
	// last part.
	SkipRequeuedNotRestarted = "the last line of a requeued job that ended before it started again (its last run is its last part)"
)

// requeuedRun is one REQUEUED line: a run of a job before Slurm requeued it.
type requeuedRun struct {
	job     pending
	cpu     float64
	alloc   int64
	started bool
	key     string // the key of its steps (runKey)
}

// readRequeuedRun reads a REQUEUED line, a run of its job before a requeue,
// to be written as a partial execution of that job (applyRequeuedRuns) and
// to give the job its submit time: Slurm resets a requeued job's submit
// time to the requeue, and only this line (sacct --duplicates) still has the
// time the user submitted the job. The steps after it are this run's.
func (s *sacctReader) readRequeuedRun(l *sacctLine, id string) *swf.ParseError {
	p, cpu, alloc, started, perr := s.readJob(l, id, swf.StatusPartial, "REQUEUED")
	if perr != nil {
		return perr
	}
	if prev, ok := s.requeuedSubmit[id]; !ok || p.submit < prev {
		s.requeuedSubmit[id] = p.submit
	}
	runs := s.requeuedRuns[id]
	if len(runs) == 0 {
		s.requeuedOrder = append(s.requeuedOrder, id)
	}
	key := id + "#" + strconv.Itoa(len(runs)) // no job id holds '#'
	p.id, p.line = id, l.lineNo
	s.requeuedRuns[id] = append(runs, requeuedRun{job: p, cpu: cpu, alloc: alloc, started: started, key: key})
	s.runKey[id] = key
	s.jobLines[key] = true
	return nil
}

// applyRequeuedRuns gives each written job that has earlier REQUEUED runs
// the submit time of the first of them, so its wait counts from the real
// submit, and those of the runs that started as its parts (partial
// executions, status 2, in the order they started); the job's own line is
// its last part: status 3 when it completed, else 4. It returns how many
// written jobs had REQUEUED runs, and how many parts it added. A job id
// names one job in a dump (two finished lines of an id are an error), so a
// REQUEUED line of the id is an earlier run of that job, whichever line
// sacct printed first. The REQUEUED lines of a job not written, and those
// that never started, are skipped and counted, with their steps.
func (s *sacctReader) applyRequeuedRuns() (requeued, parts int) {
	written := map[string]bool{}
	for i := range s.jobs {
		p := &s.jobs[i]
		runs, ok := s.requeuedRuns[p.id]
		if !ok {
			continue
		}
		written[p.id] = true
		requeued++
		p.submit = min(p.submit, s.requeuedSubmit[p.id])
		for _, r := range runs {
			if !r.started {
				s.skipRun(r, SkipRequeuedUnstarted)
				continue
			}
			s.fillFields(&r.job, r.cpu, r.alloc, true, r.key)
			p.parts = append(p.parts, r.job)
			s.acct.JobLines++
		}
		if len(p.parts) == 0 {
			continue
		}
		sort.SliceStable(p.parts, func(a, b int) bool { return p.parts[a].start < p.parts[b].start })
		if !s.started[i] {
			// The job ended (cancelled, say) before it started again: its
			// last run that started is its last part, with the end the
			// job's line says (status 4, or its own status when it is the
			// only run: cancelled after it ran), and the line that never
			// ran adds nothing to write. Written as it was, it became a
			// last part without a run, which the default rules drop,
			// leaving a lone "to be continued" part.
			last := p.parts[len(p.parts)-1]
			p.parts = p.parts[:len(p.parts)-1]
			status := p.job.Status
			p.start, p.end, p.nodes, p.listLen, p.run, p.runSet = last.start, last.end, last.nodes, last.listLen, last.run, last.runSet
			p.job = last.job
			s.acct.JobLines--
			s.acct.skip(SkipRequeuedNotRestarted)
			if len(p.parts) == 0 {
				p.job.Status = status
				continue
			}
		}
		parts += len(p.parts)
		if p.job.Status == swf.StatusCompleted {
			p.job.Status = swf.StatusLastOK
		} else {
			p.job.Status = swf.StatusLastFail
		}
	}
	for _, id := range s.requeuedOrder {
		if written[id] {
			continue
		}
		for _, r := range s.requeuedRuns[id] {
			s.skipRun(r, SkipRequeuedRun)
		}
	}
	s.acct.Parts = parts
	return requeued, parts
}

// skipRun counts a REQUEUED line that is not written, and its steps.
func (s *sacctReader) skipRun(r requeuedRun, reason string) {
	s.acct.skip(reason)
	n := s.stepLines[r.key]
	s.acct.StepLines -= n
	for range n {
		s.acct.skip(stepOfSkipped)
	}
}

// countOutOfOrder counts a job line, read without an error, whose Start is
// before its Submit or whose End is before its Start.
func (s *sacctReader) countOutOfOrder(p pending, started bool, lineNo int) {
	if started && p.start < p.submit {
		if s.startBeforeSubmit == 0 {
			s.firstEarlyStart = lineNo
		}
		s.startBeforeSubmit++
	}
	if started && p.end >= 0 && p.end < p.start {
		if s.endBeforeStart == 0 {
			s.firstEarlyEnd = lineNo
		}
		s.endBeforeStart++
	}
}

// arrayLine is one line for several array tasks that never started (ID_[2-4%1]).
type arrayLine struct {
	tasks   []string
	job     pending
	cpu     float64
	alloc   int64
	started bool
	line    int
}

func (s *sacctReader) add(p pending, id string, cpu float64, alloc int64, started bool, line, k int) {
	p.id, p.line = id, line
	// File order, then task order within a line (k < MaxArrayTasks).
	p.order = int64(line)*MaxArrayTasks + int64(k)
	s.jobs = append(s.jobs, p)
	s.jobCPU = append(s.jobCPU, cpu)
	s.started = append(s.started, started)
	s.alloc = append(s.alloc, alloc)
}

// addArrayLines adds the tasks of the array lines that have no line of their own.
// A task that an earlier array line stands for already is an error (two dumps
// put together?), or with --lenient the later line is skipped as malformed.
func (s *sacctReader) addArrayLines() *swf.ParseError {
	fromLine := map[string]int{} // task -> the array line that stands for it
	for _, a := range s.arrayLines {
		if perr := s.arrayOverlap(a, fromLine); perr != nil {
			if !s.cfg.Lenient {
				return perr
			}
			s.acct.JobLines--
			s.acct.Malformed++
			if len(s.acct.FirstErrors) < MaxKeptErrors {
				s.acct.FirstErrors = append(s.acct.FirstErrors, perr.Error())
			}
			continue
		}
		kept := 0
		for k, task := range a.tasks {
			if s.explicit[task] > 0 {
				continue
			}
			s.explicit[task] = a.line
			s.add(a.job, task, a.cpu, a.alloc, a.started, a.line, k)
			kept++
		}
		switch {
		case kept == 0:
			s.acct.JobLines--
			s.acct.skip("array line whose tasks all have lines of their own")
		case kept > 1:
			s.acct.ExpandedLines++
		}
	}
	return nil
}

// arrayOverlap records the tasks of array line a in fromLine, or, when one of
// them is listed twice in a or stands in an earlier array line already, returns
// the error and leaves fromLine as it was: sacct prints each pending task once.
func (s *sacctReader) arrayOverlap(a arrayLine, fromLine map[string]int) *swf.ParseError {
	for i, task := range a.tasks {
		prev := fromLine[task]
		if prev == 0 {
			fromLine[task] = a.line
			continue
		}
		for _, t := range a.tasks[:i] {
			if fromLine[t] == a.line {
				delete(fromLine, t)
			}
		}
		if prev == a.line {
			return lineError(s.cfg.Name, a.line, "JobID", ErrValue, "array task %s is listed twice in the line's task list", task)
		}
		return lineError(s.cfg.Name, a.line, "JobID", ErrValue,
			"array task %s is also in the array line on line %d: sacct prints a pending task once (two dumps of overlapping periods put together?)", task, prev)
	}
	return nil
}

// readJob reads an allocation line's columns into a pending job. cpu is the
// line's TotalCPU in seconds (-1 absent), alloc its processors.
func (s *sacctReader) readJob(l *sacctLine, id string, status int64, state string) (p pending, cpu float64, alloc int64, started bool, perr *swf.ParseError) {
	p.job = swf.Job{AverageCPUTime: -1, UsedMemory: -1, RequestedTime: -1, RequestedMemory: -1,
		Executable: -1, PrecedingJob: -1, ThinkTime: -1, Status: status,
		UserID: -1, GroupID: -1, Queue: -1, Partition: -1}
	p.nodes = -1
	var err *swf.ParseError
	if p.submit, p.start, p.end, err = l.readTimes(); err != nil {
		return p, 0, 0, false, err
	}
	if p.submit < 0 {
		return p, 0, 0, false, l.err("Submit", ErrValue, "a finished job without a submit time")
	}
	nodeList, hasNodeList := l.get("NodeList")
	// Ended while pending: Slurm may write the time it gave up on the job as
	// its start and end. A job without nodes never ran, whatever its state
	// (CANCELLED, or DEADLINE when the controller found its deadline could
	// not be met as it became eligible); without NodeList, a cancelled or
	// deadline job with Start = End is taken as never started.
	if p.start >= 0 && p.start == p.end &&
		(hasNodeList && strings.HasPrefix(nodeList, "None") || !hasNodeList && (state == "CANCELLED" || state == "DEADLINE")) {
		p.start = -1
	}
	started = p.start >= 0
	if !started {
		p.end = -1
	}
	if started && p.end < 0 {
		if v, ok := l.get("ElapsedRaw"); ok && v != "" {
			e, perr := l.int("ElapsedRaw", v, swf.MaxTime, timeBound)
			if perr != nil {
				return p, 0, 0, false, perr
			}
			p.end = p.start + e
		}
	}
	col := "AllocCPUS"
	v, ok := l.get(col)
	if !ok {
		col = "NCPUS"
		v, _ = l.get(col)
	}
	if alloc, err = l.int(col, v, swf.MaxProcessors, procsBound); err != nil {
		return p, 0, 0, false, err
	}
	p.job.AllocatedProcs, p.job.RequestedProcs = -1, alloc
	if started {
		p.job.AllocatedProcs = alloc
	}
	if v, ok := l.get("ReqCPUS"); ok && v != "" {
		if p.job.RequestedProcs, err = l.int("ReqCPUS", v, swf.MaxProcessors, procsBound); err != nil {
			return p, 0, 0, false, err
		}
	}
	nodes := int64(-1) // for ReqMem per node, whether or not the job started
	if v, ok := l.get("NNodes"); ok && v != "" {
		if nodes, err = l.int("NNodes", v, swf.MaxProcessors, procsBound); err != nil {
			return p, 0, 0, false, err
		}
		if started {
			p.nodes = nodes
		}
	}
	if v, ok := l.get("Timelimit"); ok && v != "" {
		if p.job.RequestedTime, err = l.limit("Timelimit", v); err != nil {
			return p, 0, 0, false, err
		}
	}
	if v, ok := l.get("ReqMem"); ok && v != "" {
		// Per requested processor (field 8), as Alea's field 10 is: the
		// request is the user's, whatever the allocation turned out to be.
		procs := p.job.RequestedProcs
		if procs <= 0 {
			procs = alloc
		}
		if p.job.RequestedMemory, err = l.reqMem(v, procs, nodes); err != nil {
			return p, 0, 0, false, err
		}
	}
	cpu = -1
	if v, ok := l.get("TotalCPU"); ok && v != "" {
		secs, perr := l.duration("TotalCPU", v)
		if perr != nil {
			return p, 0, 0, false, perr
		}
		cpu = secs
	}
	if v, ok := l.get("MaxRSS"); ok && v != "" {
		kb, perr := l.memKB("MaxRSS", v)
		if perr != nil {
			return p, 0, 0, false, perr
		}
		if p.job.UsedMemory, perr = l.rssPerProcessor(kb); perr != nil {
			return p, 0, 0, false, perr
		}
	}
	if v, ok := l.get("ExitCode"); ok && v != "" {
		if perr := l.exitCode(v); perr != nil {
			return p, 0, 0, false, perr
		}
	}
	// Names repeat from job to job: one copy of each, so that no job keeps
	// its line's text.
	p.user = s.intern(l.get("User"))
	p.group = s.intern(l.get("Group"))
	p.queue = s.intern(l.get("QOS"))
	p.partition = s.intern(l.get("Partition"))
	return p, cpu, alloc, started, nil
}

// intern returns the one copy of name that the jobs share (name as get
// returns it; "" when absent).
func (s *sacctReader) intern(name string, _ bool) string {
	if v, ok := s.names[name]; ok {
		return v
	}
	v := strings.Clone(name)
	s.names[v] = v
	return v
}

// readStep adds a step line's CPU time and memory to its job; a malformed step
// line adds nothing.
func (s *sacctReader) readStep(l *sacctLine, base string) *swf.ParseError {
	if reason, ok := s.skippedRun[base]; ok {
		s.acct.skip(reason)
		return nil
	}
	if key, ok := s.runKey[base]; ok {
		base = key // a step of a run before a requeue
	}
	var cpu float64
	v, hasCPU := l.get("TotalCPU")
	if hasCPU = hasCPU && v != ""; hasCPU {
		secs, err := l.duration("TotalCPU", v)
		if err != nil {
			return err
		}
		if cpu = s.stepCPU[base] + secs; cpu > swf.MaxTime {
			return l.err("TotalCPU", ErrRange, "the TotalCPU of job %s's steps adds up to %.0f s, beyond %s", base, cpu, timeBound)
		}
	}
	rss := int64(-1)
	if v, ok := l.get("MaxRSS"); ok && v != "" {
		kb, err := l.memKB("MaxRSS", v)
		if err != nil {
			return err
		}
		if rss, err = l.rssPerProcessor(kb); err != nil {
			return err
		}
	}
	if hasCPU {
		s.stepCPU[base] = cpu
	}
	if rss >= 0 {
		s.stepRSS[base] = max(s.stepRSS[base], rss)
	}
	s.acct.StepLines++
	s.stepLines[base]++
	return nil
}

// skipOrphanSteps moves the step lines of jobs without a line of their own
// (a dump cut between a job and its steps, or a job left out by sacct's
// filters) from the step lines to a skip reason of their own.
func (s *sacctReader) skipOrphanSteps() {
	for base, n := range s.stepLines {
		if s.jobLines[base] || s.explicit[base] > 0 {
			continue
		}
		s.acct.StepLines -= n
		for range n {
			s.acct.skip("step without its job")
		}
	}
}

// fillFromSteps completes fields 6 and 7 from the step lines.
func (s *sacctReader) fillFromSteps() {
	for i := range s.jobs {
		s.fillFields(&s.jobs[i], s.jobCPU[i], s.alloc[i], s.started[i], s.jobs[i].id)
	}
}

// fillFields completes fields 6 and 7 of one run from its line's TotalCPU
// (cpu, -1 absent) and the steps credited to key.
func (s *sacctReader) fillFields(p *pending, cpu float64, alloc int64, started bool, key string) {
	if !started {
		p.job.AverageCPUTime, p.job.UsedMemory = -1, -1
		return
	}
	if steps, ok := s.stepCPU[key]; ok && cpu <= 0 {
		cpu = steps
	}
	if cpu >= 0 && alloc > 0 {
		p.job.AverageCPUTime = math.Round(cpu/float64(alloc)*1000) / 1000
	}
	if rss, ok := s.stepRSS[key]; ok {
		p.job.UsedMemory = max(p.job.UsedMemory, rss)
	}
}

// splitJobID splits "123_4.batch" into the allocation id "123_4" and the step
// "batch". ok is false for an id that is not Slurm's.
func splitJobID(id string) (base, step string, ok bool) {
	base, step, _ = strings.Cut(id, ".")
	if base == "" || base[0] < '0' || base[0] > '9' {
		return "", "", false
	}
	i := 0
	for i < len(base) && base[i] >= '0' && base[i] <= '9' {
		i++
	}
	rest := base[i:]
	switch {
	case rest == "":
	case rest[0] == '_' && len(rest) > 1 && (allDigits(rest[1:]) || rest[1] == '[' && rest[len(rest)-1] == ']'):
	case rest[0] == '+' && allDigits(rest[1:]):
	default:
		return "", "", false
	}
	if strings.Contains(id, ".") && step == "" {
		return "", "", false
	}
	return base, step, true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// MaxArrayTasks is the most array tasks one sacct line may stand for: Slurm's
// largest MaxArraySize (task ids 0 to 4,000,000).
const MaxArrayTasks = 4_000_001

// expandArray lists the jobs a line stands for: itself, or for "123_[2-4,7%2]"
// (array tasks that never started, printed as one line) 123_2, 123_3, 123_4, 123_7.
func expandArray(l *sacctLine, id string) ([]string, *swf.ParseError) {
	open := strings.Index(id, "_[")
	if open < 0 {
		return []string{id}, nil
	}
	master, spec := id[:open], strings.TrimSuffix(id[open+2:], "]")
	spec, _, _ = strings.Cut(spec, "%") // the throttle
	var out []string
	for _, part := range strings.Split(spec, ",") {
		rng, stepText, hasStep := strings.Cut(part, ":")
		lo, hi, isRange := strings.Cut(rng, "-")
		// int64, not int: a task id beyond 32 bits is out of Slurm's range
		// (below), not malformed, on every platform.
		a, err1 := strconv.ParseInt(lo, 10, 64)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.ParseInt(hi, 10, 64)
		}
		step, err3 := int64(1), error(nil)
		if hasStep {
			step, err3 = strconv.ParseInt(stepText, 10, 64)
		}
		if err1 != nil || err2 != nil || err3 != nil || a < 0 || b < a || step < 1 {
			return nil, l.err("JobID", ErrValue, "malformed array task list %q in %q", part, id)
		}
		if b > MaxArrayTasks-1 {
			return nil, l.err("JobID", ErrRange, "array task %d in %q is beyond %d, the largest task id Slurm allows (MaxArraySize %d)", b, shortText(id), MaxArrayTasks-1, MaxArrayTasks)
		}
		// a <= b <= MaxArrayTasks-1 and step >= 1: nothing below overflows.
		n := (b-a)/step + 1
		if n > int64(MaxArrayTasks-len(out)) {
			return nil, l.err("JobID", ErrRange, "%q stands for more than %d array tasks, the most Slurm allows in one array (MaxArraySize)", shortText(id), MaxArrayTasks)
		}
		for k := range n {
			out = append(out, master+"_"+strconv.FormatInt(a+k*step, 10))
		}
	}
	return out, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// times reads a sacct time (Unknown, None or empty are unknown: -1) and also
// returns its second reading
// when the local time occurs twice (the hour repeated when summer time ends);
// alt == first otherwise.
func (l *sacctLine) times(col string) (first, alt int64, perr *swf.ParseError) {
	v, _ := l.get(col)
	switch v {
	case "", "Unknown", "None":
		return -1, -1, nil
	}
	t, err := time.ParseInLocation(SacctTimeLayout, v, l.s.loc)
	if u, uerr := time.Parse(SacctTimeLayout, v); err != nil || uerr != nil || u.Format(SacctTimeLayout) != v {
		// Go's parser also takes a fractional second and a one-digit hour,
		// which sacct never prints: not its form (in UTC, no gap moves it).
		return 0, 0, l.err(col, ErrValue, "expected a time YYYY-MM-DDTHH:MM:SS (or Unknown, None), got %q", v)
	}
	if t.Format(SacctTimeLayout) != v {
		// Go moves a local time in a summer-time gap by the gap; sacct never prints one.
		return 0, 0, l.err(col, ErrValue, "%s does not exist in the time zone %s (the clocks skipped it): is --timezone the zone of the machine sacct ran on?", v, l.s.loc)
	}
	if t.Unix() < 0 {
		// Slurm stores Unix times and prints 0 as Unknown or None; an earlier
		// time is no time of a job (and -1 would read as unknown).
		return 0, 0, l.err(col, ErrRange, "%s is out of range: expected a time from 1970-01-01T00:00:00 UTC on", v)
	}
	first, alt = t.Unix(), t.Unix()
	for _, d := range []time.Duration{-time.Hour, -30 * time.Minute, 30 * time.Minute, time.Hour} {
		if u := t.Add(d); u.Format(SacctTimeLayout) == v {
			alt = u.Unix()
			if alt < first {
				first, alt = alt, first
			}
			break
		}
	}
	return first, alt, nil
}

// readTimes reads Submit, Start and End. A time in the repeated hour when
// summer time ends is read as the occurrence that makes End - Start equal
// ElapsedRaw (when the line has it: a job that ran from 01:50 to the second
// 02:10 ran 80 minutes), else as its first occurrence, unless only its second
// keeps submit <= start <= end (a job that started at 01:50 and ended at
// 01:10 ran across the change of time).
func (l *sacctLine) readTimes() (submit, start, end int64, perr *swf.ParseError) {
	var first, alt [3]int64
	for i, col := range []string{"Submit", "Start", "End"} {
		if first[i], alt[i], perr = l.times(col); perr != nil {
			return 0, 0, 0, perr
		}
	}
	elapsed := int64(-1) // read where it is needed (readJob), which reports a bad one
	if v, ok := l.get("ElapsedRaw"); ok && (alt[1] != first[1] || alt[2] != first[2]) {
		if e, err := strconv.ParseInt(v, 10, 64); err == nil {
			elapsed = e
		}
	}
	// Masks in increasing order prefer first occurrences; a time that occurs
	// once has alt == first, so its bit changes nothing.
	for pass := range 2 {
		for mask := range 8 {
			var t [3]int64
			for i := range t {
				t[i] = first[i]
				if mask&(1<<i) != 0 {
					t[i] = alt[i]
				}
			}
			ordered := (t[1] < 0 || t[0] <= t[1]) && (t[1] < 0 || t[2] < 0 || t[1] <= t[2])
			if ordered && (pass == 1 || elapsed >= 0 && t[1] >= 0 && t[2] >= 0 && t[2]-t[1] == elapsed) {
				return t[0], t[1], t[2], nil
			}
		}
	}
	return first[0], first[1], first[2], nil
}

// int reads a whole number of at most limit (bound says which bound it is).
func (l *sacctLine) int(col, v string, limit int64, bound string) (int64, *swf.ParseError) {
	n, err := strconv.ParseInt(v, 10, 64)
	switch {
	case err == nil && n > limit, errors.Is(err, strconv.ErrRange) && n > 0:
		return 0, l.err(col, ErrRange, "%q is beyond %s", v, bound)
	case err != nil || n < 0:
		return 0, l.err(col, ErrValue, "expected a whole number, got %q", v)
	}
	return n, nil
}

// limit reads Timelimit: UNLIMITED, Partition_Limit (no limit of the job's own)
// INVALID and NONE are -1; else [D-]HH:MM:SS, MM:SS or minutes.
func (l *sacctLine) limit(col, v string) (int64, *swf.ParseError) {
	switch v {
	case "UNLIMITED", "Partition_Limit", "INVALID", "NONE":
		return -1, nil
	}
	secs, ok := parseDuration(v, true)
	if !ok {
		return 0, l.err(col, ErrValue, "expected UNLIMITED, Partition_Limit, INVALID, NONE, [D-]HH:MM:SS, MM:SS or minutes, got %q", v)
	}
	if secs > swf.MaxTime {
		return 0, l.err(col, ErrRange, "%q is beyond %s", v, timeBound)
	}
	return int64(math.Round(secs)), nil
}

// duration reads TotalCPU: [D-][HH:]MM:SS[.mmm].
func (l *sacctLine) duration(col, v string) (float64, *swf.ParseError) {
	secs, ok := parseDuration(v, false)
	if !ok {
		return 0, l.err(col, ErrValue, "expected a duration [D-][HH:]MM:SS[.mmm], got %q", v)
	}
	if secs > swf.MaxTime {
		return 0, l.err(col, ErrRange, "%q is beyond %s", v, timeBound)
	}
	return secs, nil
}

// parseDuration reads Slurm's durations: D-HH:MM:SS, D-HH:MM, D-HH, HH:MM:SS,
// MM:SS, and a bare number (minutes when bareMinutes, else seconds). Seconds may
// have a fraction. Hours after days are below 24, minutes and seconds after the
// first component below 60.
func parseDuration(v string, bareMinutes bool) (float64, bool) {
	days, hasDays := 0.0, false
	if d, rest, ok := strings.Cut(v, "-"); ok {
		n, err := strconv.ParseUint(d, 10, 32)
		if err != nil {
			return 0, false
		}
		days, v, hasDays = float64(n), rest, true
	}
	parts := strings.Split(v, ":")
	nums := make([]float64, len(parts))
	for i, p := range parts {
		last := i == len(parts)-1
		if p == "" || strings.ContainsAny(p, "+-eE") || (!last && strings.Contains(p, ".")) {
			return 0, false
		}
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
			return 0, false
		}
		nums[i] = f
	}
	// Slurm carries over: after the first component, minutes and seconds are
	// below 60, and after "D-" the hours below 24 (1-25:00:00 is printed as
	// 2-01:00:00). Without days the first component is unbounded: 36:00:00 is
	// unambiguous.
	for i := 1; i < len(nums); i++ {
		if nums[i] >= 60 {
			return 0, false
		}
	}
	if hasDays && nums[0] >= 24 {
		return 0, false
	}
	var secs float64
	switch {
	case hasDays:
		// after "D-" (also "0-"): HH, HH:MM or HH:MM:SS
		if len(nums) > 3 {
			return 0, false
		}
		mult := []float64{3600, 60, 1}
		for i, n := range nums {
			secs += n * mult[i]
		}
	case len(nums) == 3:
		secs = nums[0]*3600 + nums[1]*60 + nums[2]
	case len(nums) == 2:
		secs = nums[0]*60 + nums[1]
	case len(nums) == 1 && bareMinutes:
		secs = nums[0] * 60
	case len(nums) == 1:
		secs = nums[0]
	default:
		return 0, false
	}
	return days*86400 + secs, true
}

// memKB reads a memory size (MaxRSS): a number with suffix K, M, G, T, P (powers
// of 1024), or without one in bytes (sacct --noconvert), in KB.
func (l *sacctLine) memKB(col, v string) (int64, *swf.ParseError) {
	kb, ok := parseMemKB(v, 1.0/1024)
	switch {
	case !ok:
		return 0, l.err(col, ErrValue, "expected a size such as 3236K, 1.5G or a number of bytes, got %q", v)
	case math.Round(kb) > MaxMemoryKB:
		return 0, l.err(col, ErrRange, "%q is beyond %s", v, memoryBound)
	}
	return int64(math.Round(kb)), nil
}

// parseMemKB reads a size with an optional K, M, G, T or P suffix, in KB; bare
// is the size in KB of one unit without a suffix.
func parseMemKB(v string, bare float64) (float64, bool) {
	if v == "" {
		return 0, false
	}
	mult, num := bare, v
	if i := strings.IndexByte("KMGTP", v[len(v)-1]); i >= 0 {
		mult, num = math.Pow(1024, float64(i)), v[:len(v)-1]
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) || strings.ContainsAny(num, "eE+-xXpP_") {
		return 0, false
	}
	return f * mult, true
}

// reqMem reads ReqMem in KB per processor. Slurm before 21.08 printed the memory
// per CPU (suffix c) or per node (suffix n); since 21.08 it prints the job's
// total without a suffix. A size without a unit letter is in MB (Slurm's unit).
func (l *sacctLine) reqMem(text string, procs, nodes int64) (int64, *swf.ParseError) {
	v, per := text, byte(0)
	if last := v[len(v)-1]; last == 'c' || last == 'n' {
		per, v = last, v[:len(v)-1]
	}
	kb, ok := parseMemKB(v, 1024)
	switch {
	case !ok:
		return 0, l.err("ReqMem", ErrValue, "expected a size such as 4000M, 2G, 4000Mc or 4000Mn, got %q", text)
	case math.Round(kb) > MaxMemoryKB:
		return 0, l.err("ReqMem", ErrRange, "%q is beyond %s", text, memoryBound)
	}
	switch per {
	case 'c':
	case 'n':
		if nodes <= 0 || procs <= 0 {
			return -1, nil
		}
		kb = kb * float64(nodes) / float64(procs)
	default:
		if procs <= 0 {
			return -1, nil
		}
		kb /= float64(procs)
	}
	if math.Round(kb) > MaxMemoryKB {
		return 0, l.err("ReqMem", ErrRange, "%q is %.0f KB per processor on %d nodes and %d processors, beyond %s", text, kb, nodes, procs, memoryBound)
	}
	return int64(math.Round(kb)), nil
}

// rssPerProcessor turns a line's MaxRSS (KB, the largest of its tasks) into
// KB per processor, SWF's field 7: MaxRSS x NTasks / the line's AllocCPUS (else
// NCPUS), as a step of 1 task on 4 CPUs (`sbatch -n1 -c4`, an OpenMP job)
// used its MaxRSS over 4 processors, not on each. Without NTasks, or a
// processor count, on the line, one task per processor is assumed: MaxRSS as
// it is.
func (l *sacctLine) rssPerProcessor(kb int64) (int64, *swf.ParseError) {
	v, ok := l.get("NTasks")
	if !ok || v == "" {
		return kb, nil
	}
	tasks, perr := l.int("NTasks", v, swf.MaxProcessors, procsBound)
	if perr != nil {
		return 0, perr
	}
	col := "AllocCPUS"
	c, ok := l.get(col)
	if !ok {
		col = "NCPUS"
		c, _ = l.get(col)
	}
	if c == "" {
		return kb, nil
	}
	cpus, perr := l.int(col, c, swf.MaxProcessors, procsBound)
	if perr != nil || cpus == 0 || tasks == 0 {
		return kb, perr
	}
	perProc := math.Round(float64(kb) * float64(tasks) / float64(cpus))
	if perProc > MaxMemoryKB {
		return 0, l.err("MaxRSS", ErrRange, "%d KB x %d tasks / %d processors is %.0f KB per processor, beyond %s", kb, tasks, cpus, perProc, memoryBound)
	}
	return int64(perProc), nil
}

// exitCode checks ExitCode's form CODE:SIGNAL, each 0 to 255. The state already says how the job
// ended, so the code is not written; a malformed one is a sign of a broken dump.
func (l *sacctLine) exitCode(v string) *swf.ParseError {
	code, sig, ok := strings.Cut(v, ":")
	if !ok || !allDigits(code) || !allDigits(sig) {
		return l.err("ExitCode", ErrValue, "expected CODE:SIGNAL such as 0:0 or 1:0, got %q", v)
	}
	// sacct prints the exit status and the signal of a wait status, a byte each.
	_, err1 := strconv.ParseUint(code, 10, 8)
	_, err2 := strconv.ParseUint(sig, 10, 8)
	if err1 != nil || err2 != nil {
		return l.err("ExitCode", ErrRange, "%q: expected an exit code and a signal of 0 to 255 each (a wait status's two bytes)", v)
	}
	return nil
}
