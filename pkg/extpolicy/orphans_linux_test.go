package extpolicy_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/swfkit/swfkit/pkg/extpolicy"
)

// A process the program started in a session of its own (setsid), so out
// of its process group, does not outlive the run: swfsim is its subreaper
// and kills it when the run ends, whether the program exited well or was
// killed (a timeout). A process swfsim started itself, and one orphaned to
// it that the program did not start, are left alone.
func TestExecKillsSetsidDescendants(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid:", err)
	}
	// Children of the test process that are not the program's: one it
	// started, and one orphaned to it once the test process is a subreaper.
	own := exec.Command("sleep", "1000")
	if err := own.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { own.Process.Kill(); own.Wait() })

	for _, c := range []struct {
		name, rest string
		timeout    time.Duration
		wantErr    error
	}{
		{"success", `read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; echo '{"start":[1]}'; read m`, 5 * time.Second, nil},
		{"timeout", `read m; sleep 30`, 300 * time.Millisecond, extpolicy.ErrTimeout},
	} {
		t.Run(c.name, func(t *testing.T) {
			pidFile := t.TempDir() + "/daemon.pid"
			daemon := `setsid sh -c 'echo $$ > ` + pidFile + `.tmp; mv ` + pidFile + `.tmp ` + pidFile + `; exec sleep 1000' </dev/null >/dev/null 2>&1 & ` +
				`while [ ! -s ` + pidFile + ` ]; do sleep 0.01; done; `
			_, _, err := runExec(t, sh(hello+daemon+c.rest), tinyJobs(), c.timeout)
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("error %v, want %v", err, c.wantErr)
			}
			b, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			if gone(pid, 2*time.Second) {
				return
			}
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("the process the program started with setsid (pid %d) outlived the run", pid)
		})
	}
	if gone(own.Process.Pid, 0) {
		t.Errorf("a child the test process started itself (pid %d) was killed", own.Process.Pid)
	}
}

// An orphan reparented to swfsim that the program did not start (no
// token in its environment) is left alone.
func TestExecLeavesOtherOrphans(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid:", err)
	}
	// Make the test process a subreaper (the first program does), so that
	// the orphan below is reparented to it, as to swfsim.
	if _, _, err := runExec(t, sh(hello+`read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; echo '{"start":[1]}'; read m`), tinyJobs(), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("sh", "-c", `setsid sh -c 'echo $$; exec sleep 1000 >/dev/null' </dev/null 2>/dev/null & sleep 0.2`).Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	defer func() {
		syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
	}()
	if ppid := parentOf(pid); ppid != os.Getpid() {
		t.Skipf("the orphan's parent is %d, not the test process %d: not a subreaper", ppid, os.Getpid())
	}
	if _, _, err := runExec(t, sh(hello+`read m; echo '{"start":[0]}'; read m; echo '{"start":[2]}'; read m; echo '{"start":[1]}'; read m`), tinyJobs(), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if gone(pid, 0) {
		t.Errorf("an orphan the program did not start (pid %d) was killed", pid)
	}
}

// gone reports whether process pid has ended (or is a zombie) within wait.
func gone(pid int, wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(b), ") Z ") {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// parentOf returns the parent pid of process pid, 0 if unknown.
func parentOf(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// Kill, which a signal that ends swfsim calls, kills the program's setsid
// descendants too, without waiting for Stop: swfsim ends right after it.
func TestProcessKillKillsSetsidDescendants(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid:", err)
	}
	// Its output elsewhere, or the program's stderr kept open (then Wait
	// waits for the pipe, longer than Kill waits for Wait: the review's
	// case, in which the daemon outlived a SIGTERM to swfsim).
	for _, tc := range []struct{ name, redirect string }{
		{"output elsewhere", "</dev/null >/dev/null 2>&1"},
		{"stderr kept", "</dev/null >/dev/null"},
	} {
		t.Run(tc.name, func(t *testing.T) { killSetsidDescendant(t, tc.redirect) })
	}
}

func killSetsidDescendant(t *testing.T, redirect string) {
	pidFile := t.TempDir() + "/daemon.pid"
	p, err := extpolicy.StartProcess(sh(`setsid sh -c 'echo $$ > `+pidFile+`.tmp; mv `+pidFile+`.tmp `+pidFile+`; exec sleep 1000' `+redirect+` & sleep 30`), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(0)
	var pid int
	for deadline := time.Now().Add(5 * time.Second); pid == 0; {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		if time.Now().After(deadline) {
			t.Fatal("the program did not start its daemon")
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.Kill()
	if !gone(pid, 0) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the process the program started with setsid (pid %d) outlived Kill", pid)
	}
}
