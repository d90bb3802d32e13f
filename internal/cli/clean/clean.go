package cleancli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/clean"
	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/swf"
)

// runClean writes the cleaned trace and the accounting.
func runClean(o *options, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	cfg, err := o.config()
	if err != nil {
		return err
	}
	if flurryPassFirst(cfg) {
		input, cleanup, err := o.prescanFlurries(&cfg, stdin)
		defer cleanup()
		if err != nil {
			return err
		}
		stdin = input
	}
	r, in, err := openReader(o, stdin)
	if err != nil {
		return err
	}
	defer in.Close()
	hdr, err := r.Header()
	if err != nil {
		return err
	}
	cl, err := clean.New(hdr, cfg)
	if err != nil {
		return inFile(r.Name, err)
	}
	out, err := cmdio.Create(o.output, stdout)
	if err != nil {
		return err
	}
	defer cmdio.Finish(out, &err)
	if cl.Empty() && len(o.sets) == 0 && o.procs == 0 {
		err = writeBody(r, cl, swf.NewWriter(out), hdr) // nothing can change: copy through
	} else {
		err = writeSpooled(o, r, cl, hdr, out)
	}
	if err != nil {
		return err
	}
	return writeAccounting(o, r, cl, stderr)
}

// flurryPassFirst reports whether the flurries rule is selected and is the only
// rule that would hold the whole trace: then a first pass finds the flurries
// and the cleaning streams.
func flurryPassFirst(cfg clean.Config) bool {
	found := false
	for _, name := range cfg.Rules {
		r, _ := clean.LookupRule(name)
		switch {
		case name == "flurries":
			found = true
		case r.WholeTrace:
			return false
		}
	}
	return found
}

// prescanFlurries is the first pass: it finds the flurries among the records
// that pass the filters and stores them in cfg. Standard input is copied to a
// temporary file on the way, returned as the input of the second pass; a named
// file is simply read again. cleanup removes the copy.
func (o *options) prescanFlurries(cfg *clean.Config, stdin io.Reader) (io.Reader, func(), error) {
	cleanup := func() {}
	in, err := cmdio.Open(o.input, stdin)
	if err != nil {
		return nil, cleanup, err
	}
	defer in.Close()
	src, next := io.Reader(in), stdin
	if cmdio.IsStdio(o.input) {
		copied, err := os.CreateTemp("", "swfclean-input-*.swf")
		if err != nil {
			return nil, cleanup, fmt.Errorf("temporary copy of standard input: %w", err)
		}
		cleanup = func() {
			copied.Close()
			os.Remove(copied.Name())
		}
		src, next = io.TeeReader(in, copied), copied
	}
	r := swf.NewReader(src)
	r.Name = cmdio.DisplayName(o.input)
	r.Lenient = o.lenient
	r.ReuseRecord = true
	hdr, err := r.Header()
	if err != nil {
		return nil, cleanup, err
	}
	filters, err := clean.New(hdr, clean.Config{Drop: cfg.Drop, Keep: cfg.Keep})
	if err != nil {
		return nil, cleanup, inFile(r.Name, err)
	}
	detector := clean.NewFlurryDetector(cfg.Flurry)
	var job swf.Job // one variable: &job escapes
	for {
		job, err = r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, cleanup, err
		}
		if filters.Filter(&job) {
			detector.Add(&job)
		}
	}
	flurries := detector.Flurries()
	cfg.Flurries = &flurries
	if f, ok := next.(*os.File); ok && f != stdin {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, cleanup, err
		}
	}
	return next, cleanup, nil
}

