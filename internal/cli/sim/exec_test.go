package simcli

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/provenance"
)

// window writes the header of an archive trace and its job records
// [from, from+n) to a file in dir and returns its path: a few thousand jobs
// keep the exec tests fast.
func window(t *testing.T, dir, trace string, from, n int) string {
	t.Helper()
	in, err := cmdio.Open(testutil.Trace(t, trace), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<20)
	job := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), ";") {
			if job == 0 {
				out.WriteString(line + "\n")
			}
			continue
		}
		if job >= from && job < from+n {
			out.WriteString(line + "\n")
		}
		job++
	}
	path := filepath.Join(dir, strings.TrimSuffix(trace, ".swf.gz")+".window.swf")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// windows are the KTH-SP2 and LANL-CM5 slices the exec policies are held to.
func windows(t *testing.T) []string {
	dir := t.TempDir()
	return []string{
		window(t, dir, "KTH-SP2-1996-2.1-cln.swf.gz", 10000, 4000),
		window(t, dir, "LANL-CM5-1994-4.1-cln.swf.gz", 80000, 4000),
	}
}

// buildGoClient builds examples/policies/easy-go into a temporary directory.
func buildGoClient(t testing.TB) string {
	t.Helper()
	client := filepath.Join(t.TempDir(), "easy-go")
	gobin := testutil.GoTool(t)
	cmd := exec.Command(gobin, "build", "-o", client, "./examples/policies/easy-go")
	cmd.Dir = testutil.RepoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/policies/easy-go: %v\n%s", err, out)
	}
	return client
}

// records returns the job lines of an SWF output; header returns the rest.
func records(out string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(out, "\n") {
		if !strings.HasPrefix(l, ";") {
			b.WriteString(l)
		}
	}
	return b.String()
}

func header(out string) []string {
	var h []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, ";") {
			h = append(h, l)
		}
	}
	return h
}

// sameSchedule runs the built-in policy and the exec program on trace and
// requires byte-identical records, and headers that differ only in the
// policy's Note lines. execArgs are more flags for the exec run.
func sameSchedule(t *testing.T, builtin, program, trace string, noKill bool, execArgs ...string) {
	t.Helper()
	args := []string{trace}
	if noKill {
		args = append(args, "--no-kill")
	}
	want, errs, code := runCmd(t, "", append([]string{"-p", builtin}, args...)...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", builtin, code, errs)
	}
	got, errs, code := runCmd(t, "", append(append([]string{"-p", "exec", "--exec", program}, execArgs...), args...)...)
	if code != 0 {
		t.Fatalf("exec %s: exit %d: %s", program, code, errs)
	}
	name := filepath.Base(trace)
	if records(got) != records(want) {
		t.Errorf("%s no-kill=%v: exec %q and %s schedules differ", name, noKill, program, builtin)
	}
	hw, hg := header(want), header(got)
	var policyNote, execNote string
	for i, j := 0, 0; i < len(hw) || j < len(hg); {
		switch {
		case j < len(hg) && strings.HasPrefix(hg[j], "; Note: swfsim exec: program "):
			execNote = hg[j]
			j++
		case i < len(hw) && j < len(hg) && hw[i] == hg[j]:
			i, j = i+1, j+1
		case i < len(hw) && j < len(hg) && strings.HasPrefix(hw[i], "; Note: swfsim policy "+builtin+":") &&
			strings.HasPrefix(hg[j], "; Note: swfsim policy exec:"):
			policyNote = hg[j]
			i, j = i+1, j+1
		case i < len(hw) && j < len(hg) && strings.HasPrefix(hw[i], "; Provenance: ") && strings.HasPrefix(hg[j], "; Provenance: "):
			sameProvenance(t, name, hw[i], hg[j], builtin, program)
			i, j = i+1, j+1
		default:
			t.Fatalf("%s: headers differ beyond the policy notes:\n%s\n%s", name, strings.Join(hw, "\n"), strings.Join(hg, "\n"))
		}
	}
	if policyNote == "" || !strings.Contains(execNote, program) {
		t.Errorf("%s: the header does not name the program: %q %q", name, policyNote, execNote)
	}
}

