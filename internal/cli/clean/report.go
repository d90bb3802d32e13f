package cleancli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/clean"
	"github.com/swfkit/swfkit/pkg/convert"
	"github.com/swfkit/swfkit/pkg/swf"
)

// errAnomaly is returned by --check --fail-on-anomaly when an anomaly fired;
// the report already says which, so the message is short.
var errAnomaly = errors.New("anomalies found (see the report)")

// errNotReady is returned by --check --submission when a required header label
// is missing; the report names them.
var errNotReady = errors.New("not ready for submission: required header labels missing, malformed or only a lower bound (see the report)")

// summaryLabels are the header labels the --check report shows when present:
// the common labels the archive asks for (README: Acknowledge names whom to
// credit).
var summaryLabels = []string{
	"Version", "Computer", "Installation", "Acknowledge", "Information", "Conversion", "MaxJobs", "MaxRecords", "MaxNodes", "MaxProcs",
	"MaxRuntime", "Preemption", "UnixStartTime", "TimeZoneString", "StartTime", "EndTime",
	"MaxQueues", "MaxPartitions",
}

// continued returns the continuation lines of the first line labelled label
// (Information's second address), without the empty ones.
func continued(hdr *swf.Header, label string) []string {
	var out []string
	for i, l := range hdr.Lines {
		if l.Continuation || !strings.EqualFold(l.Label, label) {
			continue
		}
		for _, c := range hdr.Lines[i+1:] {
			if !c.Continuation {
				break
			}
			if c.Value != "" {
				out = append(out, c.Value)
			}
		}
		break
	}
	return out
}

// runReport reads the whole input once and prints the --check report and/or
// the --flurries list. No trace is written.
func runReport(o *options, files *cmdio.Files, stderr io.Writer) (err error) {
	defer func() {
		if err == errAnomaly {
			// The report of a check that found anomalies is worth keeping.
			if cerr := files.Commit(); cerr != nil {
				err = cerr
			}
			return
		}
		files.Finish(&err)
	}()
	r, in, err := openReader(o, files, nil)
	if err != nil {
		return err
	}
	defer in.Close()
	r.ReuseRecord = true
	hdr, err := r.Header()
	if err != nil {
		return err
	}
	if err := cmdio.CheckRecords(r, "swfclean", stderr); err != nil {
		return err
	}
	hdrLines := len(hdr.Lines)
	if o.conversion != nil {
		// The converted text is --rules none's; --set applies to what
		// the checks read of its header (convertInput).
		for _, s := range o.settings() {
			hdr.Apply(s.Label, s.Value)
		}
	}
	checker := clean.NewChecker(hdr)
	var submission *clean.SubmissionChecker
	if o.submission {
		submission = clean.NewSubmissionChecker(hdr)
	}
	var detector *clean.FlurryDetector
	var filters *clean.Cleaner
	if o.flurries {
		detector = clean.NewFlurryDetector(o.flurry)
		cfg, err := o.config()
		if err != nil {
			return err
		}
		if filters, err = clean.New(hdr, clean.Config{Drop: cfg.Drop, Keep: cfg.Keep}); err != nil {
			return inFile(r.Name, err)
		}
	}
	var job swf.Job // one variable: &job escapes
	for {
		job, err = r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return cmdio.ReadError(r, "swfclean", err)
		}
		checker.Check(&job)
		if submission != nil {
			submission.Add(&job)
		}
		if detector != nil && filters.Filter(&job) {
			detector.Add(&job)
		}
	}
	cmdio.WarnUnterminated(r, "swfclean", stderr)
	if err := cmdio.AllMalformed(r, "swfclean"); err != nil {
		return err
	}
	res := checker.Result()
	malformed, firstBad := r.Malformed()

	out, err := files.Create(o.output)
	if err != nil {
		return err
	}
	var b strings.Builder
	var ready *clean.Submission
	if o.check {
		name := r.Name
		if o.converting() {
			// The checks read the converted SWF, so their line numbers are its lines.
			name += fmt.Sprintf(" (converted from %s: line numbers below are those of the converted SWF, as `swfclean --from %s --rules none` writes it; jobid= keeps each job's id in the log)", o.from, o.from)
		}
		writeCheck(&b, name, hdr, hdrLines, res, malformed, firstBad)
	}
	if submission != nil {
		ready = submission.Result()
		writeSubmission(&b, ready)
	}
	var flurries []clean.Flurry
	if detector != nil {
		if o.check {
			b.WriteString("\n")
		}
		flurries = detector.Flurries()
		writeFlurries(&b, o.flurry, flurries)
	}
	if _, err := io.WriteString(out, b.String()); err != nil {
		return err
	}
	if o.report != "" {
		rep := checkJSON(r.Name, res, malformed, firstBad)
		rep.Conversion, rep.Submission = o.accounting(), submissionJSON(ready)
		if detector != nil {
			rep.Flurries = flurriesJSON(o.flurry, flurries)
		}
		if err := writeJSON(files, o.report, rep); err != nil {
			return err
		}
	}
	if o.conversion != nil {
		malformed += o.conversion.Accounting.Malformed // lines --lenient skipped while converting
	}
	if o.failOnAnomaly && (res.Failing() > 0 || malformed > 0) {
		return errAnomaly
	}
	if ready != nil && !ready.Ready() {
		return errNotReady
	}
	return nil
}

