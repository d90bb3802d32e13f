package statcli

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"github.com/swfkit/swfkit/internal/cli/replay"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/plot"
	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/stats"
	"github.com/swfkit/swfkit/pkg/swf"
)

// Run runs swfstat with args (args[0] is the program name) and returns the
// exit status.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cmdio.Run(NewApp(stdin, stdout, stderr), args, stderr)
}

// NewApp is swfstat's command line: its flags, help and action. The man page
// and completion scripts are generated from it.
func NewApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := cmdio.NewApp("swfstat", "summarize SWF traces side by side: waits, slowdowns, utilization, utility, U-QoS, fairness", stdout, stderr)
	app.ArgsUsage = "[FILE...]  (standard input when none; gzip, zstd, bzip2 and xz are detected)"
	app.Description = "Prints one column per input. Every number states how many jobs it is over; every job left out of a metric is counted with its reason."
	// A --tag value is kept whole (commas, spaces): urfave/cli would split it
	// at commas; --by splits its comma list itself.
	app.DisableSliceFlagSeparator = true
	app.Flags = flags()
	app.Action = func(c *cli.Context) error { return action(c, stdin, stdout, stderr) }
	cmdio.SetHelp(app, help)
	return app
}

func flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the summary to `FILE` (.gz/.zst compress) instead of standard output"},
		&cli.StringFlag{Name: "format", Value: "table", Usage: "summary `FORMAT`: table (aligned for a terminal), csv or json (long form, stable column names)"},
		&cli.StringFlag{Name: "files-from", Usage: "read more input paths from `FILE`, one a line (after those given as arguments): a study's thousands of runs, past the system's limit on a command line"},
		&cli.StringFlag{Name: "label", Usage: "comma-separated column `LABELS`, one per input (default: file names)"},
		&cli.StringFlag{Name: "baseline", Usage: "add each number's change in percent relative to the input with this `LABEL` (as Srinivasan et al.'s Fig. 1 compares with conservative backfilling)"},
		&cli.Float64Flag{Name: "bsld-threshold", Value: 10, Usage: "runtime floor of bounded slowdown, `SECONDS` (1 to 2^40: SWF times are whole seconds)"},
		&cli.StringFlag{Name: "percentiles", Value: "25,50,75,98,100", Usage: "comma-separated `PERCENTILES` to report (nearest rank; each 0..100)"},
		&cli.Int64Flag{Name: "procs", Usage: "machine size `N`; overrides the header's MaxProcs/MaxNodes (the output says so)", DefaultText: "header MaxProcs, else MaxNodes"},
		&cli.StringFlag{Name: "procs-from", Value: "requested", Usage: "processors of a job for utilization, queue and capacity, `RULE` as swfsim's flag: requested (field 8, else 5; what swfsim allocates), requested-only, allocated (field 5; use for a recorded log) or max; swfsim's definition"},
		&cli.StringSliceFlag{Name: "by", Usage: "break down by `KEY`: category, status, short, user or queue; give twice for a cross table"},
		&cli.Int64Flag{Name: "category-runtime", Value: 3600, Usage: "category: longest short job, `SECONDS`"},
		&cli.Int64Flag{Name: "category-procs", Value: 8, Usage: "category: widest narrow job, `N` requested processors (Srinivasan et al. use 64 for LANL)"},
		&cli.Int64Flag{Name: "trial", Aliases: []string{"short-threshold"}, Value: 90, Usage: "--by short: longest runtime of a short job, `SECONDS`: Thebe et al.'s trial run, swfsim's --trial (--short-threshold is a deprecated alias)"},
		&cli.Float64Flag{Name: "uqos-factor", Value: 1, Usage: "U-QoS factor `F` of Guim et al. (1 equal weight; 2, 4 favour large jobs; 0.5, 0.25 short ones; 1e-6 to 1e6)"},
		&cli.Float64Flag{Name: "rt-lower-bound", Aliases: []string{"uqos-lower-bound"}, Usage: "U-QoS rt_lowerbound, `SECONDS` (swfaugment's name; --uqos-lower-bound is a deprecated alias)", DefaultText: "from swfaugment's bounds Note in the input, else 4% of the upper bound"},
		&cli.Float64Flag{Name: "rt-upper-bound", Aliases: []string{"uqos-upper-bound"}, Usage: "U-QoS rt_upperbound, `SECONDS` (swfaugment's name; --uqos-upper-bound is a deprecated alias)", DefaultText: "from swfaugment's bounds Note in the input, else 50% of the 95th percentile of runtime"},
		&cli.StringFlag{Name: "skip-first", Value: "0", Usage: "leave the first `N` jobs (or N%) out of the per-job metrics (warm-up)"},
		&cli.StringFlag{Name: "skip-last", Value: "0", Usage: "leave the last `N` jobs (or N%) out of the per-job metrics (cool-down)"},
		&cli.StringFlag{Name: "plot", Usage: "draw a figure to `FILE` (.svg, .png or .pdf)"},
		&cli.StringFlag{Name: "html", Usage: "also write a self-contained HTML report to `FILE`: the tables, every figure, a Gantt chart per input (--window), provenance and warnings"},
		&cli.StringFlag{Name: "plot-kind", Value: "wait-cdf", Usage: "figure `KIND`: wait-cdf, bsld-cdf, utilization, queue-length, category, gantt (one input) or sweep (a metric against a grid's parameter over a study's runs: --sweep-x, --sweep-y, --sweep-series)"},
		&cli.StringFlag{Name: "plot-size", Value: "16x10cm", Usage: "figure size `WxH` in cm or in (e.g. 6x4in)"},
		&cli.IntFlag{Name: "plot-dpi", Value: plot.DefaultDPI, Usage: "resolution of a .png figure, `N` dots per inch (36-1200; a PNG is at most 64 megapixels)"},
		&cli.StringFlag{Name: "window", Usage: "gantt: time span `START:END`, seconds since the trace's start or dates YYYY-MM-DD[THH:MM[:SS]] in its time zone; either side may be empty (the trace's start or end)", DefaultText: "the busiest day, or the whole trace if shorter"},
		&cli.StringFlag{Name: "sweep-x", Usage: "sweep: the x axis, a `COLUMN` of the CSV (a Provenance column such as swfaugment.target-load or swfaugment.estimate) or a metric (offered_load)", DefaultText: "the grid's load: swfaugment's --target-load, else --load, as the last swfaugment run set it"},
		&cli.StringFlag{Name: "sweep-y", Value: "bsld", Usage: "sweep: the y axis, a `METRIC` or METRIC:STATISTIC as the CSV names them (wait_s:p50); the statistic defaults to mean, else value"},
		&cli.StringFlag{Name: "sweep-series", Usage: "sweep: one line per value of these comma-separated `COLUMNS` (swfsim.policy,swfsim.no-kill), or none; runs that share a line and an x value are one point, their mean with a bar from least to greatest", DefaultText: "swfsim.policy, and the trace when the inputs come from several"},
		&cli.StringFlag{Name: "gantt-color", Value: "category", Usage: "gantt: color jobs by `KEY`: category, user, status or killed"},
		&cli.BoolFlag{Name: "replay", Usage: "print, instead of a summary, the shell commands that remake each input's records from its Provenance lines (the swfclean, swfaugment and swfsim runs that made it, with their flags that are not defaults)"},
		&cli.BoolFlag{Name: "sha256", Usage: "print, instead of a summary, the SHA-256 of each input's decompressed bytes, as a Provenance line's input-sha256 records it: one line HASH  FILE per input, as sha256sum writes"},
		&cli.BoolFlag{Name: "check-capacity", Usage: "verify each schedule (no oversubscription, no start before submit), print the peak processors in use; exit 1 on a violation"},
		&cli.BoolFlag{Name: "lenient", Usage: "skip malformed records (counted and reported) instead of failing; an input with no valid record is still an error"},
		&cli.StringFlag{Name: "metrics", Usage: "only these metrics: a comma `LIST` of names or shell patterns (bsld,wait_s,fairness*), in every format"},
		&cli.StringSliceFlag{Name: "tag", KeepSpace: true, Usage: "add a constant column `KEY=VALUE` to the CSV, JSON and --jobs tables (repeatable)"},
		&cli.StringFlag{Name: "csv", Usage: "also write the summary as CSV to `FILE` (.gz/.zst compress), whatever --format says"},
		&cli.StringFlag{Name: "json", Usage: "also write the summary as JSON to `FILE` (.gz/.zst compress), whatever --format says"},
		&cli.StringFlag{Name: "jobs", Usage: "write one row per job of every input to `FILE` (.csv, .csv.gz or .csv.zst): SWF fields, derived values, extension tokens, provenance"},
		&cli.StringFlag{Name: "kill-warn", Value: cmdio.KillWarnDefault, Usage: "warn (stderr, table, CSV/JSON warning column) about an input in which more than this `SHARE` (0..1, or a percentage such as 5%) of the jobs were killed at their requested time; 0 warns at any kill, off never (as swfsim's --kill-warn)"},
	}
}