// sameProvenance requires the Provenance lines of the built-in and the exec
// run to differ only in the policy and in --exec, which names the program.
func sameProvenance(t *testing.T, name, builtinLine, execLine, builtin, program string) {
	t.Helper()
	pw, err := provenance.Parse(strings.TrimPrefix(builtinLine, "; Provenance: "))
	if err != nil {
		t.Fatal(err)
	}
	pg, err := provenance.Parse(strings.TrimPrefix(execLine, "; Provenance: "))
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := pw.Get("policy"); p != builtin {
		t.Errorf("%s: built-in Provenance says policy=%s", name, p)
	}
	if p, _ := pg.Get("policy"); p != "exec" {
		t.Errorf("%s: exec Provenance says policy=%s", name, p)
	}
	if e, _ := pg.Get("exec"); e != program {
		t.Errorf("%s: exec Provenance says exec=%q, want %q", name, e, program)
	}
	// Every word of the command that is a file (here the program or its
	// script, by their paths) has its hash recorded right after exec=.
	var files []string
	for k := 0; k < len(pg.Fields); k++ {
		if f := pg.Fields[k]; f.Key == provenance.ExecFileSHA256 {
			if pg.Fields[k-1].Key != "exec" && pg.Fields[k-1].Key != provenance.ExecFileSHA256 {
				t.Errorf("%s: %s after %s, not after exec=", name, f.Key, pg.Fields[k-1].Key)
			}
			files = append(files, f.Value)
			pg.Fields = slices.Delete(pg.Fields, k, k+1)
			k--
		}
	}
	var want []string
	for _, w := range strings.Fields(program) {
		if sum, err := cmdio.RawFileSHA256(w); err == nil {
			want = append(want, sum+":"+w)
		}
	}
	if !slices.Equal(files, want) {
		t.Errorf("%s: exec-file-sha256 %q, want %q", name, files, want)
	}
	if len(pw.Fields) != len(pg.Fields) {
		t.Fatalf("%s: Provenance lines have %d and %d fields", name, len(pw.Fields), len(pg.Fields))
	}
	for k, f := range pw.Fields {
		if f.Key == "policy" || f.Key == "exec" {
			continue
		}
		if pg.Fields[k] != f {
			t.Errorf("%s: Provenance field %s=%q, built-in %s=%q", name, pg.Fields[k].Key, pg.Fields[k].Value, f.Key, f.Value)
		}
	}
}

// The Go reference client makes the built-in fcfs and easy schedules, byte
// for byte, with and without --no-kill, with start_head (its default) and
// asked for every decision, and with neither side polling before it sleeps
// (--exec-spin 0, -spin 0; Provenance leaves --exec-spin out).
func TestExecGoClientMatchesBuiltin(t *testing.T) {
	client := buildGoClient(t)
	for _, trace := range windows(t) {
		for _, noKill := range []bool{false, true} {
			for _, opt := range []string{"", " -start-head=false"} {
				sameSchedule(t, "easy", client+opt, trace, noKill)
				sameSchedule(t, "fcfs", client+" -fcfs"+opt, trace, noKill)
			}
			sameSchedule(t, "easy", client+" -spin 0", trace, noKill, "--exec-spin", "0")
		}
	}
}

// The Python reference policies make the built-in schedules, byte for byte.
func TestIntegrationPythonPolicies(t *testing.T) {
	python := testutil.Component(t, "python3", "python3")
	root := testutil.RepoRoot(t)
	for _, trace := range windows(t) {
		for _, noKill := range []bool{false, true} {
			for _, name := range []string{"fcfs", "easy"} {
				program := python + " " + filepath.Join(root, "examples", "policies", name+".py")
				sameSchedule(t, name, program, trace, noKill)
			}
		}
	}
}

const execTiny = `; MaxProcs: 4
1 0 -1 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1
2 0 -1 5 4 -1 -1 4 5 -1 1 1 1 -1 1 -1 -1 -1
3 5 -1 5 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1
`

func TestExecCommandErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.swf")
	if err := os.WriteFile(in, []byte(execTiny), 0o644); err != nil {
		t.Fatal(err)
	}
	const hello = `read m; echo "{\"protocol\":1}"; `
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string // in stderr
	}{
		{"no --exec", []string{"-p", "exec", in}, 2, []string{"--policy exec needs --exec"}},
		{"--exec with another policy", []string{"-p", "easy", "--exec", "x", in}, 2, []string{"--exec does not apply to policy easy; it is used by exec"}},
		{"--exec-timeout with another policy", []string{"-p", "fcfs", "--exec-timeout", "1s", in}, 2, []string{"--exec-timeout does not apply"}},
		{"unterminated quote", []string{"-p", "exec", "--exec", "python3 'my policy.py", in}, 2, []string{"single quote at byte 9 is not closed"}},
		{"empty command", []string{"-p", "exec", "--exec", "  ", in}, 2, []string{"empty command"}},
		{"zero timeout", []string{"-p", "exec", "--exec", "x", "--exec-timeout", "0s", in}, 2, []string{"--exec-timeout 0s: want a positive duration"}},
		{"negative spin", []string{"-p", "exec", "--exec", "x", "--exec-spin", "-1us", in}, 2, []string{"--exec-spin -1µs: want a duration from 0 to 1s"}},
		{"spin over a second", []string{"-p", "exec", "--exec", "x", "--exec-spin", "2s", in}, 2, []string{"--exec-spin 2s: want a duration from 0 to 1s"}},
		{"--exec-spin with another policy", []string{"-p", "easy", "--exec-spin", "0", in}, 2, []string{"--exec-spin does not apply"}},
		{"vcg prices", []string{"-p", "exec", "--exec", "x", "--price", "vcg", in}, 2, []string{"--price vcg"}},
		{"not found", []string{"-p", "exec", "--exec", "/no/such/policy --fast", in, "-o", filepath.Join(dir, "out.swf")}, 1,
			[]string{"exec policy [/no/such/policy --fast]: first message (hello): cannot start program"}},
		{"bad start", []string{"-p", "exec", "--exec", "sh -c '" + hello + `read m; echo "deciding" >&2; echo "{\"start\":[0,1]}"; sleep 5'`, in, "-o", filepath.Join(dir, "out.swf")}, 1,
			[]string{"swfsim: exec: deciding\n", "round 1 at time 0: job 1 (SWF job 2): start[1]: job does not fit: it needs 4 processors and 2 are free", "the last line of its stderr:\n    deciding"}},
		// The engine's write to a program that closed its input fails with
		// EPIPE: a failure of the policy (exit 1 with its error), not the
		// closed standard output that ends a run quietly with status 0.
		{"input closed", []string{"-p", "exec", "--exec", "sh -c 'read m; exec 0<&-; echo \"{\\\"protocol\\\":1}\"; sleep 5'", in, "-o", filepath.Join(dir, "out.swf")}, 1,
			[]string{"round 1 at time 0: program ended: it closed its input instead of reading this message (write |0: broken pipe)"}},
		{"exit after the hello reply", []string{"-p", "exec", "--exec", "sh -c '" + hello + `echo "fatal" >&2; exit 3'`, in, "-o", filepath.Join(dir, "out.swf")}, 1,
			[]string{"round 1 at time 0: program ended: ", "exited with status 3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runCmd(t, "", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
			if out != "" {
				t.Errorf("output on a failed run: %q", out)
			}
			// No partial output under the final name.
			if _, err := os.Stat(filepath.Join(dir, "out.swf")); !os.IsNotExist(err) {
				t.Errorf("out.swf exists after a failed run (%v)", err)
			}
		})
	}
}

