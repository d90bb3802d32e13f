//go:build unix

package extpolicy_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/swfkit/swfkit/pkg/extpolicy"
	"github.com/swfkit/swfkit/pkg/sim"
)

// The validation cases run tiny fake clients: sh scripts that read the
// engine's lines and answer canned replies. The workload, on 4 processors:
//
//	job 0: submit 0, 2 procs, runtime 10, estimate 10
//	job 1: submit 0, 4 procs, runtime 5,  estimate 5
//	job 2: submit 5, 1 proc,  runtime 5,  estimate 5
//
// Round 1 is at time 0 (jobs 0 and 1 arrive, 4 free). SWF job numbers are
// id+1 (recordsOf).
func tinyJobs() []sim.Job {
	return []sim.Job{
		{Procs: 2, Submit: 0, Runtime: 10, Estimate: 10},
		{Procs: 4, Submit: 0, Runtime: 5, Estimate: 5},
		{Procs: 1, Submit: 5, Runtime: 5, Estimate: 5},
	}
}

// syncBuffer is a bytes.Buffer safe for the stderr goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// runExec simulates jobs with argv as the policy and returns the policy,
// the run's error and what the program wrote on stderr (prefixed). spin is
// Options.Spin (0 when absent).
func runExec(t *testing.T, argv []string, jobs []sim.Job, timeout time.Duration, spin ...time.Duration) (*extpolicy.Policy, string, error) {
	t.Helper()
	var stderr syncBuffer
	opt := extpolicy.Options{Records: recordsOf(jobs), Timeout: timeout, Stderr: &stderr}
	if len(spin) > 0 {
		opt.Spin = spin[0]
	}
	p, err := extpolicy.NewExec(argv, opt)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sim.Config{Procs: 4}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	err = p.Finish(s, s.Run(p))
	return p, stderr.String(), err
}

// sh runs script with sh -c; hello reads the first message and answers it.
func sh(script string) []string { return []string{"sh", "-c", script} }

const hello = `read m; echo '{"protocol":1}'; `

func TestExecErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string
		want   error
		stage  extpolicy.Stage
		round  int64
		time   int64
		job    int32
		text   []string // in the error message
	}{
		{"unknown id", hello + `read m; echo '{"start":[7]}'; sleep 5`,
			extpolicy.ErrUnknownJob, extpolicy.StageRound, 1, 0, -1, []string{"round 1 at time 0", "start[0]: unknown job id 7: the trace's jobs are 0..2", "was killed by swfsim"}},
		{"not yet submitted", hello + `read m; echo '{"start":[2]}'; sleep 5`,
			extpolicy.ErrNotWaiting, extpolicy.StageRound, 1, 0, 2, []string{"job 2 (SWF job 3)", "not been submitted yet (submit time 5)"}},
		{"started twice", hello + `read m; echo '{"start":[0,0]}'; sleep 5`,
			extpolicy.ErrNotWaiting, extpolicy.StageRound, 1, 0, 0, []string{"start[1]", "job 0 (SWF job 1)", "already running (started at 0)"}},
		{"does not fit", hello + `read m; echo '{"start":[0,1]}'; sleep 5`,
			extpolicy.ErrDoesNotFit, extpolicy.StageRound, 1, 0, 1, []string{"job 1 (SWF job 2)", "needs 4 processors and 2 are free"}},
		{"malformed JSON", hello + `read m; echo '{start:[0]}'; sleep 5`,
			extpolicy.ErrMalformed, extpolicy.StageRound, 1, 0, -1, []string{"malformed reply", `"{start:[0]}"`}},
		{"timer in the past", hello + `read m; echo '{"start":[],"timer":0}'; sleep 5`,
			extpolicy.ErrProtocol, extpolicy.StageRound, 1, 0, -1, []string{"timer 0 is not after the round's time 0"}},
		{"timer past the bound", hello + `read m; echo '{"start":[],"timer":9223372036854775807}'; sleep 5`,
			extpolicy.ErrProtocol, extpolicy.StageRound, 1, 0, -1, []string{"timer 9223372036854775807 is beyond swfkit's time bound 1099511627776 s"}},
		{"key in another case", hello + `read m; echo '{"START":[0]}'; sleep 5`,
			extpolicy.ErrMalformed, extpolicy.StageRound, 1, 0, -1, []string{`unknown key "START"`}},
		// A reply never flushed: the commonest slip of a Python policy.
		{"reply not flushed", `read m; echo thinking >&2; sleep 5`,
			extpolicy.ErrTimeout, extpolicy.StageHello, 0, 0, -1, []string{"first message (hello): timeout: no reply within 300ms (--exec-timeout); a reply the program wrote without flushing its output looks the same (Python: print(..., flush=True))"}},
		{"no reply", hello + `read m; echo thinking >&2; sleep 5`,
			extpolicy.ErrTimeout, extpolicy.StageRound, 1, 0, -1, []string{"no reply within 300ms (--exec-timeout)", "was killed by swfsim", "    thinking"}},
		{"early exit", hello + `read m; echo 'giving up' >&2; exit 3`,
			extpolicy.ErrExited, extpolicy.StageRound, 1, 0, -1, []string{"closed its output", "exited with status 3", "the last line of its stderr:\n    giving up"}},
		{"input closed", `read m; exec 0<&-; echo '{"protocol":1}'; sleep 5`,
			extpolicy.ErrExited, extpolicy.StageRound, 1, 0, -1, []string{"round 1 at time 0: program ended: it closed its input instead of reading this message (write |0: broken pipe)"}},
		{"crash", hello + `read m; kill -SEGV $$`,
			extpolicy.ErrExited, extpolicy.StageRound, 1, 0, -1, []string{"ended by signal: segmentation fault"}},
		{"exit in the middle of a reply", hello + `read m; printf '{"start":['; exit 0`,
			extpolicy.ErrExited, extpolicy.StageRound, 1, 0, -1, []string{"in the middle of a line", "exited with status 0"}},
		// Round 1 (time 0): nothing started, job 2 still to come: no
		// deadlock. Round 2 (time 5, job 2 arrives): nothing runs, nothing
		// will arrive, nothing started, no timer.
		{"deadlock", hello + `while read m; do echo '{"start":[]}'; done`,
			extpolicy.ErrDeadlock, extpolicy.StageRound, 2, 5, 0, []string{"3 jobs wait (this one first), nothing runs, no job will arrive"}},
		{"wrong version", `read m; echo '{"protocol":2}'; sleep 5`,
			extpolicy.ErrProtocol, extpolicy.StageHello, 0, 0, -1, []string{"first message (hello)", "speaks protocol 2"}},
		{"no version", `read m; echo '{}'; sleep 5`,
			extpolicy.ErrProtocol, extpolicy.StageHello, 0, 0, -1, []string{`{"protocol":1}`}},
		// Two lines for one message (in one write: both arrive together)
		// put every later reply one message early: the second is not
		// taken as the reply to round 2.
		{"two replies to a round", hello + `read m; printf '{"start":[0]}\n{"start":[]}\n'; sleep 5`,
			extpolicy.ErrProtocol, extpolicy.StageRound, 2, 5, -1, []string{`the program wrote a line before it was sent this message: "{\"start\":[]}" (a second reply to round 1, or to an earlier message?)`}},
		{"two replies to the hello", `read m; printf '{"protocol":1}\n{"start":[]}\n'; sleep 5`,
			extpolicy.ErrProtocol, extpolicy.StageRound, 1, 0, -1, []string{`before it was sent this message: "{\"start\":[]}" (a second reply to the first message?)`}},
		// A second line that comes after the engine took the first as
		// round 1's reply and rejected it: named with the rejection.
		{"a line after a rejected reply", hello + `read m; echo '{"start":[7]}'; sleep 0.05; echo '{"start":[]}'; sleep 5`,
			extpolicy.ErrUnknownJob, extpolicy.StageRound, 1, 0, -1, []string{`unknown job id 7`, `the program wrote another line after this reply, before it was sent another message: "{\"start\":[]}": did it answer an earlier message twice`}},
		{"two replies to the last round", hello + `read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; printf '{"start":[1]}\n{"start":[]}\n'; sleep 5`,
			extpolicy.ErrProtocol, extpolicy.StageEnd, 3, 15, -1, []string{`final message at time 15`, `before it was sent this message: "{\"start\":[]}" (a second reply to round 3, or to an earlier message?)`}},
		// FCFS answers: round 1 starts 0 (1 does not fit); round 2 at 5:
		// 2 starts; round 3 at 10 (0 and 2 end): 1 starts; the end is at 15.
		{"output after the end", hello + `read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; echo '{"start":[1]}'; read m; echo bye`,
			extpolicy.ErrProtocol, extpolicy.StageEnd, 3, 15, -1, []string{"final message at time 15", `wrote after the final message: "bye"`}},
		{"status 1 at the end", hello + `read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; echo '{"start":[1]}'; read m; echo done >&2; exit 1`,
			extpolicy.ErrExited, extpolicy.StageEnd, 3, 15, -1, []string{"did not exit with status 0", "exited with status 1", "    done"}},
	} {
		// Every check holds whether the engine polls before it sleeps or not.
		for _, spin := range []time.Duration{0, extpolicy.DefaultSpin} {
			t.Run(fmt.Sprintf("%s/spin=%v", tc.name, spin), func(t *testing.T) {
				if tc.name == "a line after a rejected reply" {
					// The program's second line comes after a 50 ms sleep:
					// under load (go test -race beside other packages on 2
					// cores) that can pass the engine's 100 ms grace.
					defer extpolicy.SetLaterGrace(time.Second)()
				}
				start := time.Now()
				_, _, err := runExec(t, sh(tc.script), tinyJobs(), 300*time.Millisecond, spin)
				if !errors.Is(err, tc.want) {
					t.Fatalf("error %v, want %v", err, tc.want)
				}
				var e *extpolicy.Error
				if !errors.As(err, &e) {
					t.Fatalf("%T is not an *extpolicy.Error", err)
				}
				if e.Stage != tc.stage || e.Round != tc.round || e.Time != tc.time || e.Job != tc.job {
					t.Errorf("stage %d round %d time %d job %d, want %d %d %d %d", e.Stage, e.Round, e.Time, e.Job, tc.stage, tc.round, tc.time, tc.job)
				}
				if tc.job >= 0 && e.JobNumber != int64(tc.job)+1 {
					t.Errorf("SWF job number %d, want %d", e.JobNumber, tc.job+1)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, `exec policy [sh -c `) {
					t.Errorf("message does not name the program: %s", msg)
				}
				for _, s := range tc.text {
					if !strings.Contains(msg, s) {
						t.Errorf("message lacks %q:\n%s", s, msg)
					}
				}
				// Every failure ends the program: none waits for its sleep 5.
				if d := time.Since(start); d > 3*time.Second {
					t.Errorf("took %v: the program was not stopped", d)
				}
			})
		}
	}
}

