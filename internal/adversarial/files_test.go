//go:build unix

package adversarial

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Defect 1: -o onto a FIFO writes into it; the FIFO stays a FIFO and its
// reader gets the output.
func TestOutputIntoFIFO(t *testing.T) {
	for _, tool := range tools {
		t.Run(tool, func(t *testing.T) {
			dir := t.TempDir()
			in := write(t, dir, "in.swf", small(t), 0o644)
			fifo := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			reader := exec.Command("cat", fifo)
			var got strings.Builder
			reader.Stdout = &got
			if err := reader.Start(); err != nil {
				t.Fatal(err)
			}
			r := run(t, call{tool: tool, args: append(toolArgs(tool, in), "-o", fifo)})
			done := make(chan error, 1)
			go func() { done <- reader.Wait() }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				reader.Process.Kill()
				<-done
				t.Errorf("the FIFO's reader got no end of data (the output went elsewhere)")
			}
			expect(t, "-o FIFO", r, 0)
			if info, err := os.Lstat(fifo); err != nil || info.Mode()&fs.ModeNamedPipe == 0 {
				t.Errorf("the FIFO was replaced: %v %v", info.Mode(), err)
			}
			if got.Len() == 0 {
				t.Errorf("the FIFO's reader got nothing")
			}
		})
	}
}

// Defect 1: -o onto a character device (a private copy of /dev/null) writes
// into it and leaves it a device.
func TestOutputIntoDevice(t *testing.T) {
	for _, tool := range tools {
		t.Run(tool, func(t *testing.T) {
			dir := t.TempDir()
			in := write(t, dir, "in.swf", small(t), 0o644)
			dev := filepath.Join(dir, "null")
			mknodNull(t, dev)
			r := run(t, call{tool: tool, args: append(toolArgs(tool, in), "-o", dev)})
			expect(t, "-o device", r, 0)
			if info, err := os.Lstat(dev); err != nil || info.Mode()&fs.ModeCharDevice == 0 {
				t.Errorf("the device became %v (%v)", info.Mode(), err)
			}
		})
	}
}

// Defect 1: a symbolic link is written through (the link stays, the file it
// names gets the output), an existing file keeps its permissions, and a
// descriptor path (/proc/self/fd/1) writes into the open descriptor.
func TestOutputThroughLinksKeepsModes(t *testing.T) {
	for _, tool := range tools {
		t.Run(tool, func(t *testing.T) {
			dir := t.TempDir()
			in := write(t, dir, "in.swf", small(t), 0o644)
			target := write(t, dir, "target.out", []byte("old"), 0o640)
			link := filepath.Join(dir, "link.out")
			if err := os.Symlink("target.out", link); err != nil {
				t.Fatal(err)
			}
			r := run(t, call{tool: tool, args: append(toolArgs(tool, in), "-o", link)})
			expect(t, "-o symlink", r, 0)
			if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("the symbolic link was replaced by %v", info.Mode())
			}
			if string(read(t, target)) == "old" {
				t.Errorf("the link's target did not get the output")
			}
			if info, _ := os.Stat(target); info.Mode().Perm() != 0o640 {
				t.Errorf("the replaced file's mode is %v, want 0640", info.Mode().Perm())
			}

			plain := write(t, dir, "plain.out", []byte("old"), 0o640)
			r = run(t, call{tool: tool, args: append(toolArgs(tool, in), "-o", plain)})
			expect(t, "-o existing file", r, 0)
			if info, _ := os.Stat(plain); info.Mode().Perm() != 0o640 {
				t.Errorf("the replaced file's mode is %v, want 0640", info.Mode().Perm())
			}

			out, err := os.Create(filepath.Join(dir, "stdout.out"))
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			r = run(t, call{tool: tool, args: append(toolArgs(tool, in), "-o", "/proc/self/fd/1"), stdout: out})
			expect(t, "-o /proc/self/fd/1", r, 0)
			if len(read(t, out.Name())) == 0 {
				t.Errorf("nothing arrived through the descriptor")
			}
		})
	}
}

// sameFileCases are, per tool, runs whose output (-o or a side file) is the
// same file as an input, by name, hard link or symbolic link.
func sameFileCases(in, hard, soft, other string) map[string][][]string {
	return map[string][][]string{
		"swfclean": {
			{in, "--report", in, "-o", other},
			{in, "--report", hard, "-o", other},
			{"--anonymize", "--anonymize-map", soft, in, "-o", other},
		},
		"swfaugment": {
			{"--utility", in, "-o", in},
			{"--utility", in, "-o", hard},
			{"--checkpoint-from", hard, "--utility", other, "-o", in},
		},
		"swfsim": {
			{"-p", "easy", in, "-o", in},
			{"-p", "easy", in, "-o", soft},
		},
		"swfstat": {
			{in, "-o", in},
			{in, "-o", hard},
			{other, in, "--plot", strings.TrimSuffix(soft, ".swf") + ".svg"},
		},
	}
}

