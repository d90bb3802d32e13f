package statcli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/stats"
	"github.com/swfkit/swfkit/pkg/swf"
)

// trace is one input, read.
type trace struct {
	file, display, label string
	machine              stats.Machine
	categoryWarning      string           // categoryWarning's, when the run shows categories
	headerOnly           string           // the warning for a header without job lines, "" when it has some
	collector            *stats.Collector // nil once reported, unless kept (keepRecords)
	report               *stats.Report
	byCategory           *stats.Report // categoryReport's, made once
	malformed            int
	firstMalformed       error
	unterminated         int // the line of a last record without a newline after it, 0 if none
	// recordCount is the warning for a file whose records are not the
	// MaxRecords a swfkit tool set (recordCountWarning), "" when none.
	recordCount string
	// partial counts the records of partial executions (status 2, 3, 4),
	// each summarized as a job of its own.
	partial int
	// foreignProv are the lines of Provenance lines no swfkit tool wrote,
	// left out of the provenance columns.
	foreignProv []int
	// swfstatProv counts the header's swfstat Provenance lines, also left
	// out (swfstat writes none into an SWF; its own are the swfstat.*
	// columns).
	swfstatProv int
	provenance  []provenance.Record // the header's Provenance lines, in order
	// uqosLower and uqosUpper are the U-QoS bounds the report used.
	uqosLower, uqosUpper float64
	warning              string // the --kill-warn warning, "" when none
	uqosFromNote         bool   // its U-QoS bounds came from swfaugment's bounds Note
	// uqosFrom is the label of the input whose bounds this report used when
	// bounds are shared among inputs of one workload ("" when not shared).
	uqosFrom string
	// workload names the trace this input was made from (workloadOf); inputs
	// of one workload share their U-QoS bounds.
	workload string

	// rc and r are the open input between openTrace and readBody: kept open
	// only for an input that cannot be read twice (standard input, a pipe
	// such as <(...), a FIFO: cmdio.ReadOnce), whose second open would start
	// where the header's reading stopped; a regular file is opened again by
	// readBody, so that 200 inputs do not hold 200 files.
	rc  io.ReadCloser
	r   *swf.Reader
	hdr *swf.Header
	// digest hashes the decompressed bytes of the latest open of the input,
	// the one readBody reads to its end: its sum is the input's
	// input-sha256 in swfstat's own provenance (withInputSHA256).
	digest *cmdio.Digest
	// simProcsFrom is the --procs-from of the swfsim run that wrote this
	// schedule, from its "swfsim semantics" Note; "" when none.
	simProcsFrom string
	// augLower and augUpper are the runtime bounds of swfaugment's bounds
	// Note (computed on the recorded runtimes, before any simulation); 0 when
	// the header has none.
	augLower, augUpper float64
}

// categoryReport is the report broken down by category that the HTML
// tables and the category figure read, made on first use.
func (t *trace) categoryReport() *stats.Report {
	if t.byCategory == nil {
		t.byCategory = t.collector.WithBy(stats.ByCategory).Report(t.label)
	}
	return t.byCategory
}

// openTrace opens one input and reads its header; an empty input is an
// error and a header-only one a warning on stderr (cmdio.CheckRecords) and in
// the HTML report (trace.headerOnly). The machine size is --procs, else the
// header's MaxProcs, else its MaxNodes.
func openTrace(file, label string, o *options, files *cmdio.Files, stderr io.Writer) (*trace, error) {
	t := &trace{file: file, display: cmdio.DisplayName(file), label: label}
	rc, r, hdr, err := t.open(o, files)
	if err != nil {
		return nil, err
	}
	if err := cmdio.CheckRecords(r, "swfstat", stderr); err != nil {
		rc.Close()
		return nil, err
	}
	// CheckRecords printed it; the HTML report says it too, as its other
	// per-input warnings, without the file name its row already has.
	if err := r.HasRecords(); errors.Is(err, swf.ErrHeaderOnly) {
		t.headerOnly = strings.TrimPrefix(err.Error(), t.display+": ")
	}
	if t.machine, err = machineOf(hdr, o.procs); err != nil {
		rc.Close()
		return nil, err
	}
	if t.provenance, err = provenance.FromHeader(hdr); err != nil {
		rc.Close()
		return nil, err
	}
	t.foreignProv = provenance.Foreign(hdr)
	// swfstat writes no SWF, so a swfstat line in an input's header was put
	// there by hand; its columns would clash with this run's swfstat.*.
	kept := t.provenance[:0]
	for _, r := range t.provenance {
		if r.Tool == "swfstat" {
			t.swfstatProv++
			continue
		}
		kept = append(kept, r)
	}
	t.provenance = kept
	t.hdr = hdr
	t.simProcsFrom = simProcsFrom(hdr)
	t.augLower, t.augUpper = augmentBounds(hdr)
	t.workload = workloadOf(hdr, t.provenance)
	if cmdio.ReadOnce(file) {
		t.rc, t.r = rc, r
	} else {
		rc.Close()
	}
	return t, nil
}

