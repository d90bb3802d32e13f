package statcli

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/stats"
	"github.com/swfkit/swfkit/pkg/swf"
)

// The per-job table (--jobs FILE): one row per job of every input, with the
// 18 SWF fields, the derived values, one column per extension token key and
// the input's label, file, tag and provenance columns. Each input's rows are
// spooled to a temporary file while it is read (inputs are read in
// parallel); the extension columns are known only once every input is read,
// so the table is written at the end, from the spools, in input order.

// jobFieldColumns are the SWF names of fields 1-18 in snake case.
var jobFieldColumns = func() []string {
	out := make([]string, swf.NumFields)
	for i, n := range swf.FieldNames {
		out[i] = strings.ReplaceAll(strings.ToLower(n), " ", "_")
	}
	return out
}()

// jobDerivedColumns are stats.JobValues, named as the summary's metrics.
var jobDerivedColumns = []string{"wait_s", "response_s", "slowdown", "bsld", "category", "utility"}

// jobSettingColumns are the settings that define bsld and category, named as
// the summary's columns, constant over the table.
var jobSettingColumns = []string{"bsld_threshold_s", "category_runtime_s", "category_procs"}

// jobExcludedColumn says why the summary leaves a job out of every per-job
// metric: "" (measured), or the flag that did (jobSkipFirst, jobSkipLast).
// A measured job's values that a metric cannot use (an unknown wait, ...) are
// empty in their own columns instead, as the summary's exclusions count them.
const (
	jobExcludedColumn = "excluded"
	jobSkipFirst      = "skip-first"
	jobSkipLast       = "skip-last"
)

// knownTokens are the toolkit's extension keys (DESIGN.md), in the column
// order they get when present; other keys follow in sorted order.
var knownTokens = []string{"u", "ckpt", "est0", "pred", "jobid", "killed", "bumps", "runtotal", "trial", "fairstart", "price"}

// jobsExport gathers the per-job rows of every input.
type jobsExport struct {
	spools []*jobWriter // per input
}

func newJobsExport(n int) *jobsExport { return &jobsExport{spools: make([]*jobWriter, n)} }

// open starts the spool of input i.
func (x *jobsExport) open(i int) (*jobWriter, error) {
	f, err := cmdio.CreateTemp("swfstat-jobs-")
	if err != nil {
		return nil, fmt.Errorf("--jobs: temporary file: %w", err)
	}
	bw := bufio.NewWriterSize(cmdio.TempWriter(f), 256<<10)
	w := &jobWriter{f: f, bw: bw, cw: csv.NewWriter(bw), keys: map[string]bool{}}
	x.spools[i] = w
	return w, nil
}

// remove deletes every spool (an interrupted run's too: cmdio.CreateTemp).
func (x *jobsExport) remove() {
	for _, w := range x.spools {
		if w != nil {
			cmdio.RemoveTemp(w.f)
		}
	}
}

// jobWriter spools the rows of one input: the fixed columns, then the
// extension tokens as key=value fields.
type jobWriter struct {
	f    *os.File
	bw   *bufio.Writer
	cw   *csv.Writer
	keys map[string]bool
	rec  []string
}

func (w *jobWriter) add(c *stats.Collector, job *swf.Job) error {
	v, err := c.Values(job)
	if err != nil {
		return err // a *swf.ParseError; the caller names the file
	}
	w.rec = w.rec[:0]
	for n := 1; n <= swf.NumFields; n++ {
		w.rec = append(w.rec, strconv.FormatFloat(job.Field(n), 'f', -1, 64))
	}
	for _, x := range []float64{v.Wait, v.Response, v.Slowdown, v.BoundedSlowdown} {
		w.rec = append(w.rec, formatExact(x))
	}
	w.rec = append(w.rec, v.Category, formatExact(v.Utility))
	for _, tok := range job.Extra {
		key, _, _ := strings.Cut(tok, "=")
		if !w.keys[key] {
			w.keys[key] = true
		}
		w.rec = append(w.rec, tok)
	}
	return w.cw.Write(w.rec)
}

