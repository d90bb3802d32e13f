package extpolicy

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors, for errors.Is on an *Error.
var (
	// ErrUnknownJob: a reply names a job id that is not in the trace.
	ErrUnknownJob = errors.New("unknown job id")
	// ErrNotWaiting: a reply starts a job that is not waiting (not yet
	// submitted, already running or already ended).
	ErrNotWaiting = errors.New("job is not waiting")
	// ErrDoesNotFit: a reply starts a job wider than the free processors.
	ErrDoesNotFit = errors.New("job does not fit")
	// ErrMalformed: a reply is not one JSON object of the expected shape.
	ErrMalformed = errors.New("malformed reply")
	// ErrProtocol: a reply breaks a rule of the protocol (version, timer in
	// the past, output after the final message).
	ErrProtocol = errors.New("protocol violation")
	// ErrTimeout: no reply (or no exit after the final message) within the
	// timeout.
	ErrTimeout = errors.New("timeout")
	// ErrExited: the program closed its output, exited or crashed before the
	// protocol said it may, or exited with a non-zero status at the end.
	ErrExited = errors.New("program ended")
	// ErrDeadlock: jobs wait, nothing runs, no job will arrive, and the
	// program started nothing and asked for no timer: no job would ever start.
	ErrDeadlock = errors.New("deadlock")
	// ErrStart: the program could not be started.
	ErrStart = errors.New("cannot start program")
)

// Stage says where in the conversation an error happened.
type Stage uint8

const (
	// StageHello: the first message and its reply.
	StageHello Stage = iota
	// StageRound: a round message and its reply.
	StageRound
	// StageEnd: the final message and the program's exit.
	StageEnd
)

// Error is a failure of the external program or of its side of the protocol.
// It names the program, where in the conversation it happened (the round and
// the simulated time), the job concerned, how the program ended and the last
// lines of its standard error.
type Error struct {
	// Program is the command line, quoted as JoinCommand does; "" for a
	// policy over a reader and writer (New).
	Program string
	Stage   Stage
	// Round is the number of the round message (1 for the first); 0 in the
	// hello stage.
	Round int64
	// Time is the simulated time of the round (or of the end).
	Time int64
	// Job is the engine id of the job concerned, -1 for none; JobNumber is
	// its SWF job number (field 1).
	Job       int32
	JobNumber int64
	// Err is what went wrong; errors.Is finds the sentinel in it.
	Err error
	// Exit says how the program ended ("exited with status 1", "ended by
	// signal: segmentation fault", "killed by swfsim"), "" when unknown.
	Exit string
	// Stderr holds the last lines of the program's standard error.
	Stderr []string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("exec policy")
	if e.Program != "" {
		b.WriteString(" [" + e.Program + "]")
	}
	switch e.Stage {
	case StageHello:
		b.WriteString(": first message (hello)")
	case StageRound:
		fmt.Fprintf(&b, ": round %d at time %d", e.Round, e.Time)
	case StageEnd:
		fmt.Fprintf(&b, ": final message at time %d", e.Time)
	}
	if e.Job >= 0 {
		fmt.Fprintf(&b, ": job %d (SWF job %d)", e.Job, e.JobNumber)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	if e.Exit != "" {
		fmt.Fprintf(&b, "; the program %s", e.Exit)
	}
	if len(e.Stderr) == 0 {
		if e.Program != "" && !errors.Is(e.Err, ErrStart) { // a program that never ran has no stderr to speak of
			b.WriteString("; its stderr was empty")
		}
		return b.String()
	}
	if len(e.Stderr) == 1 {
		b.WriteString("; the last line of its stderr:")
	} else {
		fmt.Fprintf(&b, "; the last %d lines of its stderr:", len(e.Stderr))
	}
	for _, l := range e.Stderr {
		b.WriteString("\n    ")
		b.WriteString(l)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }
