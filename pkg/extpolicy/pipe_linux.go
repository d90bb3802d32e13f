package extpolicy

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// On Linux the engine's ends of the program's pipes are blocking file
// descriptors read and written with plain system calls: a round trip is one
// write and one read that sleeps in the kernel until the reply is there, not
// a non-blocking read, a park in Go's network poller and a wake-up by it
// (which costs a few microseconds a round on a busy machine; see the speed
// section of docs/swfsim-external.md). A blocking call has no deadline, so a
// watchdog goroutine enforces them: when a read or write has blocked past
// its deadline it kills the program's process group, which closes the
// program's ends, and the call returns os.ErrDeadlineExceeded.
//
// A read may first spin (SetSpin): try the pipe without blocking, for up to
// the spin time, before it sleeps. Going to sleep and being woken costs a
// process tens of microseconds on an idle virtual machine, several times a
// program's whole answer; a spinning reader takes the reply as soon as it is
// written. Spinning only pays while each process has a processor of its own:
// a spin stops at once when the reader finds it was preempted between two
// tries, and no read spins while the kernel counts more runnable tasks than
// there are processors (see spinner and loadGate).
// It does not yield between tries: measured, a sched_yield handed the
// processor to background (niced) work and made runs slower than sleeping.

// newPipes returns the program's standard input and output (the child's
// ends, blocking, for exec.Cmd) and the engine's ends, watched by one
// watchdog that calls kill when a deadline passes.
func newPipes() (childIn, childOut *os.File, engineIn io.WriteCloser, engineOut io.ReadCloser, w *watchdog, err error) {
	var in, out [2]int
	if err := syscall.Pipe2(in[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, nil, nil, nil, err
	}
	if err := syscall.Pipe2(out[:], syscall.O_CLOEXEC); err != nil {
		syscall.Close(in[0])
		syscall.Close(in[1])
		return nil, nil, nil, nil, nil, err
	}
	w = &watchdog{stop: make(chan struct{})}
	return os.NewFile(uintptr(in[0]), "|0"), os.NewFile(uintptr(out[1]), "|1"),
		newRawPipe(in[1], w, true), newRawPipe(out[0], w, false), w, nil
}

// rawPipe is one engine end of a pipe: blocking system calls, deadlines
// enforced by its watchdog. Only one goroutine uses it (the simulation's).
type rawPipe struct {
	fd       int
	w        *watchdog
	write    bool
	deadline int64 // unix nanoseconds, 0: none
	closed   bool
	ino      uint64 // the pipe's inode, to recognise it when opened again
	spin     spinner
	nb       int // the same pipe opened again non-blocking, for spinning; -1: none
}

func newRawPipe(fd int, w *watchdog, write bool) *rawPipe {
	p := &rawPipe{fd: fd, w: w, write: write, nb: -1}
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) == nil {
		p.ino = st.Ino
	}
	return p
}

func (p *rawPipe) SetReadDeadline(t time.Time) error  { return p.setDeadline(t) }
func (p *rawPipe) SetWriteDeadline(t time.Time) error { return p.setDeadline(t) }

// lastNano is the latest deadline in unix nanoseconds (in 2262): a later
// time (a timeout of centuries) would wrap, past time.Time's UnixNano, into
// a deadline already gone.
var lastNano = time.Unix(0, math.MaxInt64)

func (p *rawPipe) setDeadline(t time.Time) error {
	switch {
	case t.IsZero():
		p.deadline = 0
	case t.After(lastNano):
		p.deadline = math.MaxInt64
	default:
		p.deadline = t.UnixNano()
	}
	return nil
}

func (p *rawPipe) Read(b []byte) (int, error) {
	if p.closed {
		return 0, os.ErrClosed
	}
	if p.nb >= 0 && len(b) > 0 {
		if n := p.spin.read(p.nb, b); n > 0 {
			return n, nil
		}
	}
	p.w.enter(p)
	n, err := retryEINTR(func() (int, error) { return syscall.Read(p.fd, b) })
	p.w.leave()
	if p.w.fired.Load() {
		return 0, os.ErrDeadlineExceeded
	}
	switch {
	case err != nil:
		return 0, &os.PathError{Op: "read", Path: "|1", Err: err}
	case n == 0 && len(b) > 0:
		return 0, io.EOF
	}
	return n, nil
}

