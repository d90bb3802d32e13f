package extpolicy

import (
	"io"
	"syscall"
	"testing"
	"time"
)

// spinPipe returns a read end with spinning set to d and the write end.
func spinPipe(t *testing.T, d time.Duration) (*rawPipe, int) {
	t.Helper()
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r := newRawPipe(fds[0], &watchdog{stop: make(chan struct{})}, false)
	r.setSpin(d)
	if r.nb < 0 {
		t.Skip("cannot open the pipe again through /proc: reads do not spin here")
	}
	t.Cleanup(func() { r.Close(); syscall.Close(fds[1]) })
	return r, fds[1]
}

func TestSpinTakesWaitingData(t *testing.T) {
	r, w := spinPipe(t, time.Second)
	syscall.Write(w, []byte("reply\n"))
	b := make([]byte, 64)
	if n := r.spin.read(r.nb, b); string(b[:n]) != "reply\n" {
		t.Fatalf("spin read %q, want the reply", b[:n])
	}
	if r.spin.pause != 0 {
		t.Errorf("pause %d after a spin that found data, want 0", r.spin.pause)
	}
}

// A reply later than the spin comes through the blocking read, and the next
// idlePause reads do not spin.
func TestSpinGivesUpThenSleeps(t *testing.T) {
	r, w := spinPipe(t, 200*time.Microsecond)
	go func() {
		time.Sleep(20 * time.Millisecond)
		syscall.Write(w, []byte("late\n"))
	}()
	b := make([]byte, 64)
	n, err := r.Read(b)
	if err != nil || string(b[:n]) != "late\n" {
		t.Fatalf("Read %q, %v; want the late reply", b[:n], err)
	}
	// A preemption could also have ended the spin (a busy machine).
	if r.spin.pause != idlePause && r.spin.pause != preemptedPause {
		t.Errorf("pause %d after a spin that found nothing, want %d", r.spin.pause, idlePause)
	}
	p := r.spin.pause
	syscall.Write(w, []byte("x\n"))
	if n, err := r.Read(b); err != nil || string(b[:n]) != "x\n" {
		t.Fatalf("Read %q, %v", b[:n], err)
	}
	if r.spin.pause != p-1 {
		t.Errorf("pause %d, want %d: a paused read must not spin", r.spin.pause, p-1)
	}
}

// Two tries further apart than spinGap: the reader was preempted, so it
// stops at once and does not spin for preemptedPause reads.
func TestSpinStopsWhenPreempted(t *testing.T) {
	r, _ := spinPipe(t, time.Second)
	t0 := time.Unix(0, 0)
	calls := 0
	r.spin.clock = func() time.Time {
		calls++
		return t0.Add(time.Duration(calls-1) * (spinGap + time.Microsecond))
	}
	b := make([]byte, 64)
	if n := r.spin.read(r.nb, b); n != 0 {
		t.Fatalf("read %d bytes from an empty pipe", n)
	}
	if calls != 2 {
		t.Errorf("%d clock reads, want 2: the spin must stop at the first long gap", calls)
	}
	if r.spin.pause != preemptedPause {
		t.Errorf("pause %d, want %d", r.spin.pause, preemptedPause)
	}
}

// The end of the pipe and its data are reported as without spinning.
func TestSpinEndOfPipe(t *testing.T) {
	r, w := spinPipe(t, time.Second)
	syscall.Write(w, []byte("last"))
	syscall.Close(w)
	b := make([]byte, 64)
	if n, err := r.Read(b); err != nil || string(b[:n]) != "last" {
		t.Fatalf("Read %q, %v", b[:n], err)
	}
	start := time.Now()
	if _, err := r.Read(b); err != io.EOF {
		t.Fatalf("Read at the end: %v, want io.EOF", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("the end took %v: the spin waited for data that cannot come", d)
	}
}

func TestSetSpinZeroClosesTheSecondDescriptor(t *testing.T) {
	r, _ := spinPipe(t, time.Second)
	nb := r.nb
	r.setSpin(0)
	if r.nb != -1 {
		t.Fatalf("nb %d after setSpin(0)", r.nb)
	}
	if _, err := syscall.Read(nb, make([]byte, 1)); err != syscall.EBADF {
		t.Errorf("the spin descriptor is still open: %v", err)
	}
}
