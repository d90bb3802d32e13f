package extpolicy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Process is an external policy program started without a shell, with pipes
// on its standard input and output (the engine's ends support deadlines:
// SetReadDeadline, SetWriteDeadline; past one the program is killed) and
// its standard error passed through, line by line, with a prefix, while the
// last lines are kept for error messages.
type Process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser // the engine's end: messages to the program
	stdout io.ReadCloser  // the engine's end: replies from the program
	tail   *stderrTail
	watch  *watchdog // nil where the pipes have deadlines of their own

	done    chan struct{} // closed when the program has exited
	state   *os.ProcessState
	waitErr error
	// killedAlive: we killed it while it had not exited (the watchdog of
	// a read past the timeout, Stop), as opposed to reaping the group of
	// a program that had exited by itself.
	killedAlive atomic.Bool
	stopOnce    sync.Once
	stopped     atomic.Bool // Stop has ended the program and its group
	exit        string
	// token marks the program's environment (runEnv), which what it
	// starts inherits, so that its orphans can be told from other
	// children of swfsim (killOrphans).
	token     string
	orphansMu sync.Mutex
}

// runEnv is the environment variable that StartProcess sets for the
// program: a value unique to the program within this process.
const runEnv = "SWFKIT_POLICY_RUN"

// started counts the programs StartProcess started, for their tokens.
var started atomic.Int64

// StderrTailLines is how many of the program's last stderr lines an error keeps.
const StderrTailLines = 10

// StartProcess starts argv[0] (looked up in PATH when it has no slash) with
// the arguments argv[1:]. Each line the program writes on its standard error
// is written to stderr (nil: discarded) as prefix + line; stderr is written
// from another goroutine until the program has exited. The program runs in its
// own process group, so that stopping it also stops what it started. On
// Linux the first call makes the calling process a child subreaper, so that
// what the program started outside its group (setsid) is reparented to it,
// and Stop kills that too: a process that still carries the program's
// SWFKIT_POLICY_RUN in its environment.
func StartProcess(argv []string, stderr io.Writer, prefix string) (*Process, error) {
	if len(argv) == 0 {
		return nil, fmt.Errorf("%w: empty command", ErrStart)
	}
	inR, outW, inW, outR, watch, err := newPipes()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStart, err)
	}
	if stderr == nil {
		stderr = io.Discard
	}
	p := &Process{stdin: inW, stdout: outR, watch: watch, tail: &stderrTail{out: stderr, prefix: prefix}, done: make(chan struct{}),
		token: fmt.Sprintf("%d.%d", os.Getpid(), started.Add(1))}
	becomeSubreaper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), runEnv+"="+p.token)
	cmd.Stdin = inR
	cmd.Stdout = outW
	cmd.Stderr = p.tail
	// A grandchild that keeps stderr open must not hold up Wait for long.
	cmd.WaitDelay = time.Second
	ownGroup(cmd)
	p.cmd = cmd
	err = cmd.Start()
	inR.Close() // the program's ends: only the program holds them now
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		if why := whyNotStarted(argv[0], cmd.Path, err); why != "" {
			return nil, fmt.Errorf("%w: %v: %s", ErrStart, err, why)
		}
		return nil, fmt.Errorf("%w: %v", ErrStart, err)
	}
	if watch != nil {
		go watch.run(p.kill)
	}
	go func() {
		p.waitErr = cmd.Wait()
		p.state = cmd.ProcessState
		p.tail.flush()
		close(p.done)
	}()
	return p, nil
}

