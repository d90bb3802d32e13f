package cmdio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/urfave/cli/v2"
)

func TestInterspersed(t *testing.T) {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "policy", Aliases: []string{"p"}},
		&cli.StringFlag{Name: "o"},
		&cli.BoolFlag{Name: "no-kill"},
	}
	tests := []struct{ in, want string }{
		{"swfsim --policy easy a.swf", "swfsim --policy easy -- a.swf"},
		{"swfsim a.swf --policy easy -o out.swf", "swfsim --policy easy -o out.swf -- a.swf"},
		{"swfsim a.swf --no-kill b.swf", "swfsim --no-kill -- a.swf b.swf"},
		{"swfsim --policy=easy - ", "swfsim --policy=easy -- -"},
		{"swfsim -p easy -- --odd-name.swf", "swfsim -p easy -- --odd-name.swf"},
		{"swfsim --unknown a.swf", "swfsim --unknown -- a.swf"},
		{"swfsim", "swfsim"},
		// A value-taking flag last, without its value, must not take the
		// "--" before the operands (it wrote the output to a file "--").
		{"swfsim -p easy a.swf -o", "swfsim -p easy -o"},
		{"swfsim a.swf b.swf --policy", "swfsim --policy"},
		{"swfsim a.swf --no-kill", "swfsim --no-kill -- a.swf"},
	}
	for _, tt := range tests {
		got := strings.Join(Interspersed(strings.Fields(tt.in), flags), " ")
		if got != tt.want {
			t.Errorf("%q -> %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{fmt.Errorf("write: %w", syscall.EPIPE), 0},
		{Usagef("bad %s", "flag"), 2},
		{fmt.Errorf("wrapped: %w", Usagef("x")), 2},
		{errors.New("t.swf:3: field 4"), 1},
	}
	for _, tt := range tests {
		if got := ExitCode(tt.err); got != tt.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

// Numeric flags take plain decimal, finite values: NaN, Inf, hex and '_'
// are usage errors before the action runs.
func TestRunRefusesNonDecimalNumbers(t *testing.T) {
	tests := []struct {
		args string
		want int
	}{
		{"x --weight 0.5", 0},
		{"x --weight=-2.5e-1 --n 7", 0},
		{"x --weight NaN", 2},
		{"x --weight=Inf", 2},
		{"x --weight -inf", 2},
		{"x --weight 1e999", 2},
		{"x --weight 0x1p4", 2},
		{"x --n 0x40", 2},
		{"x --n 1_000", 2},
		{"x --n 0b101", 2},
		{"x file.swf --n=+-3", 2},
		{"x -- --weight NaN", 0}, // after --, operands
	}
	for _, tt := range tests {
		ran := false
		app := NewApp("x", "test", io.Discard, io.Discard)
		app.Flags = []cli.Flag{&cli.Float64Flag{Name: "weight"}, &cli.Int64Flag{Name: "n"}}
		app.Action = func(*cli.Context) error { ran = true; return nil }
		if got := Run(app, strings.Fields(tt.args), io.Discard); got != tt.want || ran != (tt.want == 0) {
			t.Errorf("%q: exit %d (action ran: %v), want %d", tt.args, got, ran, tt.want)
		}
	}
}

// An integer with leading zeros is decimal, as a sweep's zero-padded seeds
// mean it; the parser alone would read 010 as 8 and refuse 08.
func TestLeadingZerosAreDecimal(t *testing.T) {
	for args, want := range map[string]int64{
		"x --n 010": 10, "x --n=08": 8, "x --n -007": -7, "x --n 000": 0, "x --n +09": 9, "x --n 7": 7,
	} {
		var got int64
		app := NewApp("x", "test", io.Discard, io.Discard)
		app.Flags = []cli.Flag{&cli.Int64Flag{Name: "n"}}
		app.Action = func(c *cli.Context) error { got = c.Int64("n"); return nil }
		if code := Run(app, strings.Fields(args), io.Discard); code != 0 || got != want {
			t.Errorf("%q: exit %d, n = %d, want %d", args, code, got, want)
		}
	}
}

// The flag parser's own errors name long flags with two dashes, as the help
// and every other message do (Go's flag package writes one).
func TestParseErrorsNameLongFlagsWithTwoDashes(t *testing.T) {
	for args, want := range map[string]string{
		"x --count 99999999999999999999": `x: invalid value "99999999999999999999" for flag --count: value out of range`,
		"x -n 99999999999999999999":      `x: invalid value "99999999999999999999" for flag -n: value out of range`,
		"x --on=maybe":                   `x: invalid boolean value "maybe" for --on: parse error`,
		"x --bogus":                      `x: flag provided but not defined: --bogus`,
		"x -q":                           `x: flag provided but not defined: -q`,
		"x a.swf --count":                `x: flag needs an argument: --count`,
	} {
		var stderr strings.Builder
		app := NewApp("x", "test", io.Discard, &stderr)
		app.Flags = []cli.Flag{&cli.Int64Flag{Name: "count", Aliases: []string{"n"}}, &cli.BoolFlag{Name: "on"}}
		app.Action = func(*cli.Context) error { return nil }
		if code := Run(app, strings.Fields(args), &stderr); code != 2 || !strings.HasPrefix(stderr.String(), want+"\n") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", args, code, stderr.String(), want)
		}
	}
}

// --help after the operands prints the help (urfave/cli took the operands
// for a help topic and failed); as a flag's value it is only a value.
func TestHelpAfterOperands(t *testing.T) {
	for args, wantHelp := range map[string]bool{
		"x a.swf --help": true, "x -h a.swf b.swf": true, "x --out --help a.swf": false, "x -- --help": false,
	} {
		var stdout strings.Builder
		ran := false
		app := NewApp("x", "test", &stdout, io.Discard)
		app.Flags = []cli.Flag{&cli.StringFlag{Name: "out"}}
		app.Action = func(*cli.Context) error { ran = true; return nil }
		code := Run(app, strings.Fields(args), io.Discard)
		if gotHelp := strings.Contains(stdout.String(), "NAME"); code != 0 || gotHelp != wantHelp || ran == wantHelp {
			t.Errorf("%q: exit %d, help %v, action ran %v; want help %v", args, code, gotHelp, ran, wantHelp)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestHelpWriteErrorIsExit1: --help and --version that cannot be written
// (a full disk) fail with status 1, naming standard output.
func TestHelpWriteErrorIsExit1(t *testing.T) {
	for _, arg := range []string{"--help", "--version"} {
		var stderr bytes.Buffer
		app := NewApp("swftest", "a test", failingWriter{}, &stderr)
		app.Action = func(*cli.Context) error { return nil }
		if code := Run(app, []string{"swftest", arg}, &stderr); code != 1 || !strings.Contains(stderr.String(), "standard output: no space left") {
			t.Errorf("%s: exit %d, stderr %q; want 1 naming standard output", arg, code, stderr.String())
		}
	}
}

// A flag that keeps one value given twice, or an empty value for a flag
// whose default is not empty or is described (DefaultText), is a usage error; list flags and switches may
// repeat, and an empty value where the default is empty is the default.
func TestCheckFlagArgs(t *testing.T) {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "policy", Aliases: []string{"p"}},
		&cli.StringFlag{Name: "procs-from", Value: "requested"},
		&cli.StringFlag{Name: "priority-order", DefaultText: "ascending queue number"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}},
		&cli.Int64Flag{Name: "procs"},
		&cli.StringSliceFlag{Name: "filter"},
		&cli.BoolFlag{Name: "no-kill"},
	}
	for _, tc := range []struct {
		args []string
		want string // "" for no error
	}{
		{[]string{"x", "-p", "easy", "--policy", "fcfs"}, "--policy is given twice (-p and --policy)"},
		{[]string{"x", "--procs=5", "--procs", "6"}, "--procs is given twice"},
		{[]string{"x", "--procs-from="}, `--procs-from "": give a value (the default is "requested")`},
		{[]string{"x", "--procs-from", ""}, `--procs-from ""`},
		{[]string{"x", "--priority-order="}, `--priority-order "": give a value (the default is ascending queue number) or leave the flag out`},
		{[]string{"x", "-o", "", "--filter", "a", "--filter", "b", "--no-kill", "--no-kill", "-p", "easy"}, ""},
		{[]string{"x", "--", "-p", "-p"}, ""},
		{[]string{"x", "--filter", "-p", "-p", "easy"}, ""}, // "-p" is --filter's value
	} {
		err := checkFlagArgs(tc.args, flags)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
		var usage *UsageError
		if err != nil && !errors.As(err, &usage) {
			t.Errorf("%q: %v is not a usage error", tc.args, err)
		}
	}
}

// A completion menu's text drops asides in parentheses instead of stopping
// at the first one, which hid the choices after it.
func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"summary FORMAT: table (aligned for a terminal), csv or json (long form, stable column names)": "summary FORMAT: table, csv or json",
		"random seed S (any integer, as in swfsim); every operation derives its own stream":            "random seed S",
		"short text; rest":                    "short text",
		"nested (a (b) c) text and (unclosed": "nested text and",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAliasNote: a usage error that names a flag by its canonical name says
// which long alias on the command line that is; not for the canonical name
// itself, a one-letter alias, an alias only given as another flag's value,
// or an error about something else.
func TestAliasNote(t *testing.T) {
	flags := []cli.Flag{
		&cli.Int64Flag{Name: "category-runtime", Aliases: []string{"short-max"}},
		&cli.StringFlag{Name: "policy", Aliases: []string{"p"}},
		&cli.StringFlag{Name: "tag"},
	}
	const msg = "--category-runtime -5: want a positive number of seconds"
	for _, tc := range []struct {
		args []string
		msg  string
		want string
	}{
		{[]string{"x", "--short-max", "-5"}, msg, " (--short-max is --category-runtime)"},
		{[]string{"x", "-short-max=-5"}, msg, " (--short-max is --category-runtime)"},
		{[]string{"x", "--category-runtime", "-5"}, msg, ""},
		{[]string{"x", "-p", "nosuch"}, `--policy "nosuch": unknown`, ""},
		{[]string{"x", "--tag", "--short-max", "--category-runtime", "-5"}, msg, ""},
		{[]string{"x", "--short-max", "5"}, "unknown policy", ""},
		{[]string{"x", "--", "--short-max"}, msg, ""},
	} {
		if got := aliasNote(tc.msg, tc.args, flags); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.args, got, tc.want)
		}
	}
	app := &cli.App{Name: "t", Flags: flags, Action: func(*cli.Context) error { return Usagef("%s", msg) }}
	var errb bytes.Buffer
	if code := Run(app, []string{"t", "--short-max", "-5"}, &errb); code != 2 || !strings.Contains(errb.String(), "t: "+msg+" (--short-max is --category-runtime)\n") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// TestCollectSooner: the GC target is set unless the environment sets GOGC.
func TestCollectSooner(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	t.Setenv("GOGC", "80")
	CollectSooner(ResidentGCPercent)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GC percent %d, want the environment's to stand (100 here)", got)
	}
	os.Unsetenv("GOGC")
	CollectSooner(ResidentGCPercent)
	if got := debug.SetGCPercent(100); got != ResidentGCPercent {
		t.Errorf("without GOGC: GC percent %d, want %d", got, ResidentGCPercent)
	}
	t.Setenv("GOGC", "")
	CollectSooner(ResidentGCPercent)
	if got := debug.SetGCPercent(100); got != ResidentGCPercent {
		t.Errorf("with GOGC empty: GC percent %d, want %d", got, ResidentGCPercent)
	}
}

// TestCanonicalListAliases: a list flag given by its alias is written under
// its first name, in place, so that both forms make one list in order;
// other flags and operands are left as they are.
func TestCanonicalListAliases(t *testing.T) {
	flags := []cli.Flag{
		&cli.StringSliceFlag{Name: "filter", Aliases: []string{"drop"}},
		&cli.StringFlag{Name: "policy", Aliases: []string{"p"}},
	}
	args := []string{"cmd", "--filter", "a", "--drop", "b", "--drop=c", "-p", "x", "--", "--drop"}
	got := canonicalListAliases(args, flags)
	want := []string{"cmd", "--filter", "a", "--filter", "b", "--filter=c", "-p", "x", "--", "--drop"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if args[3] != "--drop" {
		t.Error("the caller's args changed")
	}
}
