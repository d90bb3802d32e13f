package convert

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// AleaFields is the number of columns of an Alea line: the 18 SWF fields, the
// node list in braces, the queue name and the properties string.
const AleaFields = 21

// aleaBytesThreshold decides field 10's unit: read as KB, a median above 64 GiB
// per processor is implausible for any machine in a log, so the file is in bytes.
const aleaBytesThreshold = 64 << 20 // KB

// AleaPlaceholderMinJobs is the fewest job lines in which a field holding one
// value on every line is taken for a placeholder: in a handful of lines (a
// test, an excerpt, a run of alike jobs) a constant is as likely a real value.
const AleaPlaceholderMinJobs = 100

// ReadAlea converts the workload format of the Alea simulator, as MetaCentrum
// publishes it: per line the 18 SWF fields with Unix submit times and job ids
// from 0, then the node list of the job's processors in braces, the queue name,
// and the PBS properties string.
//
// Jobs are renumbered from 1 in submit order (the original id in jobid=),
// submit times become relative to the first (UnixStartTime). Field 10 is the
// job's requested memory, in bytes or in KB: the unit is decided from the whole
// file (bytes when, read as KB, the median per processor would exceed 64 GiB),
// and written as KB per processor, with a Note saying which unit was found. Queue
// names become queue numbers in order of first appearance (Queue lines and a
// Note). A field Alea's format does not use (aleaPlaceholderFields: CPU time,
// used memory, executable, partition, preceding job, think time) that holds one
// value on every line of a file of at least AleaPlaceholderMinJobs job lines is
// a placeholder, written -1 as the archive's converter does, with a Note;
// processors, times, limits, memory, status, user and group are always kept as
// given. The node list
// is kept as nodes=ID*COUNT,... (run-length) and the properties as props=TEXT.
func ReadAlea(r io.Reader, cfg Config) (*Result, error) {
	acct := Accounting{Format: "alea", File: cfg.Name}
	br := bufio.NewReaderSize(r, 64<<10)
	var jobs []pending
	var memory []float64               // field 10 as read, per job; -1 unknown
	mismatched, firstMismatch := 0, "" // node lists of another length than field 5
	type seenID struct {
		line int
		text string
	}
	// A job id is its numeric value (canonicalID), as field 17 finds the
	// job it names: "5" and "05" are one job, listed twice.
	seen := map[string]seenID{}
	queueNames := map[string]string{} // one copy of each queue name
	named := map[string]struct{}{}    // the node numbers the node lists name
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
		lineNo++
		acct.Lines++
		if strings.TrimSpace(line) == "" {
			acct.BlankLines++
			continue
		}
		p, mem, perr := aleaLine(cfg.Name, lineNo, line, err == nil)
		if perr == nil {
			if q, ok := queueNames[p.queue]; ok {
				p.queue = q
			} else {
				p.queue = strings.Clone(p.queue)
				queueNames[p.queue] = p.queue
			}
			id := canonicalID(p.id)
			if prev, dup := seen[id]; dup {
				as := ""
				if prev.text != p.id {
					as = fmt.Sprintf(" (as %s)", prev.text)
				}
				perr = lineError(cfg.Name, lineNo, aleaFieldNames[0], ErrValue,
					"job %s is also on line %d%s: a log lists a job once (two logs put together?)", p.id, prev.line, as)
			} else {
				seen[id] = seenID{lineNo, p.id}
			}
		}
		if perr != nil {
			if !cfg.Lenient {
				return nil, perr
			}
			acct.Malformed++
			if len(acct.FirstErrors) < MaxKeptErrors {
				acct.FirstErrors = append(acct.FirstErrors, perr.Error())
			}
			continue
		}
		acct.JobLines++
		// An empty list ({}) says nothing of a job that never started;
		// of one that ran on processors it contradicts field 5 too.
		if (p.listLen > 0 || p.start != -1) && p.job.AllocatedProcs > 0 && p.listLen != p.job.AllocatedProcs {
			if mismatched == 0 {
				firstMismatch = fmt.Sprintf("line %d, jobid=%s: %d entries for %d processors", lineNo, p.id, p.listLen, p.job.AllocatedProcs)
			}
			mismatched++
		}
		p.order = int64(len(jobs))
		jobs = append(jobs, p)
		memory = append(memory, mem)
		nameNodes(named, p.job.Extra)
	}
	cfg.nodesNamed = int64(len(named))
	var notes []string
	var warnings []string
	if mismatched > 0 {
		// Alea's node list has one entry per processor: a list of another
		// length contradicts field 5. Both are kept as the log gives them.
		w := fmt.Sprintf("%d jobs have a node list whose length is not their number of processors (field 5), first %s; both kept as given", mismatched, firstMismatch)
		notes = append(notes, w)
		warnings = append(warnings, w)
	}
	notes = append(notes, aleaMemory(jobs, memory))
	notes = append(notes, aleaPlaceholders(jobs)...)
	notes = append(notes, "queue numbers are Alea's queue names in order of first appearance (Queue lines); "+
		"nodes= is the job's node list (node*processors), props= its PBS properties")
	var columns [swf.NumFields]string
	copy(columns[:], aleaFieldNames[:])
	res, err := finish("alea", cfg, jobs, acct, notes, &columns)
	if res != nil {
		res.Warnings = append(res.Warnings, warnings...)
	}
	return res, err
}

