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
//     (`--procs-from=`), or is described rather than a value
//     (`--priority-order=`): the run would use some fallback while its
//     Provenance recorded "", so one schedule would get two descriptions.
//
// Every command gets it through Run.
func checkFlagArgs(args []string, flags []cli.Flag) error {
	seen := map[string]string{} // canonical name -> the form first given
	return eachFlag(args, flags, func(u flagUse) error {
		canonical := u.flag.Names()[0]
		switch f := u.flag.(type) {
		case *cli.BoolFlag, *cli.StringSliceFlag, *cli.IntSliceFlag, *cli.Int64SliceFlag, *cli.Float64SliceFlag:
			return nil // switches and lists may repeat; a switch takes no value
		case *cli.StringFlag:
			if f.Value != "" && u.value == "" {
				return Usagef("--%s \"\": give a value (the default is %q) or leave the flag out; --%s is the %s",
					canonical, f.Value, canonical, strings.ReplaceAll(f.Usage, "`", ""))
			}
			// A default that is not a value (DefaultText: "ascending queue
			// number"): "" would be recorded while the default ran.
			if f.Value == "" && f.DefaultText != "" && u.value == "" {
				return Usagef("--%s \"\": give a value (the default is %s) or leave the flag out; --%s is the %s",
					canonical, f.DefaultText, canonical, strings.ReplaceAll(f.Usage, "`", ""))
			}
		}
		if prev, ok := seen[canonical]; ok {
			return Usagef("--%s is given twice (%s and %s); the last would win without a word: give it once", canonical, prev, flagForm(u.name))
		}
		seen[canonical] = flagForm(u.name)
		return nil
	})
}

func flagForm(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}