// Defect 2: an output that is the same file as an input is a usage error
// before anything is read or written; the input is untouched.
func TestOutputOntoAnInputIsRefused(t *testing.T) {
	for _, tool := range tools {
		t.Run(tool, func(t *testing.T) {
			dir := t.TempDir()
			data := small(t)
			in := write(t, dir, "t.swf", data, 0o644)
			hard := filepath.Join(dir, "hard.swf")
			if err := os.Link(in, hard); err != nil {
				t.Fatal(err)
			}
			soft := filepath.Join(dir, "soft.swf")
			if err := os.Symlink("t.swf", soft); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("t.swf", filepath.Join(dir, "soft.svg")); err != nil {
				t.Fatal(err)
			}
			other := write(t, dir, "other.swf", data, 0o644)
			for _, args := range sameFileCases(in, hard, soft, other)[tool] {
				r := run(t, call{tool: tool, args: args})
				expect(t, strings.Join(args, " "), r, 2, "same file")
				if string(read(t, in)) != string(data) {
					t.Fatalf("%s: the input was changed", strings.Join(args, " "))
				}
				if string(read(t, other)) != string(data) {
					t.Fatalf("%s: the other input was changed", strings.Join(args, " "))
				}
			}
		})
	}
}

// A run commits all its outputs or none: a --plot that cannot be written
// leaves no summary behind.
func TestFailedPlotCommitsNothing(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "t.swf", small(t), 0o644)
	summary := filepath.Join(dir, "summary.txt")
	r := run(t, call{tool: "swfstat", args: []string{in, "-o", summary, "--plot", filepath.Join(dir, "missing-dir", "p.svg")}})
	expect(t, "swfstat --plot into a missing directory", r, 1, "p.svg")
	if _, err := os.Stat(summary); !os.IsNotExist(err) {
		t.Errorf("the summary was committed although --plot failed")
	}
}

// SIGTERM, SIGINT and SIGHUP remove the temporary output and spool files,
// then end the process by that signal, as the README promises outside
// Windows: a shell script or make stops at a command killed by SIGINT, but
// goes on after one that merely exited with status 130. Each case runs a few
// times, since the status was a race between the re-raised signal and the
// fallback exit (7 runs in 10 exited 130).
func TestSignalsRemoveTemporaries(t *testing.T) {
	for _, tc := range []struct {
		tool string
		args []string
		sig  syscall.Signal
	}{
		{"swfclean", nil, syscall.SIGTERM},
		{"swfclean", []string{"--drop-flurries"}, syscall.SIGINT},
		{"swfsim", []string{"-p", "easy"}, syscall.SIGTERM},
		{"swfaugment", []string{"--checkpoint"}, syscall.SIGINT},        // the copy of standard input
		{"swfaugment", []string{"--estimate", "exact"}, syscall.SIGHUP}, // the jobs' spool
	} {
		t.Run(tc.tool+strings.Join(tc.args, ""), func(t *testing.T) {
			for range 5 {
				signalStalledRun(t, tc.tool, tc.args, tc.sig)
			}
		})
	}
}

// signalStalledRun starts tool on a standard input that stalls after a few
// jobs, sends sig once a temporary file is there, and checks that none is
// left and that the process ended by sig.
func signalStalledRun(t *testing.T, tool string, args []string, sig syscall.Signal) {
	t.Helper()
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o755)
	cmd := exec.Command(filepath.Join(bin, tool), append(args, "-", "-o", filepath.Join(dir, "out.swf"))...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Feed the header and a few jobs, then stall with the input open.
	defer w.Close()
	w.Write(small(t)[:700])
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && len(temporaries(dir, tmp)) == 0 {
		time.Sleep(20 * time.Millisecond)
	}
	if len(temporaries(dir, tmp)) == 0 {
		t.Error("no temporary file appeared before the signal: the case tests nothing")
	}
	cmd.Process.Signal(sig)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the command did not end on the signal")
	}
	if left := temporaries(dir, tmp); len(left) > 0 {
		t.Errorf("left behind after %v: %v", sig, left)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
		t.Errorf("%v: the process %v, want it killed by the signal", sig, cmd.ProcessState)
	}
}

func temporaries(dir, tmp string) []string {
	var names []string
	for _, d := range []string{dir, tmp} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if n := e.Name(); n != "tmp" {
				names = append(names, n)
			}
		}
	}
	return names
}

