package cmdio

import (
	"errors"
	"fmt"
	"io"

	"github.com/swfkit/swfkit/pkg/convert"
	"github.com/swfkit/swfkit/pkg/swf"
)

// CheckRecords is what every tool does after reading an input's header:
// an input of nothing at all is an error (swf.ErrEmpty: typically a
// command before this one in a pipe failed), and one of comment and blank
// lines without a job (swf.ErrHeaderOnly: a cut download, a failed head
// pipeline) gets a warning on stderr, "TOOL: warning: FILE: no job lines
// (header only): ...", and the run goes on: it is a valid, empty trace,
// which a check or a cleaning filter may legitimately meet, and each tool
// downstream says it again.
func CheckRecords(r *swf.Reader, tool string, stderr io.Writer) error {
	err := r.HasRecords()
	if errors.Is(err, swf.ErrHeaderOnly) {
		fmt.Fprintf(stderr, "%s: warning: %v\n", tool, err)
		return nil
	}
	return err
}

// ErrNoValidRecord is wrapped by the error of a lenient read that skipped
// every record line of an input (AllMalformed).
var ErrNoValidRecord = errors.New("no valid SWF record")

// AllMalformed is what every tool does once it has read an input with
// --lenient: when the input had record lines and every one was skipped as
// malformed, that is an error (exit 1), not an empty trace with status 0: a
// file that is not SWF at all (another log's format, the wrong file) is
// skipped line by line otherwise. The error names the file, the count and the
// first line's error, and, when that line looks like a log swfclean converts
// (convert.Guess), says how. A lenient read where some records parse keeps
// its warning and Note. Call it after Read returned io.EOF.
func AllMalformed(r *swf.Reader, tool string) error {
	n, first := r.Malformed()
	if n == 0 || r.Records() > 0 {
		return nil
	}
	return NoValidRecord(tool, r.Name, n, first[0], r.FirstMalformedLine())
}

// NoValidRecord is AllMalformed's error, for a tool that also skips records
// that parse (swfstat, a token it reads that does not): file and the n lines
// skipped, first the first one's error and line its text ("" for none).
func NoValidRecord(tool, file string, n int, first error, line string) error {
	if file == "" {
		file = "<stdin>"
	}
	lines := fmt.Sprintf("all %d record lines", n)
	if n == 1 {
		lines = "its one record line"
	}
	return fmt.Errorf("%s: %w: --lenient skipped %s as malformed; the first: %v%s",
		file, ErrNoValidRecord, lines, first, formatHint(tool, convert.Guess(line)))
}

// ReadError is what every tool does with an error swf.Reader.Read returned
// without --lenient: when it is the *swf.ParseError of the input's first
// record line and that line looks like a log swfclean converts
// (convert.Guess), the error gets the hint NoValidRecord gives with
// --lenient, how to convert it; any other error is returned as it is (an
// SWF trace with one bad line keeps its message unchanged).
func ReadError(r *swf.Reader, tool string, err error) error {
	if hint := ReadErrorHint(r, tool, err); hint != "" {
		return fmt.Errorf("%w%s", err, hint)
	}
	return err
}

// ReadErrorHint is ReadError's hint alone, " (it looks like ...)", or ""
// when it gives none: for a tool that adds a hint of its own when this one
// does not apply (swfstat's "is FILE an SWF trace?").
func ReadErrorHint(r *swf.Reader, tool string, err error) string {
	var pe *swf.ParseError
	if !errors.As(err, &pe) || r.Records() > 0 {
		// A line after records that parsed is a bad line of an SWF
		// trace, whatever it looks like.
		return ""
	}
	return formatHint(tool, convert.Guess(r.FirstMalformedLine()))
}

// formatHint says how to read a log in a format swfclean converts.
func formatHint(tool, format string) string {
	var name, how string
	switch format {
	case "alea":
		name, how = "the Alea simulator's format, in which MetaCentrum publishes its logs", "--from alea"
	case "sacct":
		name, how = "a Slurm `sacct --parsable2` dump", "--from sacct --timezone ZONE"
	default:
		return ""
	}
	if tool == "swfclean" {
		return fmt.Sprintf(" (it looks like %s: read it with %s)", name, how)
	}
	return fmt.Sprintf(" (it looks like %s: convert it to SWF first, swfclean %s FILE -o FILE.swf)", name, how)
}

// WarnUnterminated is what every tool does after reading an input to its
// end (swf.Reader.Read returned io.EOF): when the last record line has no
// newline after it, it prints a warning on stderr, "TOOL: warning:
// FILE:LINE: " and UnterminatedText, and the run goes on. Such a line is
// accepted, since hand-made files often lack the final newline, but it is
// also where a file cut short ends, and a cut inside the last field leaves a
// shorter number that parses (120 read as 12): a compressed input's stream
// check catches a cut, a plain file has only this. A tool that reads an
// input twice calls it once.
func WarnUnterminated(r *swf.Reader, tool string, stderr io.Writer) {
	WarnUnterminatedLine(DisplayName(r.Name), r.UnterminatedLine(), tool, stderr)
}

// WarnUnterminatedLine is WarnUnterminated for a tool that says its warnings
// after reading (swfstat reads its inputs in parallel and warns in argument
// order): line is the reader's UnterminatedLine, 0 for no warning.
func WarnUnterminatedLine(name string, line int, tool string, stderr io.Writer) {
	if line > 0 {
		fmt.Fprintf(stderr, "%s: warning: %s:%d: %s\n", tool, name, line, UnterminatedText)
	}
}

// UnterminatedText is the warning after "FILE:LINE: ", also for a report
// that lists an input's warnings under its name (swfstat --html).
const UnterminatedText = "the last record has no newline after it: if the file was cut short there, " +
	"its last field may be cut too (archive traces end in a newline)"