// whyNotStarted says why program (resolved to path) could not be started
// when the system's error would send the user looking in the wrong place:
// "permission denied" for a directory or a file without execute permission,
// "no such file or directory" for a script whose #! line names an
// interpreter that cannot be run, "not found in $PATH" for a program in the
// working directory named without ./. It returns "" otherwise.
func whyNotStarted(program, path string, err error) string {
	if errors.Is(err, exec.ErrNotFound) {
		if fi, serr := os.Stat(program); serr == nil && !fi.IsDir() && !strings.ContainsRune(program, os.PathSeparator) {
			return fmt.Sprintf("there is a %s here, but a program named without a slash is looked up in PATH: write ./%s", program, program)
		}
		return ""
	}
	fi, serr := os.Stat(path)
	switch {
	case serr != nil:
		return ""
	case fi.IsDir():
		return "it is a directory"
	case errors.Is(err, fs.ErrPermission) && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 == 0:
		return fmt.Sprintf("it is not executable: make it so (chmod +x), or put its interpreter first, as in --exec 'python3 %s'", program)
	case errors.Is(err, fs.ErrNotExist):
		if line := firstLine(path); strings.HasPrefix(line, "#!") {
			why := fmt.Sprintf("its first line names an interpreter that cannot be run: %q", line)
			if strings.HasSuffix(line, "\r") {
				why += " (a Windows line end?)"
			}
			return why
		}
	}
	return ""
}

// firstLine returns the first line of the file at path (at most 256 bytes),
// "" when it cannot be read.
func firstLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	b := make([]byte, 256)
	n, _ := io.ReadFull(f, b)
	line, _, _ := bytes.Cut(b[:n], []byte("\n"))
	return string(line)
}

// Stdin returns the engine's end of the program's standard input; it has a
// SetWriteDeadline method.
func (p *Process) Stdin() io.WriteCloser { return p.stdin }

// Stdout returns the engine's end of the program's standard output; it has a
// SetReadDeadline method.
func (p *Process) Stdout() io.ReadCloser { return p.stdout }

// SetSpin makes each wait for the program's output first poll for up to d
// before it sleeps (Linux; 0: never; see Options.Spin).
func (p *Process) SetSpin(d time.Duration) { setSpin(p.stdout, d) }

// kill kills the program's process group.
func (p *Process) kill() {
	if !p.exited() && !exitedUnwaited(p.cmd.Process.Pid) {
		p.killedAlive.Store(true)
	}
	killGroup(p.cmd.Process)
}

// Kill kills the program's process group now, unless Stop has ended it
// already, and on Linux, once the program has been waited for (within a
// second), what it started outside the group (killOrphans): swfsim is
// about to end, and what was reparented to it would go to init. It may be
// called from any goroutine.
func (p *Process) Kill() {
	if p.stopped.Load() {
		return
	}
	p.kill()
	// Not after done: a descendant holding the program's stderr keeps Wait
	// waiting for the pipe (WaitDelay) longer than this waits for done, and
	// the caller (swfsim stopped by a signal) then exits, leaving it to
	// init. killOrphans skips the program itself, which os/exec reaps.
	p.killOrphans()
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
	}
}

// killOrphans kills what the program started and left outside its group;
// Kill and Stop may call it at once, from two goroutines.
func (p *Process) killOrphans() {
	p.orphansMu.Lock()
	defer p.orphansMu.Unlock()
	killOrphans(p.cmd.Process.Pid, p.token)
}

// reap kills what the program started and left running (its process
// group), once it has exited.
func (p *Process) reap() { reapGroup(p.cmd.Process) }