// workloadOf names the workload an input was made from, so that a study over
// several traces judges each trace's schedules by that trace's U-QoS bounds:
// the archive header's Computer, Installation and UnixStartTime, which every
// tool keeps; without any of them, the file the first recorded tool read
// (its Provenance input=); else "" (one workload for all such inputs).
func workloadOf(hdr *swf.Header, prov []provenance.Record) string {
	var key []string
	for _, label := range []string{"Computer", "Installation", "UnixStartTime"} {
		if v, ok := hdr.Get(label); ok {
			key = append(key, label+"="+strings.TrimSpace(v))
		}
	}
	if len(key) > 0 {
		return strings.Join(key, "; ")
	}
	if len(prov) > 0 {
		if in, ok := prov[0].Get("input"); ok && in != "-" {
			return "input=" + in
		}
	}
	return ""
}

// open opens the input and reads its header.
func (t *trace) open(o *options, files *cmdio.Files) (io.ReadCloser, *swf.Reader, *swf.Header, error) {
	rc, digest, err := files.OpenHashed(t.file)
	if err != nil {
		return nil, nil, nil, err
	}
	t.digest = digest
	r := cmdio.NewSWFReader(rc, t.display)
	r.ReuseRecord = true
	r.Lenient = o.lenient
	hdr, err := r.Header()
	if err != nil {
		rc.Close()
		return nil, nil, nil, cmdio.InFile(t.display, err)
	}
	hdr.File = t.display
	return rc, r, hdr, nil
}

// augmentBounds finds the runtime bounds in swfaugment's Note
// "swfaugment bounds (...): ... runtime L..U s ...", the last one winning.
func augmentBounds(hdr *swf.Header) (lower, upper float64) {
	for _, l := range hdr.Lines {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l.Value), "swfaugment bounds")
		if !strings.EqualFold(l.Label, "Note") || !ok {
			continue
		}
		_, after, ok := strings.Cut(rest, " runtime ")
		if !ok {
			continue
		}
		field, _, _ := strings.Cut(after, " ")
		ls, us, ok := strings.Cut(field, "..")
		lo, err1 := strconv.ParseFloat(ls, 64)
		up, err2 := strconv.ParseFloat(us, 64)
		if ok && err1 == nil && err2 == nil && lo > 0 && up > lo {
			lower, upper = lo, up
		}
	}
	return lower, upper
}

// simProcsFrom finds the processor rule in swfsim's Note
// "swfsim semantics: ...; procs-from X; ...".
func simProcsFrom(hdr *swf.Header) string {
	from := ""
	for _, l := range hdr.Lines {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l.Value), "swfsim semantics:")
		if !strings.EqualFold(l.Label, "Note") || !ok {
			continue
		}
		for _, part := range strings.Split(rest, ";") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(part), "procs-from "); ok {
				from = strings.TrimSpace(v) // the last run wins: it wrote the schedule
			}
		}
	}
	return from
}