// pending reports whether the pipe holds data to read now (one system call:
// for diagnoses, not for every round).
func (p *rawPipe) pending() bool {
	if p.closed || p.write {
		return false
	}
	var n int32
	_, _, errno := syscall.RawSyscall(syscall.SYS_IOCTL, uintptr(p.fd), syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	return errno == 0 && n > 0
}

func (p *rawPipe) Write(b []byte) (int, error) {
	if p.closed {
		return 0, os.ErrClosed
	}
	done := 0
	p.w.enter(p)
	for done < len(b) {
		n, err := retryEINTR(func() (int, error) { return syscall.Write(p.fd, b[done:]) })
		if err != nil {
			p.w.leave()
			if p.w.fired.Load() {
				return done, os.ErrDeadlineExceeded
			}
			return done, &os.PathError{Op: "write", Path: "|0", Err: err}
		}
		done += n
	}
	p.w.leave()
	if p.w.fired.Load() {
		return done, os.ErrDeadlineExceeded
	}
	return done, nil
}

func (p *rawPipe) Close() error {
	if p.closed {
		return os.ErrClosed
	}
	p.closed = true
	if p.nb >= 0 {
		syscall.Close(p.nb)
	}
	return syscall.Close(p.fd)
}

func setSpin(r io.Reader, d time.Duration) {
	if p, ok := r.(*rawPipe); ok {
		p.setSpin(d)
	}
}

// setSpin makes the reads of a read end spin for up to d before they sleep
// (0: never). It opens the pipe a second time, non-blocking, through /proc;
// where that fails the reads just sleep.
func (p *rawPipe) setSpin(d time.Duration) {
	if p.write || p.closed {
		return
	}
	if p.nb >= 0 {
		syscall.Close(p.nb)
		p.nb = -1
	}
	p.spin = spinner{max: d}
	if d <= 0 {
		return
	}
	nb, err := syscall.Open(fmt.Sprintf("/proc/self/fd/%d", p.fd), syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	var st syscall.Stat_t
	if syscall.Fstat(nb, &st) != nil || st.Ino != p.ino {
		syscall.Close(nb)
		return
	}
	p.nb = nb
}

// spinner is a read's spin and its back-off. After a spin that was
// preempted the next reads do not spin: minPreemptedPause of them the first
// time, twice as many at each preemption after, up to maxPreemptedPause, and
// one fewer after each spin that got its data, so that a preemption now and
// then (a kernel thread, this process's own garbage collector) costs little
// and repeated ones stop spinning for longer. After a spin that found
// nothing in its time, the next idlePause reads do not spin. And no read
// spins while the machine has more runnable tasks than processors (gate).
type spinner struct {
	max     time.Duration
	pause   int              // reads left that do not spin
	backoff int              // the pause after the next preemption; 0: minPreemptedPause
	clock   func() time.Time // nil: time.Now (tests set a fake one)
	gate    loadGate
}

const (
	// spinGap: two tries further apart than this mean the reader lost its
	// processor in between.
	spinGap           = 100 * time.Microsecond
	minPreemptedPause = 100
	maxPreemptedPause = 10000
	idlePause         = 16
)

// read tries fd (non-blocking) until it gives data, for up to s.max, and
// returns how much it read; 0: nothing (not yet, an error, or the end: the
// blocking read that follows tells which).
func (s *spinner) read(fd int, b []byte) int {
	if s.pause > 0 {
		s.pause--
		return 0
	}
	clock := s.clock
	if clock == nil {
		clock = time.Now
	}
	start := clock()
	if s.gate.busy(start) {
		return 0
	}
	last := start
	for {
		// A raw system call: a non-blocking read returns at once, so the Go
		// scheduler need not hear of it (a plain one costs two runtime
		// calls and wakes its monitor thread).
		r, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
		if errno == 0 && int(r) > 0 {
			s.backoff = max(s.backoff-1, minPreemptedPause)
			return int(r)
		}
		if errno != syscall.EAGAIN {
			return 0
		}
		now := clock()
		switch {
		case now.Sub(last) > spinGap:
			s.backoff = max(s.backoff, minPreemptedPause)
			s.pause = s.backoff
			s.backoff = min(2*s.backoff, maxPreemptedPause)
			return 0
		case now.Sub(start) > s.max:
			s.pause = idlePause
			return 0
		}
		last = now
	}
}

// loadGate turns spinning off while the machine has more runnable tasks than
// processors. The two processes of a run can then no longer have one each,
// and a spinning reader takes processor time from the other process (which
// is working on the answer) instead of saving a wake-up; a preempted spin
// is caught by spinGap, but a peer starved by a spin is not. It reads the
// kernel's count of runnable tasks (/proc/loadavg) at most every loadCheck,
// at the start of a read, when the other process is usually runnable too (it
// has a message to work on), and closes while the mean of the last
// loadSamples counts is above the number of processors by more than a half.
// A mean, because single counts are noisy: on the idle 2-core machine they
// were 2 in about three reads of four, 3 or 4 in the others (the garbage
// collector's and Go's other threads), and with one CPU-bound process beside
// the run 3 to 6, with a 2 now and then.
type loadGate struct {
	checked time.Time
	counts  [loadSamples]int // the last counts, a ring; 0: none yet
	next    int
	count   func() (int, bool) // nil: runnableTasks (tests set a fake one)
}

const (
	// loadCheck is how often a loadGate reads the count (about 10 µs).
	loadCheck   = 10 * time.Millisecond
	loadSamples = 8
)

func (g *loadGate) busy(now time.Time) bool {
	if now.Sub(g.checked) >= loadCheck {
		g.checked = now
		count := g.count
		if count == nil {
			count = runnableTasks
		}
		n, ok := count()
		if !ok {
			n = 0
		}
		g.counts[g.next] = n
		g.next = (g.next + 1) % loadSamples
	}
	sum := 0
	for _, n := range g.counts {
		sum += n
	}
	// mean > cpus + 1/2
	return 2*sum > (2*runtime.NumCPU()+1)*loadSamples
}

// runnableTasks returns how many tasks the kernel counts as runnable now,
// the fourth field of /proc/loadavg ("0.84 0.44 0.68 1/83 19846"), without
// allocating.
func runnableTasks() (int, bool) {
	fd, err := syscall.Open("/proc/loadavg", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	defer syscall.Close(fd)
	var buf [128]byte
	n, err := syscall.Read(fd, buf[:])
	if err != nil || n <= 0 {
		return 0, false
	}
	return parseRunnable(buf[:n])
}

// parseRunnable reads the runnable count of a /proc/loadavg line.
func parseRunnable(b []byte) (int, bool) {
	fields := 0
	for i := 0; i < len(b); i++ {
		if b[i] == ' ' {
			fields++
			continue
		}
		if fields == 3 {
			v, digits := 0, 0
			for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
				v = v*10 + int(b[i]-'0')
				digits++
			}
			return v, digits > 0 && i < len(b) && b[i] == '/'
		}
	}
	return 0, false
}

func retryEINTR(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// watchdog enforces the deadlines of a program's two engine ends: the
// simulation's goroutine marks each blocking call (enter, leave), and the
// watchdog's goroutine, which sleeps until the current deadline, kills the
// program when a call is still blocked after it.
type watchdog struct {
	busy     atomic.Pointer[rawPipe] // the end blocked in a call, nil: none
	deadline atomic.Int64            // that call's deadline, unix nanoseconds; 0: none
	fired    atomic.Bool
	stop     chan struct{}
}

func (w *watchdog) enter(p *rawPipe) {
	w.deadline.Store(p.deadline)
	w.busy.Store(p)
}

func (w *watchdog) leave() { w.busy.Store(nil) }

// idleCheck is how often the watchdog looks when no call has a deadline.
const idleCheck = 50 * time.Millisecond

// run watches until Stop or until it fires, then calls kill once.
func (w *watchdog) run(kill func()) {
	t := time.NewTimer(idleCheck)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		p, d := w.busy.Load(), w.deadline.Load()
		now := time.Now().UnixNano()
		if p != nil && d != 0 && now >= d && w.busy.Load() == p {
			w.fired.Store(true)
			kill()
			w.unblock(p)
			return
		}
		next := idleCheck
		if d > now {
			next = min(next, time.Duration(d-now))
		}
		t.Reset(next)
	}
}

// unblock wakes a call that is still blocked after the program's process
// group was killed: a process that left the group (setsid) may still hold
// the program's end of the pipe. It opens the pipe again through /proc and
// writes a byte for a blocked read, or reads for a blocked write, until the
// call returns.
func (w *watchdog) unblock(p *rawPipe) {
	for range 20 {
		select {
		case <-w.stop:
			return
		case <-time.After(10 * time.Millisecond):
		}
		if w.busy.Load() == nil {
			return
		}
	}
	mode := syscall.O_WRONLY
	if p.write {
		mode = syscall.O_RDONLY
	}
	fd, err := syscall.Open(fmt.Sprintf("/proc/self/fd/%d", p.fd), mode|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Ino != p.ino || p.ino == 0 {
		return // the call returned and the descriptor was reused meanwhile
	}
	buf := make([]byte, 64<<10)
	for w.busy.Load() != nil {
		if p.write {
			syscall.Read(fd, buf)
		} else {
			syscall.Write(fd, []byte{'\n'})
		}
		select {
		case <-w.stop:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// Stop ends the watchdog's goroutine.
func (w *watchdog) Stop() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
}