// summaryOnly are the flags that shape the summary only, not --check-capacity.
var summaryOnly = []string{"format", "by", "baseline", "bsld-threshold", "percentiles",
	"category-runtime", "category-procs", "trial", "uqos-factor",
	"rt-lower-bound", "rt-upper-bound", "skip-first", "skip-last", "html", "metrics", "tag", "csv", "json", "jobs", "kill-warn", "plot", "plot-kind", "plot-size", "plot-dpi", "window", "gantt-color", "sweep-x", "sweep-y", "sweep-series"}

// maxTableInputs is the most inputs the side-by-side table suits; over more,
// a note points to the tidy table and the sweep figure.
const maxTableInputs = 8

// options are the parsed command line.
type options struct {
	cfg      stats.Config
	files    []string
	labels   []string
	format   string
	output   string
	plotFile string
	htmlFile string
	plotKind plot.Kind
	plotFmt  string
	plotSize plot.Size
	window   string
	// ganttColor is --gantt-color.
	ganttColor string
	sweep      sweepSpec // --sweep-x, --sweep-y, --sweep-series
	checkCap   bool
	lenient    bool
	procs      int64
	procsFrom  string
	baseline   int // index of the --baseline input, -1 for none
	// uqosFrom is the label of the input whose U-QoS bounds every column
	// uses ("" with one input, both bounds given, or several workloads);
	// uqosLower and uqosUpper are those bounds.
	uqosFrom string
	// uqosRefs are the inputs whose bounds other inputs share, one per
	// workload, in argument order (nil when bounds are not shared).
	uqosRefs []int
	// uqosShared says, with several workloads, whose bounds each one uses.
	uqosShared           []string
	procsFromNote        bool // --procs-from taken from swfsim's Note
	uqosLower, uqosUpper float64
	// uqosNote lists the inputs whose U-QoS bounds come from swfaugment's
	// bounds Note in their header.
	uqosNote []string

	metrics    []string            // --metrics patterns; nil: all
	tags       []provenance.Column // --tag, in order
	csvFile    string              // --csv
	jsonFile   string              // --json
	jobsFile   string              // --jobs
	filesFrom  string              // --files-from: the list of inputs
	killWarn   cmdio.KillWarn      // --kill-warn
	provenance provenance.Record   // this run's configuration (JSON "provenance")
	// uqosNoteUnused lists the inputs whose bounds Note another input's shared
	// bounds replaced.
	uqosNoteUnused []string
}

// readFileList reads --files-from: one input path a line, as given (a
// carriage return before the newline dropped), blank lines skipped.
func readFileList(list string) ([]string, error) {
	if cmdio.IsStdio(list) {
		return nil, cmdio.Usagef("--files-from %q: give the list in a file (standard input may be an input)", list)
	}
	data, err := os.ReadFile(list)
	if err != nil {
		return nil, fmt.Errorf("--files-from: %w", err)
	}
	var files []string
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.TrimSpace(line) == "":
			continue
		case strings.ContainsRune(line, 0):
			return nil, fmt.Errorf("--files-from %s:%d: a path with a NUL byte: want one path a line", list, i+1)
		}
		files = append(files, line)
	}
	return files, nil
}

func parseOptions(c *cli.Context) (*options, error) {
	o := &options{
		format: c.String("format"), output: c.String("output"), plotFile: c.String("plot"), htmlFile: c.String("html"),
		checkCap: c.Bool("check-capacity"), lenient: c.Bool("lenient"), procsFrom: c.String("procs-from"),
	}
	o.provenance = cmdio.Provenance(c)
	o.csvFile, o.jsonFile, o.jobsFile = c.String("csv"), c.String("json"), c.String("jobs")
	var err error
	if o.killWarn, err = cmdio.ParseKillWarn(c.String("kill-warn")); err != nil {
		return nil, cmdio.Usagef("--kill-warn %s: %v", c.String("kill-warn"), err)
	}
	if m := c.String("metrics"); m != "" {
		for _, p := range strings.Split(m, ",") {
			p = strings.TrimSpace(p)
			if _, err := path.Match(p, ""); err != nil || p == "" {
				return nil, cmdio.Usagef("--metrics %q: want a comma list of metric names or patterns", m)
			}
			o.metrics = append(o.metrics, p)
		}
	}
	if o.jobsFile != "" {
		// In any case, as every output's .gz and .zst (J.CSV.GZ).
		name := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(o.jobsFile), ".gz"), ".zst")
		if !strings.HasSuffix(name, ".csv") {
			return nil, cmdio.Usagef("--jobs %s: want a .csv, .csv.gz or .csv.zst file", o.jobsFile)
		}
	}
	reserved := append(append([]string{"label", "file"}, SummaryColumns...), jobFieldColumns...)
	reserved = append(reserved, jobDerivedColumns...)
	reserved = append(reserved, jobExcludedColumn)
	tags, err := parseTags(c.StringSlice("tag"), reserved)
	if err != nil {
		return nil, cmdio.Usagef("%v", err)
	}
	o.tags = tags
	o.files = c.Args().Slice()
	if list := c.String("files-from"); c.IsSet("files-from") {
		more, err := readFileList(list)
		if err != nil {
			return nil, err
		}
		if len(more) == 0 {
			// Whatever the arguments: an empty list is what a failed
			// find or a cut file leaves, and a study aggregated from
			// its arguments alone would pass for the whole grid.
			return nil, cmdio.Usagef("--files-from %s names no input", list)
		}
		o.filesFrom = list
		o.files = append(o.files, more...)
		// Every input is recorded, as if given as an argument: the list
		// itself may be gone (the study's is a temporary file).
		fields := o.provenance.Fields[:0]
		for _, f := range o.provenance.Fields {
			if f.Key != "input" {
				fields = append(fields, f)
			}
		}
		o.provenance.Fields = fields
		for _, f := range o.files {
			o.provenance.Add("input", f)
		}
	}
	if len(o.files) == 0 {
		o.files = []string{"-"}
	}
	stdinCount := 0
	for _, f := range o.files {
		if cmdio.IsStdio(f) {
			stdinCount++
		}
	}
	if stdinCount > 1 {
		return nil, cmdio.Usagef("standard input (-) given more than once")
	}
	switch o.format {
	case "table", "csv", "json":
	default:
		return nil, cmdio.Usagef("--format %q: want table, csv or json", o.format)
	}
	// --replay and --sha256 name each input by its path, as given: labels
	// (one a table's column) are not made, nor checked.
	if !c.Bool("replay") && !c.Bool("sha256") {
		if err := o.parseLabels(c.String("label")); err != nil {
			return nil, err
		}
	}

	cfg := &o.cfg
	cfg.BSLDThreshold = c.Float64("bsld-threshold")
	if !(cfg.BSLDThreshold >= stats.MinBSLDThreshold && cfg.BSLDThreshold <= swf.MaxTime) {
		// Below 1 s (SWF's resolution) the bound bounds nothing: a job of
		// runtime 0 gets 1 + wait/T, +Inf for T tiny enough.
		return nil, cmdio.Usagef("--bsld-threshold %v: want %d to %d seconds (SWF times are whole seconds: a floor below 1 s changes only jobs of runtime 0, whose bounded slowdown 1 + wait/T grows without bound)", cfg.BSLDThreshold, stats.MinBSLDThreshold, int64(swf.MaxTime))
	}
	ps, err := parsePercentiles(c.String("percentiles"))
	if err != nil {
		return nil, cmdio.Usagef("--percentiles: %v", err)
	}
	cfg.Percentiles = ps
	o.procs = c.Int64("procs")
	if o.procs < 0 || c.IsSet("procs") && o.procs == 0 || o.procs > math.MaxInt32 {
		return nil, cmdio.Usagef("--procs %d: want a machine size from 1 to %d (leave it out to use the header)", o.procs, math.MaxInt32)
	}
	if cfg.ProcsFrom, err = sim.ParseProcsFrom(o.procsFrom); err != nil {
		return nil, cmdio.Usagef("%v", err) // the same values as swfsim's flag
	}
	for _, name := range []string{"category-runtime", "category-procs", "trial"} {
		if c.Int64(name) < 1 {
			return nil, cmdio.Usagef("--%s %d: want a positive number", name, c.Int64(name))
		}
	}
	cfg.ShortRuntime, cfg.NarrowProcs, cfg.TrialRuntime = c.Int64("category-runtime"), c.Int64("category-procs"), c.Int64("trial")
	cfg.UQoSFactor = c.Float64("uqos-factor")
	cfg.UQoSLowerBound, cfg.UQoSUpperBound = c.Float64("rt-lower-bound"), c.Float64("rt-upper-bound")
	for _, name := range []string{"rt-lower-bound", "rt-upper-bound"} {
		if c.IsSet(name) && !(c.Float64(name) > 0) {
			return nil, cmdio.Usagef("--%s %v: must be positive (leave it out to derive it from the trace)", name, c.Float64(name))
		}
		if v := c.Float64(name); v > swf.MaxTime {
			return nil, cmdio.Usagef("--%s %v: beyond swfkit's time bound %d s", name, v, int64(swf.MaxTime))
		}
	}
	if !(cfg.UQoSFactor >= stats.MinUQoSFactor && cfg.UQoSFactor <= stats.MaxUQoSFactor) {
		// delta = factor x phi x rt_lowerbound: a tiny factor underflows it
		// to 0 and wait/delta to +Inf, a huge one overflows it.
		return nil, cmdio.Usagef("--uqos-factor %v: want %g to %g (Guim et al. use 1/4 to 4; beyond, delta = factor x phi x rt_lowerbound under- or overflows)", cfg.UQoSFactor, stats.MinUQoSFactor, stats.MaxUQoSFactor)
	}
	if cfg.UQoSLowerBound < 0 || cfg.UQoSUpperBound < 0 {
		return nil, cmdio.Usagef("the U-QoS bounds must be non-negative")
	}
	if cfg.UQoSLowerBound > 0 && cfg.UQoSUpperBound > 0 && cfg.UQoSLowerBound > cfg.UQoSUpperBound {
		return nil, cmdio.Usagef("--rt-lower-bound %v is above --rt-upper-bound %v", cfg.UQoSLowerBound, cfg.UQoSUpperBound)
	}
	for _, name := range []string{"skip-first", "skip-last"} {
		n, err := stats.ParseCount(c.String(name))
		if err != nil {
			return nil, cmdio.Usagef("--%s %v", name, err)
		}
		if name == "skip-first" {
			cfg.SkipFirst = n
		} else {
			cfg.SkipLast = n
		}
	}
	var by []string
	for _, b := range c.StringSlice("by") {
		for _, k := range strings.Split(b, ",") {
			by = append(by, strings.TrimSpace(k))
		}
	}
	if len(by) > 2 {
		return nil, cmdio.Usagef("--by given %d times: at most twice (a cross table)", len(by))
	}
	for _, b := range by {
		k, err := stats.ParseKey(b)
		if err != nil {
			return nil, cmdio.Usagef("--by: %v", err)
		}
		if len(cfg.By) == 1 && cfg.By[0] == k {
			return nil, cmdio.Usagef("--by %s given twice", b)
		}
		cfg.By = append(cfg.By, k)
	}
	if c.IsSet("trial") && !slices.Contains(cfg.By, stats.ByShort) {
		// It only splits --by short's groups: without them it would be
		// recorded and change nothing.
		return nil, cmdio.Usagef("--trial applies to --by short (short = runtime <= SECONDS), which this run does not ask for")
	}
	if err := o.parsePlotOptions(c); err != nil {
		return nil, err
	}
	for _, mode := range []struct{ flag, what string }{
		{"replay", "prints the commands that made each input"},
		{"sha256", "prints the hash of each input"},
	} {
		if !c.Bool(mode.flag) {
			continue
		}
		// --replay and --sha256 print something else than a summary: any
		// other option but -o would be parsed and silently ignored.
		for _, f := range c.App.Flags {
			name := f.Names()[0]
			if name != mode.flag && name != "output" && c.IsSet(name) {
				return nil, cmdio.Usagef("--%s does not apply to --%s, which %s", name, mode.flag, mode.what)
			}
		}
	}
	if o.checkCap {
		// The capacity check prints a fixed report of every record: the
		// summary's options would be parsed and silently ignored.
		for _, name := range summaryOnly {
			if c.IsSet(name) {
				return nil, cmdio.Usagef("--%s does not apply to --check-capacity (its report is plain text over every record); run the summary separately", name)
			}
		}
	}
	if c.IsSet("category-procs") && !o.usesCategories() {
		// It only draws the line between narrow and wide categories:
		// without them it would be recorded and change nothing.
		return nil, cmdio.Usagef("--category-procs applies to the job categories (--by category, --plot-kind category, a Gantt chart colored by category, --html, --jobs), which this run does not ask for")
	}
	o.baseline = -1
	if b := c.String("baseline"); b != "" {
		for i, l := range o.labels {
			if l == b {
				o.baseline = i
			}
		}
		if o.baseline < 0 {
			return nil, cmdio.Usagef("--baseline %q is not an input label (%s)", b, strings.Join(o.labels, ", "))
		}
	}
	return o, nil
}

// parsePlotOptions reads the figure flags; a flag that would not change
// any figure drawn is a usage error.
func (o *options) parsePlotOptions(c *cli.Context) error {
	var err error
	if o.plotFile == "" {
		for _, name := range []string{"plot-kind", "plot-dpi"} {
			if c.IsSet(name) {
				return cmdio.Usagef("--%s needs --plot FILE", name)
			}
		}
	} else {
		if o.plotKind, err = plot.ParseKind(c.String("plot-kind")); err != nil {
			return cmdio.Usagef("--plot-kind: %v", err)
		}
		if o.plotFmt, err = plot.FormatOf(o.plotFile); err != nil {
			return cmdio.Usagef("--plot: %v", err)
		}
		if o.plotKind == plot.Gantt && len(o.files) != 1 {
			return cmdio.Usagef("--plot-kind gantt draws the schedule of one input, got %d (--html draws one per input)", len(o.files))
		}
	}
	if c.IsSet("plot-size") && o.plotFile == "" && o.htmlFile == "" {
		return cmdio.Usagef("--plot-size needs --plot FILE or --html FILE")
	}
	if o.plotSize, err = plot.ParseSize(c.String("plot-size")); err != nil {
		return cmdio.Usagef("--plot-size: %v", err)
	}
	if c.IsSet("plot-dpi") && o.plotFmt != "png" {
		return cmdio.Usagef("--plot-dpi sets the resolution of a .png figure; --plot %s is %s", o.plotFile, o.plotFmt)
	}
	if o.plotSize.DPI, err = plot.ParseDPI(c.Int("plot-dpi")); err != nil {
		return cmdio.Usagef("--plot-dpi: %v", err)
	}
	if o.plotFmt == "png" {
		if err := o.plotSize.CheckPNG(); err != nil {
			return cmdio.Usagef("--plot %s: %v", o.plotFile, err)
		}
	}
	drawsGantt := o.plotKind == plot.Gantt || o.htmlFile != ""
	for _, name := range []string{"window", "gantt-color"} {
		if c.IsSet(name) && !drawsGantt {
			return cmdio.Usagef("--%s applies to a Gantt chart: --plot-kind gantt or --html", name)
		}
		// The report of a study's many runs draws no Gantt chart.
		if c.IsSet(name) && o.plotKind != plot.Gantt && len(o.files) > maxTableInputs {
			return cmdio.Usagef("--%s applies to the report's Gantt charts, which --html draws for at most %d inputs, got %d", name, maxTableInputs, len(o.files))
		}
	}
	if err := o.parseSweep(c.String, c.IsSet); err != nil {
		return err
	}
	o.window, o.ganttColor = c.String("window"), c.String("gantt-color")
	if !slices.Contains(ganttColorKeys, o.ganttColor) {
		return cmdio.Usagef("--gantt-color %q: want %s", o.ganttColor, strings.Join(ganttColorKeys, ", "))
	}
	return nil
}

