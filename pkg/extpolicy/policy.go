package extpolicy

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

// DefaultTimeout is how long the program may take to answer a message, to
// read one, or to exit after the final message, unless Options.Timeout says.
const DefaultTimeout = 60 * time.Second

// DefaultSpin is swfsim's --exec-spin: long enough for a compiled program's
// answer to a round, short enough to cost little when it does not come.
const DefaultSpin = 200 * time.Microsecond

// MaxIdleRounds bounds the rounds in a row in which jobs wait, the machine is
// empty, no job will arrive, and the program starts nothing and only asks for
// another timer: past it the run is a deadlock (ErrDeadlock), not a loop.
const MaxIdleRounds = 10000

// maxReply bounds a reply line (a start list of every job of a million-job
// trace is about 8 MB).
const maxReply = 64 << 20

// exitGrace is how long a program that closed its output mid-run gets to
// exit by itself (for its exit status) before it is killed.
const exitGrace = 2 * time.Second

// StderrPrefix starts each line of the program's stderr that swfsim passes on.
const StderrPrefix = "swfsim: exec: "

// Options configures a Policy. Only Records is required; the zero values of
// the rest are documented defaults.
type Options struct {
	// Records holds every simulated job's SWF fields and tokens, by engine ID;
	// it must hold exactly the simulation's jobs.
	Records *Records
	// Header is the trace's header, whose labelled lines go into the first
	// message; nil sends none.
	Header *swf.Header
	// ProcsFrom names the rule that gave each job's processors (--procs-from),
	// for the first message; "" is "requested".
	ProcsFrom string
	// Seed is swfsim's --seed, passed on in the first message for a program
	// that draws random numbers.
	Seed int64
	// Timeout bounds each wait for the program (0: DefaultTimeout). It is
	// enforced when the reader and writer have deadlines (SetReadDeadline,
	// SetWriteDeadline), as the pipes of a Process do.
	Timeout time.Duration
	// Spin is how long each wait for the program's reply first polls the
	// pipe before it sleeps (Linux; 0: never). A program that answers within
	// it saves the engine a sleep and a wake-up (tens of microseconds a
	// round on an idle machine); a wait that was preempted while it spun
	// (busy processors) stops spinning for a while. DefaultSpin is
	// swfsim's default.
	Spin time.Duration
	// Stderr receives the program's standard error lines, each prefixed with
	// StderrPrefix (exec only; nil: discarded). It is written from another
	// goroutine while the program runs.
	Stderr io.Writer
}

// Policy is a sim.Policy whose decisions come from another program over the
// line protocol of docs/swfsim-external.md. It validates every decision: a
// reply that names an unknown job, a job that is not waiting, a start that
// does not fit, malformed JSON, a late reply, an early exit, or a round with
// no way forward is an *Error, which Err returns (sim.Run stops on it, see
// sim.Failer). After Run, call Finish.
type Policy struct {
	opt     Options
	argv    []string // exec: the program; nil for New
	program string   // argv as JoinCommand quotes it
	proc    *Process

	killMu  sync.Mutex // guards proc's start against Kill, and stopped
	stopped bool       // Kill was called: the program is not to run

	r         *bufio.Reader
	w         io.Writer
	rawR      io.Reader // for deadlines
	timeout   time.Duration
	started   bool
	every     bool
	startHead bool // the engine starts the queue's head while it fits
	note      string

	quietEnd  []bool  // by job id: in the last reply's quiet_ends
	quietList []int32 // the ids set in quietEnd
	spared    int64   // rounds not sent thanks to quiet_ends

	buf     []byte
	reply   reply
	long    []byte // a reply longer than the reader's buffer
	arrived []int32
	ended   []event
	killed  []event
	begun   []event // started by the engine (start_head), for the next message

	timerID    sim.TimerID
	timerAt    int64 // pending timer, -1: none
	timerFired int64 // fired since the last message, -1: not

	arrivals     int
	round        int64
	engineRounds int64
	idle         int
	err          error
}

// New returns a policy that writes its messages to w and reads the program's
// replies from r: an in-process client (tests, benchmarks) or pipes set up by
// the caller. Finish closes w if it is an io.Closer.
func New(r io.Reader, w io.Writer, opt Options) *Policy {
	p := newPolicy(opt)
	p.connect(r, w)
	return p
}

