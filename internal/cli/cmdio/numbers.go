package cmdio

import (
	"math"
	"strings"

	"github.com/urfave/cli/v2"
)

// checkNumericFlags refuses, as usage errors, numeric flag values that the
// flag parser would take but that are not plain decimal numbers: NaN and
// Inf (a NaN weight silently reorders a schedule), hex and octal forms
// (0x1p4, 0x40, 0o10) and digit separators ('_'). An integer with leading
// zeros is decimal: it is rewritten in args without them, since the parser
// would read it as octal. Every command gets it through Run.
func checkNumericFlags(args []string, flags []cli.Flag) error {
	return eachFlag(args, flags, func(u flagUse) error {
		kind := ""
		switch u.flag.(type) {
		case *cli.Float64Flag:
			kind = "float"
		case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
			kind = "int"
		default:
			return nil
		}
		if !decimalFlagValue(u.value, kind == "float") {
			what := "a decimal integer"
			if kind == "float" {
				what = "a finite decimal number"
			}
			return Usagef("--%s %s: want %s", u.name, u.value, what)
		}
		// The parser reads an integer's leading 0 as octal (010 is 8, 08
		// an error); a sweep's zero-padded seeds (seq -w) mean decimal.
		if d := withoutLeadingZeros(u.value); kind == "int" && d != u.value {
			if u.inline {
				args[u.at] = args[u.at][:len(args[u.at])-len(u.value)] + d
			} else {
				args[u.at] = d
			}
		}
		return nil
	})
}

// withoutLeadingZeros writes a decimal integer without the zeros that lead
// its digits ("-007" is "-7", "000" is "0").
func withoutLeadingZeros(s string) string {
	sign := ""
	if s != "" && (s[0] == '+' || s[0] == '-') {
		sign, s = s[:1], s[1:]
	}
	t := strings.TrimLeft(s, "0")
	if t == "" {
		t = "0"
	}
	if t == s {
		return sign + s
	}
	return sign + t
}

// decimalFlagValue reports whether s is a decimal integer (sign and digits)
// or, with fraction, a finite decimal number (also a point and an exponent).
func decimalFlagValue(s string, fraction bool) bool {
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 || digits == "" {
		return false
	}
	for _, c := range digits {
		switch {
		case c >= '0' && c <= '9':
		case fraction && (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// checkFiniteFloats refuses a float flag whose parsed value is not finite
// (1e999 parses to +Inf).
func checkFiniteFloats(c *cli.Context) error {
	for _, f := range c.App.Flags {
		ff, ok := f.(*cli.Float64Flag)
		if !ok || !c.IsSet(ff.Name) {
			continue
		}
		if v := c.Float64(ff.Name); math.IsNaN(v) || math.IsInf(v, 0) {
			return Usagef("--%s %v: want a finite decimal number", ff.Name, v)
		}
	}
	return nil
}
