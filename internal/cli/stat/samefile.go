package statcli

import (
	"fmt"
	"io"
	"strings"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
)

// warnSameFile warns on stderr about inputs that are one file (cmdio.SameFiles:
// a path given twice, two paths to it, a link), naming each argument as
// given: every output then has that file twice, identical columns, rows,
// curves or lines, which a comparison of runs would take for two runs that
// agree. A warning, not an error: comparing a file with itself can be meant
// (a check that the tools are deterministic). Every mode warns, before it
// reads an input.
func warnSameFile(files []string, stderr io.Writer) {
	for _, group := range cmdio.SameFiles(files) {
		names := make([]string, len(group))
		for k, i := range group {
			names[k] = files[i]
		}
		times := "twice"
		if len(group) > 2 {
			times = fmt.Sprintf("%d times", len(group))
		}
		fmt.Fprintf(stderr, "swfstat: warning: %s and %s are the same file: it is read %s and every output has it %s, identical (give it once, unless comparing it with itself is meant)\n",
			strings.Join(names[:len(names)-1], ", "), names[len(names)-1], times, times)
	}
}