// writeSubmission writes the --submission section of the --check report.
func writeSubmission(b *strings.Builder, s *clean.Submission) {
	state := "ready"
	if !s.Ready() {
		state = "NOT READY: missing " + strings.Join(s.MissingLabels, ", ")
	}
	fmt.Fprintf(b, "submission: %s\n", state)
	for _, l := range s.Labels {
		mark, value := "present", l.Value
		switch {
		case l.Malformed != "":
			mark, value = "BAD", l.Malformed
		case l.LowerBound:
			give := "--procs N or --set MaxProcs=N"
			if l.Label == "MaxNodes" {
				give = "--set MaxNodes=N, or --nodes N with --from"
			}
			mark, value = "BOUND", l.Value+": a lower bound from the jobs; give the machine's size ("+give+")"
		case !l.Present && l.Required:
			mark, value = "MISSING", l.Why
		case !l.Present:
			mark, value = "absent ", l.Why+" (recommended)"
		}
		if len(value) > 60 && !l.LowerBound && l.Malformed == "" {
			value = value[:57] + "..."
		}
		fmt.Fprintf(b, "  %-7s %-15s %s\n", mark, l.Label, value)
	}
	fmt.Fprintf(b, "  %s\n  %s\n", s.Users.String(), s.Groups.String())
	b.WriteString("  (the anomalies above are what the archive's converter would count; the header labels are set with --set Label=value)\n")
}

type submissionLabelJSON struct {
	Label      string `json:"label"`
	Required   bool   `json:"required"`
	Present    bool   `json:"present"`
	LowerBound bool   `json:"lower_bound,omitempty"`
	Malformed  string `json:"malformed,omitempty"`
}

type idJSON struct {
	Distinct   int   `json:"distinct"`
	Largest    int64 `json:"largest"`
	Anonymized bool  `json:"look_anonymized"`
	OutOfOrder int   `json:"first_out_of_order_line,omitempty"`
}

type submissionReport struct {
	Ready   bool                  `json:"ready"`
	Missing []string              `json:"missing_required"`
	Labels  []submissionLabelJSON `json:"labels"`
	Users   idJSON                `json:"users"`
	Groups  idJSON                `json:"groups"`
}

func submissionJSON(s *clean.Submission) *submissionReport {
	if s == nil {
		return nil
	}
	ids := func(q clean.IDSequence) idJSON {
		return idJSON{Distinct: q.Distinct, Largest: q.Largest, Anonymized: q.Anonymized(), OutOfOrder: q.FirstOutOfOrder}
	}
	rep := &submissionReport{Ready: s.Ready(), Missing: append([]string{}, s.MissingLabels...),
		Users: ids(s.Users), Groups: ids(s.Groups)}
	for _, l := range s.Labels {
		rep.Labels = append(rep.Labels, submissionLabelJSON{l.Label, l.Required, l.Present, l.LowerBound, l.Malformed})
	}
	return rep
}

