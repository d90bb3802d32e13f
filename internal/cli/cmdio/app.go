package cmdio

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
)

// Version is the toolkit version, set at build time with
// -ldflags "-X github.com/swfkit/swfkit/internal/cli/cmdio.Version=...".
// The tools report and record BuildVersion, which adds the commit the
// binary was built from.
var Version = "0.1.0-dev"

// UsageError marks a command-line mistake (exit status 2).
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// ExitCode maps an error to the exit status: nil and a closed output pipe give 0,
// a UsageError 2, anything else 1.
func ExitCode(err error) int {
	var usage *UsageError
	switch {
	case err == nil, errors.Is(err, syscall.EPIPE):
		return 0
	case errors.As(err, &usage):
		return 2
	}
	return 1
}

// IgnoreSIGPIPE makes writes to a closed pipe return EPIPE instead of killing the
// process, so that `swfclean big.swf | head` can end quietly with status 0.
// Mains call it once.
func IgnoreSIGPIPE() { signal.Ignore(syscall.SIGPIPE) }

// ResidentGCPercent is the garbage collector's target (Go's GOGC) for a tool
// whose heap is mostly data that lives for the whole run: swfsim's input and
// job records, about 230 bytes a job. Go's default, 100, lets the heap grow
// to twice its live data before collecting, so any run that makes as much
// garbage as it holds data peaked at twice that data (up to 516 bytes a job
// on whole RICC-2010-2, timed-fcfs --fair-start --no-kill); at 50 the heap
// grows by half before a collection, which marks the same data a few more
// times (docs/swfsim.md, Speed and memory).
const ResidentGCPercent = 50

// CollectSooner sets the garbage collector's target to percent (Go's
// GOGC), unless the environment sets GOGC to a value, which then wins (an
// empty GOGC, which Go reads as its default, does not). Mains whose heap is
// mostly long-lived data call it once.
func CollectSooner(percent int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(percent)
	}
}

// NewApp returns a urfave/cli application with the toolkit's common settings:
// output to stdout/stderr, --version, no os.Exit inside the library, and flag
// errors turned into UsageErrors.
func NewApp(name, usage string, stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:                   name,
		Usage:                  usage,
		Version:                BuildVersion(),
		Writer:                 stdout,
		ErrWriter:              stderr,
		HideHelpCommand:        true,
		UseShortOptionHandling: false,
		ExitErrHandler:         func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return &UsageError{Err: errors.New(doubleDash(err.Error()))}
		},
	}
}

// Run runs app with args and returns the exit status, printing any error (but not
// a closed pipe) on stderr as "name: message". Its --help is HelpText.
//
// Flags may follow file arguments: args are reordered by Interspersed first.
//
// Numeric flags take plain decimal values only, and float flags finite ones
// (checkNumericFlags), before the command's action runs.
func Run(app *cli.App, args []string, stderr io.Writer) int {
	app.CustomAppHelpTemplate = helpTemplate(HelpText(app))
	// Help and --version are written through app.Writer by urfave/cli, which
	// drops write errors: record them (a full disk, /dev/full) for exit 1.
	helpOut := &recordingWriter{w: app.Writer}
	app.Writer = helpOut
	args = Interspersed(args, app.Flags)
	given := args // as typed, for the usage errors' alias notes
	args = canonicalListAliases(args, app.Flags)
	if wantsHelp(args, app.Flags) {
		// urfave/cli reads the operands after --help as a help topic
		// ("No help topic for 'trace.swf'", exit 1): the help is the
		// command's, whatever else the line holds.
		args = []string{args[0], "--help"}
	}
	err := checkNumericFlags(args, app.Flags)
	if err == nil {
		err = checkFlagArgs(args, app.Flags)
	}
	if err == nil {
		if action := app.Action; action != nil {
			app.Action = func(c *cli.Context) error {
				if err := checkFiniteFloats(c); err != nil {
					return err
				}
				return action(c)
			}
		}
		err = app.Run(args)
	}
	if closed, ok := helpOut.w.(*closedStdout); ok && closed.wrote && err == nil {
		err = errStdoutClosed // help or a list printed into nothing
	}
	if err == nil && helpOut.err != nil {
		err = fmt.Errorf("standard output: %w", helpOut.err)
	}
	code := ExitCode(err)
	if err != nil && code != 0 {
		msg := err.Error()
		if code == 2 {
			msg += aliasNote(msg, given, app.Flags)
		}
		fmt.Fprintf(stderr, "%s: %s\n", app.Name, msg)
		if code == 2 {
			fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", app.Name)
		}
	}
	return code
}

// recordingWriter passes writes through and keeps the first error.
type recordingWriter struct {
	w   io.Writer
	err error
}

func (r *recordingWriter) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}

// flagParseName matches a flag name in the messages of Go's flag package,
// which urfave/cli passes on ("invalid value "x" for flag -seed: ...",
// "invalid boolean value "x" for -no-kill: ...", "flag provided but not
// defined: -bogus", "flag needs an argument: -o").
var flagParseName = regexp.MustCompile(`(for flag|for|defined:|argument:) -([A-Za-z0-9][A-Za-z0-9_-]+)`)

// doubleDash writes the long flags in such a message as the help and every
// other message do, with two dashes (-seed becomes --seed; -o stays).
func doubleDash(msg string) string {
	return flagParseName.ReplaceAllString(msg, "$1 --$2")
}

// wantsHelp reports whether args (as Interspersed leaves them) ask for the
// help: -h or --help as a flag (not a flag's value) before the operands.
func wantsHelp(args []string, flags []cli.Flag) bool {
	takesValue := map[string]bool{}
	for _, f := range flags {
		if _, isBool := f.(*cli.BoolFlag); !isBool {
			for _, name := range f.Names() {
				takesValue[name] = true
			}
		}
	}
	for i := 1; i < len(args); i++ {
		switch a := args[i]; a {
		case "--":
			return false
		case "-h", "--h", "-help", "--help":
			return true
		default:
			if name := strings.TrimLeft(a, "-"); a != name && !strings.Contains(name, "=") && takesValue[name] {
				i++ // its value
			}
		}
	}
	return false
}

// aliasNote says which long alias on the command line a usage error means
// when the error names the flag by its canonical name (the deprecated
// --short-max is --category-runtime, and the checks name the latter): ""
// when it names none of them. One-letter aliases (-p, -o) are left alone.
func aliasNote(msg string, args []string, flags []cli.Flag) string {
	var notes []string
	eachFlag(args, flags, func(u flagUse) error {
		canon := u.flag.Names()[0]
		if len(u.name) > 1 && u.name != canon && strings.Contains(msg, "--"+canon) {
			notes = append(notes, fmt.Sprintf("--%s is --%s", u.name, canon))
		}
		return nil
	})
	if len(notes) == 0 {
		return ""
	}
	return " (" + strings.Join(notes, ", ") + ")"
}
