// Package cleancli is the swfclean command: flags, wiring and exit codes around
// pkg/clean.
package cleancli

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	// The zone database, for filter dates in the log's time zone (TimeZoneString)
	// and for --timezone.
	_ "time/tzdata"

	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/clean"
	"github.com/swfkit/swfkit/pkg/convert"
	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/swf"
)

const description = `swfclean checks and cleans SWF workload traces (Parallel Workloads Archive).

With --check it prints a report (header summary, every anomaly check that fired
with its count and first line numbers, missing header labels) and writes no trace.
With --flurries it lists candidate flurries. Otherwise it writes the trace cleaned
by the selected rules (--list-rules; default set unless --rules says otherwise),
after dropping the records that match any --filter, and prints the accounting on
stderr: records read = written + dropped, per rule. The output header gets Note
lines naming every rule with its counts, and refreshed MaxJobs and MaxRecords.
'swfclean --rules none' writes its input byte-identical.

With --from sacct (Slurm's 'sacct --parsable2' output, with --timezone) or
--from alea (the Alea format MetaCentrum publishes) the input is a scheduler's
log: it is converted to SWF first (jobs renumbered in submit order, the original
id kept as jobid=ID, names mapped to numbers, every line accounted for), then
checked or cleaned as above. --check --submission also lists the header labels
the archive expects and exits 1 when a required one is missing.

Filters use the archive's syntax: --filter 'user=374 and job>14968 and job<28553'
(and, or, not, parentheses; =, !=, <, <=, >, >=); submit, start and end also
compare with dates (YYYY-MM-DD[ HH:MM[:SS]], the log's time zone). Field names:
` + "%s" + `.

Exit status: 0 success, 1 bad input or I/O error (or an anomaly with
--fail-on-anomaly), 2 usage error.`

// options holds the parsed command line.
type options struct {
	input, output          string
	check, failOnAnomaly   bool
	flurries, dropFlurries bool
	rules                  string
	skip, filters, keeps   []string
	sets                   []string
	procs                  int64
	flurry                 clean.FlurryConfig
	anonymize              bool
	anonymizeMap           string
	report                 string
	lenient, quiet         bool
	provenance             provenance.Record // the run's configuration, for the output header
	from, timezone         string            // --from FORMAT and the log's time zone
	nodes                  int64
	submission             bool
	// displayName names the input in messages when it is not o.input itself
	// (a converted log is read from memory); conversion is what --from did.
	displayName string
	conversion  *convert.Result
	// inputDigests hash the main input (the --from log when converting)
	// each time it is read: the Provenance line records its hash.
	inputDigests []*cmdio.Digest
}

// Run runs swfclean with args (args[0] is the program name) and returns the
// exit status.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cmdio.Run(NewApp(stdin, stdout, stderr), args, stderr) // options may follow the file name
}

// NewApp is swfclean's command line: its flags, help and action. The man page
// and completion scripts are generated from it.
func NewApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := cmdio.NewApp("swfclean", "check and clean SWF workload traces", stdout, stderr)
	app.UsageText = "swfclean [OPTIONS] [FILE|-]"
	app.Description = fmt.Sprintf(description, wrap(strings.Join(clean.FilterFieldNames(), ", "), 80))
	app.DisableSliceFlagSeparator = true
	app.Flags = flags()
	app.Action = func(c *cli.Context) error {
		if c.Bool("list-rules") {
			if err := cmdio.ListingOnly(c, "list-rules"); err != nil {
				return err
			}
			return cmdio.WriteListing(c, stdin, stdout, listRules)
		}
		opts, err := parseOptions(c)
		if err != nil {
			return err
		}
		return run(opts, stdin, stdout, stderr)
	}
	cmdio.SetHelp(app, help)
	return app
}

func flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (.gz, .zst compress) instead of stdout"},
		&cli.BoolFlag{Name: "check", Usage: "print an anomaly report instead of writing a trace"},
		&cli.BoolFlag{Name: "fail-on-anomaly", Usage: "with --check: exit 1 when any anomaly (not info) fired or a line was malformed"},
		&cli.BoolFlag{Name: "flurries", Usage: "print candidate flurries instead of writing a trace"},
		&cli.BoolFlag{Name: "list-rules", Usage: "list the cleaning rules, in the order they apply, and exit"},
		&cli.StringFlag{Name: "rules", Value: "default", Usage: "rules to apply: default, none, all, or a comma `LIST` of names (may include default)"},
		&cli.StringSliceFlag{Name: "skip", Usage: "do not apply `RULE` (repeatable, or a comma list)"},
		&cli.StringSliceFlag{Name: "filter", Aliases: []string{"drop"}, Usage: "drop records matching `EXPR` (archive syntax and convention: the filter names what is removed; repeatable)"},
		&cli.StringSliceFlag{Name: "keep", Usage: "drop records not matching `EXPR` (repeatable: each must match)"},
		&cli.BoolFlag{Name: "drop-flurries", Usage: "apply the flurries rule (drop candidate flurries)"},
		&cli.Int64Flag{Name: "flurry-window", Value: clean.DefaultFlurryWindow, Usage: "flurry window length in `SECONDS`"},
		&cli.IntFlag{Name: "flurry-min-jobs", Value: clean.DefaultFlurryMinJobs, Usage: "least `N` jobs of one user in a window to be a flurry"},
		&cli.Float64Flag{Name: "flurry-share", Value: clean.DefaultFlurryMinShare, Usage: "least `SHARE` (0..1] of a window's submissions to be a flurry"},
		&cli.Int64Flag{Name: "procs", Usage: "machine size `N` for too_big/clamp_too_big, written as the output's MaxProcs (with a Note of the old value)", DefaultText: "--set MaxProcs, else header MaxProcs, else MaxNodes"},
		&cli.BoolFlag{Name: "anonymize", Usage: "apply the anonymize rule (user, group, executable, queue, partition ids 1..N by first appearance)"},
		&cli.StringFlag{Name: "anonymize-map", Usage: "with --anonymize: write the id mapping (kind old new, tab-separated) to `FILE`"},
		&cli.StringSliceFlag{Name: "set", Usage: "replace or add a header line: `LABEL=VALUE` (repeatable; Note, Queue and Partition lines are added, a Queue or Partition of the same number replaced); MaxProcs and MaxNodes are then the machine size too_big checks, as --procs, with a Note of the old value; a value the format does not allow (what --check flags header_malformed: Preemption maybe, StartTime garbage, MaxProcs 0) is refused"},
		&cli.StringFlag{Name: "report", Usage: "also write the accounting (or with --check, the check result) as JSON to `FILE`"},
		&cli.BoolFlag{Name: "lenient", Usage: "skip malformed lines (counted and reported) instead of failing; an input with no valid job line is still an error"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "do not print the accounting on stderr (warnings still are)"},
		&cli.StringFlag{Name: "from", Value: "swf", Usage: "read the input as `FORMAT`: swf, sacct (the output of `sacct --parsable2` with its header line; see docs/swfclean.md for the command) or alea (the Alea simulator's format MetaCentrum publishes); sacct and alea are converted to SWF, then checked or cleaned as usual"},
		&cli.StringFlag{Name: "timezone", Usage: "with --from: the IANA time zone `NAME` (e.g. Europe/Prague, UTC) of the log's printed times, as sacct prints the local time of the machine it ran on; required for sacct, UTC by default for alea (header StartTime/EndTime)"},
		&cli.Int64Flag{Name: "nodes", Usage: "with --from: the machine's number of nodes `N` (header MaxNodes); without it (or --set MaxNodes=N) the largest job's node count is written as a lower bound, with a warning"},
		&cli.BoolFlag{Name: "submission", Usage: "with --check: also report the readiness of the log for submission to the archive (its expected header labels, whether user and group ids look anonymized); exit 1 when a required label is missing"},
	}
}

