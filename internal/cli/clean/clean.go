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
	"github.com/swfkit/swfkit/pkg/convert"
	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/swf"
)

// runClean writes the cleaned trace and the accounting.
func runClean(o *options, files *cmdio.Files, stderr io.Writer) (err error) {
	defer files.Finish(&err)
	cfg, err := o.config()
	if err != nil {
		return err
	}
	var spool io.Reader
	if flurryPassFirst(cfg) {
		var cleanup func()
		spool, cleanup, err = o.prescanFlurries(&cfg, files)
		defer cleanup()
		if err != nil {
			return err
		}
	}
	r, in, err := openReader(o, files, spool)
	if err != nil {
		return err
	}
	defer in.Close()
	hdr, err := r.Header()
	if err != nil {
		return err
	}
	if err := cmdio.CheckRecords(r, "swfclean", stderr); err != nil {
		return err
	}
	cl, err := clean.New(hdr, cfg)
	if err != nil {
		return inFile(r.Name, err)
	}
	out, err := files.Create(o.output)
	if err != nil {
		return err
	}
	// A plain copy only when nothing can change: --lenient may drop lines,
	// and the header must then say so (Note, Provenance).
	if cl.Empty() && len(o.sets) == 0 && o.procs == 0 && !o.lenient {
		if o.conversion != nil {
			// A converted log is a new file: it says how it was made. A
			// plain copy (--rules none) stays byte-identical instead.
			// The log was read whole to be converted: its hash is known.
			rec, err := o.record()
			if err != nil {
				return err
			}
			provenance.AddTo(hdr, rec)
		}
		err = writeCopy(r, cl, hdr, out) // nothing else can change: copy through
	} else {
		err = writeSpooled(o, r, cl, hdr, out)
	}
	if err != nil {
		return err
	}
	// Once, after the pass that wrote the output: the flurries rule's
	// first pass read the same text.
	cmdio.WarnUnterminated(r, "swfclean", stderr)
	return writeAccounting(o, files, r, cl, stderr)
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
// that pass the filters and stores them in cfg. A regular file is simply read
// again by the second pass; any other input (standard input, a pipe such as
// <(...), a FIFO, a device) can be read only once, so its decompressed text
// is copied to a spool file on the way, returned as the input of the second
// pass (nil for a regular file). cleanup removes the spool.
func (o *options) prescanFlurries(cfg *clean.Config, files *cmdio.Files) (io.Reader, func(), error) {
	cleanup := func() {}
	in, err := o.openInput(files)
	if err != nil {
		return nil, cleanup, err
	}
	defer in.Close()
	src := io.Reader(in)
	var spool *os.File
	if cmdio.ReadOnce(o.input) {
		if spool, err = cmdio.CreateTemp("swfclean-input-"); err != nil {
			return nil, cleanup, fmt.Errorf("temporary copy of %s (read twice by the flurries rule): %w", cmdio.DisplayName(o.input), err)
		}
		cleanup = func() { cmdio.RemoveTemp(spool) }
		src = io.TeeReader(in, cmdio.TempWriter(spool))
	}
	r := cmdio.NewSWFReaderThrough(src, in, o.name())
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
			return nil, cleanup, cmdio.ReadError(r, "swfclean", err)
		}
		if filters.Filter(&job) {
			detector.Add(&job)
		}
	}
	if err := cmdio.AllMalformed(r, "swfclean"); err != nil {
		return nil, cleanup, err
	}
	flurries := detector.Flurries()
	cfg.Flurries = &flurries
	if spool == nil {
		return nil, cleanup, nil
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return nil, cleanup, err
	}
	return spool, cleanup, nil
}

// inFile prefixes err with the file name unless it is a ParseError, which
// names its file itself.
func inFile(name string, err error) error {
	var pe *swf.ParseError
	if errors.As(err, &pe) {
		return err
	}
	return cmdio.InFile(name, err)
}

