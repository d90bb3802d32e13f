package policy

import (
	"github.com/swfkit/swfkit/pkg/extpolicy"
	"github.com/swfkit/swfkit/pkg/sim"
)

// ExecParams configures policy exec: a scheduler in another program, driven
// over the line protocol of pkg/extpolicy (docs/swfsim-external.md).
type ExecParams struct {
	// Command is the program and its arguments (extpolicy.SplitCommand).
	Command []string
	// Options carries the timeout and the stderr writer, and, set by the
	// caller once the trace is read, its header and the jobs' records.
	extpolicy.Options
}

// Finisher is implemented by policies that hold something beyond the
// simulation, such as exec's program: after sim.Run, the caller passes Run's
// error to Finish and uses the error Finish returns (the run is only
// complete when it returns nil).
type Finisher interface {
	Finish(s *sim.Sim, runErr error) error
}

// newExec builds policy exec; the program starts at the first round.
func newExec(p ExecParams) (sim.Policy, error) {
	return extpolicy.NewExec(p.Command, p.Options)
}