func parseOptions(c *cli.Context) (*options, error) {
	o := &options{
		output: c.String("output"), check: c.Bool("check"), failOnAnomaly: c.Bool("fail-on-anomaly"),
		flurries: c.Bool("flurries"), dropFlurries: c.Bool("drop-flurries"),
		rules: c.String("rules"), skip: c.StringSlice("skip"), filters: c.StringSlice("filter"),
		keeps: c.StringSlice("keep"), sets: c.StringSlice("set"), procs: c.Int64("procs"),
		flurry: clean.FlurryConfig{
			Window: c.Int64("flurry-window"), MinJobs: c.Int("flurry-min-jobs"), MinShare: c.Float64("flurry-share"),
		},
		anonymize: c.Bool("anonymize"), anonymizeMap: c.String("anonymize-map"),
		report: c.String("report"), lenient: c.Bool("lenient"), quiet: c.Bool("quiet"),
		provenance: cmdio.Provenance(c),
		from:       c.String("from"), timezone: c.String("timezone"), nodes: c.Int64("nodes"),
		submission: c.Bool("submission"),
	}
	switch c.NArg() {
	case 0:
	case 1:
		o.input = c.Args().First()
	default:
		return nil, cmdio.Usagef("one input file at most, got %d: %s", c.NArg(), strings.Join(c.Args().Slice(), " "))
	}
	switch {
	case o.flurry.Window <= 0:
		return nil, cmdio.Usagef("--flurry-window must be positive, got %d", o.flurry.Window)
	case o.flurry.MinJobs < 1:
		return nil, cmdio.Usagef("--flurry-min-jobs must be at least 1, got %d", o.flurry.MinJobs)
	case o.flurry.MinShare <= 0 || o.flurry.MinShare > 1:
		return nil, cmdio.Usagef("--flurry-share must be in (0, 1], got %g", o.flurry.MinShare)
	case o.procs < 0, c.IsSet("procs") && o.procs == 0, o.procs > math.MaxInt32:
		return nil, cmdio.Usagef("--procs must be from 1 to %d, got %d (leave it out to use the header)", math.MaxInt32, o.procs)
	case strings.Trim(o.rules, ", \t") == "":
		return nil, cmdio.Usagef("--rules %q names no rule: give default, none, all or rule names (--list-rules)", o.rules)
	case o.failOnAnomaly && !o.check:
		return nil, cmdio.Usagef("--fail-on-anomaly needs --check")
	case o.anonymizeMap != "" && !o.anonymize && !o.converting() && !o.selects("anonymize"):
		return nil, cmdio.Usagef("--anonymize-map needs --anonymize (or --from sacct|alea, whose names it maps)")
	case o.dropFlurries && o.skips("flurries"):
		return nil, cmdio.Usagef("--drop-flurries and --skip flurries contradict each other: give one")
	case o.anonymize && o.skips("anonymize"):
		return nil, cmdio.Usagef("--anonymize and --skip anonymize contradict each other: give one")
	case o.submission && !o.check:
		return nil, cmdio.Usagef("--submission needs --check")
	case o.converting() && (o.nodes < 0 || c.IsSet("nodes") && o.nodes == 0 || o.nodes > math.MaxInt32):
		return nil, cmdio.Usagef("--nodes must be from 1 to %d, got %d (leave it out to write the largest job's node count as a lower bound)", math.MaxInt32, o.nodes)
	}
	if err := o.checkFrom(c); err != nil {
		return nil, err
	}
	if o.check || o.flurries {
		// Report modes write no trace: a cleaning option would be silently ignored.
		// Filters select the records --flurries looks at (not --check's: its
		// header checks count every record).
		for _, name := range []string{"rules", "skip", "filter", "keep", "drop-flurries", "procs",
			"anonymize", "anonymize-map", "set"} {
			switch {
			case !c.IsSet(name):
			case o.converting() && (name == "procs" || name == "set"):
				// They describe the converted log's machine, which --check reads.
			case o.check && (name == "set" || name == "procs"):
				return nil, cmdio.Usagef("--%s does not apply to --check, which checks the header as it is and writes no trace: clean with --%s, then check the output", name, name)
			case o.check:
				return nil, cmdio.Usagef("--%s does not apply to --check, which writes no trace", name)
			case name != "filter" && name != "keep":
				return nil, cmdio.Usagef("--%s does not apply to --flurries, which writes no trace", name)
			}
		}
	}
	// The flurry thresholds shape only a flurry search: given without one
	// they would be recorded (Provenance) yet change nothing.
	findsFlurries := o.flurries || (!o.check && (o.dropFlurries || o.selects("flurries")))
	for _, name := range []string{"flurry-window", "flurry-min-jobs", "flurry-share"} {
		if c.IsSet(name) && !findsFlurries {
			return nil, cmdio.Usagef("--%s applies to a flurry search (--flurries, --drop-flurries, or the rule flurries in --rules), and this run makes none", name)
		}
	}
	for _, s := range o.sets {
		label, value, ok := strings.Cut(s, "=")
		if !ok || !validLabel(label) {
			return nil, cmdio.Usagef("--set %q: expected Label=value with a label of letters, digits and _", s)
		}
		if strings.ContainsAny(value, "\r\n") {
			return nil, cmdio.Usagef("--set %q: a header value is one line (give each line its own --set Note=...)", s)
		}
		// The values --check flags as header_malformed, refused here.
		if err := clean.CheckHeaderValue(label, value); err != nil {
			return nil, cmdio.Usagef("--set %q: %v", s, err)
		}
	}
	// Both are the machine size the rules check and the output's MaxProcs:
	// one of them would be a silent choice.
	if v, ok := o.setMachine("MaxProcs"); ok && o.procs > 0 && v != o.procs {
		return nil, cmdio.Usagef("--procs %d and --set MaxProcs=%d contradict each other: both give the machine size too_big checks and the output's MaxProcs; give one", o.procs, v)
	}
	if v, ok := o.setMachine("MaxNodes"); ok && o.nodes > 0 && v != o.nodes {
		return nil, cmdio.Usagef("--nodes %d and --set MaxNodes=%d contradict each other: both give the output's MaxNodes; give one", o.nodes, v)
	}
	return o, nil
}