// openReader opens the input named by the options, or reads spool, the
// decompressed copy of it, when not nil.
func openReader(o *options, files *cmdio.Files, spool io.Reader) (*swf.Reader, io.Closer, error) {
	var in io.ReadCloser = io.NopCloser(spool)
	if spool == nil {
		var err error
		if in, err = o.openInput(files); err != nil {
			return nil, nil, err
		}
	}
	r := cmdio.NewSWFReader(in, o.name())
	r.Lenient = o.lenient
	return r, in, nil
}

// openInput opens the input named by the options, hashing what is read
// unless it is a converted log (whose --from input was hashed as it was
// converted).
func (o *options) openInput(files *cmdio.Files) (io.ReadCloser, error) {
	if o.converting() {
		return files.Open(o.input)
	}
	in, digest, err := files.OpenHashed(o.input)
	if err == nil {
		o.inputDigests = append(o.inputDigests, digest)
	}
	return in, err
}

// record is the run's Provenance record with the hash of its input. The
// flurries rule reads a regular file twice: a file that changed in between
// gave records that are none of its versions' own, which is an error rather
// than a line naming one of them.
func (o *options) record() (provenance.Record, error) {
	if len(o.inputDigests) == 0 {
		return o.provenance, nil
	}
	first, _ := o.inputDigests[0].Sum()
	for _, d := range o.inputDigests[1:] {
		if sum, ok := d.Sum(); ok && first != "" && sum != first {
			return o.provenance, fmt.Errorf("%s changed while it was read twice (the flurries rule's two passes): sha256 %s, then %s; run again on a file that does not change", o.name(), first, sum)
		}
	}
	return cmdio.WithInputSHA256(o.provenance, o.inputDigests[0]), nil
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

// writeCopy writes the input unchanged (cl changes nothing). To a staged
// output it streams; to standard output, a pipe or a device it goes through a
// temporary file and is copied once the whole input was read: written as it
// went, a copy that failed at line N (a malformed line, a cut gzip member)
// left the next command of a pipe lines 1 to N-1, which read as a valid,
// shorter trace whenever the last flush ended at a line's end, instead of
// the "empty input" every tool reports for a failed command before it.
func writeCopy(r *swf.Reader, cl *clean.Cleaner, hdr *swf.Header, out *cmdio.Output) error {
	if out.Staged() {
		w := swf.NewWriter(out)
		w.Follow(r)
		return writeBody(r, cl, w, hdr)
	}
	spool, err := cmdio.CreateTemp("swfclean-copy-")
	if err != nil {
		return fmt.Errorf("temporary file for the output: %w", err)
	}
	defer cmdio.RemoveTemp(spool)
	w := swf.NewWriter(cmdio.TempWriter(spool))
	w.Follow(r)
	if err := writeBody(r, cl, w, hdr); err != nil {
		return err
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err = io.Copy(out, bufio.NewReaderSize(spool, 64<<10))
	return err
}

// writeSpooled writes the body to a temporary file, then the header with the
// final counts (Note lines, MaxJobs, MaxRecords, --set) and the body to out:
// memory stays constant while the header, written first, says what happened.
func writeSpooled(o *options, r *swf.Reader, cl *clean.Cleaner, hdr *swf.Header, out io.Writer) error {
	spool, err := cmdio.CreateTemp("swfclean-body-")
	if err != nil {
		return fmt.Errorf("temporary file for the output body: %w", err)
	}
	defer cmdio.RemoveTemp(spool)
	bw := swf.NewWriter(cmdio.TempWriter(spool))
	bw.FollowEnding(r) // a changed first record ends like the input's lines
	if err := writeBody(r, cl, bw, nil); err != nil {
		return err
	}
	if err := cmdio.AllMalformed(r, "swfclean"); err != nil {
		return err
	}
	malformed, _ := r.Malformed()
	cl.Annotate(hdr, cl.Report(malformed)) // and --set
	// The body was written: the input was read to its end and its hash is
	// known.
	rec, err := o.record()
	if err != nil {
		return err
	}
	provenance.AddTo(hdr, rec)
	hw := swf.NewWriter(out)
	hw.Follow(r)
	hw.WriteHeader(hdr)
	if err := hw.Flush(); err != nil {
		return err
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	// The body's first changed records took the input's first line's
	// ending; they end as the header's last line now that it is final
	// (Annotate and --set replace read lines by lines of their own).
	body := bufio.NewReaderSize(spool, 64<<10)
	if n, cr := bw.LeadingComposed(); n > 0 && cr != swf.CRLFAfterHeader(r, hdr) {
		return swf.CopyMendingLeading(out, body, n, !cr)
	}
	_, err = io.Copy(out, body)
	return err
}

// writeAccounting writes the id mapping and the JSON report when asked, and
// the accounting table on stderr unless -q.
func writeAccounting(o *options, files *cmdio.Files, r *swf.Reader, cl *clean.Cleaner, stderr io.Writer) error {
	malformed, firstBad := r.Malformed()
	rep := cl.Report(malformed)
	if o.anonymizeMap != "" {
		var err error
		if o.conversion != nil {
			err = writeNameMapping(files, o.anonymizeMap, o.conversion.Names, cl.AnonymizeMapping())
		} else {
			err = writeMapping(files, o.anonymizeMap, cl.AnonymizeMapping())
		}
		if err != nil {
			return err
		}
	}
	if o.report != "" {
		if err := writeJSON(files, o.report, cleanReport{File: r.Name, Conversion: o.accounting(), Report: rep, MalformedLines: errorStrings(firstBad)}); err != nil {
			return err
		}
	}
	if !o.quiet {
		printAccounting(stderr, r.Name, rep, firstBad)
	} else {
		printWarnings(stderr, rep.Warnings) // -q silences the table, not what may need a look
	}
	return nil
}

func (o *options) config() (clean.Config, error) {
	cfg := clean.Config{Machine: o.procs, Set: o.settings(), Flurry: o.flurry, Tool: "swfclean"}
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
			return cmdio.ReadError(r, "swfclean", err)
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
			return cmdio.ReadError(r, "swfclean", err)
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
	File       string              `json:"file"`
	Conversion *convert.Accounting `json:"conversion,omitempty"`
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

func writeJSON(files *cmdio.Files, name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeSide(files, name, append(data, '\n'))
}

func writeMapping(files *cmdio.Files, name string, m []clean.Mapping) error {
	var b strings.Builder
	b.WriteString("# kind\told\tnew\n")
	for _, e := range m {
		fmt.Fprintf(&b, "%s\t%d\t%d\n", e.Kind, e.Old, e.New)
	}
	return writeSide(files, name, []byte(b.String()))
}

// writeSide writes a side file of the run (committed with the trace).
func writeSide(files *cmdio.Files, name string, data []byte) error {
	out, err := files.Create(name)
	if err != nil {
		return err
	}
	_, err = out.Write(data)
	return err
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
		if s.NotApplied != "" {
			fmt.Fprintf(&b, "  %-40s not applied: %s\n", s.Name, s.NotApplied)
			continue
		}
		fmt.Fprintf(&b, "  %-40s %8d dropped %8d changed\n", s.Name, s.Dropped, s.Changed)
		if s.Detail != "" {
			fmt.Fprintf(&b, "    %s\n", s.Detail)
		}
	}
	io.WriteString(w, b.String())
	printWarnings(w, rep.Warnings)
}

// printWarnings writes warnings on stderr, one a line.
func printWarnings(w io.Writer, warnings []string) {
	var b strings.Builder
	for _, msg := range warnings {
		fmt.Fprintf(&b, "swfclean: warning: %s\n", msg)
	}
	io.WriteString(w, b.String())
}