// NewExec returns a policy that starts argv (see SplitCommand) at its first
// round, without a shell, and talks to it over its standard input and output.
// Nothing is started before the simulation runs.
func NewExec(argv []string, opt Options) (*Policy, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("extpolicy: no program to run")
	}
	p := newPolicy(opt)
	p.argv = append([]string(nil), argv...)
	p.program = JoinCommand(argv)
	return p, nil
}

func newPolicy(opt Options) *Policy {
	p := &Policy{opt: opt, timeout: opt.Timeout, timerAt: -1, timerFired: -1}
	if p.timeout <= 0 {
		p.timeout = DefaultTimeout
	}
	if p.opt.ProcsFrom == "" {
		p.opt.ProcsFrom = "requested"
	}
	return p
}

func (p *Policy) connect(r io.Reader, w io.Writer) {
	p.rawR = r
	p.r = bufio.NewReaderSize(r, 64<<10)
	p.w = w
}

// Program returns the command line (quoted as JoinCommand does), "" for New.
func (p *Policy) Program() string { return p.program }

// Err returns the first failure, nil while all is well (sim.Failer).
func (p *Policy) Err() error { return p.err }

// Note describes the run for the output header: the program, the protocol,
// the rounds, and the note the program gave in its first reply.
func (p *Policy) Note() string {
	s := "program " + p.program
	if p.program == "" {
		s = "in-process client"
	}
	s += fmt.Sprintf(" (protocol %d, timeout %v), %d round messages for %d scheduling rounds", Version, p.timeout, p.round, p.engineRounds)
	if p.every {
		s += " (every round asked for)"
	}
	if p.startHead {
		s += " (start_head: the engine started the queue's head while it fit)"
	}
	if p.spared > 0 {
		s += fmt.Sprintf(" (quiet_ends: %d rounds after a quiet end not sent)", p.spared)
	}
	if p.note != "" {
		s += "; the program says: " + p.note
	}
	return s
}

// Arrived queues j's arrival for the next round message.
func (p *Policy) Arrived(_ *sim.Sim, j *sim.Job) {
	p.arrivals++
	p.arrived = append(p.arrived, j.ID)
}

// Ended queues the end of j's run for the next round message.
func (p *Policy) Ended(s *sim.Sim, j *sim.Job, why sim.EndReason) {
	switch why {
	case sim.Completed:
		p.ended = append(p.ended, event{j.ID, s.Now()})
	case sim.KilledAtEstimate:
		p.killed = append(p.killed, event{j.ID, s.Now()})
	default:
		panic("extpolicy: a run ended by " + why.String() + ", which protocol 1 cannot cause")
	}
}

// Timer notes that the program's timer fired.
func (p *Policy) Timer(s *sim.Sim, id sim.TimerID, _ int64) {
	if id == p.timerID && p.timerAt >= 0 {
		p.timerAt = -1
		p.timerFired = s.Now()
	}
}

