package extpolicy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
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
	if n, err := p.w.Write(p.buf); err != nil {
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded) && p.exitedByItself():
			return fmt.Errorf("%w: the message was not read within %v (--exec-timeout): the program had exited, and a process it started kept its input open", ErrTimeout, p.timeout)
		case errors.Is(err, os.ErrDeadlineExceeded):
			// What went into the pipe is not what the program read: the
			// pipe holds up to 64 KiB unread.
			return fmt.Errorf("%w: the program did not read the message within %v (--exec-timeout): %d of its %d bytes went into the program's input, whose pipe holds 64 KiB unread", ErrTimeout, p.timeout, n, len(p.buf))
		}
		if errors.Is(err, syscall.EPIPE) {
			return &inputClosedError{write: err}
		}
		return fmt.Errorf("%w: cannot write to the program: %w", ErrExited, err)
	}
	return nil
}

// exitedByItself reports whether the program (not an in-process client)
// had exited by itself when a call on its pipes timed out: what blocked
// the call was a process it started, holding the pipe.
func (p *Policy) exitedByItself() bool { return p.proc != nil && p.proc.exitedByItself() }

// inputClosedError: the engine's write found the program's input closed
// (EPIPE). It is an ErrExited, and it does not unwrap to the write's EPIPE:
// the command reads an EPIPE as its own standard output closed (`| head`)
// and ends quietly with status 0, which would make a program that exited
// between a reply and the next message a silent success without output.
type inputClosedError struct{ write error }

func (e *inputClosedError) Error() string {
	return fmt.Sprintf("%v: it closed its input instead of reading this message (%v)", ErrExited, e.write)
}

func (e *inputClosedError) Unwrap() error { return ErrExited }

// errTooLong: a line passed maxReply. What the program writes next is the
// rest of that line, which laterLine must not quote as a line written after
// the reply.
var errTooLong = fmt.Errorf("a line longer than %d bytes", maxReply)

// errUnasked: the program wrote more than one line for one message.
var errUnasked = errors.New("the program wrote a line before it was sent this message")

// unasked returns an error when the reader holds more from the program than
// its last reply, before the next message is sent: a line no message asked
// for. Taken as the reply to the next message, it would make every later
// reply the answer to the message before, and the run would fail rounds
// later with a baffling error, or at the end. It looks only at what came
// with the last reply, which costs nothing; a second line written later is
// caught by laterLine when a reply is rejected, or at the end. after names
// the last message ("round 3").
func (p *Policy) unasked(after string) error {
	if p.r.Buffered() == 0 {
		return nil
	}
	return fmt.Errorf("%w: %w: %s (a second reply to %s?)", ErrProtocol, errUnasked, p.peekLine(), after)
}

// laterGrace bounds how long a rejected reply waits for laterLine (a
// variable only so that a test on a loaded machine can widen it).
var laterGrace = 100 * time.Millisecond

// laterLine quotes what the program wrote after a reply the engine rejected,
// before it was sent another message, waiting up to grace for it: "" for
// nothing. A line there means that the program answers messages it has not
// been sent, having answered an earlier one twice, so that the rejected
// reply was its answer to the message before. Where the reader cannot say
// whether data waits (not a pipe of StartProcess on Linux), only what it
// holds already is seen.
func (p *Policy) laterLine(grace time.Duration) string {
	pp, ok := p.rawR.(interface{ pending() bool })
	deadline := time.Now().Add(grace)
	for p.r.Buffered() == 0 {
		if ok && pp.pending() {
			if _, err := p.r.Peek(1); err != nil { // data waits: no blocking
				return ""
			}
			break
		}
		if !ok || time.Now().After(deadline) {
			return ""
		}
		time.Sleep(5 * time.Millisecond)
	}
	return p.peekLine()
}

// peekLine quotes the first line the reader holds, without taking it.
func (p *Policy) peekLine() string {
	b, _ := p.r.Peek(p.r.Buffered())
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return quoteLine(b)
}

// rejectedReply reports whether err rejects a reply the program wrote (not
// a timeout, an exit, or a failure of the simulation's own).
func rejectedReply(err error) bool {
	for _, e := range []error{ErrUnknownJob, ErrNotWaiting, ErrDoesNotFit, ErrMalformed, ErrDeadlock, ErrProtocol} {
		if errors.Is(err, e) {
			return !errors.Is(err, errUnasked) && !errors.Is(err, errTooLong)
		}
	}
	return false
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
			return nil, fmt.Errorf("%w: %w: %s", ErrMalformed, errTooLong, quoteLine(p.long))
		}
		line = p.long
	}
	switch {
	case err == nil:
		return line, nil
	case errors.Is(err, os.ErrDeadlineExceeded) && p.exitedByItself():
		// Not a reply held in a buffer: the program is gone.
		return nil, fmt.Errorf("%w: no reply within %v (--exec-timeout): the program had exited, and a process it started kept its output open", ErrTimeout, p.timeout)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, fmt.Errorf("%w: no reply within %v (--exec-timeout); a reply the program wrote without flushing its output looks the same (Python: print(..., flush=True))", ErrTimeout, p.timeout)
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
	if stage != StageEnd && rejectedReply(err) {
		if later := p.laterLine(min(p.timeout, laterGrace)); later != "" {
			e.Err = fmt.Errorf("%w; the program wrote another line after this reply, before it was sent another message: %s: did it answer an earlier message twice, so that each reply since was read as the answer to the message after the one it answers?", err, later)
		}
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
