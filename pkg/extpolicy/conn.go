package extpolicy

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/swfkit/swfkit/pkg/sim"
)

// The conversation's plumbing: one message out, one line back, each within
// the timeout, and what a failure records.

// errPartial: the program's output ended in the middle of a line.
var errPartial = errors.New("the program closed its output in the middle of a line")

type readDeadliner interface{ SetReadDeadline(time.Time) error }
type writeDeadliner interface{ SetWriteDeadline(time.Time) error }

// send writes p.buf, within the timeout when the writer has deadlines.
func (p *Policy) send() error {
	if d, ok := p.w.(writeDeadliner); ok {
		_ = d.SetWriteDeadline(time.Now().Add(p.timeout))
	}
	if _, err := p.w.Write(p.buf); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("%w: the program read nothing for %v (--exec-timeout)", ErrTimeout, p.timeout)
		}
		return fmt.Errorf("%w: cannot write to the program: %v", ErrExited, err)
	}
	return nil
}

// readLine returns the program's next line, within the timeout when the
// reader has deadlines. The slice is valid until the next read.
func (p *Policy) readLine() ([]byte, error) {
	if d, ok := p.rawR.(readDeadliner); ok {
		_ = d.SetReadDeadline(time.Now().Add(p.timeout))
	}
	line, err := p.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		p.long = append(p.long[:0], line...)
		for err == bufio.ErrBufferFull && len(p.long) <= maxReply {
			line, err = p.r.ReadSlice('\n')
			p.long = append(p.long, line...)
		}
		if len(p.long) > maxReply {
			return nil, fmt.Errorf("%w: a line longer than %d bytes: %s", ErrMalformed, maxReply, quoteLine(p.long))
		}
		line = p.long
	}
	switch {
	case err == nil:
		return line, nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, fmt.Errorf("%w: no reply within %v (--exec-timeout)", ErrTimeout, p.timeout)
	case err == io.EOF && len(line) > 0:
		return line, fmt.Errorf("%w: %w: %s", ErrExited, errPartial, quoteLine(line))
	case err == io.EOF:
		return nil, fmt.Errorf("%w: it closed its output instead of replying", ErrExited)
	}
	return nil, fmt.Errorf("%w: cannot read the program's reply: %v", ErrExited, err)
}

// fail records the first failure and, for a program, stops it and adds how
// it ended and its last stderr lines.
func (p *Policy) fail(s *sim.Sim, stage Stage, job int32, err error) {
	if p.err != nil {
		return
	}
	e := &Error{Program: p.program, Stage: stage, Round: p.round, Time: now(s), Job: job, JobNumber: p.opt.Records.number(job), Err: err}
	if stage == StageHello {
		e.Round = 0
	}
	if p.proc != nil {
		// A program that closed its output is probably exiting: give it a
		// moment to say how. Any other failure ends it now.
		grace := time.Duration(0)
		if errors.Is(err, ErrExited) {
			grace = min(p.timeout, exitGrace)
		}
		e.Exit = p.proc.Stop(grace)
		e.Stderr = p.proc.StderrTail()
	} else if c, ok := p.w.(io.Closer); ok {
		c.Close()
	}
	p.err = e
}

// now is the simulated time, 0 before the first event (a trace without jobs).
func now(s *sim.Sim) int64 { return max(s.Now(), 0) }