// The worked transcript of docs/swfsim-external.md is what swfsim and
// easy.py say to each other: recorded with tee around the real program.
func TestIntegrationWorkedTranscriptPython(t *testing.T) {
	python := testutil.Component(t, "python3", "python3")
	root := testutil.RepoRoot(t)
	dir := t.TempDir()
	script := "tee " + filepath.Join(dir, "in") + " | " + python + " " + filepath.Join(root, "examples", "policies", "easy.py") +
		" | tee " + filepath.Join(dir, "out")
	_, errs, code := runCmd(t, "", "-p", "exec", "--exec", "sh -c '"+script+"'", filepath.Join(root, "pkg", "extpolicy", "testdata", "worked.swf"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	read := func(name string) []string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	engine, program := read("in"), read("out")
	var got strings.Builder
	for i, line := range engine { // ping-pong: every engine line but the last gets one reply
		got.WriteString("engine:  " + strings.TrimSuffix(line, "\n") + "\n")
		if i < len(program) {
			got.WriteString("program: " + strings.TrimSuffix(program[i], "\n") + "\n")
		}
	}
	want, err := os.ReadFile(filepath.Join(root, "pkg", "extpolicy", "testdata", "worked.transcript"))
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("transcript with easy.py:\n%s\nwant:\n%s", got.String(), want)
	}
}

// --seed reaches the program in its first message.
func TestExecSeed(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.swf")
	if err := os.WriteFile(in, []byte(execTiny), 0o644); err != nil {
		t.Fatal(err)
	}
	// FCFS answers for execTiny: 0 at time 0, 2 at 5, 1 at 10.
	script := `read m; case $m in *seed?:7,*) ;; *) echo "no seed 7 in $m" >&2; exit 9;; esac; ` +
		`echo "{\"protocol\":1}"; read m; echo "{\"start\":[0]}"; read m; echo "{\"start\":[2]}"; read m; echo "{\"start\":[1]}"; read m`
	_, errs, code := runCmd(t, "", "-p", "exec", "--exec", "sh -c '"+script+"'", "--seed", "7", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// TestExecOutputIsNotTheProgram: -o onto the exec program's own script (or
// the program itself) is a usage error before anything runs, and the script
// is left as it was.
func TestExecOutputIsNotTheProgram(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.swf")
	if err := os.WriteFile(trace, []byte(tiny), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "pol.py")
	const text = "print('never run')\n"
	if err := os.WriteFile(script, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCmd(t, "", "-p", "exec", "--exec", "python3 "+script, trace, "-o", script)
	if code != 2 || !strings.Contains(stderr, "would overwrite the input --exec "+script) {
		t.Errorf("exit %d, stderr %q; want 2 naming --exec %s", code, stderr, script)
	}
	if b, _ := os.ReadFile(script); string(b) != text {
		t.Errorf("the script was changed: %q", b)
	}
	prog := filepath.Join(dir, "prog")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCmd(t, "", "-p", "exec", "--exec", prog+" --flag", trace, "-o", prog); code != 2 {
		t.Errorf("-o onto the program: exit %d (%s), want 2", code, stderr)
	}
}

// The Go client's shortcuts (start_head, and quiet_ends, which rests on an
// argument about EASY's shadow time) keep its schedules byte-identical to the
// built-in ones on small random traces, where the corner cases are dense.
func TestExecGoClientRandom(t *testing.T) {
	client := buildGoClient(t)
	rng := rand.New(rand.NewPCG(16, 2))
	dir := t.TempDir()
	for range 25 {
		procs := 1 + rng.Int64N(16)
		trace := simtest.WriteSWF(t, dir, procs, simtest.RandomJobs(rng, 50+rng.IntN(250), procs))
		for _, noKill := range []bool{false, true} {
			sameSchedule(t, "easy", client, trace, noKill)
			sameSchedule(t, "fcfs", client+" -fcfs", trace, noKill)
		}
	}
}

// A program whose timer takes the simulation to the time bound, 2^40 s, and
// then queues a job behind another: the job's wait is past the bound, which
// the error blames on the trace's times or the program's timers, not on the
// trace alone.
func TestExecTimerToTheBound(t *testing.T) {
	const trace = "; MaxProcs: 4\n1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n2 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n"
	program := `read m; echo '{"protocol":1}'; read m; echo '{"start":[],"timer":1099511627776}'; read m; echo '{"start":[0]}'; read m; echo '{"start":[1]}'; read m`
	_, errOut, code := runSwfsim(t, trace, "--no-progress", "-p", "exec", "--exec", "sh -c "+shellQuote(program))
	if code != 1 || !strings.Contains(errOut, "job 2: its simulated wait (field 3), 1099511627876 s, is beyond") || !strings.Contains(errOut, "or the program's timers took the simulation there") {
		t.Errorf("exit %d:\n%s", code, errOut)
	}
}

// shellQuote quotes s as one word of --exec's command line.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// An exec run's header says what the engine does not model in the same
// Notes as a built-in policy's (partitions, preceding jobs, jobs without a
// requested time, jobs cancelled before they started, a job wider than the
// machine in the offered load): its program gets fields 9, 16 and 17, but
// the engine still has one pool and submits every job at its field 2.
func TestExecNotesWhatTheEngineDoesNotModel(t *testing.T) {
	const in = "; MaxProcs: 4\n" +
		"1 0 -1 100 3 -1 -1 3 -1 -1 1 1 1 -1 1 1 -1 -1\n" +
		"2 10 -1 0 2 -1 -1 2 50 -1 5 1 1 -1 1 2 1 5\n" +
		"3 15 -1 10 8 -1 -1 8 10 -1 1 1 1 -1 1 2 -1 -1\n" +
		"4 20 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	trace := filepath.Join(t.TempDir(), "unmodelled.swf")
	if err := os.WriteFile(trace, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	client := buildGoClient(t)
	sameSchedule(t, "easy", client, trace, false)
	out, errs, code := runCmd(t, "", "-p", "exec", "--exec", client, trace)
	for _, want := range []string{
		"simulated jobs are in 2 partitions (field 16)",
		"1 simulated job names a preceding job (field 17",
		"1 of 3 simulated jobs has no requested time",
		"1 simulated job was cancelled before it started",
		"(1 job wider than the machine, not simulated, included)",
	} {
		noted := slices.ContainsFunc(header(out), func(l string) bool {
			return strings.HasPrefix(l, "; Note: swfsim ") && strings.Contains(l, want)
		})
		if code != 0 || !noted {
			t.Errorf("exec: exit %d, no Note %q; stderr %q:\n%s", code, want, errs, out)
		}
	}
}