// hdrLines is the header's length in the file (before any --set).
func writeCheck(b *strings.Builder, file string, hdr *swf.Header, hdrLines int, res *clean.CheckResult, malformed int, firstBad []*swf.ParseError) {
	fmt.Fprintf(b, "file: %s\n", file)
	fmt.Fprintf(b, "header: %s\n", cmdio.Counted(hdrLines, "line", "lines"))
	for _, label := range summaryLabels {
		v, ok := hdr.Get(label)
		if !ok {
			continue
		}
		fmt.Fprintf(b, "  %-15s %s%s\n", label+":", v, headerComment(label, res))
		for _, more := range continued(hdr, label) {
			fmt.Fprintf(b, "  %-15s %s\n", "", more)
		}
	}
	fmt.Fprintf(b, "records: %d", res.Records)
	if res.Records > 0 {
		fmt.Fprintf(b, ", %d distinct job numbers %d..%d", res.DistinctJobs, res.MinJob, res.MaxJob)
		if res.FirstSubmit >= 0 {
			fmt.Fprintf(b, ", submit times %d..%d s", res.FirstSubmit, res.LastSubmit)
		}
	}
	b.WriteString("\n")
	if res.Machine > 0 {
		fmt.Fprintf(b, "machine size: %d (%s); largest job: %s", res.Machine, res.MachineLabel, cmdio.Counted(res.LargestProcs, "processor", "processors"))
	} else if why := hdr.NotAMachineSize(); why != "" {
		fmt.Fprintf(b, "machine size: unknown (%s); largest job: %s", why, cmdio.Counted(res.LargestProcs, "processor", "processors"))
	} else {
		fmt.Fprintf(b, "machine size: unknown (no MaxProcs or MaxNodes); largest job: %s", cmdio.Counted(res.LargestProcs, "processor", "processors"))
	}
	if res.LargestLine > 0 {
		fmt.Fprintf(b, " (line %d)", res.LargestLine)
	}
	b.WriteString("\n")
	if malformed > 0 {
		fmt.Fprintf(b, "malformed lines skipped: %d\n", malformed)
		for _, e := range firstBad {
			fmt.Fprintf(b, "  %v\n", e)
		}
	}
	fmt.Fprintf(b, "anomalies: %s fired, %d of them not info\n", cmdio.Counted(len(res.Fired), "check", "checks"), res.Failing())
	for _, f := range res.Fired {
		name := f.Name
		if f.Info {
			name += " (info)"
		}
		fmt.Fprintf(b, "  %-28s %8d  lines %-34s %s\n", name, f.Count, joinLines(f.Lines, f.Count), f.Summary)
		if f.Name == "header_malformed" {
			for _, m := range res.Malformed {
				fmt.Fprintf(b, "    line %d: %s\n", m.Line, m.Why)
			}
		}
	}
	if len(res.MissingLabels) > 0 {
		b.WriteString("warnings:\n")
		for _, l := range res.MissingLabels {
			fmt.Fprintf(b, "  missing header label: %s\n", l)
		}
	}
}

// headerComment puts the counted value beside a header label.
func headerComment(label string, res *clean.CheckResult) string {
	switch label {
	case "MaxJobs":
		return fmt.Sprintf("  (%d distinct job numbers, largest %d)", res.DistinctJobs, res.MaxJob)
	case "MaxRecords":
		return fmt.Sprintf("  (%s)", cmdio.Counted(res.Records, "record", "records"))
	case "MaxProcs":
		return fmt.Sprintf("  (largest job %d)", res.LargestProcs)
	}
	return ""
}

func joinLines(lines []int, count int) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = fmt.Sprint(l)
	}
	s := strings.Join(parts, ",")
	if count > len(lines) {
		s += ",..."
	}
	return s
}

