package cmdio

import (
	"fmt"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/pkg/provenance"
)

// notConfiguration are the flags that cannot change the content of a run's
// output, left out of its provenance so that one configuration gives one
// byte-identical output wherever it is written and on any number of cores:
// where the output and the side outputs go (swfstat's --csv, --json, --jobs,
// --plot, --html; swfclean's --report and --anonymize-map), progress and
// verbosity on stderr, worker counts, how an exec policy waits.
var notConfiguration = map[string]bool{"help": true, "version": true, "output": true,
	"csv": true, "json": true, "jobs": true, "plot": true, "html": true, "report": true, "anonymize-map": true,
	"no-progress": true, "quiet": true, "verbose": true, "ga-workers": true, "exec-spin": true,
	"list-policies": true, "list-rules": true, "replay": true, "sha256": true, // lists instead of a run: never in an output
	"files-from": true} // swfstat: the inputs it lists are recorded one by one (input=)

// Provenance returns the run's complete effective configuration: the tool
// name, version=, then every flag of the command by its long name with its
// value, defaults included, in the order the command declares them (except
// the few in notConfiguration, which cannot change the output), then one
// input= field per file argument ("-" for standard input). It walks
// the command's flags, so a flag added to a command is recorded with no
// further edit. Deprecated aliases are recorded under the flag's name.
func Provenance(c *cli.Context) provenance.Record {
	r := provenance.Record{Tool: c.App.Name}
	r.Add("version", c.App.Version)
	for _, f := range c.App.Flags {
		name := f.Names()[0]
		if notConfiguration[name] {
			continue
		}
		switch f.(type) {
		case *cli.StringSliceFlag:
			vs := c.StringSlice(name)
			if len(vs) == 0 {
				r.Add(name, "")
			}
			for _, v := range vs {
				r.Add(name, v)
			}
		default:
			r.Add(name, FlagValue(c, f))
		}
	}
	// The inputs, as given ("-" for standard input): the trace of a study's
	// grid point is one of its parameters.
	inputs := c.Args().Slice()
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	for _, in := range inputs {
		r.Add("input", in)
	}
	return r
}

// FlagValue renders the effective value of a flag: booleans true/false,
// integers in decimal, floats as provenance.FormatFloat writes them (the
// shortest exact decimal, in exponent form below 1e-4 and from 1e21: 1e-09).
func FlagValue(c *cli.Context, f cli.Flag) string {
	name := f.Names()[0]
	switch f.(type) {
	case *cli.BoolFlag:
		return strconv.FormatBool(c.Bool(name))
	case *cli.StringFlag:
		return c.String(name)
	case *cli.IntFlag:
		return strconv.Itoa(c.Int(name))
	case *cli.Int64Flag:
		return strconv.FormatInt(c.Int64(name), 10)
	case *cli.UintFlag:
		return strconv.FormatUint(uint64(c.Uint(name)), 10)
	case *cli.Uint64Flag:
		return strconv.FormatUint(c.Uint64(name), 10)
	case *cli.Float64Flag:
		return provenance.FormatFloat(c.Float64(name))
	case *cli.DurationFlag:
		return c.Duration(name).String()
	}
	return fmt.Sprint(c.Value(name))
}
