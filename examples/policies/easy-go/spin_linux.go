package main

import (
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// spinning returns standard input as a reader that, before each read that
// would sleep, polls for up to d: swfsim usually writes its next message a
// few microseconds after reading a reply, much sooner than a sleeping
// process is woken on an idle machine. A poll that finds it lost its
// processor between two tries (busy processors) makes the next reads sleep
// at once for a while, as swfsim's own --exec-spin does. d = 0, or a stdin
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
	nb    int // standard input opened again, non-blocking
	max   time.Duration
	pause int // reads left that sleep at once
}

const (
	spinGap        = 100 * time.Microsecond // tries further apart: preempted
	preemptedPause = 1000
	idlePause      = 16
)

func (s *spinReader) Read(b []byte) (int, error) {
	if s.pause > 0 || len(b) == 0 {
		s.pause = max(s.pause-1, 0)
		return os.Stdin.Read(b)
	}
	start := time.Now()
	last := start
	for {
		// A raw system call: a non-blocking read returns at once.
		r, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(s.nb), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
		if errno == 0 && int(r) > 0 {
			return int(r), nil
		}
		if errno != syscall.EAGAIN {
			break // the end or an error: the blocking read says which
		}
		now := time.Now()
		if now.Sub(last) > spinGap {
			s.pause = preemptedPause
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
