package simcli

import (
	"strings"
	"testing"
)

// FuzzTokenValues: whatever the values of the u= and ckpt= tokens ga-ckpt
// reads, swfsim never panics, and refuses a value it cannot use with exit 1
// and a message naming the file, the record's line and an extension field.
func FuzzTokenValues(f *testing.F) {
	for _, seed := range [][2]string{
		{"0:10,1000000:0", "100"}, {"0:1,5:NaN", "100"}, {"0:1,0x10:0", "-1"}, {"0:1e308,1e308:0", "1"},
		{"0:1,9223372036854775807:0", "9223372036854775807"}, {"0:5", "0"}, {"", "abc"}, {"0:1,5:2", "-2"},
		{"0:1,1099511627776:0", "1099511627776"}, {"0:-1,1:0", "1099511627777"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, u, ckpt string) {
		for _, v := range []string{u, ckpt} {
			if strings.ContainsAny(v, " \t\r\n\v\f;") {
				return // not one token
			}
		}
		trace := "; MaxProcs: 10\n" +
			"1 0 -1 1000 10 -1 -1 10 1000 -1 1 1 1 -1 1 -1 -1 -1 u=" + u + " ckpt=" + ckpt + "\n" +
			"2 5 -1 50 10 -1 -1 10 50 -1 1 2 2 -1 1 -1 -1 -1 u=0:1000,200:0\n"
		_, errs, code := runSim(t, trace, "--policy", "ga-ckpt", "--ga-generations", "2", "--ga-population", "4")
		switch code {
		case 0:
		case 1:
			if !strings.Contains(errs, "swfsim: <stdin>:2: field 19 (extension token): u=") &&
				!strings.Contains(errs, "swfsim: <stdin>:2: field 20 (extension token): ckpt=") {
				t.Fatalf("u=%q ckpt=%q: the error does not name the file, line and token: %s", u, ckpt, errs)
			}
		default:
			t.Fatalf("u=%q ckpt=%q: exit %d: %s", u, ckpt, code, errs)
		}
	})
}