func TestExecNotFound(t *testing.T) {
	_, _, err := runExec(t, []string{"/no/such/program", "x"}, tinyJobs(), time.Second)
	var e *extpolicy.Error
	if !errors.Is(err, extpolicy.ErrStart) || !errors.As(err, &e) || e.Stage != extpolicy.StageHello {
		t.Fatalf("error %v, want ErrStart at the hello", err)
	}
	if !strings.Contains(err.Error(), "/no/such/program") {
		t.Errorf("message does not name the program: %v", err)
	}
}

// A program that cannot start gets an error that says why in the user's
// terms: the system's "permission denied" for a directory and "no such file
// or directory" for a script that exists (its #! line names a missing
// interpreter) sent users looking in the wrong place.
func TestExecCannotStart(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		path := dir + "/" + name
		if err := os.WriteFile(path, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	if err := os.Mkdir(dir+"/policies", 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tc := range []struct {
		name string
		argv []string
		want string
	}{
		{"directory", []string{dir + "/policies"}, "is a directory"},
		{"not executable", []string{write("policy.py", "print(1)\n", 0o644)}, "is not executable: make it so (chmod +x), or put its interpreter first, as in --exec 'python3 " + dir + "/policy.py'"},
		{"missing interpreter", []string{write("shebang.py", "#!/no/such/python3\nprint(1)\n", 0o755)}, `its first line names an interpreter that cannot be run: "#!/no/such/python3"`},
		{"interpreter line with a CR", []string{write("crlf.sh", "#!/bin/sh\r\necho\r\n", 0o755)}, `its first line names an interpreter that cannot be run: "#!/bin/sh\r" (a Windows line end?)`},
		{"in the directory, not in PATH", []string{"policy.py"}, "there is a policy.py here, but a program named without a slash is looked up in PATH: write ./policy.py"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runExec(t, tc.argv, tinyJobs(), time.Second)
			if !errors.Is(err, extpolicy.ErrStart) {
				t.Fatalf("error %v, want ErrStart", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("message lacks %q:\n%v", tc.want, err)
			}
		})
	}
}

// A script whose #! line ends in a CR (Windows line ends) and names a
// program that starts, such as env, fails with that program's exit status
// (127: python3\r not found): the error says why, as it does for an
// interpreter the kernel cannot find (TestExecCannotStart).
func TestExecCRShebangThroughEnv(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "crlf.py")
	if err := os.WriteFile(path, []byte("#!/usr/bin/env python3\r\nprint(1)\r\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
	_, _, err := runExec(t, []string{path}, tinyJobs(), 5*time.Second)
	if !errors.Is(err, extpolicy.ErrExited) {
		t.Fatalf("error %v, want ErrExited", err)
	}
	if want := `its first line, "#!/usr/bin/env python3\r", ends in a carriage return, which the interpreter's name or argument then holds (a Windows line end?)`; !strings.Contains(err.Error(), want) {
		t.Errorf("message lacks %q:\n%v", want, err)
	}
	// A script that fails otherwise says nothing of line ends.
	if _, _, err := runExec(t, sh("exit 3"), tinyJobs(), 5*time.Second); err == nil || strings.Contains(err.Error(), "carriage return") {
		t.Errorf("a failing script: %v", err)
	}
}

// The stderr lines an error repeats are cut at 300 bytes on a character's
// boundary: the message stays UTF-8 (it was cut inside an é).
func TestExecStderrTailIsUTF8(t *testing.T) {
	_, _, err := runExec(t, sh(`{ printf 'a'; i=0; while [ $i -lt 200 ]; do printf '\303\251'; i=$((i+1)); done; echo; } >&2; exit 1`), tinyJobs(), time.Second)
	var e *extpolicy.Error
	if !errors.As(err, &e) || len(e.Stderr) != 1 {
		t.Fatalf("error %v, want one stderr line", err)
	}
	if line := e.Stderr[0]; !utf8.ValidString(line) || !strings.HasSuffix(line, "é...") || len(line) > 303 {
		t.Errorf("stderr line of %d bytes, valid UTF-8 %v: %q", len(line), utf8.ValidString(line), line)
	}
}

// A program that does its job: FCFS answers (see "output after the end"),
// stderr passed through with the prefix, exit 0.
func TestExecSuccess(t *testing.T) {
	script := hello + `echo starting >&2; read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; echo '{"start":[1]}'; read m; echo "$m" | grep -q '"type":"end"' || exit 9; echo bye >&2`
	p, stderr, err := runExec(t, sh(script), tinyJobs(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if want := "swfsim: exec: starting\nswfsim: exec: bye\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	if p.Rounds() != 3 {
		t.Errorf("%d rounds, want 3", p.Rounds())
	}
}

// A timeout too long for a deadline in nanoseconds since 1970 (past the
// year 2262; the longest --exec-timeout is 2562047h) is no timeout, not an
// immediate one: the run used to fail at once with "no reply within
// 2562047h47m16.854775807s".
func TestExecTimeoutPastTheClock(t *testing.T) {
	// Thinking 0.2 s over round 1: the watchdog looks every 50 ms.
	script := hello + `read m; sleep 0.2; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; echo '{"start":[1]}'; read m`
	for _, timeout := range []time.Duration{2500000 * time.Hour, math.MaxInt64} {
		for _, spin := range []time.Duration{0, extpolicy.DefaultSpin} {
			if _, _, err := runExec(t, sh(script), tinyJobs(), timeout, spin); err != nil {
				t.Errorf("timeout %v, spin %v: %v", timeout, spin, err)
			}
		}
	}
}

// A program that exits with status 0 after its last reply, without reading
// the final message (it counted the jobs), ends the run well, every time:
// whether the engine's final write found the program gone (broken pipe: a
// failure) or still there (success) was a race. Closing its input first
// makes the broken pipe certain.
func TestExecExitWithoutTheFinalMessage(t *testing.T) {
	for _, script := range []string{
		hello + `read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; exec 0<&-; echo '{"start":[1]}'; exit 0`,
		hello + `read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; echo '{"start":[1]}'; exit 0`,
	} {
		for range 10 {
			if _, _, err := runExec(t, sh(script), tinyJobs(), 5*time.Second); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Exiting so with another status is still a failure.
	_, _, err := runExec(t, sh(hello+`read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; exec 0<&-; echo '{"start":[1]}'; exit 4`), tinyJobs(), 5*time.Second)
	if !errors.Is(err, extpolicy.ErrExited) || !strings.Contains(err.Error(), "exited with status 4") {
		t.Errorf("error %v, want the exit status 4", err)
	}
}

// A program that ends well leaves nothing of its process group running: a
// process it started in the background (its output elsewhere) is killed when
// the run ends.
func TestExecSuccessReapsTheGroup(t *testing.T) {
	marker := fmt.Sprintf("%d.%d", os.Getpid(), time.Now().UnixNano()%1000000)
	script := hello + `sleep 1` + marker + ` >/dev/null 2>&1 </dev/null & read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; echo '{"start":[1]}'; read m`
	if _, _, err := runExec(t, sh(script), tinyJobs(), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if out, _ := exec.Command("pgrep", "-f", "sleep 1"+marker).Output(); len(out) > 0 {
		exec.Command("pkill", "-f", "sleep 1"+marker).Run()
		t.Errorf("the background process outlived the run: pid %s", out)
	}
}

// A process the program started and left running with the program's
// output and error (inherited) does not hold up the end of a run that went
// well: it is killed once the program has exited, and the run ends at once
// instead of when it ends (it used to wait for it, up to --exec-timeout).
func TestExecExitReapsOutputHolders(t *testing.T) {
	marker := fmt.Sprintf("%d.%d", os.Getpid(), time.Now().UnixNano()%1000000)
	script := hello + `sleep 3` + marker + ` & read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; echo '{"start":[1]}'; read m`
	start := time.Now()
	if _, _, err := runExec(t, sh(script), tinyJobs(), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	// Wait's 1 s for the stderr the sleep holds, then the group is killed;
	// without the reaping the run ends at its 10 s timeout.
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("took %v: the run waited for the background process", d)
	}
	noSurvivor(t, "sleep 3"+marker)
}

// A timeout while a process outside the program's group (setsid) still holds
// its pipes: killing the group does not close them, yet the run must end
// with the timeout, not hang in the blocked read.
func TestExecTimeoutPipesHeldOutsideGroup(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid:", err)
	}
	start := time.Now()
	_, _, err := runExec(t, sh(hello+`read m; setsid sleep 10 & sleep 10`), tinyJobs(), 300*time.Millisecond)
	if !errors.Is(err, extpolicy.ErrTimeout) {
		t.Fatalf("error %v, want a timeout", err)
	}
	if !strings.Contains(err.Error(), "round 1 at time 0: timeout: no reply within 300ms") {
		t.Errorf("message: %v", err)
	}
	// 0.3 s, the watchdog's 0.2 s, Wait's 1 s for the stderr pipe; without
	// the wake-up the read would last until the sleep ends, 10 s.
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("took %v: the blocked read was not woken", d)
	}
}

// Kill, from another goroutine (a signal handler's), ends the program and
// what it started at once; before the program starts it keeps it from
// starting.
func TestExecKill(t *testing.T) {
	pidFile := t.TempDir() + "/worker.pid"
	script := `sleep 30 </dev/null >/dev/null 2>&1 & echo $! > ` + pidFile + `; ` + hello + `read m; sleep 30`
	p, err := extpolicy.NewExec(sh(script), extpolicy.Options{Records: recordsOf(tinyJobs()), Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sim.Config{Procs: 4}, tinyJobs())
	if err != nil {
		t.Fatal(err)
	}
	worker := make(chan int, 1)
	go func() {
		for {
			b, _ := os.ReadFile(pidFile)
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				worker <- pid
				time.Sleep(100 * time.Millisecond) // into round 1
				p.Kill()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	start := time.Now()
	err = p.Finish(s, s.Run(p))
	if !errors.Is(err, extpolicy.ErrExited) {
		t.Errorf("error %v, want the program's end", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v: Kill did not end the program", d)
	}
	pid := <-worker
	defer syscall.Kill(pid, syscall.SIGKILL)
	for deadline := time.Now().Add(2 * time.Second); syscall.Kill(pid, 0) == nil && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil && !strings.Contains(string(b), ") Z ") {
		t.Errorf("the program's worker (pid %d) outlived Kill: %s", pid, b)
	}

	p, err = extpolicy.NewExec(sh(hello+`read m; sleep 30`), extpolicy.Options{Records: recordsOf(tinyJobs())})
	if err != nil {
		t.Fatal(err)
	}
	p.Kill()
	s, _ = sim.New(sim.Config{Procs: 4}, tinyJobs())
	if err := p.Finish(s, s.Run(p)); !errors.Is(err, extpolicy.ErrStart) || !strings.Contains(err.Error(), "swfsim is being stopped") {
		t.Errorf("Kill before the start: error %v, want ErrStart", err)
	}
}

// A program that does not exit after the final message is told so, every
// time: the watchdog that ends the timed-out read kills it, which must not
// make it look like a program that exited while something it started held
// its output (that one is told so too: a process outside its group, which
// the reaping of the group does not end).
func TestExecEndTimeoutSaysWhichProcess(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid:", err)
	}
	fcfs := hello + `read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; echo '{"start":[1]}'; read m; `
	for _, tc := range []struct{ name, tail, want string }{
		{"lingers", `sleep 5`, "the program did not exit within 300ms of the final message"},
		{"exits, output held", `setsid sleep 2 & exit 0`, "the program exited, but its output stayed open 300ms after the final message"},
		{"exits 3, output held", `setsid sleep 2 & exit 3`, "the program exited, but its output stayed open"},
	} {
		for i := range 4 {
			_, _, err := runExec(t, sh(fcfs+tc.tail), tinyJobs(), 300*time.Millisecond, time.Duration(i%2)*extpolicy.DefaultSpin)
			if !errors.Is(err, extpolicy.ErrTimeout) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s, run %d: %v; want a timeout saying %q", tc.name, i, err, tc.want)
			}
			// How the program ended: killed only when it was still running.
			ended := "was killed by swfsim"
			switch tc.name {
			case "exits, output held":
				ended = "exited with status 0"
			case "exits 3, output held":
				ended = "exited with status 3"
			}
			if err != nil && !strings.Contains(err.Error(), "the program "+ended) {
				t.Errorf("%s, run %d: %v; want it to say the program %s", tc.name, i, err, ended)
			}
		}
	}
}

// A program that exits mid-run while a process it started holds its output
// open: the run ends at the timeout (a wrapper that exits while the policy
// it started answers is a working program), and the error says the program
// had exited and how, not that a reply may be unflushed.
func TestExecExitWhileOutputHeld(t *testing.T) {
	marker := fmt.Sprintf("%d.%d", os.Getpid(), time.Now().UnixNano()%1000000)
	_, _, err := runExec(t, sh(hello+`read m; sleep 5`+marker+` & exit 3`), tinyJobs(), time.Second)
	if !errors.Is(err, extpolicy.ErrTimeout) {
		t.Fatalf("error %v, want a timeout", err)
	}
	for _, want := range []string{"round 1 at time 0", "no reply within 1s (--exec-timeout): the program had exited, and a process it started kept its output open", "exited with status 3"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), "flush") {
		t.Errorf("message blames an unflushed reply: %v", err)
	}
	noSurvivor(t, "sleep 5"+marker)
}

// A program that reads a message slowly, past the timeout, is not said to
// have read nothing: the error says how much of the message went into its
// input (what it read, but for what the pipe holds).
func TestExecSlowReaderTimeout(t *testing.T) {
	jobs := make([]sim.Job, 3000)
	for i := range jobs {
		jobs[i] = sim.Job{Procs: 1, Submit: 0, Runtime: 10, Estimate: 10}
	}
	// Reads 64 bytes every 10 ms: a round message of 3,000 arrivals takes
	// seconds, and the pipe holds 64 KB.
	_, _, err := runExec(t, sh(hello+`while :; do dd bs=64 count=1 status=none >/dev/null; sleep 0.01; done`), jobs, 500*time.Millisecond)
	if !errors.Is(err, extpolicy.ErrTimeout) {
		t.Fatalf("error %v, want a timeout", err)
	}
	if !strings.Contains(err.Error(), "the program did not read the message within 500ms (--exec-timeout): ") || !strings.Contains(err.Error(), "bytes went into the program's input, whose pipe holds 64 KiB unread") || strings.Contains(err.Error(), "read nothing") {
		t.Errorf("message: %v", err)
	}
}

// With start_head, every job the messages name in "started", "ended" or
// "killed" has come in an "arrived" list first, the final message's
// included: jobs the engine started after the last round message arrive in
// the end's "arrived".
func TestExecStartHeadEndArrivals(t *testing.T) {
	log := filepath.Join(t.TempDir(), "messages")
	script := `read m; echo '{"protocol":1,"start_head":true}'; while read m; do printf '%s\n' "$m" >>` + log + `; case $m in *'"type":"end"'*) exit 0;; esac; echo '{"start":[]}'; done`
	// Both fit when they arrive: the engine starts them, and no round
	// message is needed.
	jobs := []sim.Job{{Procs: 2, Submit: 0, Runtime: 100, Estimate: 100}, {Procs: 1, Submit: 10, Runtime: 50, Estimate: 60}}
	if _, _, err := runExec(t, sh(script), jobs, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	arrived := map[int]bool{}
	named := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m struct {
			Type                   string
			Arrived                []struct{ ID int }
			Started, Ended, Killed []struct{ ID int }
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		for _, a := range m.Arrived {
			arrived[a.ID] = true
		}
		for _, list := range [][]struct{ ID int }{m.Started, m.Ended, m.Killed} {
			for _, e := range list {
				named++
				if !arrived[e.ID] {
					t.Errorf("%s message names job %d, which no arrived list gave before: %s", m.Type, e.ID, line)
				}
			}
		}
	}
	if named == 0 {
		t.Errorf("no job started or ended in the messages:\n%s", data)
	}
}

// A wrapper that exits while the policy it started goes on answering (setsid
// forks when the program leads its process group, as every program does) is
// a working program, however long the policy takes to answer.
func TestExecWrapperExitsPolicyAnswers(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid:", err)
	}
	fcfs := hello + `read m; sleep 4; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; echo '{"start":[1]}'; read m`
	if _, _, err := runExec(t, append([]string{"setsid"}, sh(fcfs)...), tinyJobs(), 10*time.Second); err != nil {
		t.Errorf("a policy started through setsid: %v", err)
	}
}

// noSurvivor fails the test, and kills them, if processes whose command line
// holds pattern (a background sleep with a marker) outlived the run.
func noSurvivor(t *testing.T, pattern string) {
	t.Helper()
	time.Sleep(100 * time.Millisecond)
	if out, _ := exec.Command("pgrep", "-f", pattern).Output(); len(out) > 0 {
		exec.Command("pkill", "-f", pattern).Run()
		t.Errorf("the background process outlived the run: pid %s", out)
	}
}