// writeReplay writes, for each input, the commands that remake its records
// (replay.Commands), after a "# FILE" line.
func writeReplay(w io.Writer, inputs []string, files *cmdio.Files, stderr io.Writer) error {
	for i, f := range inputs {
		rc, err := files.Open(f)
		if err != nil {
			return err
		}
		r := cmdio.NewSWFReader(rc, cmdio.DisplayName(f))
		hdr, err := r.Header()
		if err == nil {
			err = r.NonEmpty()
		}
		// The commands come from the header alone, but a file cut short or
		// damaged after it (a killed copy, a full disk) must not pass for
		// whole: its records are read to the end, and a fault is a comment
		// and a warning (the commands remake the file, which is why one
		// would replay it).
		var damaged error
		if err == nil {
			damaged = readToEnd(r)
		}
		rc.Close()
		if err != nil {
			return err
		}
		recs, err := provenance.AllFromHeader(hdr)
		if err != nil {
			return err
		}
		cmds, warnings, err := replay.Commands(recs, cmdio.FileSHA256, f)
		for _, w := range warnings {
			fmt.Fprintf(stderr, "swfstat: warning: %s: %s\n", r.Name, w)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", r.Name, err)
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprint(w, replay.Comment(r.Name))
		if damaged != nil {
			what := fmt.Sprintf("this file cannot be read to its end (%v): its header gives the commands, which remake it whole", damaged)
			fmt.Fprintf(stderr, "swfstat: warning: %s: %s\n", r.Name, what)
			fmt.Fprint(w, replay.Comment(what))
		} else {
			// A plain file cut inside its last field reads to its end:
			// only the missing newline tells, as in every other mode.
			cmdio.WarnUnterminated(r, "swfstat", stderr)
		}
		fmt.Fprint(w, cmds)
	}
	return nil
}

// readToEnd reads r's records to the end and returns the first error (a
// malformed or cut line, a truncated or corrupt compressed stream).
func readToEnd(r *swf.Reader) error {
	r.ReuseRecord = true
	for {
		if _, err := r.Read(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// partialWarning says that n partial-execution records were each counted as
// a job.
func partialWarning(n int) string {
	return fmt.Sprintf("%d records are parts of partially executed jobs (status 2, 3 or 4), each summarized as a job of its own; "+
		"to count each job once, merge them first: swfclean --rules default,merge_partial", n)
}

// distinctSuffixes returns, for paths that share a base name, their shortest
// ends (the last n elements, the same n for all, n as small as can be) that
// differ for paths that differ; a path shorter than n elements is given
// whole, and a path given twice gets the same label twice.
func distinctSuffixes(paths []string) []string {
	parts := make([][]string, len(paths))
	most := 0
	for i, p := range paths {
		parts[i] = strings.Split(filepath.ToSlash(p), "/")
		most = max(most, len(parts[i]))
	}
	out := make([]string, len(paths))
	for n := 1; ; n++ {
		seen := map[string]string{} // label -> the path that has it
		ok := true
		for i, el := range parts {
			if n >= len(el) {
				out[i] = paths[i]
			} else {
				out[i] = strings.Join(el[len(el)-n:], "/")
			}
			if q, dup := seen[out[i]]; dup && q != paths[i] {
				ok = false
			}
			seen[out[i]] = paths[i]
		}
		if ok || n >= most {
			return out
		}
	}
}

func (o *options) parseLabels(s string) error {
	if s != "" {
		o.labels = strings.Split(s, ",")
		if len(o.labels) != len(o.files) {
			return cmdio.Usagef("--label gives %d labels for %d inputs", len(o.labels), len(o.files))
		}
		for i, l := range o.labels {
			o.labels[i] = strings.TrimSpace(l) // "--label 'a, b'"
		}
	} else {
		count := map[string]int{}
		for _, f := range o.files {
			l := "stdin"
			if !cmdio.IsStdio(f) {
				l = filepath.Base(f)
			}
			o.labels = append(o.labels, l)
			count[l]++
		}
		// Files with the same base name are labelled by the shortest ends
		// of the paths given that tell them apart (runs/a/x.swf and
		// runs/b/x.swf: a/x.swf and b/x.swf), every one of them, so that no
		// column keeps an ambiguous label; a path given again gets #2, #3, ...
		// Standard input among them (- and /dev/stdin, or - and a file
		// named stdin) is labelled as it was given.
		group := map[string][]int{}
		for i, l := range o.labels {
			if count[l] > 1 {
				group[l] = append(group[l], i)
			}
		}
		for _, idx := range group {
			var paths []string
			var files []int
			again := map[string]int{}
			label := func(i int, l string) {
				if again[l]++; again[l] > 1 {
					l += "#" + strconv.Itoa(again[l])
				}
				o.labels[i] = l
			}
			for _, i := range idx {
				if f := o.files[i]; cmdio.IsStdio(f) {
					if f == "" {
						f = "-" // "" reads standard input too
					}
					label(i, f)
					continue
				}
				paths = append(paths, o.files[i])
				files = append(files, i)
			}
			for k, l := range distinctSuffixes(paths) {
				label(files[k], l)
			}
		}
	}
	seen := map[string]bool{}
	for _, l := range o.labels {
		if strings.ContainsFunc(l, unicode.IsControl) {
			return cmdio.Usagef("input label %q holds a control character (tab, line break), which would break the table's rows; give --label", l)
		}
		if l == "" || seen[l] {
			return cmdio.Usagef("input labels must be distinct and non-empty; give --label")
		}
		seen[l] = true
	}
	return nil
}

func parsePercentiles(s string) ([]float64, error) {
	var ps []float64
	for _, f := range strings.Split(s, ",") {
		p, err := swf.ParseDecimal(strings.TrimSpace(f))
		if err != nil || p < 0 || p > 100 || math.IsNaN(p) {
			return nil, fmt.Errorf("%q: want numbers 0..100 separated by commas", f)
		}
		if p == 0 {
			p = 0 // -0 is the 0th percentile, p0
		}
		// A percentile given twice (50,50 or 50,50.0) would be two rows
		// of one name in the CSV and JSON, which the table shows once.
		if slices.Contains(ps, p) {
			return nil, fmt.Errorf("%q: percentile %s given twice", s, stats.PercentileName(p))
		}
		ps = append(ps, p)
	}
	return ps, nil
}

func action(c *cli.Context, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	o, err := parseOptions(c)
	if err != nil {
		return err
	}
	files := cmdio.NewFiles(stdin, stdout)
	files.MainOutput = "the summary"
	for _, f := range o.files {
		files.Input("", f)
	}
	if o.filesFrom != "" {
		files.Input("--files-from", o.filesFrom) // no output may replace it
	}
	files.Output("-o", o.output)
	files.Output("--plot", o.plotFile)
	files.Output("--csv", o.csvFile)
	files.Output("--json", o.jsonFile)
	files.Output("--jobs", o.jobsFile)
	files.Output("--html", o.htmlFile)
	if err := files.Check(); err != nil {
		return err
	}
	warnSameFile(o.files, stderr)
	defer func() {
		if errors.Is(err, errViolation) {
			// A failed capacity check is a report worth keeping.
			if cerr := files.Commit(); cerr != nil {
				err = cerr
			}
			return
		}
		files.Finish(&err)
	}()
	if c.Bool("replay") {
		return writeOutputs(files, []output{{o.output, func(w io.Writer) error { return writeReplay(w, o.files, files, stderr) }}})
	}
	if c.Bool("sha256") {
		return writeOutputs(files, []output{{o.output, func(w io.Writer) error { return writeSHA256(w, o.files, files) }}})
	}
	traces := make([]*trace, 0, len(o.files))
	defer func() {
		for _, t := range traces {
			if t.rc != nil {
				t.rc.Close() // standard input, after an error
			}
		}
	}()
	for i, f := range o.files {
		t, err := openTrace(f, o.labels[i], o, files, stderr)
		if err != nil {
			return err
		}
		traces = append(traces, t)
	}
	if o.window != "" {
		for _, t := range traces {
			if _, err := parseWindow(o.window, clockOf(t.hdr)); err != nil {
				return cmdio.Usagef("%s: %v", t.display, err)
			}
		}
	}
	if err := o.followSwfsim(c.IsSet("procs-from"), traces, stderr); err != nil {
		return err
	}
	var jobs *jobsExport
	if o.jobsFile != "" {
		jobs = newJobsExport(len(traces))
		defer jobs.remove()
	}
	if err := summarize(o, traces, files, jobs); err != nil {
		return err
	}
	// Every input was read to its end: swfstat's own provenance (the
	// table's Provenance line, the JSON's) names the bytes of each, as the
	// other tools' lines do, and the swfstat.input-sha256 column gives each
	// row's (newInputColumns).
	digests := make([]*cmdio.Digest, len(traces))
	for i, t := range traces {
		digests[i] = t.digest
	}
	o.provenance = cmdio.WithEachInputSHA256(o.provenance, digests)
	for _, t := range traces {
		if t.uqosLower > t.uqosUpper {
			return cmdio.Usagef("%s: U-QoS lower bound %g s is above the upper bound %g s (--rt-lower-bound, --rt-upper-bound, swfaugment's bounds Note or the trace's runtimes)", t.display, t.uqosLower, t.uqosUpper)
		}
	}
	hinted := lastKillWarning(traces)
	killSummary := killWarningSummary(o, traces)
	// One category warning shared by many inputs (a study's runs of one
	// trace) is said once, with the count.
	catCount, catFirst := map[string]int{}, map[string]string{}
	var catOrder []string
	for _, t := range traces {
		if w := t.categoryWarning; w != "" {
			if catCount[w]++; catCount[w] == 1 {
				catFirst[w] = t.display
				catOrder = append(catOrder, w)
			}
		}
	}
	for i, t := range traces {
		if t.malformed > 0 {
			fmt.Fprintf(stderr, "swfstat: %s: skipped %d malformed records (--lenient); first: %v\n", t.display, t.malformed, t.firstMalformed)
		}
		cmdio.WarnUnterminatedLine(t.display, t.unterminated, "swfstat", stderr)
		if t.recordCount != "" {
			fmt.Fprintf(stderr, "swfstat: warning: %s: %s\n", t.display, t.recordCount)
		}
		if t.warning != "" && killSummary == "" {
			fmt.Fprintf(stderr, "swfstat: warning: %s: %s\n", t.display, killWarningText(t, i == hinted))
		}
		if t.partial > 0 {
			fmt.Fprintf(stderr, "swfstat: warning: %s: %s\n", t.display, partialWarning(t.partial))
		}
		if t.swfstatProv > 0 {
			fmt.Fprintf(stderr, "swfstat: warning: %s: %d swfstat Provenance line(s) in its header, which swfstat never writes into an SWF; left out of the provenance columns (the swfstat.* columns are this run's)\n",
				t.display, t.swfstatProv)
		}
		if t.categoryWarning != "" && catCount[t.categoryWarning] <= maxWarningLines {
			fmt.Fprintf(stderr, "swfstat: warning: %s: %s\n", t.display, t.categoryWarning)
		}
		for _, line := range t.foreignProv {
			fmt.Fprintf(stderr, "swfstat: warning: %s:%d: a Provenance line no swfkit tool wrote (its first word is none of %s); left out of the provenance columns\n",
				t.display, line, strings.Join(provenance.Tools, ", "))
		}
	}
	if killSummary != "" {
		fmt.Fprintf(stderr, "swfstat: warning: %s\n", killSummary)
	}
	for _, w := range catOrder {
		if n := catCount[w]; n > maxWarningLines {
			fmt.Fprintf(stderr, "swfstat: warning: %d inputs (%s and %d more): %s\n", n, catFirst[w], n-1, w)
		}
	}
	if o.format == "table" && len(traces) > maxTableInputs && o.csvFile == "" && o.jsonFile == "" && o.plotFile == "" && o.htmlFile == "" && !o.checkCap {
		fmt.Fprintf(stderr, "swfstat: note: %d inputs side by side make a table %d columns wide; --csv FILE (a row per number and input, with each input's grid in columns) or --plot FILE --plot-kind sweep read better\n", len(traces), len(traces))
	}
	if o.checkCap {
		return writeOutputs(files, []output{{o.output, func(w io.Writer) error { return writeCapacity(w, traces) }}})
	}
	if err := o.checkMetrics(traces); err != nil {
		return err
	}
	ic := newInputColumns(o, traces)
	tt := buildTidy(o, traces, ic)
	outs := []output{{o.output, func(w io.Writer) error { return writeSummary(w, o.format, o, traces, ic, tt) }}}
	if o.csvFile != "" {
		outs = append(outs, output{o.csvFile, func(w io.Writer) error { return tt.writeCSV(w) }})
	}
	if o.jsonFile != "" {
		outs = append(outs, output{o.jsonFile, func(w io.Writer) error { return writeTidyJSON(w, o, traces, ic, tt) }})
	}
	if jobs != nil {
		outs = append(outs, output{o.jobsFile, func(w io.Writer) error { return jobs.write(w, traces, ic, jobSettings(o)) }})
	}
	// The sweep figure of --plot-kind sweep and of the report: with the
	// defaults, the report has one only when the inputs are a load grid.
	var sw *sweep
	if o.plotKind == plot.MetricSweep || o.htmlFile != "" {
		var nosweep errNoSweep
		switch sw, err = buildSweep(o, traces, ic); {
		case errors.As(err, &nosweep) && o.plotKind != plot.MetricSweep &&
			!c.IsSet("sweep-x") && !c.IsSet("sweep-y") && !c.IsSet("sweep-series"):
			// The report has a sweep figure only when the inputs are a
			// grid, unless a --sweep-* flag asks for one.
			sw = nil
		case errors.As(err, &nosweep):
			return cmdio.Usagef("%v", err)
		case err != nil:
			return err
		}
		if sw != nil {
			for _, w := range sw.warnings {
				fmt.Fprintf(stderr, "swfstat: warning: %s\n", w)
			}
		}
	}
	// The figures first: one that fails (a --window outside the jobs) must
	// fail the run before the summary reaches standard output.
	if o.plotFile != "" {
		if err := writePlot(o, traces, sw, files); err != nil {
			return err
		}
		if o.plotFmt == "png" || o.plotFmt == "pdf" {
			for _, t := range traces {
				if miss := plot.UndrawableIn(o.plotFmt, t.label); len(miss) > 0 {
					why, fate, instead := "the figure's font cannot draw", "left out of the figure", "an .svg figure, which a browser draws with another font"
					if o.plotFmt == "pdf" {
						// winAnsiPDF: Windows-1252 only.
						why, fate, instead = "a PDF figure cannot draw (its font is embedded for Western European text)", "drawn as ?", "an .svg or .png figure"
					}
					fmt.Fprintf(stderr, "swfstat: warning: %s: label %q has characters %s (%s), %s; give --label, or %s\n",
						o.plotFile, t.label, why, string(miss), fate, instead)
				}
			}
		}
	}
	if o.htmlFile != "" {
		reports := make([]*stats.Report, len(traces))
		for i, t := range traces {
			reports[i] = t.report
		}
		if err := writeHTML(o, traces, reports, sw, files); err != nil {
			return err
		}
	}
	return writeOutputs(files, outs)
}

// output is one file a run writes ("" or "-": standard output).
type output struct {
	name  string
	write func(io.Writer) error
}

// writeOutputs writes every output through files, which commits them all
// only when the whole run succeeded (action's Finish). A failed capacity
// check (errViolation) is written in full and returned.
func writeOutputs(files *cmdio.Files, outs []output) error {
	// Standard output last: files are committed only when every output
	// succeeded, but what reached standard output cannot be taken back, so
	// a figure that fails (a --window outside the jobs) leaves no summary.
	outs = slices.Clone(outs)
	slices.SortStableFunc(outs, func(a, b output) int {
		return cmp.Compare(b2i(cmdio.IsStdio(a.name)), b2i(cmdio.IsStdio(b.name)))
	})
	for _, out := range outs {
		if cmdio.IsStdio(out.name) {
			// Every file is whole: a reader of the summary that quits
			// early (| head) leaves them to be committed.
			files.SideFilesDone()
		}
		f, err := files.Create(out.name)
		if err != nil {
			return err
		}
		bw := bufio.NewWriterSize(f, 64<<10)
		err = out.write(bw)
		if ferr := bw.Flush(); err == nil {
			err = ferr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// followSwfsim reconciles --procs-from with the rule of the swfsim runs that
// wrote the inputs (their "swfsim semantics" Note): without the flag, the
// inputs' common rule is used and stated; a flag or inputs that disagree
// are warned about, since then utilization and capacity count other
// processors than the simulated machine allocated.
func (o *options) followSwfsim(flagSet bool, traces []*trace, stderr io.Writer) error {
	var from []string
	for _, t := range traces {
		if t.simProcsFrom != "" && !slices.Contains(from, t.simProcsFrom) {
			from = append(from, t.simProcsFrom)
		}
	}
	switch {
	case len(from) == 0:
		return nil
	case len(from) > 1:
		fmt.Fprintf(stderr, "swfstat: warning: the inputs were simulated with different --procs-from (%s); using --procs-from %s for all\n", strings.Join(from, ", "), o.cfg.ProcsFrom)
		return nil
	case flagSet:
		if from[0] != o.cfg.ProcsFrom.String() {
			fmt.Fprintf(stderr, "swfstat: warning: --procs-from %s, but swfsim simulated with --procs-from %s (its Note): utilization and capacity count other processors than it allocated\n", o.cfg.ProcsFrom, from[0])
		}
		return nil
	}
	pf, err := sim.ParseProcsFrom(from[0])
	if err != nil {
		return fmt.Errorf("%s: swfsim Note: %w", traces[0].display, err)
	}
	o.cfg.ProcsFrom, o.procsFromNote = pf, true
	return nil
}

// useAugmentBounds gives an input that carries swfaugment's bounds Note
// those runtime bounds, for the ones not given by flag: they come from the
// recorded runtimes (not the simulated, post-kill ones) and are the bounds
// its estimate errors used, so "short" and "large" mean the same to the
// injection and to U-QoS. It reports whether it did.
func useAugmentBounds(o *options, t *trace) bool {
	if t.augUpper <= 0 || (o.cfg.UQoSLowerBound > 0 && o.cfg.UQoSUpperBound > 0) {
		return false
	}
	lower, upper := t.augLower, t.augUpper
	if o.cfg.UQoSLowerBound > 0 {
		lower = o.cfg.UQoSLowerBound
	}
	if o.cfg.UQoSUpperBound > 0 {
		upper = o.cfg.UQoSUpperBound
	}
	t.collector.SetUQoSBounds(lower, upper)
	return true
}

// errViolation marks a failed capacity check (exit 1, already reported).
var errViolation = errors.New("capacity check failed")

// showsCategories reports whether the run shows the category breakdown: by
// --by category, its figure, or the HTML report (which draws it).
func (o *options) showsCategories() bool {
	return slices.Contains(o.cfg.By, stats.ByCategory) || o.plotFile != "" && o.plotKind == plot.Category || o.htmlFile != ""
}

// usesCategories reports whether the run puts jobs in categories, which
// --category-procs divides: where it shows the breakdown (showsCategories),
// the --jobs table's category column, and a Gantt figure colored by
// category.
func (o *options) usesCategories() bool {
	return o.showsCategories() || o.jobsFile != "" || o.plotFile != "" && o.plotKind == plot.Gantt && o.ganttColor == "category"
}

// categoryWarning says when every measured job of t falls on one side of
// --category-procs, so that two of the four categories are empty: a
// threshold made for another machine (8 on LANL-CM5, whose jobs take 32 or
// more).
func categoryWarning(t *trace, cfg stats.Config) string {
	jobs := t.collector.GroupJobs(stats.ByCategory)
	narrow, wide := jobs["SN"]+jobs["LN"], jobs["SW"]+jobs["LW"]
	n := cfg.NarrowProcs
	if n <= 0 {
		n = 8
	}
	switch {
	case narrow == 0 && wide > 0:
		return fmt.Sprintf("every job is wide (more than --category-procs %d processors): categories SN and LN are empty; choose a threshold for this machine (Srinivasan et al. use 64 on LANL-CM5, whose jobs take 32 or more)", n)
	case wide == 0 && narrow > 0:
		return fmt.Sprintf("every job is narrow (at most --category-procs %d processors): categories SW and LW are empty; choose a threshold for this machine", n)
	}
	return ""
}
