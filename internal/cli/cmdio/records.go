package cmdio

import (
	"errors"
	"fmt"
	"io"

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
