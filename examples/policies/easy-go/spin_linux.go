package main

import (
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// spinning returns standard input as a reader that, before each read that
// would sleep, polls for up to d: swfsim usually writes its next message a
// few microseconds after reading a reply, much sooner than a sleeping
// process is woken on an idle machine. A poll that finds it lost its
// processor between two tries (busy processors) makes the next reads sleep
// at once, 100 of them, twice as many at each such poll after (up to
// 10,000), one fewer after each poll that got its data, as swfsim's own
// --exec-spin does. d = 0, or a stdin
// that cannot be opened again non-blocking, gives os.Stdin itself.
func spinning(d time.Duration) io.Reader {
	if d <= 0 {
		return os.Stdin
	}
	fd, err := syscall.Open("/proc/self/fd/0", syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return os.Stdin
	}
	return &spinReader{nb: fd, max: d}
}

type spinReader struct {
	nb      int // standard input opened again, non-blocking
	max     time.Duration
	pause   int // reads left that sleep at once
	backoff int // the pause after the next preemption (doubles, up to 10,000)

	// The runnable tasks counted by the kernel at the last eight checks, 10
	// ms apart: while their mean is above the number of processors by more
	// than a half, swfsim and this program cannot each have one, and polling
	// would take processor time from swfsim (a mean, because Go's own
	// threads add one to a count now and then).
	counts  [8]int
	next    int
	checked time.Time
}

const (
	spinGap           = 100 * time.Microsecond // tries further apart: preempted
	minPreemptedPause = 100
	maxPreemptedPause = 10000
	idlePause         = 16
)

func (s *spinReader) Read(b []byte) (int, error) {
	if s.pause > 0 || len(b) == 0 {
		s.pause = max(s.pause-1, 0)
		return os.Stdin.Read(b)
	}
	start := time.Now()
	if start.Sub(s.checked) >= 10*time.Millisecond {
		s.checked = start
		n, _ := runnableTasks()
		s.counts[s.next] = n
		s.next = (s.next + 1) % len(s.counts)
	}
	sum := 0
	for _, n := range s.counts {
		sum += n
	}
	if 2*sum > (2*runtime.NumCPU()+1)*len(s.counts) {
		return os.Stdin.Read(b)
	}
	last := start
	for {
		// A raw system call: a non-blocking read returns at once.
		r, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(s.nb), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
		if errno == 0 && int(r) > 0 {
			s.backoff = max(s.backoff-1, minPreemptedPause)
			return int(r), nil
		}
		if errno != syscall.EAGAIN {
			break // the end or an error: the blocking read says which
		}
		now := time.Now()
		if now.Sub(last) > spinGap {
			s.backoff = max(s.backoff, minPreemptedPause)
			s.pause = s.backoff
			s.backoff = min(2*s.backoff, maxPreemptedPause)
			break
		}
		if now.Sub(start) > s.max {
			s.pause = idlePause
			break
		}
		last = now
	}
	return os.Stdin.Read(b)
}

// runnableTasks returns how many tasks the kernel counts as runnable now: the
// fourth field of /proc/loadavg, "0.84 0.44 0.68 1/83 19846".
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
	f := strings.Fields(string(buf[:n]))
	if len(f) < 4 {
		return 0, false
	}
	runnable, _, found := strings.Cut(f[3], "/")
	v, err := strconv.Atoi(runnable)
	return v, found && err == nil
}