// readBody reads the records of an input into a Collector, each job also
// into jobs when not nil, and closes the input.
func (t *trace) readBody(o *options, files *cmdio.Files, jobs *jobWriter) error {
	if t.rc == nil {
		rc, r, _, err := t.open(o, files)
		if err != nil {
			return err
		}
		t.rc, t.r = rc, r
	}
	defer func() {
		t.rc.Close()
		t.rc, t.r = nil, nil
	}()
	r := t.r
	t.collector = stats.NewCollector(o.cfg, t.machine)
	if n, ok, err := t.hdr.MaxJobs(); err == nil && ok && n > 0 {
		t.collector.Grow(int(min(n, 1<<24))) // a hint only: headers of cut files overstate it
	}
	var job swf.Job // one Job for the whole file: Read reuses its slices, Add copies
	// badTokens counts, with --lenient, the records skipped for a token the
	// metrics read (u=, fairstart=, runtotal=, ...) that does not parse.
	badTokens, firstBad := 0, error(nil)
	for {
		var err error
		job, err = r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return notSWF(r, t.display, err)
		}
		if s := job.Status; s >= 2 && s <= 4 {
			t.partial++
		}
		if err := t.collector.Add(&job); err != nil {
			if !o.lenient {
				return t.inFile(err)
			}
			if badTokens++; firstBad == nil {
				firstBad = t.inFile(err)
			}
			continue
		}
		if jobs != nil {
			if err := jobs.add(t.collector, &job); err != nil {
				return t.inFile(err)
			}
		}
	}
	t.unterminated = r.UnterminatedLine()
	t.malformed, _ = r.Malformed()
	t.recordCount = recordCountWarning(t.hdr, t.provenance, r.Records()+t.malformed)
	if _, first := r.Malformed(); len(first) > 0 {
		t.firstMalformed = first[0]
	}
	if badTokens > 0 {
		if t.malformed == 0 {
			t.firstMalformed = firstBad
		}
		t.malformed += badTokens
	}
	if t.collector.Len() == 0 && t.malformed > 0 {
		return cmdio.NoValidRecord("swfstat", t.display, t.malformed, t.firstMalformed, r.FirstMalformedLine())
	}
	return nil
}

// inFile names t's file in an error about one of its records: a
// *swf.ParseError gets it as its File ("FILE:LINE: field N (...)", as the
// other tools write it), anything else a "FILE: " prefix.
func (t *trace) inFile(err error) error {
	var pe *swf.ParseError
	if errors.As(err, &pe) && pe.File == "" {
		cp := *pe
		cp.File = t.display
		return &cp
	}
	return fmt.Errorf("%s: %w", t.display, err)
}

// notSWF adds a hint to the parse error of a file at its first record line:
// how to convert it when the line looks like a log swfclean converts
// (cmdio.ReadErrorHint, which answers the question), else whether it is an
// SWF trace at all. After records that parsed, the file is SWF with a bad
// line, and the error goes as it is.
func notSWF(r *swf.Reader, display string, err error) error {
	var pe *swf.ParseError
	if !errors.As(err, &pe) {
		return cmdio.InFile(display, err)
	}
	if r.Records() > 0 {
		return err
	}
	if hint := cmdio.ReadErrorHint(r, "swfstat", err); hint != "" {
		return fmt.Errorf("%w%s", err, hint)
	}
	return fmt.Errorf("%w (is %s an SWF trace? each record needs 18 numeric fields, then key=value tokens)", err, display)
}

// machineOf returns the machine size: --procs when given (it overrides the
// header, and Source says which value it replaces), else the header's
// MaxProcs, else its MaxNodes. With none, Source says why when the header
// has a label with no machine size in it (swf.Header.NotAMachineSize).
func machineOf(hdr *swf.Header, procs int64) (stats.Machine, error) {
	for _, label := range []string{"MaxProcs", "MaxNodes"} {
		v, ok, err := hdr.Int(label)
		if err != nil && procs <= 0 {
			return stats.Machine{}, err
		}
		if err == nil && ok && v > 0 {
			if procs <= 0 {
				return stats.Machine{Procs: v, Source: label}, nil
			}
			if v != procs {
				return stats.Machine{Procs: procs, Source: fmt.Sprintf("--procs, overriding header %s %d", label, v)}, nil
			}
			break
		}
	}
	if procs > 0 {
		return stats.Machine{Procs: procs, Source: "--procs"}, nil
	}
	return stats.Machine{Source: hdr.NotAMachineSize()}, nil
}