// finish flushes the spool and rewinds it for reading.
func (w *jobWriter) finish() error {
	w.cw.Flush()
	if err := w.cw.Error(); err != nil {
		return fmt.Errorf("--jobs: temporary file: %w", err)
	}
	if err := w.bw.Flush(); err != nil {
		return fmt.Errorf("--jobs: temporary file: %w", err)
	}
	_, err := w.f.Seek(0, io.SeekStart)
	return err
}

// tokenColumns orders the extension keys of every input: the toolkit's in
// knownTokens order, then the others sorted.
func (x *jobsExport) tokenColumns() []string {
	all := map[string]bool{}
	for _, w := range x.spools {
		for k := range w.keys {
			all[k] = true
		}
	}
	var out []string
	for _, k := range knownTokens {
		if all[k] {
			out = append(out, k)
			delete(all, k)
		}
	}
	rest := make([]string, 0, len(all))
	for k := range all {
		rest = append(rest, k)
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// write writes the table: label, file, the SWF fields, the derived values,
// the settings behind them (jobSettingColumns, values in settings), whether
// the summary measured the job (jobExcludedColumn), the token columns (a
// token key that equals another column's name gets the prefix "token_",
// repeated until the name is free),
// then the input columns (tags, provenance).
func (x *jobsExport) write(w io.Writer, traces []*trace, ic *inputColumns, settings []string) error {
	tokens := x.tokenColumns()
	head := append([]string{"label", "file"}, jobFieldColumns...)
	head = append(head, jobDerivedColumns...)
	head = append(head, jobSettingColumns...)
	head = append(head, jobExcludedColumn)
	taken := map[string]bool{}
	for _, h := range head {
		taken[h] = true
	}
	for _, n := range ic.names {
		taken[n] = true
	}
	// A key that is a column's name is prefixed with "token_" as often as it
	// takes to find a free name: the other keys are taken first, so that a
	// trace that also has the prefixed key (wait_s= and token_wait_s=) keeps
	// it under its own name and no two columns share one.
	names := make([]string, len(tokens))
	for i, k := range tokens {
		if !taken[k] {
			names[i] = k
		}
	}
	for _, n := range names {
		if n != "" {
			taken[n] = true
		}
	}
	at := map[string]int{}
	for i, k := range tokens {
		if names[i] == "" {
			name := "token_" + k
			for taken[name] {
				name = "token_" + name
			}
			taken[name] = true
			names[i] = name
		}
		at[k] = i
	}
	head = append(head, names...)
	head = append(head, ic.names...)
	cw := newCSVWriter(w)
	if err := cw.Write(head); err != nil {
		return err
	}
	fixed := swf.NumFields + len(jobDerivedColumns)
	out := make([]string, len(head))
	for i, t := range traces {
		r := csv.NewReader(bufio.NewReaderSize(x.spools[i].f, 256<<10))
		r.FieldsPerRecord = -1
		r.ReuseRecord = true
		inputs := ic.values(i)
		// The spool holds the jobs in the order the Collector got them, so
		// the report's warm-up and cool-down counts say which rows they are.
		rep := t.report
		for row := 0; ; row++ {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("--jobs: reading back the temporary file: %w", err)
			}
			out = out[:0]
			out = append(out, t.label, t.display)
			out = append(out, rec[:fixed]...)
			out = append(out, settings...)
			switch {
			case row < rep.WarmUp:
				out = append(out, jobSkipFirst)
			case row >= rep.JobsRead-rep.CoolDown:
				out = append(out, jobSkipLast)
			default:
				out = append(out, "")
			}
			tok := out[len(out) : len(out)+len(tokens)]
			for j := range tok {
				tok[j] = ""
			}
			out = out[:len(out)+len(tokens)]
			for _, kv := range rec[fixed:] {
				k, v, _ := strings.Cut(kv, "=")
				if j := at[k]; tok[j] == "" {
					tok[j] = v // the first of a repeated key, as swf.Job.ExtraValue
				}
			}
			out = append(out, inputs...)
			if err := cw.Write(out); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// jobSettings are the values of jobSettingColumns.
func jobSettings(o *options) []string {
	return []string{formatExact(o.cfg.BSLDThreshold), strconv.FormatInt(int64(o.cfg.ShortRuntime), 10),
		strconv.FormatInt(int64(o.cfg.NarrowProcs), 10)}
}
