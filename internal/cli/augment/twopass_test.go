package augmentcli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/swf"
)

// TestReadOnceAndRegularFileAgree: every operation gives the same output
// whether the trace is a regular file (read twice when the operations need a
// survey of the whole trace), standard input (copied to a temporary file for
// the second pass) or a gzip file, also with --lenient skipping lines and
// comments between jobs; and the temporary files are gone afterwards.
func TestReadOnceAndRegularFileAgree(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the spools go
	small, err := os.ReadFile("testdata/small.swf")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(small), "; a comment between jobs\n", "; a comment between jobs\n7 x\n", 1)
	dir := t.TempDir()
	files := map[string][]byte{"small.swf": small, "small.swf.gz": testutil.Gzip(t, string(small)), "bad.swf": []byte(bad)}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"--utility"}, // priorities from the header: one pass
		{"--utility", "--priority-order", "2,1,0"}, // one pass
		{"--checkpoint", "--seed", "5"},            // two
		{"--checkpoint-from", "testdata/answers.txt", "--expand"},
		{"--error-quant", "50", "--error-stdev", "10", "--error-category", "3"},
		{"--error-qual", "both", "--error-percent", "70"},
		{"--estimate", "uniform:1,2"},
		{"--bounds"},
		{"--target-load", "0.8"},
		{"--utility", "--checkpoint", "--estimate", "scale:2", "--load", "3", "--lenient"},
	} {
		for name := range files {
			if strings.HasPrefix(name, "bad") != (args[len(args)-1] == "--lenient") {
				continue
			}
			path := filepath.Join(dir, name)
			fromFile, errFile, code := runCmd(t, "", append(args, path)...)
			if code != 0 {
				t.Fatalf("%v %s: exit %d: %s", args, name, code, errFile)
			}
			fromStdin, errStdin, code := runCmd(t, string(files[name]), append(args, "-")...)
			if code != 0 {
				t.Fatalf("%v %s on stdin: exit %d: %s", args, name, code, errStdin)
			}
			want := strings.Replace(fromFile, "input="+path+" ", "input=- ", 1)
			if fromStdin != want || want == fromFile {
				t.Errorf("%v %s: standard input and file differ:\n%s\n---\n%s", args, name, fromStdin, fromFile)
			}
			if strings.ReplaceAll(errStdin, "<stdin>", path) != errFile {
				t.Errorf("%v %s: stderr differs: %q, %q", args, name, errStdin, errFile)
			}
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("temporary files left in TMPDIR: %v", left)
	}
}

// TestFileChangedBetweenPasses: a regular file read twice that changed in
// between is an error naming it, not an output whose jobs are none of its
// versions'.
func TestFileChangedBetweenPasses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.swf")
	small, err := os.ReadFile("testdata/small.swf")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, small, 0o644); err != nil {
		t.Fatal(err)
	}
	files := cmdio.NewFiles(nil, io.Discard)
	in, err := openTrace(files, path, true)
	if err != nil {
		t.Fatal(err)
	}
	defer in.close()
	readAll := func(rd *swf.Reader) {
		for {
			if _, err := rd.Read(); errors.Is(err, io.EOF) {
				return
			} else if err != nil {
				t.Fatal(err)
			}
		}
	}
	readAll(in.reader(false))
	if err := os.WriteFile(path, []byte(strings.Replace(string(small), " 5000 ", " 5001 ", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := in.again(false)
	if err != nil {
		t.Fatal(err)
	}
	readAll(second)
	if err := in.unchanged(); err == nil || !strings.Contains(err.Error(), path+" changed while it was read twice") {
		t.Errorf("got %v, want the file named as changed", err)
	}
}

// TestErrorsInTheOrderOfAWholeRead: the trace is no longer read whole before
// the operations run, but the error reported is still the one reading it
// whole first, then running the operations one after the other, reported:
// a malformed line anywhere before an operation's error at an earlier job;
// the utility's error at a job before a later operation's error about the
// whole trace.
func TestErrorsInTheOrderOfAWholeRead(t *testing.T) {
	small, err := os.ReadFile("testdata/small.swf")
	if err != nil {
		t.Fatal(err)
	}
	noQueues := strings.NewReplacer("; Queue: 0 interactive\n", "", "; Queue: 1 batch\n", "", "; Queue: 2 low\n", "").Replace(string(small))
	noRuntimes := "; MaxProcs: 1000\n; Queue: 0 q\n1 0 0 -1 1000 -1 -1 1000 100000 -1 1 1 1 1 0 -1 -1 -1\n2 5 0 -1 1000 -1 -1 1000 100000 -1 1 1 1 1 0 -1 -1 -1\n"
	tests := []struct {
		name, in string
		args     []string
		want     string
	}{
		// Job 2's start value is out of bounds. With the priorities from
		// the header the trace is read once, else twice.
		{"utility, one pass", string(small) + "17 x\n", []string{"--utility", "--globmax", "1e300"}, "<stdin>:30: field 2 (Submit Time)"},
		{"utility, two passes", noQueues + "17 x\n", []string{"--utility", "--globmax", "1e300"}, "<stdin>:27: field 2 (Submit Time)"},
		{"utility job error without the bad line", string(small), []string{"--utility", "--globmax", "1e300"}, "<stdin>:13: the utility start value of job 2"},
		{"utility configuration", string(small) + "17 x\n", []string{"--utility", "--min-deadline", "3"}, "<stdin>:30: field 2 (Submit Time)"},
		{"utility before bounds", noRuntimes, []string{"--utility", "--globmax", "1e300", "--bounds"}, "<stdin>:3: the utility start value of job 1"},
		{"utility before load", noRuntimes, []string{"--utility", "--globmax", "1e300", "--load", "2"}, "<stdin>:3: the utility start value of job 1"},
		{"bounds alone", noRuntimes, []string{"--utility", "--bounds", "--procs-lower", "1e6"}, "<stdin>: bounds: a lower bound exceeds its upper bound"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.swf")
			_, errOut, code := runCmd(t, tc.in, append(tc.args, "-o", out, "-")...)
			if code == 0 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want %q", code, errOut, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s written after an error", out)
			}
		})
	}
}

// TestTruncatedStdinLeavesNothing: a gzip trace cut short on standard input
// fails, naming it, in the first pass of an operation that reads twice,
// and leaves neither the output nor the copy of the input.
func TestTruncatedStdinLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	small, err := os.ReadFile("testdata/small.swf")
	if err != nil {
		t.Fatal(err)
	}
	gz := testutil.Gzip(t, string(small))
	out := filepath.Join(t.TempDir(), "out.swf")
	for _, args := range [][]string{{"--checkpoint"}, {"--utility"}, {"--target-load", "0.9"}} {
		_, errOut, code := runCmd(t, string(gz[:len(gz)-10]), append(args, "-o", out)...)
		if code != 1 || !strings.Contains(errOut, "<stdin>: truncated gzip data") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: %s written", args, out)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("temporary files left in TMPDIR: %v", left)
	}
}