// exited reports whether the program has exited (and been waited for).
func (p *Process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// exitedByItself reports whether the program exited without being killed
// by us: a read that timed out may have had the watchdog kill it since
// (Linux), so that exited alone would blame a process it started; and
// Wait, which exited waits for, may still be waiting for a pipe such a
// process holds after the program exited.
func (p *Process) exitedByItself() bool {
	return (p.exited() || exitedUnwaited(p.cmd.Process.Pid)) && !p.killedAlive.Load()
}

// Exited returns a channel closed when the program has exited.
func (p *Process) Exited() <-chan struct{} { return p.done }

// Stop waits up to grace for the program to exit by itself, then kills it
// (and its process group, and on Linux what it started outside the group,
// killOrphans), and returns how it ended: "exited with status N",
// "ended by signal: ..." or "was killed by swfsim". Stop closes the engine's
// pipe ends; calling it again returns the same answer.
func (p *Process) Stop(grace time.Duration) string {
	p.stopOnce.Do(func() {
		if grace > 0 {
			t := time.NewTimer(grace)
			select {
			case <-p.done:
			case <-t.C:
			}
			t.Stop()
		}
		select {
		case <-p.done:
			// It exited by itself: what it started and left running goes
			// with it (its process group), as a failed run's does.
			reapGroup(p.cmd.Process)
		default:
			p.kill()
			<-p.done
		}
		p.killOrphans()
		if p.watch != nil {
			p.watch.Stop()
		}
		p.stdin.Close()
		p.stdout.Close()
		p.exit = p.describe()
		p.stopped.Store(true)
	})
	return p.exit
}

func (p *Process) describe() string {
	switch {
	case p.killedAlive.Load():
		return "was killed by swfsim"
	case p.state == nil:
		return fmt.Sprintf("could not be waited for: %v", p.waitErr)
	case p.state.ExitCode() > 0:
		return fmt.Sprintf("exited with status %d", p.state.ExitCode()) + crShebang(p.cmd.Path)
	case p.state.ExitCode() == 0:
		return "exited with status 0"
	}
	return "ended by " + p.state.String()
}

// crShebang says, for a script whose #! line ends in a carriage return (a
// file saved with Windows line ends), that this is why it failed: the
// kernel, or the program the line names (#!/usr/bin/env python3\r), looks
// for an interpreter or an argument with the CR in its name. Only an
// interpreter the kernel cannot find fails to start (whyNotStarted); env
// and others start and exit, with status 127 or another. It returns "" for
// any other file.
func crShebang(path string) string {
	if line := firstLine(path); strings.HasPrefix(line, "#!") && strings.HasSuffix(line, "\r") {
		return fmt.Sprintf("; its first line, %q, ends in a carriage return, which the interpreter's name or argument then holds (a Windows line end?)", line)
	}
	return ""
}

// Success reports whether the program exited with status 0; valid after Stop.
func (p *Process) Success() bool {
	return !p.killedAlive.Load() && p.state != nil && p.state.Success()
}

// StderrTail returns the last lines (at most StderrTailLines) the program
// wrote on its standard error; complete only after Stop.
func (p *Process) StderrTail() []string { return p.tail.last() }

// stderrTail passes the program's stderr through line by line with a prefix
// and keeps the last lines.
type stderrTail struct {
	mu      sync.Mutex
	out     io.Writer
	prefix  string
	partial []byte
	lines   []string // ring of the last StderrTailLines lines
	next    int
	full    bool
	failed  bool // out returned an error: stop passing through, keep the tail
}

// maxLine bounds a stderr line: longer ones are passed through in pieces.
const maxLine = 64 << 10

func (t *stderrTail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	for len(b) > 0 {
		i := indexNewline(b)
		if i < 0 {
			t.partial = append(t.partial, b...)
			if len(t.partial) >= maxLine {
				t.emit(t.partial)
				t.partial = t.partial[:0]
			}
			break
		}
		if len(t.partial) > 0 {
			t.partial = append(t.partial, b[:i]...)
			t.emit(t.partial)
			t.partial = t.partial[:0]
		} else {
			t.emit(b[:i])
		}
		b = b[i+1:]
	}
	return n, nil
}

func indexNewline(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

func (t *stderrTail) emit(line []byte) {
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	if !t.failed {
		buf := make([]byte, 0, len(t.prefix)+len(line)+1)
		buf = append(append(append(buf, t.prefix...), line...), '\n')
		if _, err := t.out.Write(buf); err != nil {
			t.failed = true
		}
	}
	kept := string(line)
	if len(kept) > 300 {
		cut := 300
		for cut > 0 && !utf8.RuneStart(kept[cut]) {
			cut--
		}
		kept = kept[:cut] + "..."
	}
	if t.lines == nil {
		t.lines = make([]string, StderrTailLines)
	}
	t.lines[t.next] = kept
	t.next = (t.next + 1) % StderrTailLines
	if t.next == 0 {
		t.full = true
	}
}

// flush passes on a last line without a newline.
func (t *stderrTail) flush() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.partial) > 0 {
		t.emit(t.partial)
		t.partial = nil
	}
}

func (t *stderrTail) last() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.full {
		return append([]string(nil), t.lines[:t.next]...)
	}
	return append(append([]string(nil), t.lines[t.next:]...), t.lines[:t.next]...)
}