// settings are the --set lines, in order.
func (o *options) settings() []clean.Setting {
	var out []clean.Setting
	for _, s := range o.sets {
		label, value, _ := strings.Cut(s, "=")
		out = append(out, clean.Setting{Label: label, Value: strings.TrimSpace(value)})
	}
	return out
}

// setMachine returns the machine size the last --set of label (MaxProcs or
// MaxNodes, any case) gives, as the tools will read it (its leading integer;
// checked by clean.CheckHeaderValue), and whether one is given.
func (o *options) setMachine(label string) (int64, bool) {
	v, ok := int64(0), false
	for _, s := range o.settings() {
		if strings.EqualFold(s.Label, label) {
			h := swf.Header{Lines: []swf.HeaderLine{{Label: label, Value: s.Value}}}
			v, _, _ = h.Int(label)
			ok = true
		}
	}
	return v, ok
}

// selects reports whether --rules and --skip choose the rule name (an
// unknown name is reported where the rules are selected).
func (o *options) selects(name string) bool {
	names, err := clean.SelectRules(o.rules, o.skip)
	return err == nil && slices.Contains(names, name)
}

// skips reports whether --skip names the rule.
func (o *options) skips(name string) bool {
	for _, s := range o.skip {
		for _, word := range strings.Split(s, ",") {
			if strings.TrimSpace(word) == name {
				return true
			}
		}
	}
	return false
}

// wrap breaks text at spaces into lines of at most width bytes.
func wrap(text string, width int) string {
	var b strings.Builder
	line := 0
	for i, word := range strings.Fields(text) {
		if i > 0 && line+1+len(word) > width {
			b.WriteString("\n")
			line = 0
		} else if i > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(word)
		line += len(word)
	}
	return b.String()
}

func validLabel(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func run(o *options, stdin io.Reader, stdout, stderr io.Writer) error {
	// Every file of the run, checked before any is opened: no output may be
	// the input.
	files := cmdio.NewFiles(stdin, stdout)
	files.Input("", o.input)
	outputs := func(files *cmdio.Files) {
		files.Output("-o", o.output)
		files.Output("--report", o.report)
		files.Output("--anonymize-map", o.anonymizeMap)
	}
	outputs(files)
	if err := files.Check(); err != nil {
		return err
	}
	if o.converting() {
		// The log is converted in memory; the run then reads the SWF from there.
		converted, err := convertInput(o, files, stderr)
		if err != nil {
			return err
		}
		o.input = "-"
		files = cmdio.NewFiles(converted, stdout)
		outputs(files)
	}
	if o.check || o.flurries {
		return runReport(o, files, stderr)
	}
	return runClean(o, files, stderr)
}

func listRules(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Rules, in the order they apply (after --filter and --keep):\n")
	for _, r := range clean.Rules {
		mark := "      "
		if r.Default {
			mark = "[dflt]"
		}
		note := ""
		switch {
		case r.Memory != "":
			note = " (" + r.Memory + ")"
		case r.WholeTrace:
			note = " (holds the whole trace in memory)"
		}
		fmt.Fprintf(&b, "  %s %-22s %s%s\n", mark, r.Name, r.Summary, note)
	}
	fmt.Fprintf(&b, "\nDefault set: %s\n", strings.Join(clean.DefaultRules(), ","))
	_, err := io.WriteString(w, b.String())
	return err
}