// inFile prefixes err with the file name unless it is a ParseError, which
// names its file itself.
func inFile(name string, err error) error {
	var pe *swf.ParseError
	if errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// openReader opens the input named by the options.
func openReader(o *options, stdin io.Reader) (*swf.Reader, io.Closer, error) {
	in, err := cmdio.Open(o.input, stdin)
	if err != nil {
		return nil, nil, err
	}
	r := swf.NewReader(in)
	r.Name = cmdio.DisplayName(o.input)
	r.Lenient = o.lenient
	return r, in, nil
}

// writeBody cleans the records and writes them and the trailer, preceded by
// hdr unless it is nil.
func writeBody(r *swf.Reader, cl *clean.Cleaner, w *swf.Writer, hdr *swf.Header) error {
	if hdr != nil {
		if err := w.WriteHeader(hdr); err != nil {
			return err
		}
	}
	var err error
	if cl.WholeTrace() {
		err = cleanWhole(r, cl, w)
	} else {
		err = cleanStream(r, cl, w)
	}
	if err != nil {
		return err
	}
	if err := w.WriteTrailer(r.Trailer()); err != nil {
		return err
	}
	return w.Flush()
}

// writeSpooled writes the body to a temporary file, then the header with the
// final counts (Note lines, MaxJobs, MaxRecords, --set) and the body to out:
// memory stays constant while the header, written first, says what happened.
func writeSpooled(o *options, r *swf.Reader, cl *clean.Cleaner, hdr *swf.Header, out io.Writer) error {
	spool, err := os.CreateTemp("", "swfclean-*.swf")
	if err != nil {
		return fmt.Errorf("temporary file for the output body: %w", err)
	}
	defer func() {
		spool.Close()
		os.Remove(spool.Name())
	}()
	if err := writeBody(r, cl, swf.NewWriter(spool), nil); err != nil {
		return err
	}
	malformed, _ := r.Malformed()
	cl.Annotate(hdr, cl.Report(malformed))
	for _, s := range o.sets {
		label, value, _ := strings.Cut(s, "=")
		hdr.Set(label, strings.TrimSpace(value))
	}
	provenance.AddTo(hdr, o.provenance)
	hw := swf.NewWriter(out)
	hw.WriteHeader(hdr)
	if err := hw.Flush(); err != nil {
		return err
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err = io.Copy(out, bufio.NewReaderSize(spool, 64<<10))
	return err
}

// writeAccounting writes the id mapping and the JSON report when asked, and
// the accounting table on stderr unless -q.
func writeAccounting(o *options, r *swf.Reader, cl *clean.Cleaner, stderr io.Writer) error {
	malformed, firstBad := r.Malformed()
	rep := cl.Report(malformed)
	if o.anonymizeMap != "" {
		if err := writeMapping(o.anonymizeMap, cl.AnonymizeMapping()); err != nil {
			return err
		}
	}
	if o.report != "" {
		if err := writeJSON(o.report, cleanReport{File: r.Name, Report: rep, MalformedLines: errorStrings(firstBad)}); err != nil {
			return err
		}
	}
	if !o.quiet {
		printAccounting(stderr, r.Name, rep, firstBad)
	}
	return nil
}

func (o *options) config() (clean.Config, error) {
	cfg := clean.Config{Machine: o.procs, Flurry: o.flurry, Tool: "swfclean"}
	names, err := clean.SelectRules(o.rules, o.skip)
	if err != nil {
		return cfg, cmdio.Usagef("--rules: %v", err)
	}
	if o.dropFlurries {
		names = append(names, "flurries")
	}
	if o.anonymize {
		names = append(names, "anonymize")
	}
	cfg.Rules = names
	for _, src := range o.filters {
		f, err := clean.ParseFilter(src)
		if err != nil {
			return cfg, cmdio.Usagef("--filter: %v", err)
		}
		cfg.Drop = append(cfg.Drop, f)
	}
	for _, src := range o.keeps {
		f, err := clean.ParseFilter(src)
		if err != nil {
			return cfg, cmdio.Usagef("--keep: %v", err)
		}
		cfg.Keep = append(cfg.Keep, f)
	}
	return cfg, nil
}

// cleanStream applies the rules record by record, without allocating per record.
func cleanStream(r *swf.Reader, cl *clean.Cleaner, w *swf.Writer) error {
	r.ReuseRecord = true
	// Declared once: &job escapes into the rules' function values, and a
	// variable per iteration would be one heap allocation per record.
	var job swf.Job
	for {
		var err error
		job, err = r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if cl.Apply(&job) {
			err = w.Write(&job)
		} else {
			// Comment lines stay where they were, before the next record.
			err = w.WriteTrailer(job.Comments)
		}
		if err != nil {
			return err
		}
	}
}

// cleanWhole reads every record, then applies the rules to the whole trace.
func cleanWhole(r *swf.Reader, cl *clean.Cleaner, w *swf.Writer) error {
	var jobs []swf.Job
	for {
		job, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		jobs = append(jobs, job)
	}
	jobs = cl.ApplyAll(jobs)
	for i := range jobs {
		if err := w.Write(&jobs[i]); err != nil {
			return err
		}
	}
	return w.WriteTrailer(cl.Trailer())
}

type cleanReport struct {
	File string `json:"file"`
	clean.Report
	MalformedLines []string `json:"malformed_first,omitempty"`
}

func errorStrings(errs []*swf.ParseError) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func writeJSON(name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(data, '\n'), 0o644)
}

func writeMapping(name string, m []clean.Mapping) error {
	var b strings.Builder
	b.WriteString("# kind\told\tnew\n")
	for _, e := range m {
		fmt.Fprintf(&b, "%s\t%d\t%d\n", e.Kind, e.Old, e.New)
	}
	return os.WriteFile(name, []byte(b.String()), 0o644)
}

// printAccounting writes the accounting table on stderr.
func printAccounting(w io.Writer, file string, rep clean.Report, firstBad []*swf.ParseError) {
	var b strings.Builder
	fmt.Fprintf(&b, "swfclean: %s: %d records read = %d written + %d dropped\n",
		file, rep.RecordsRead, rep.Written, rep.Dropped)
	if rep.Malformed > 0 {
		fmt.Fprintf(&b, "  %-40s %8d dropped\n", "malformed lines skipped (--lenient)", rep.Malformed)
		for _, e := range firstBad {
			fmt.Fprintf(&b, "    %v\n", e)
		}
	}
	for _, s := range rep.Steps {
		fmt.Fprintf(&b, "  %-40s %8d dropped %8d changed\n", s.Name, s.Dropped, s.Changed)
	}
	for _, msg := range rep.Warnings {
		fmt.Fprintf(&b, "swfclean: warning: %s\n", msg)
	}
	io.WriteString(w, b.String())
}