// Schedule is one round: unless no waiting job fits in the free processors
// (and the program did not ask for every round), the round message goes out,
// the reply comes back, and its starts and timer are checked and carried out.
func (p *Policy) Schedule(s *sim.Sim) {
	if p.err != nil {
		return
	}
	p.engineRounds++
	if !p.started && !p.start(s) {
		return
	}
	started := 0
	if p.startHead {
		started = p.startHeads(s)
	}
	if !p.every && (s.NumWaiting() == 0 || s.FreeProcs() < s.MinWaitingProcs()) {
		return // no decision is possible: the events wait for the next message
	}
	if !p.every && p.onlyQuietEnd(s) {
		p.spared++
		return // the program said this end alone changes nothing for it
	}
	if err := p.unasked(p.lastMessage()); err != nil {
		p.round++
		p.fail(s, StageRound, -1, err)
		return
	}
	p.round++
	p.buf = appendRound(p.buf[:0], s, p.round, p.timerFired, p.opt.Records, p.arrived, p.ended, p.killed, p.begunList())
	p.arrived, p.ended, p.killed, p.begun = p.arrived[:0], p.ended[:0], p.killed[:0], p.begun[:0]
	p.timerFired = -1
	if err := p.send(); err != nil {
		p.fail(s, StageRound, -1, err)
		return
	}
	line, err := p.readLine()
	if err != nil {
		p.fail(s, StageRound, -1, err)
		return
	}
	if err := parseReply(line, &p.reply); err != nil {
		p.fail(s, StageRound, -1, err)
		return
	}
	for k, id := range p.reply.Start {
		j, err := p.startable(s, id)
		if err != nil {
			jid := int32(-1)
			if id >= 0 && id < int64(s.NumJobs()) {
				jid = int32(id)
			}
			p.fail(s, StageRound, jid, fmt.Errorf("start[%d]: %w", k, err))
			return
		}
		s.Start(j)
		started++
	}
	if p.timerAt >= 0 {
		s.CancelTimer(p.timerID)
		p.timerAt = -1
	}
	if t := p.reply.Timer; t != nil {
		if *t <= s.Now() {
			p.fail(s, StageRound, -1, fmt.Errorf("%w: timer %d is not after the round's time %d", ErrProtocol, *t, s.Now()))
			return
		}
		if *t > swf.MaxTime {
			p.fail(s, StageRound, -1, fmt.Errorf("%w: timer %d is beyond swfkit's time bound %d s", ErrProtocol, *t, int64(swf.MaxTime)))
			return
		}
		p.timerAt = *t
		p.timerID = s.SetTimer(*t, 0)
	}
	if !p.setQuietEnds(s) {
		return
	}
	p.checkProgress(s, started)
}

// onlyQuietEnd reports whether the only event since the last message is the
// end of a job the program named in quiet_ends, while another job still runs
// (so that a later end brings a message: a wrong claim delays the program,
// it cannot stall the run).
func (p *Policy) onlyQuietEnd(s *sim.Sim) bool {
	if len(p.quietList) == 0 || len(p.arrived) > 0 || len(p.begun) > 0 || p.timerFired >= 0 ||
		len(p.ended)+len(p.killed) != 1 || len(s.Running()) == 0 {
		return false
	}
	e := p.ended
	if len(e) == 0 {
		e = p.killed
	}
	return p.quietEnd[e[0].id]
}

// setQuietEnds replaces the quiet ends by the reply's, each of which must be
// a running job.
func (p *Policy) setQuietEnds(s *sim.Sim) bool {
	for _, id := range p.quietList {
		p.quietEnd[id] = false
	}
	p.quietList = p.quietList[:0]
	for k, id := range p.reply.QuietEnds {
		if id < 0 || id >= int64(s.NumJobs()) {
			p.fail(s, StageRound, -1, fmt.Errorf("quiet_ends[%d]: %w %d: the trace's jobs are 0..%d", k, ErrUnknownJob, id, s.NumJobs()-1))
			return false
		}
		if j := s.Job(int32(id)); j.State != sim.Running {
			p.fail(s, StageRound, j.ID, fmt.Errorf("quiet_ends[%d]: %w: the job is not running", k, ErrProtocol))
			return false
		}
		if p.quietEnd == nil {
			p.quietEnd = make([]bool, s.NumJobs())
		}
		p.quietEnd[id] = true
		p.quietList = append(p.quietList, int32(id))
	}
	return true
}

// startHeads starts waiting jobs in queue order while the first fits (the
// program asked for it with start_head) and returns how many it started.
func (p *Policy) startHeads(s *sim.Sim) int {
	n := 0
	for _, j := range s.Waiting() {
		if j.State != sim.Waiting {
			continue
		}
		if int64(j.Procs) > s.FreeProcs() {
			break
		}
		s.Start(j)
		p.begun = append(p.begun, event{j.ID, s.Now()})
		n++
	}
	return n
}

// begunList is the started list for the next message: nil (no key) unless
// the program asked for start_head.
func (p *Policy) begunList() []event {
	if !p.startHead {
		return nil
	}
	return p.begun[:len(p.begun):len(p.begun)]
}

