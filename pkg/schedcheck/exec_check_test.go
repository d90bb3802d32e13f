package schedcheck_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/extpolicy"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/schedcheck"
	"github.com/swfkit/swfkit/pkg/sim"
)

// TestCheckExec runs the schedule checker over an external policy's
// schedules (docs/adding-a-policy.md): capacity, no start before submit,
// every job present with its fields unchanged, the kill rule, with and
// without --no-kill, on HPC2N's first 3,170 jobs; with the guarantee of
// SWFKIT_EXEC_RULES (fcfs: arrival order; easy: the shadow-time guarantee
// on an exact-estimate version) when it names one.
//
// The program is SWFKIT_EXEC (an --exec command line, e.g. 'python3
// my_policy.py'), by default the Go reference client, built here, with easy's
// rules:
//
//	SWFKIT_EXEC='python3 examples/policies/fcfs.py' SWFKIT_EXEC_RULES=fcfs go test ./pkg/schedcheck -run CheckExec
func TestCheckExec(t *testing.T) {
	root := testutil.RepoRoot(t)
	command, rules := os.Getenv("SWFKIT_EXEC"), os.Getenv("SWFKIT_EXEC_RULES")
	if command == "" {
		command, rules = buildEasyGo(t, root), "easy"
	}
	argv, err := extpolicy.SplitCommand(command)
	if err != nil {
		t.Fatal(err)
	}
	if len(argv) > 1 && !filepath.IsAbs(argv[1]) {
		if _, err := os.Stat(filepath.Join(root, argv[1])); err == nil {
			argv[1] = filepath.Join(root, argv[1]) // a script named from the repository root
		}
	}
	data := readTrace(t, testutil.Trace(t, "HPC2N-2002-2-first3170.swf.gz"))
	run := func(input []byte, noKill bool) ([]byte, error) {
		var out bytes.Buffer
		opt := simcli.Options{Policy: "exec", NoKill: noKill,
			Params: policy.Params{Exec: policy.ExecParams{Command: argv, Options: extpolicy.Options{Timeout: time.Minute}}}}
		err := simcli.Simulate(bytes.NewReader(input), &out, opt)
		return out.Bytes(), err
	}
	check := func(input []byte, noKill, guarantee bool) {
		out, err := run(input, noKill)
		if err != nil {
			t.Fatal(err)
		}
		hin, in, err := schedcheck.ReadAll(bytes.NewReader(input), "in")
		if err != nil {
			t.Fatal(err)
		}
		hout, outJobs, err := schedcheck.ReadAll(bytes.NewReader(out), "out")
		if err != nil {
			t.Fatal(err)
		}
		procs, _, _, _ := sim.MachineSize(hin)
		opt := schedcheck.Options{Procs: procs, NoKill: noKill, Skipped: schedcheck.SkippedFromHeader(hout),
			FCFS: rules == "fcfs", EASY: guarantee && rules == "easy"}
		if err := schedcheck.Check(in, outJobs, opt); err != nil {
			t.Errorf("%s no-kill=%v exact=%v: %v", command, noKill, guarantee, err)
		}
	}
	for _, noKill := range []bool{false, true} {
		check(data, noKill, false)
	}
	if rules == "easy" {
		check(exactEstimates(t, data), false, true)
	}
}

// buildEasyGo builds examples/policies/easy-go into a temporary directory.
func buildEasyGo(t *testing.T, root string) string {
	t.Helper()
	client := filepath.Join(t.TempDir(), "easy-go")
	gobin := testutil.GoTool(t)
	cmd := exec.Command(gobin, "build", "-o", client, "./examples/policies/easy-go")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/policies/easy-go: %v\n%s", err, out)
	}
	return client
}