var aleaFieldNames = [AleaFields]string{"1 (job id)", "2 (submit time)", "3 (wait time)", "4 (run time)",
	"5 (processors)", "6 (CPU time)", "7 (used memory)", "8 (requested processors)", "9 (requested time)",
	"10 (requested memory)", "11 (status)", "12 (user)", "13 (group)", "14 (executable)", "15 (queue)",
	"16 (partition)", "17 (preceding job)", "18 (think time)", "19 (node list)", "20 (queue name)", "21 (properties)"}

// aleaLine reads one line: the pending job and field 10 as read.
func aleaLine(file string, lineNo int, line string, complete bool) (pending, float64, *swf.ParseError) {
	var p pending
	tokens := strings.Fields(line)
	if len(tokens) != AleaFields {
		e, what := ErrColumnCount, ""
		if len(tokens) < AleaFields && !complete {
			e, what = ErrTruncated, " (the last line, without a newline: the file was cut short)"
		}
		return p, 0, lineError(file, lineNo, "", e,
			"%d columns, expected %d (18 SWF fields, {node list}, queue name, properties)%s", len(tokens), AleaFields, what)
	}
	if !complete {
		// As in a sacct dump: a last line without a newline was cut, maybe
		// inside its last column, the free-text properties
		// ("1:ppn=64:x86_64" cut to "1:ppn=6"), which no column count can
		// tell.
		return p, 0, lineError(file, lineNo, "", ErrTruncated,
			"the last line has no newline: the file was cut short, possibly inside its last column (the properties)")
	}
	var f [swf.NumFields]float64
	for i := 0; i < swf.NumFields; i++ {
		v, err := strconv.ParseFloat(tokens[i], 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || (i != 5 && v != math.Trunc(v)) {
			return p, 0, lineError(file, lineNo, aleaFieldNames[i], ErrValue, "expected a whole number, got %q", tokens[i])
		}
		if limit, bound := aleaBound(i + 1); math.Abs(v) > limit {
			return p, 0, lineError(file, lineNo, aleaFieldNames[i], ErrRange, "%q is beyond %s", tokens[i], bound)
		}
		f[i] = v
	}
	if f[1] < 0 {
		return p, 0, lineError(file, lineNo, aleaFieldNames[1], ErrValue, "expected a Unix time, got %q", tokens[1])
	}
	list := tokens[18]
	if len(list) < 2 || list[0] != '{' || list[len(list)-1] != '}' {
		return p, 0, lineError(file, lineNo, aleaFieldNames[18], ErrValue, "expected {node,node,...}, got %q", shortText(list))
	}
	nodes, ok := runLength(list[1 : len(list)-1])
	if !ok {
		return p, 0, lineError(file, lineNo, aleaFieldNames[18], ErrValue, "expected node numbers separated by commas, got %q", shortText(list))
	}
	// The id and the queue outlive the line: copies, so that the job does
	// not keep the line's text (the queue names are shared by ReadAlea).
	p.id, p.line = strings.Clone(tokens[0]), lineNo
	p.submit = int64(f[1])
	// Only -1 is unknown: another negative wait or run time is kept, for --check
	// to report (wait_neg, run_neg) and the cleaning rules to handle.
	// The two are independent fields: a known run time beside an unknown
	// wait is kept (the archive has logs without waits).
	p.start, p.end = -1, -1
	if f[2] != -1 {
		p.start = p.submit + int64(f[2])
		if f[3] != -1 {
			p.end = p.start + int64(f[3])
		}
	} else if f[3] != -1 {
		p.run, p.runSet = int64(f[3]), true
	}
	p.nodes = -1 // unknown without a node list
	if inner := list[1 : len(list)-1]; inner != "" {
		distinct := map[string]bool{}
		for _, n := range strings.Split(inner, ",") {
			distinct[n] = true
			p.listLen++
		}
		p.nodes = int64(len(distinct))
	}
	p.queue = tokens[19]
	p.job = swf.Job{AllocatedProcs: int64(f[4]), AverageCPUTime: f[5], UsedMemory: int64(f[6]),
		RequestedProcs: int64(f[7]), RequestedTime: int64(f[8]), RequestedMemory: -1,
		Status: int64(f[10]), UserID: int64(f[11]), GroupID: int64(f[12]), Executable: int64(f[13]),
		Queue: int64(f[14]), Partition: int64(f[15]), PrecedingJob: int64(f[16]), ThinkTime: int64(f[17])}
	if nodes != "" {
		p.job.Extra = append(p.job.Extra, "nodes="+nodes)
	}
	p.job.Extra = append(p.job.Extra, "props="+tokens[20])
	return p, f[9], nil
}

// aleaBound is the largest magnitude of field n and how error messages say it:
// the toolkit's bounds for times and processors, and below 2^53 for the other
// fields, which are read through float64: 2^53 + 1 reads as 2^53, so 2^53
// itself could be another number rounded (a user 9007199254740993 taken for
// 9007199254740992).
func aleaBound(n int) (float64, string) {
	switch n {
	case swf.FieldSubmitTime, swf.FieldWaitTime, swf.FieldRunTime, swf.FieldAverageCPUTime,
		swf.FieldRequestedTime, swf.FieldThinkTime:
		return swf.MaxTime, timeBound
	case swf.FieldAllocatedProcs, swf.FieldRequestedProcs:
		return swf.MaxProcessors, procsBound
	case swf.FieldUsedMemory:
		return MaxMemoryKB - 1, "2^53 - 1 KB (numbers are read through float64, exact below 2^53)"
	}
	return 1<<53 - 1, "2^53 - 1 (numbers are read through float64, exact below 2^53)"
}

// runLength writes "1,1,1,2" as "1*3,2"; ok is false for anything but numbers.
func runLength(list string) (string, bool) {
	if list == "" {
		return "", true
	}
	var b strings.Builder
	items := strings.Split(list, ",")
	for i := 0; i < len(items); {
		if !allDigits(items[i]) {
			return "", false
		}
		n := 1
		for i+n < len(items) && items[i+n] == items[i] {
			n++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(items[i])
		if n > 1 {
			b.WriteString("*" + strconv.Itoa(n))
		}
		i += n
	}
	return b.String(), true
}

// nameNodes adds the node numbers of a job's nodes= token (ID or ID*COUNT,
// comma-separated) to named, leading zeros dropped.
func nameNodes(named map[string]struct{}, extra []string) {
	for _, tok := range extra {
		list, ok := strings.CutPrefix(tok, "nodes=")
		if !ok {
			continue
		}
		for _, item := range strings.Split(list, ",") {
			id, _, _ := strings.Cut(item, "*")
			if id = strings.TrimLeft(id, "0"); id == "" {
				id = "0"
			}
			if _, ok := named[id]; !ok {
				named[strings.Clone(id)] = struct{}{}
			}
		}
	}
}

// aleaMemory decides field 10's unit, writes it in KB per processor, and returns
// the Note that says what was found.
func aleaMemory(jobs []pending, memory []float64) string {
	var perProc []float64
	for i, m := range memory {
		if procs := procsOf(&jobs[i].job); m > 0 && procs > 0 {
			perProc = append(perProc, m/float64(procs))
		}
	}
	if len(perProc) == 0 {
		return "field 10 (requested memory) is unknown in every line"
	}
	sort.Float64s(perProc)
	median := perProc[len(perProc)/2]
	bytes := median > aleaBytesThreshold
	for i, m := range memory {
		procs := procsOf(&jobs[i].job)
		if m < 0 || procs <= 0 {
			continue
		}
		kb := m
		if bytes {
			kb = m / 1024
		}
		jobs[i].job.RequestedMemory = int64(math.Round(kb / float64(procs)))
	}
	if bytes {
		return fmt.Sprintf("field 10 (requested memory) was the job's total in bytes (read as KB, the median "+
			"per processor would be %.0f GiB): written in KB per processor", median/(1<<20))
	}
	return fmt.Sprintf("field 10 (requested memory) was the job's total in KB (median per processor %.0f MiB): "+
		"written per processor", median/1024)
}

func procsOf(j *swf.Job) int64 {
	if j.RequestedProcs > 0 {
		return j.RequestedProcs
	}
	return j.AllocatedProcs
}

// aleaPlaceholderFields are the fields that can be placeholders: those Alea's
// format does not use, which a log exported for it fills with a constant. Alea
// (AleaNG's description of its job file) reads job id, submit, wait and run
// time, processors, used and requested memory, requested processors and time,
// user, group and queue; CPU time (6), executable (14), partition (16),
// preceding job (17) and think time (18) are "not used". MetaCentrum's file
// holds one value in each of them on all 17,900 lines (1, 1024 for used memory
// in 7, 1), while processors, times, limits, memory and user vary. Used memory
// (7) is read by Alea but filled with 1024 in MetaCentrum's file, so it is a
// candidate too. Status (11, Alea's "always 1"), group (13: Alea's fair-share
// groups) and the rest are values even when constant: a cluster's jobs may all
// run under one group, or all complete, and -1 would erase what the log states.
var aleaPlaceholderFields = []int{swf.FieldAverageCPUTime, swf.FieldUsedMemory, swf.FieldExecutable,
	swf.FieldPartition, swf.FieldPrecedingJob, swf.FieldThinkTime}

// selfPreceding reports whether the preceding job (field 17) of the first job,
// which every job shares, is the id of one of the jobs.
func selfPreceding(jobs []pending) bool {
	id := strconv.FormatInt(jobs[0].job.PrecedingJob, 10)
	for i := range jobs {
		if canonicalID(jobs[i].id) == id {
			return true
		}
	}
	return false
}

// aleaPlaceholders writes -1 in every field of aleaPlaceholderFields that holds
// one value on every line of a file of at least AleaPlaceholderMinJobs job
// lines, as the archive's converter does, and returns a Note naming them (or,
// for a shorter file, saying that constant fields were kept).
func aleaPlaceholders(jobs []pending) []string {
	if len(jobs) == 0 {
		return nil
	}
	var constant []int
	for _, n := range aleaPlaceholderFields {
		v := jobs[0].job.Field(n)
		same := v != -1
		for i := 1; same && i < len(jobs); i++ {
			same = jobs[i].job.Field(n) == v
		}
		if same {
			constant = append(constant, n)
		}
	}
	if len(constant) == 0 {
		return nil
	}
	names := make([]string, len(constant))
	for i, n := range constant {
		names[i] = fmt.Sprintf("%d (%s) was %v", n, swf.FieldNames[n-1], jobs[0].job.Field(n))
	}
	if len(jobs) < AleaPlaceholderMinJobs {
		var notes []string
		drop := func(n int) { // field n is not "kept as a value"
			if k := slices.Index(constant, n); k >= 0 {
				constant = slices.Delete(constant, k, k+1)
				names = slices.Delete(names, k, k+1)
			}
		}
		if i := slices.Index(constant, swf.FieldPrecedingJob); i >= 0 {
			if len(jobs) > 1 && selfPreceding(jobs) {
				// One job cannot precede every job, itself included:
				// whatever the file's length, the value is a placeholder,
				// and the think time measured from that job's end says
				// nothing either.
				notes = append(notes, fmt.Sprintf("field %s on every line, job %v's own line included (a job cannot precede itself): "+
					"a placeholder, written -1 with field 18 (think time)", names[i], jobs[0].job.PrecedingJob))
				for k := range jobs {
					jobs[k].job.PrecedingJob, jobs[k].job.ThinkTime = -1, -1
				}
			}
			// Otherwise a preceding job that no job of the file has is
			// none: finish writes -1 there and in 18 and says so
			// (precedingRefs). Either way neither is kept as a value.
			drop(swf.FieldPrecedingJob)
			drop(swf.FieldThinkTime)
		}
		if len(names) > 0 {
			notes = append(notes, fmt.Sprintf("fields holding one value on every line kept as values: %d job lines are too few "+
				"(fewer than %d) to tell a placeholder from a value: %s", len(jobs), AleaPlaceholderMinJobs, strings.Join(names, ", ")))
		}
		return notes
	}
	for _, n := range constant {
		for i := range jobs {
			jobs[i].job.SetField(n, -1)
		}
	}
	return []string{fmt.Sprintf("fields Alea's format does not use (and used memory), holding one value on all %d job lines, "+
		"are placeholders, written -1 (the archive's convention): ", len(jobs)) +
		strings.Join(names, ", ")}
}
