package extpolicy

import (
	"io"
	"runtime"
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
	// An idle machine whatever this one's load: only this process runs.
	r.spin.gate.count = func() (int, bool) { return 1, true }
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
	if r.spin.pause != idlePause && r.spin.pause != minPreemptedPause {
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
// stops at once and does not spin for minPreemptedPause reads, then twice
// as many after the next preemption; each spin that gets its data takes one
// off the next pause.
func TestSpinStopsWhenPreempted(t *testing.T) {
	r, w := spinPipe(t, time.Second)
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
	if r.spin.pause != minPreemptedPause {
		t.Fatalf("pause %d, want %d", r.spin.pause, minPreemptedPause)
	}
	for range minPreemptedPause {
		if n := r.spin.read(r.nb, b); n != 0 || calls != 2 {
			t.Fatalf("a paused read spun (%d bytes, %d clock reads)", n, calls)
		}
	}
	r.spin.read(r.nb, b) // preempted again
	if r.spin.pause != 2*minPreemptedPause {
		t.Fatalf("pause %d after the second preemption, want %d", r.spin.pause, 2*minPreemptedPause)
	}
	r.spin.pause = 0
	syscall.Write(w, []byte("x\n"))
	if n := r.spin.read(r.nb, b); string(b[:n]) != "x\n" {
		t.Fatalf("spin read %q", b[:n])
	}
	if r.spin.backoff != 4*minPreemptedPause-1 {
		t.Errorf("backoff %d after a good spin, want %d", r.spin.backoff, 4*minPreemptedPause-1)
	}
	r.spin.backoff = maxPreemptedPause
	r.spin.read(r.nb, b)
	if r.spin.pause != maxPreemptedPause || r.spin.backoff != maxPreemptedPause {
		t.Errorf("pause %d, backoff %d: want both at most %d", r.spin.pause, r.spin.backoff, maxPreemptedPause)
	}
}

// With more runnable tasks than processors (the mean of the last counts
// above the number of processors by more than a half), no read spins, not
// even with the reply waiting: the blocking read takes it.
func TestSpinGateClosesOnBusyMachine(t *testing.T) {
	r, w := spinPipe(t, time.Second)
	cpus := runtime.NumCPU()
	count := cpus + 1
	r.spin.gate.count = func() (int, bool) { return count, true }
	now := time.Unix(0, 0)
	r.spin.clock = func() time.Time { return now }
	syscall.Write(w, []byte("x\n"))
	b := make([]byte, 64)
	// The ring starts with zeros: one high count is not enough.
	if r.spin.gate.busy(now) {
		t.Fatalf("busy after one count of %d", count)
	}
	for range loadSamples - 1 {
		now = now.Add(loadCheck)
		r.spin.gate.busy(now)
	}
	now = now.Add(loadCheck)
	if n := r.spin.read(r.nb, b); n != 0 {
		t.Fatalf("read %q through a closed gate", b[:n])
	}
	if n, err := r.Read(b); err != nil || string(b[:n]) != "x\n" {
		t.Fatalf("Read %q, %v", b[:n], err)
	}
	// Within loadCheck the count is not read again.
	count = 1
	if !r.spin.gate.busy(now.Add(loadCheck / 2)) {
		t.Error("the gate read the count again within loadCheck")
	}
	// A mean of exactly cpus + 1/2 is not busy (checked now: no new count).
	g := loadGate{checked: now}
	for i := range loadSamples {
		g.counts[i] = cpus + i%2
	}
	if g.busy(now) != false {
		t.Errorf("busy at a mean of %d.5 on %d processors", cpus, cpus)
	}
	// An unreadable count counts as 0.
	g = loadGate{count: func() (int, bool) { return 99, false }}
	if g.busy(time.Unix(1, 0)) {
		t.Error("busy from a count that could not be read")
	}
}

func TestParseRunnable(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"0.84 0.44 0.68 1/83 19846\n", 1, true},
		{"12.00 11.50 9.01 17/1203 77\n", 17, true},
		{"0.84 0.44 0.68 x/83 19846\n", 0, false},
		{"0.84 0.44 0.68 7 19846\n", 0, false},
		{"0.84 0.44\n", 0, false},
		{"", 0, false},
	} {
		if n, ok := parseRunnable([]byte(tc.in)); ok != tc.ok || (ok && n != tc.want) {
			t.Errorf("parseRunnable(%q) = %d, %v; want %d, %v", tc.in, n, ok, tc.want, tc.ok)
		}
	}
	if n, ok := runnableTasks(); ok && n < 1 {
		t.Errorf("runnableTasks() = %d: at least this test runs", n)
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
