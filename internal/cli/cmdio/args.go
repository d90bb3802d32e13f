package cmdio

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// Interspersed reorders args so that flags given after file arguments are still
// seen as flags (`swfsim trace.swf --policy easy -o out.swf`), which urfave/cli v2
// does not do by itself: it stops at the first argument that is not a flag.
// Everything after "--" stays an argument; a lone "-" (stdin) is an argument.
// A flag that takes a value but ends the line without one is left last
// (without the operands), for the parser to refuse.
func Interspersed(args []string, flags []cli.Flag) []string {
	if len(args) == 0 {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, name := range f.Names() {
			takesValue[name] = !isBool
		}
	}
	out := []string{args[0]}
	var positional []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			continue
		}
		out = append(out, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if takesValue[name] {
			if i+1 == len(args) {
				// The value is missing: leave the flag last, with no "--"
				// and operands after it for it to take, so that the
				// parser says it needs an argument.
				return out
			}
			i++
			out = append(out, args[i])
		}
	}
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return out
}

// flagUse is one flag on a command line, as the parser will take it.
type flagUse struct {
	flag   cli.Flag
	name   string // as given, without dashes
	value  string // "" for a switch
	inline bool   // --name=value
	at     int    // index in args of the value (of the flag itself when inline)
}

// eachFlag calls visit for every flag of args (as Interspersed leaves them:
// flags, then "--" and the operands), in order, with the value the parser
// will give it: the rest of --name=value, else the next argument for a flag
// that takes one. Unknown flags and a missing last value are left to the
// parser, which reports them.
func eachFlag(args []string, flags []cli.Flag, visit func(u flagUse) error) error {
	byName := map[string]cli.Flag{}
	for _, f := range flags {
		for _, n := range f.Names() {
			byName[n] = f
		}
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		name, value, inline := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f, ok := byName[name]
		if !ok {
			continue
		}
		at := i
		if _, isSwitch := f.(*cli.BoolFlag); !isSwitch && !inline {
			if i+1 >= len(args) {
				continue
			}
			i++
			at, value = i, args[i]
		}
		if err := visit(flagUse{flag: f, name: name, value: value, inline: inline, at: at}); err != nil {
			return err
		}
	}
	return nil
}

// canonicalListAliases returns args with every list flag given by an alias
// written under its first name (--drop X as --filter X), in place: the
// parser refuses a list flag given by two of its names ("Cannot use two
// forms of the same flag"), while its values, in order, are one list.
func canonicalListAliases(args []string, flags []cli.Flag) []string {
	out := args
	_ = eachFlag(args, flags, func(u flagUse) error {
		switch u.flag.(type) {
		case *cli.StringSliceFlag, *cli.IntSliceFlag, *cli.Int64SliceFlag, *cli.Float64SliceFlag:
		default:
			return nil
		}
		canonical := u.flag.Names()[0]
		if u.name == canonical {
			return nil
		}
		if &out[0] == &args[0] {
			out = append([]string(nil), args...)
		}
		if u.inline {
			out[u.at] = "--" + canonical + "=" + u.value
		} else {
			out[u.at-1] = "--" + canonical
		}
		return nil
	})
	return out
}
