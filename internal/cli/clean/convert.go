package cleancli

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/clean"
	"github.com/swfkit/swfkit/pkg/convert"
	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/swf"
)

// converting reports whether the input is a log that --from converts.
func (o *options) converting() bool { return o.from == "sacct" || o.from == "alea" }

// name is the input's name in messages.
func (o *options) name() string {
	if o.displayName != "" {
		return o.displayName
	}
	return cmdio.DisplayName(o.input)
}

// accounting is the conversion's accounting for the JSON report, nil without --from.
func (o *options) accounting() *convert.Accounting {
	if o.conversion == nil {
		return nil
	}
	return &o.conversion.Accounting
}

// checkFrom validates --from and the flags that only apply to it.
func (o *options) checkFrom(c *cli.Context) error {
	switch o.from {
	case "swf", "sacct", "alea":
	default:
		return cmdio.Usagef("--from %q: expected swf, sacct or alea", o.from)
	}
	if !o.converting() {
		for _, name := range []string{"timezone", "nodes"} {
			if c.IsSet(name) {
				return cmdio.Usagef("--%s applies to --from sacct or alea; an SWF log says it in its header (--set TimeZoneString=..., --set MaxNodes=N)", name)
			}
		}
		return nil
	}
	if o.from == "sacct" && o.timezone == "" {
		return cmdio.Usagef("--from sacct needs --timezone NAME: sacct prints the local time of the machine it ran on (e.g. --timezone Europe/Prague, or --timezone UTC)")
	}
	if o.timezone != "" {
		if _, err := time.LoadLocation(o.timezone); err != nil || o.timezone == "Local" {
			return cmdio.Usagef("--timezone %q: expected an IANA time zone name such as Europe/Prague or UTC", o.timezone)
		}
	}
	return nil
}

// convertInput reads the --from log, converts it, prints the conversion's
// accounting on stderr (unless -q) and returns the converted SWF to read on.
func convertInput(o *options, files *cmdio.Files, stderr io.Writer) (io.Reader, error) {
	in, digest, err := files.OpenHashed(o.input)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	o.inputDigests = append(o.inputDigests, digest)
	cfg := convert.Config{Name: cmdio.DisplayName(o.input), Procs: o.procs, Nodes: o.nodes, Lenient: o.lenient}
	if o.timezone != "" {
		cfg.Location, _ = time.LoadLocation(o.timezone) // checked by checkFrom
	}
	// --set MaxProcs=N and MaxNodes=N give the machine too (--procs is
	// checked not to contradict it).
	if n, ok := o.setMachine("MaxProcs"); ok && cfg.Procs == 0 {
		cfg.Procs = n
	}
	if n, ok := o.setMachine("MaxNodes"); ok && cfg.Nodes == 0 {
		cfg.Nodes = n
	}
	cfg.Tool = conversionTool(o)
	var res *convert.Result
	switch o.from {
	case "sacct":
		res, err = convert.ReadSacct(in, cfg)
	case "alea":
		res, err = convert.ReadAlea(in, cfg)
	}
	if err != nil {
		return nil, cmdio.DamagedOr(in, err)
	}
	o.conversion, o.displayName = res, cfg.Name
	if o.check || o.flurries {
		// The report's line numbers are those of the converted SWF as
		// `--rules none` writes it, which ends its header with the run's
		// Provenance line (runClean). --set applies to the header the
		// report reads (runReport), not to this text, where a new label
		// would shift the lines after it; a cleaning writes --set itself
		// (clean.Config.Set).
		rec, err := o.record()
		if err != nil {
			return nil, err
		}
		provenance.AddTo(res.Header, rec)
	}
	if !o.quiet {
		printConversion(stderr, res)
	} else {
		printWarnings(stderr, res.Warnings)
	}
	var buf bytes.Buffer
	w := swf.NewWriter(&buf)
	w.WriteHeader(res.Header)
	for i := range res.Jobs {
		w.Write(&res.Jobs[i])
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return &buf, nil
}

// conversionTool is the header's Conversion value: the program and the options
// that shaped the conversion.
func conversionTool(o *options) string {
	parts := []string{"swfkit swfclean " + cmdio.BuildVersion(), "--from " + o.from}
	if o.timezone != "" {
		parts = append(parts, "--timezone "+o.timezone)
	}
	if o.procs > 0 {
		parts = append(parts, fmt.Sprintf("--procs %d", o.procs))
	}
	if o.nodes > 0 {
		parts = append(parts, fmt.Sprintf("--nodes %d", o.nodes))
	}
	if o.lenient {
		parts = append(parts, "--lenient")
	}
	return strings.Join(parts, " ")
}

func printConversion(w io.Writer, res *convert.Result) {
	var b strings.Builder
	a := &res.Accounting
	fmt.Fprintf(&b, "swfclean: %s: converted from %s: %s\n", a.File, a.Format, a.String())
	for _, e := range a.FirstErrors {
		fmt.Fprintf(&b, "    %s\n", e)
	}
	io.WriteString(w, b.String())
	printWarnings(w, res.Warnings)
}

// writeNameMapping writes the names --from mapped to integers, and, when
// --anonymize renumbered those integers again, the final ids ("-" for a name no
// written job has).
func writeNameMapping(files *cmdio.Files, file string, names []convert.NameMapping, anon []clean.Mapping) error {
	final := map[string]map[int64]int64{}
	for _, m := range anon {
		if final[m.Kind] == nil {
			final[m.Kind] = map[int64]int64{}
		}
		final[m.Kind][m.Old] = m.New
	}
	var b strings.Builder
	b.WriteString("# kind\tname\tid\n")
	for _, n := range names {
		id := strconv.FormatInt(n.ID, 10)
		if len(anon) > 0 {
			id = "-"
			if v, ok := final[n.Kind][n.ID]; ok {
				id = strconv.FormatInt(v, 10)
			}
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\n", n.Kind, n.Name, id)
	}
	return writeSide(files, file, []byte(b.String()))
}