// startable returns the job id names if it may start now.
func (p *Policy) startable(s *sim.Sim, id int64) (*sim.Job, error) {
	if id < 0 || id >= int64(s.NumJobs()) {
		return nil, fmt.Errorf("%w %d: the trace's jobs are 0..%d", ErrUnknownJob, id, s.NumJobs()-1)
	}
	j := s.Job(int32(id))
	switch j.State {
	case sim.Waiting:
	case sim.Pending:
		return nil, fmt.Errorf("%w: it has not been submitted yet (submit time %d)", ErrNotWaiting, j.Submit)
	case sim.Running:
		return nil, fmt.Errorf("%w: it is already running (started at %d)", ErrNotWaiting, j.Start)
	default:
		return nil, fmt.Errorf("%w: it already ended (at %d)", ErrNotWaiting, j.End)
	}
	if int64(j.Procs) > s.FreeProcs() {
		return nil, fmt.Errorf("%w: it needs %d processors and %d are free (after the starts before it in this reply)",
			ErrDoesNotFit, j.Procs, s.FreeProcs())
	}
	return j, nil
}

// checkProgress reports a round after which no job can ever start: jobs
// wait, nothing runs, no job will arrive, and no timer is set (or only
// timers, MaxIdleRounds times in a row).
func (p *Policy) checkProgress(s *sim.Sim, started int) {
	if s.NumWaiting() == 0 || len(s.Running()) > 0 || p.arrivals < s.NumJobs() || started > 0 {
		p.idle = 0
		return
	}
	first := s.Waiting()[0]
	for _, j := range s.Waiting() {
		if j.State == sim.Waiting {
			first = j
			break
		}
	}
	if p.timerAt < 0 {
		p.fail(s, StageRound, first.ID, fmt.Errorf("%w: %d jobs wait (this one first), nothing runs, no job will arrive, and the reply started nothing and set no timer: no job would ever start",
			ErrDeadlock, s.NumWaiting()))
		return
	}
	p.idle++
	if p.idle >= MaxIdleRounds {
		p.fail(s, StageRound, first.ID, fmt.Errorf("%w: %d rounds in a row started nothing and only set another timer while %d jobs wait (this one first) on an empty machine with no job to arrive",
			ErrDeadlock, p.idle, s.NumWaiting()))
	}
}

// start starts the program (exec) and exchanges the first messages.
func (p *Policy) start(s *sim.Sim) bool {
	p.started = true
	if p.opt.Records == nil || p.opt.Records.Len() != s.NumJobs() {
		n := 0
		if p.opt.Records != nil {
			n = p.opt.Records.Len()
		}
		panic(fmt.Sprintf("extpolicy: Options.Records holds %d jobs, the simulation %d", n, s.NumJobs()))
	}
	if p.argv != nil {
		p.killMu.Lock()
		if p.stopped {
			p.killMu.Unlock()
			p.fail(s, StageHello, -1, fmt.Errorf("%w: swfsim is being stopped", ErrStart))
			return false
		}
		proc, err := StartProcess(p.argv, p.opt.Stderr, StderrPrefix)
		p.proc = proc
		p.killMu.Unlock()
		if err != nil {
			p.fail(s, StageHello, -1, err)
			return false
		}
		proc.SetSpin(p.opt.Spin)
		p.connect(proc.Stdout(), proc.Stdin())
	}
	p.buf = appendHello(p.buf[:0], s, p.opt.ProcsFrom, p.opt.Seed, p.opt.Header)
	if err := p.send(); err != nil {
		p.fail(s, StageHello, -1, err)
		return false
	}
	line, err := p.readLine()
	if err != nil {
		p.fail(s, StageHello, -1, err)
		return false
	}
	h, err := parseHello(line)
	if err != nil {
		p.fail(s, StageHello, -1, err)
		return false
	}
	p.every, p.startHead, p.note = h.EveryRound, h.StartHead, h.Note
	if p.startHead {
		p.begun = make([]event, 0, 64) // never nil: the key is always written
	}
	return true
}

