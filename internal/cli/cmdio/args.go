package cmdio

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// Interspersed reorders args so that flags given after file arguments are still
// seen as flags (`swfsim trace.swf --policy easy -o out.swf`), which urfave/cli v2
// does not do by itself: it stops at the first argument that is not a flag.
// Everything after "--" stays an argument; a lone "-" (stdin) is an argument.
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
		if takesValue[name] && i+1 < len(args) {
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
