package swf

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// fastPathTokens are tokens on both sides of every rule of parse's fast path:
// signs, digit counts, the MaxTime and MaxProcessors bounds, fractions,
// exponents, garbage and separators.
var fastPathTokens = []string{
	"0", "-0", "+0", "1", "-1", "+7", "007", "-007", "12.0", "12.5", "-1.0", "1e3", "1E3", "-",
	"--1", "1-", "0x10", "Inf", "NaN", "1_000", "3500.25", "489.00",
	"2147483647", "-2147483647", "2147483648", "-2147483648",
	"1099511627776", "-1099511627776", "1099511627777", "-1099511627777",
	"999999999999999", "-999999999999999", "1000000000000000", "9999999999999999",
	"99999999999999999999", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
	"00000000000000000001", "1\r", "5\v", "a=b", "u=0:1", "x", "",
}

// TestParseFastPathExact parses random lines of those tokens with and
// without the fast path and wants the same record or the same error.
func TestParseFastPathExact(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 6))
	seps := []string{" ", "  ", "\t", " \t "}
	for i := range 30000 {
		var b strings.Builder
		n := 16 + r.IntN(5)
		for k := range n {
			if k > 0 || r.IntN(4) == 0 {
				b.WriteString(seps[r.IntN(len(seps))])
			}
			if r.IntN(3) == 0 {
				b.WriteString(fastPathTokens[r.IntN(len(fastPathTokens))])
			} else {
				fmt.Fprint(&b, r.Int64N(2000)-10)
			}
		}
		line := b.String()
		read := func(general bool) string {
			rd := NewReader(strings.NewReader(line + "\n"))
			rd.generalOnly = general
			j, err := rd.Read()
			if err != nil {
				return "error: " + err.Error()
			}
			return fmt.Sprintf("%v %v %d %q %v", j.values(), j.orig, j.origExtra, j.Extra, j.Changed())
		}
		if fast, general := read(false), read(true); fast != general {
			t.Fatalf("line %d %q:\nfast    %s\ngeneral %s", i, line, fast, general)
		}
	}
}