// With standard output closed the output would be lost: exit 1.
func TestClosedStdoutIsAnError(t *testing.T) {
	for _, tool := range tools {
		t.Run(tool, func(t *testing.T) {
			dir := t.TempDir()
			in := write(t, dir, "t.swf", small(t), 0o644)
			for _, toolArgs := range [][]string{toolArgs(tool, in), {"--help"}} {
				script := `exec "$0" "$@" >&-`
				args := append([]string{"-c", script, filepath.Join(bin, tool)}, toolArgs...)
				cmd := exec.Command("sh", args...)
				var stderr strings.Builder
				cmd.Stderr = &stderr
				err := cmd.Run()
				code := 0
				if exit, ok := err.(*exec.ExitError); ok {
					code = exit.ExitCode()
				}
				expect(t, tool+" "+strings.Join(toolArgs, " ")+" >&-", result{code: code, stderr: stderr.String()}, 1, "standard output is closed")
			}
		})
	}
}

// A signal ignored when the command starts stays ignored: nohup ignores
// SIGHUP, and a shell script ignores SIGINT in the commands it runs in the
// background, so that a hang-up or the terminal's Ctrl-C does not end them.
// The tools watched both to remove their temporary files, which turned them
// back on: `nohup swfaugment ... &` died at logout with status 129.
func TestIgnoredSignalsStayIgnored(t *testing.T) {
	for _, sig := range []struct {
		name string
		sig  syscall.Signal
	}{{"HUP", syscall.SIGHUP}, {"INT", syscall.SIGINT}} {
		t.Run(sig.name, func(t *testing.T) {
			dir := t.TempDir()
			tmp := filepath.Join(dir, "tmp")
			os.Mkdir(tmp, 0o755)
			out := filepath.Join(dir, "out.swf")
			script := `trap "" ` + sig.name + `; exec "$0" "$@"`
			cmd := exec.Command("sh", "-c", script, filepath.Join(bin, "swfaugment"), "--checkpoint", "-", "-o", out)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			w, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			data := small(t)
			w.Write(data[:700])
			deadline := time.Now().Add(5 * time.Second)
			for time.Now().Before(deadline) && len(temporaries(dir, tmp)) == 0 {
				time.Sleep(20 * time.Millisecond)
			}
			if len(temporaries(dir, tmp)) == 0 {
				t.Error("no temporary file appeared before the signal: the watcher may not be on yet")
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			cmd.Process.Signal(sig.sig)
			select { // past the second a dying run waits for its signal
			case err := <-done:
				t.Fatalf("SIG%s, ignored, ended the run: %v; %s", sig.name, err, stderr.String())
			case <-time.After(1500 * time.Millisecond):
			}
			if len(temporaries(dir, tmp)) == 0 {
				t.Errorf("SIG%s, ignored, removed the temporary files of the run", sig.name)
			}
			w.Write(data[700:])
			w.Close()
			if err := <-done; err != nil {
				t.Fatalf("after SIG%s, ignored: %v; %s", sig.name, err, stderr.String())
			}
			if _, err := os.Stat(out); err != nil {
				t.Errorf("no output: %v", err)
			}
		})
	}
}

// A temporary folder that is missing or full (here: a spool past the file
// size limit, ulimit -f) is exit 1 with a message that names the folder and
// says what to do, and leaves no output and no temporary file. Before, a
// spool that could not be written said only "write
// /tmp/swfaugment-body-1a2b3c...: no space left on device".
func TestTemporaryFolderErrors(t *testing.T) {
	var trace strings.Builder
	trace.WriteString("; MaxProcs: 64\n")
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&trace, "%d %d 10 50 1 -1 -1 1 60 -1 1 1 1 1 0 -1 -1 -1\n", i, 10*i)
	}
	for _, tc := range []struct {
		tool string
		args []string // then "-" (standard input) and -o
	}{
		{"swfaugment", []string{"--checkpoint"}},        // the copy of standard input
		{"swfaugment", []string{"--estimate", "exact"}}, // the jobs' spool
		{"swfclean", nil},
		{"swfclean", []string{"--drop-flurries"}},
	} {
		t.Run(tc.tool+strings.Join(tc.args, ""), func(t *testing.T) {
			dir := t.TempDir()
			tmp := filepath.Join(dir, "tmp")
			os.Mkdir(tmp, 0o755)
			out := filepath.Join(dir, "out.swf")
			args := append(append([]string{}, tc.args...), "-", "-o", out)
			missing := filepath.Join(dir, "missing")
			r := run(t, call{tool: tc.tool, args: args, stdin: []byte(trace.String()), env: []string{"TMPDIR=" + missing}})
			expect(t, "TMPDIR missing", r, 1, "the temporary folder "+missing+", from $TMPDIR, does not exist: create it, or set TMPDIR")

			script := `ulimit -f 8; exec "$0" "$@"`
			shArgs := append([]string{"-c", script, filepath.Join(bin, tc.tool)}, args...)
			cmd := exec.Command("sh", shArgs...)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			cmd.Stdin = strings.NewReader(trace.String())
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(stderr.String(), "the temporary folder "+tmp+", from $TMPDIR, where the file passed the file size limit of the process (ulimit -f)") {
				t.Errorf("spool past ulimit -f: %v, exit %d: %s", err, code, stderr.String())
			}
			if left := temporaries(dir, tmp); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}