// Finish ends the conversation after sim.Run returned runErr. After a
// successful run it sends the final message (the ends since the last round
// and the run's totals), closes the program's input, and expects the
// program to exit with status 0 within the timeout, writing nothing more; a
// failed run stops the program. It returns runErr, or the first failure.
func (p *Policy) Finish(s *sim.Sim, runErr error) error {
	if runErr != nil {
		if p.err == nil {
			p.fail(s, StageRound, -1, runErr)
		}
		return p.err
	}
	if p.err != nil {
		return p.err
	}
	if !p.started && !p.start(s) {
		return p.err
	}
	t := totals{jobs: int64(s.NumJobs()), rounds: p.round, engineRounds: p.engineRounds}
	for i := range s.Jobs() {
		j := &s.Jobs()[i]
		if j.Killed {
			t.killed++
		} else {
			t.completed++
		}
		t.lastEnd = max(t.lastEnd, j.End)
		t.waitSum += j.Start - j.Submit
	}
	if err := p.unasked(p.lastMessage()); err != nil {
		p.fail(s, StageEnd, -1, err)
		return p.err
	}
	p.buf = appendEnd(p.buf[:0], s, p.opt.Records, p.arrived, p.begunList(), p.ended, p.killed, t)
	// A program that closed its input (exited) after its last reply, without
	// reading the final message, missed nothing it needed: its exit status
	// decides, as when the message reached its pipe before it went.
	var closed *inputClosedError
	if err := p.send(); err != nil && !errors.As(err, &closed) {
		p.fail(s, StageEnd, -1, err)
		return p.err
	}
	if c, ok := p.w.(io.Closer); ok {
		c.Close()
	}
	// The program exits now: its output must end without another byte. A
	// process it started and left running may hold that output open; it
	// goes when the program has exited (its process group, as Stop does),
	// so that the run does not wait for it.
	var stop chan struct{}
	if p.proc != nil {
		stop = make(chan struct{})
		go func() {
			select {
			case <-p.proc.Exited():
				p.proc.reap()
			case <-stop:
			}
		}()
	}
	line, err := p.readLine()
	if stop != nil {
		close(stop)
	}
	switch {
	case err == nil || errors.Is(err, errPartial):
		p.fail(s, StageEnd, -1, fmt.Errorf("%w: the program wrote after the final message: %s", ErrProtocol, quoteLine(line)))
		return p.err
	case errors.Is(err, ErrTimeout):
		if p.proc != nil && p.proc.exitedByItself() {
			p.fail(s, StageEnd, -1, fmt.Errorf("%w: the program exited, but its output stayed open %v after the final message (--exec-timeout): a process it started holds it; end those before exiting, or start them with their output elsewhere", ErrTimeout, p.timeout))
			return p.err
		}
		p.fail(s, StageEnd, -1, fmt.Errorf("%w: the program did not exit within %v of the final message (--exec-timeout)", ErrTimeout, p.timeout))
		return p.err
	}
	if p.proc != nil {
		exit := p.proc.Stop(p.timeout)
		if !p.proc.Success() {
			e := &Error{Program: p.program, Stage: StageEnd, Round: p.round, Time: now(s), Job: -1,
				Err:  fmt.Errorf("%w: the program did not exit with status 0 after the final message", ErrExited),
				Exit: exit, Stderr: p.proc.StderrTail()}
			p.err = e
			return e
		}
	}
	return nil
}

// Kill kills the program and what it started (its process group, and on
// Linux what it started outside it: Process.Kill) at once, and keeps a
// program not started yet from starting. Unlike the other
// methods it may be called from any goroutine: it is for a signal handler
// that ends swfsim, which the program must not outlive (its own death
// signal, on Linux, reaches the program only, not what it started).
func (p *Policy) Kill() {
	p.killMu.Lock()
	defer p.killMu.Unlock()
	p.stopped = true
	if p.proc != nil {
		p.proc.Kill()
	}
}

// lastMessage names the message an unasked line may answer a second time:
// the last one sent, or, when the program has been ahead since an earlier
// second reply that came too late to be seen, any before it.
func (p *Policy) lastMessage() string {
	if p.round == 0 {
		return "the first message"
	}
	return fmt.Sprintf("round %d, or to an earlier message", p.round)
}

// Rounds returns the number of round messages sent so far.
func (p *Policy) Rounds() int64 { return p.round }

var _ sim.Policy = (*Policy)(nil)
var _ sim.Failer = (*Policy)(nil)
