//go:build unix

package adversarial

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bin is the directory of the commands under test.
var bin string

var tools = []string{"swfclean", "swfaugment", "swfsim", "swfstat"}

// TestMain builds the commands into a temporary directory, unless
// SWFKIT_BIN names a directory that holds them already.
func TestMain(m *testing.M) {
	bin = os.Getenv("SWFKIT_BIN")
	if bin == "" {
		statSources("../..")
		dir, err := os.MkdirTemp("", "swfkit-adversarial-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		build := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "../../cmd/...")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building the commands:", err)
			os.Exit(1)
		}
		bin = dir
		code := m.Run()
		os.RemoveAll(dir)
		os.Exit(code)
	}
	if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}
	os.Exit(m.Run())
}

// statSources stats every Go source and module file under root. The test
// binary does not import the commands it builds, so without this go test's
// cache (which keys on the files a test opens or stats) would replay an old
// result after the commands changed.
func statSources(root string) {
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" && path != root):
			return filepath.SkipDir
		case !d.IsDir() && (strings.HasSuffix(path, ".go") || d.Name() == "go.mod" || d.Name() == "go.sum"):
			os.Stat(path)
		}
		return nil
	})
}

// result is what one command run did.
type result struct {
	code           int
	stdout, stderr string
}

// call describes one run: the tool, its arguments, and optional standard
// input, extra environment, working directory, descriptors and time limit.
type call struct {
	tool   string
	args   []string
	stdin  []byte
	env    []string
	dir    string
	stdout *os.File      // nil: captured
	extra  []*os.File    // descriptors 3, 4, ...
	limit  time.Duration // 0: 20 s
}

// run runs c and returns what happened; a run past its time limit is killed
// and reported as exit code -1.
func run(t *testing.T, c call) result {
	t.Helper()
	limit := c.limit
	if limit == 0 {
		limit = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, c.tool), c.args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), c.env...)
	cmd.Stdin = bytes.NewReader(c.stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if c.stdout != nil {
		cmd.Stdout = c.stdout
	}
	cmd.ExtraFiles = c.extra
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		res.code = -1
		res.stderr += fmt.Sprintf("\n(killed after %v)", limit)
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s %v: %v", c.tool, c.args, err)
	}
	return res
}

// expect checks the exit code, that stderr holds every want string and that
// nothing panicked.
func expect(t *testing.T, what string, r result, code int, want ...string) {
	t.Helper()
	if r.code != code {
		t.Errorf("%s: exit %d, want %d; stderr: %s", what, r.code, code, clip(r.stderr))
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("%s: stderr lacks %q: %s", what, w, clip(r.stderr))
		}
	}
	if strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "goroutine ") {
		t.Errorf("%s: panicked: %s", what, clip(r.stderr))
	}
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:400] + "..."
	}
	return s
}

// small is the bundled test trace (16 jobs, MaxProcs 64).
func small(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/small.swf")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// write writes data to dir/name and returns the path.
func write(t *testing.T, dir, name string, data []byte, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // whatever the umask
		t.Fatal(err)
	}
	return path
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// toolArgs are the arguments that make each tool write a result for input:
// the common case of every class.
func toolArgs(tool, input string) []string {
	switch tool {
	case "swfaugment":
		return []string{"--utility", input}
	case "swfsim":
		return []string{"-p", "easy", input}
	}
	return []string{input}
}

// mknodNull makes a private character device equal to /dev/null (1, 3) at
// path, or skips the test loudly when the system does not allow it.
func mknodNull(t *testing.T, path string) {
	t.Helper()
	if err := mknod(path); err != nil {
		t.Skipf("SKIP (not an error of the tools): cannot make a private device with mknod (needs root): %v", err)
	}
}
