package statcli

import (
	"fmt"
	"io"
)

// writeCapacity checks every schedule and reports each; it returns
// errViolation when one fails, after reporting all of them.
func writeCapacity(w io.Writer, traces []*trace) error {
	failed := false
	for _, t := range traces {
		if t.machine.Procs <= 0 {
			why := "no MaxProcs or MaxNodes in the header"
			if t.machine.Source != "" {
				why = t.machine.Source // a header value that is no size, said so
			}
			return fmt.Errorf("%s: cannot check capacity: machine size unknown (%s; give --procs)", t.display, why)
		}
		res := t.collector.CheckCapacity()
		fmt.Fprintf(w, "%s: machine %d processors (%s); peak %d processors in use, first at time %d", t.label, t.machine.Procs, t.machine.Source, res.Peak, res.PeakTime)
		if res.Unverifiable > 0 {
			fmt.Fprintf(w, "; %d jobs with unknown submit, wait, runtime or processors not checked", res.Unverifiable)
		}
		fmt.Fprintln(w)
		if v := res.Violation; v != nil {
			failed = true
			fmt.Fprintf(w, "%s: VIOLATION: %v\n", t.label, v)
		} else {
			fmt.Fprintf(w, "%s: ok\n", t.label)
		}
	}
	if failed {
		return errViolation
	}
	return nil
}