func writeFlurries(b *strings.Builder, cfg clean.FlurryConfig, flurries []clean.Flurry) {
	fmt.Fprintf(b, "flurries: %s (window %d s, at least %d jobs and %.0f%% of a window's submissions by one user)\n",
		cmdio.Counted(len(flurries), "candidate", "candidates"), cfg.Window, cfg.MinJobs, 100*cfg.MinShare)
	if len(flurries) == 0 {
		return
	}
	fmt.Fprintf(b, "  %8s %8s %8s %6s %10s %10s %12s %12s  %s\n",
		"user", "jobs", "of", "share", "first_job", "last_job", "start", "end", "filter")
	for _, f := range flurries {
		fmt.Fprintf(b, "  %8d %8d %8d %5.0f%% %10d %10d %12d %12d  %s\n",
			f.User, f.Jobs, f.Total, 100*f.Share(), f.FirstJob, f.LastJob, f.Start, f.End, f.Filter())
	}
}

type checkedAnomaly struct {
	Name    string `json:"name"`
	Info    bool   `json:"info"`
	Count   int    `json:"count"`
	Lines   []int  `json:"first_lines"`
	Summary string `json:"summary"`
}

type checkReport struct {
	File           string              `json:"file"`
	Conversion     *convert.Accounting `json:"conversion,omitempty"`
	Submission     *submissionReport   `json:"submission,omitempty"`
	Records        int                 `json:"records"`
	DistinctJobs   int                 `json:"distinct_jobs"`
	Malformed      int                 `json:"malformed_skipped"`
	MalformedLines []string            `json:"malformed_first,omitempty"`
	Anomalies      []checkedAnomaly    `json:"anomalies"`
	MissingLabels  []string            `json:"missing_labels"`
	// MalformedLabels are header_malformed's labels, with line and why.
	MalformedLabels []malformedLabelJSON `json:"malformed_labels,omitempty"`
	Flurries        *flurryReport        `json:"flurries,omitempty"`
}

type malformedLabelJSON struct {
	Line  int    `json:"line"`
	Label string `json:"label"`
	Why   string `json:"why"`
}

// flurryReport is --flurries' result in --report: the thresholds and the
// candidates, as the printed table has them.
type flurryReport struct {
	Window     int64             `json:"window_s"`
	MinJobs    int               `json:"min_jobs"`
	MinShare   float64           `json:"min_share"`
	Candidates []flurryCandidate `json:"candidates"`
}

type flurryCandidate struct {
	User      int64   `json:"user"`
	Jobs      int     `json:"jobs"`
	Of        int     `json:"of"`
	Share     float64 `json:"share"`
	FirstJob  int64   `json:"first_job"`
	LastJob   int64   `json:"last_job"`
	Start     int64   `json:"start"`
	End       int64   `json:"end"`
	FirstLine int     `json:"first_line"`
	Filter    string  `json:"filter"`
}

func flurriesJSON(cfg clean.FlurryConfig, flurries []clean.Flurry) *flurryReport {
	rep := &flurryReport{Window: cfg.Window, MinJobs: cfg.MinJobs, MinShare: cfg.MinShare, Candidates: []flurryCandidate{}}
	for _, f := range flurries {
		rep.Candidates = append(rep.Candidates, flurryCandidate{f.User, f.Jobs, f.Total, f.Share(),
			f.FirstJob, f.LastJob, f.Start, f.End, f.FirstLine, f.Filter()})
	}
	return rep
}

func checkJSON(file string, res *clean.CheckResult, malformed int, firstBad []*swf.ParseError) checkReport {
	rep := checkReport{File: file, Records: res.Records, DistinctJobs: res.DistinctJobs,
		Malformed: malformed, MalformedLines: errorStrings(firstBad),
		Anomalies: []checkedAnomaly{}, MissingLabels: append([]string{}, res.MissingLabels...)}
	for _, f := range res.Fired {
		rep.Anomalies = append(rep.Anomalies, checkedAnomaly{f.Name, f.Info, f.Count, f.Lines, f.Summary})
	}
	for _, m := range res.Malformed {
		rep.MalformedLabels = append(rep.MalformedLabels, malformedLabelJSON{m.Line, m.Label, m.Why})
	}
	return rep
}
