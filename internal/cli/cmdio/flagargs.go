package cmdio

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// checkFlagArgs refuses, as usage errors, two ways a flag would be taken
// without a word while not doing what its user meant:
//   - a flag given twice (by any of its names) that keeps one value: the
//     parser keeps the last, so a sweep script that appends options
//     (`-p easy ... -p fcfs`) would run what it did not ask for. Flags that
//     collect a list (--filter, --set, ...) and switches may repeat.
//   - an empty value for a flag whose default is not empty
//     (`--procs-from=`): the run would use some fallback while its
//     Provenance recorded "", so one schedule would get two descriptions.
//
// Every command gets it through Run.
func checkFlagArgs(args []string, flags []cli.Flag) error {
	type info struct {
		canonical string
		single    bool // keeps one value
		takes     bool // takes a value
		def       string
		usage     string
	}
	byName := map[string]info{}
	for _, f := range flags {
		names := f.Names()
		in := info{canonical: names[0], single: true, takes: true}
		switch f := f.(type) {
		case *cli.BoolFlag:
			in.single, in.takes = false, false
		case *cli.StringSliceFlag, *cli.IntSliceFlag, *cli.Int64SliceFlag, *cli.Float64SliceFlag:
			in.single = false
		case *cli.StringFlag:
			in.def, in.usage = f.Value, strings.ReplaceAll(f.Usage, "`", "")
		}
		for _, n := range names {
			byName[n] = in
		}
	}
	seen := map[string]string{} // canonical name -> the form first given
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		name, value, inline := strings.Cut(strings.TrimLeft(a, "-"), "=")
		in, ok := byName[name]
		if !ok {
			continue // the parser reports an unknown flag
		}
		if in.takes && !inline {
			if i+1 >= len(args) {
				continue // the parser reports the missing value
			}
			i++
			value = args[i]
		}
		if in.single {
			if prev, ok := seen[in.canonical]; ok {
				return Usagef("--%s is given twice (%s and %s); the last would win without a word: give it once", in.canonical, prev, flagForm(name))
			}
			seen[in.canonical] = flagForm(name)
		}
		if in.def != "" && in.takes && value == "" {
			return Usagef("--%s \"\": give a value (the default is %q) or leave the flag out; --%s is the %s", in.canonical, in.def, in.canonical, in.usage)
		}
	}
	return nil
}

func flagForm(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}
