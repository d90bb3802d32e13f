//go:build unix

package adversarial

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil // no /proc: a zombie counts as alive
	}
	// pid (comm) STATE ...: the state follows the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// Ctrl-C or SIGTERM to swfsim while an exec policy runs ends the program and
// what it started (its process group), with or without -o: a worker the
// policy forked must not be left running, orphaned, when swfsim is gone.
// (Only the program itself died, killed by its parent-death signal: the
// processes it started outlived swfsim.)
func TestExecSignalEndsTheProgramsGroup(t *testing.T) {
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		out  bool
	}{
		{"SIGTERM", syscall.SIGTERM, false},
		{"SIGINT", syscall.SIGINT, false},
		{"SIGTERM -o", syscall.SIGTERM, true},
		{"SIGHUP -o", syscall.SIGHUP, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := write(t, dir, "in.swf", small(t), 0o644)
			pidFile := filepath.Join(dir, "worker.pid")
			// The policy starts a worker (its output elsewhere, as a pool's
			// would be), notes its pid, answers the first message and then
			// thinks for a long time about the first round.
			script := `sleep 300 </dev/null >/dev/null 2>&1 & echo $! > ` + pidFile +
				`; read m; echo "{\"protocol\":1}"; read m; sleep 300`
			args := []string{"-p", "exec", "--exec", "sh -c '" + script + "'", in}
			if tc.out {
				args = append(args, "-o", filepath.Join(dir, "out.swf"))
			}
			cmd := exec.Command(filepath.Join(bin, "swfsim"), args...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			worker := 0
			for deadline := time.Now().Add(10 * time.Second); worker == 0 && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
				b, _ := os.ReadFile(pidFile)
				worker, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			if worker == 0 {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatal("the policy did not start its worker")
			}
			defer syscall.Kill(worker, syscall.SIGKILL)
			time.Sleep(200 * time.Millisecond) // into the first round
			cmd.Process.Signal(tc.sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatal("swfsim did not end on the signal")
			}
			if code := cmd.ProcessState.ExitCode(); code == 0 {
				t.Errorf("exit status 0 after %v", tc.sig)
			}
			for deadline := time.Now().Add(2 * time.Second); alive(worker) && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			if alive(worker) {
				t.Errorf("the policy's worker (pid %d) outlived swfsim ended by %v", worker, tc.sig)
			}
			if _, err := os.Stat(filepath.Join(dir, "out.swf")); !os.IsNotExist(err) {
				t.Errorf("out.swf exists after the signal (%v)", err)
			}
		})
	}
}
