package replay

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	augmentcli "github.com/swfkit/swfkit/internal/cli/augment"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/swf"
)

func record(t *testing.T, line string) provenance.Record {
	t.Helper()
	r, err := provenance.Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Defaults are left out, list flags repeat, a switch set to its default is
// dropped and one set against it kept, values are quoted for the shell, and a
// run that read a file is fed by the run before writing that file.
func TestCommands(t *testing.T) {
	v := "version=" + cmdio.Version
	recs := []provenance.Record{
		record(t, "swfclean "+v+` rules=default filter="user=3 and job>2" filter="job<9" set="" lenient=false input="a b.swf"`),
		record(t, "swfaugment "+v+" seed=1 estimate=exact target-load=0.9 input=-"),
		record(t, "swfsim "+v+" policy=easy no-kill=true procs-from=requested seed=1 input=aug.swf"),
	}
	got, warnings, err := Commands(recs, nil, "")
	if err != nil || warnings != nil {
		t.Fatal(err, warnings)
	}
	want := "swfclean '--filter=user=3 and job>2' '--filter=job<9' 'a b.swf' \\\n" +
		"  | swfaugment --estimate=exact --target-load=0.9 -o replay-2-aug.swf\n" +
		"# the next run read aug.swf\n" +
		"swfsim --policy=easy --no-kill replay-2-aug.swf\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	old := []provenance.Record{record(t, "swfsim version=0.0.1 policy=fcfs input=-")}
	if got, _, _ := Commands(old, nil, ""); !strings.HasPrefix(got, "# swfsim 0.0.1 made this run") || !strings.HasSuffix(got, "swfsim --policy=fcfs -\n") {
		t.Errorf("another version's run:\n%s", got)
	}
	// Another build of the same version string (cmdio.BuildVersion stamps
	// the commit; this test binary is unstamped) is flagged the same way.
	build := []provenance.Record{record(t, "swfsim version="+cmdio.Version+"+4338ed0a1b2c-dirty policy=fcfs input=-")}
	if got, _, _ := Commands(build, nil, ""); !strings.HasPrefix(got, "# swfsim "+cmdio.Version+"+4338ed0a1b2c-dirty made this run; this is "+cmdio.Version+",") {
		t.Errorf("another build's run:\n%s", got)
	}
	// A first run that read its standard input: the commands and a warning
	// say to give it the trace (piped into a shell, - would read the script).
	stdin := []provenance.Record{record(t, "swfsim "+v+" policy=fcfs input=-")}
	got, warnings, err = Commands(stdin, nil, "")
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "standard input") ||
		got != "# the next run read its standard input: give it the same trace there, or replace - with the trace's file\nswfsim --policy=fcfs -\n" {
		t.Errorf("a run from standard input: %v %q\n%s", err, warnings, got)
	}
	for _, bad := range [][]provenance.Record{
		nil,
		{record(t, "swfstat "+v+" input=x")},
		{record(t, "swfsim "+v+" no-such-flag=1 input=-")},
		{record(t, "swfsim "+v+" policy=easy")},
		{record(t, "swfsim "+v+" policy=easy policy=fcfs input=-")},
	} {
		if _, _, err := Commands(bad, nil, ""); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// TestCommandsOtherRuns: a run of another program stops the pipeline, which
// writes what that program read, and the next run reads what it was to write;
// a swfstat line is left out; both with warnings. A flag recorded twice is an
// error naming both values.
func TestCommandsOtherRuns(t *testing.T) {
	v := "version=" + cmdio.Version
	recs := []provenance.Record{
		record(t, "swfclean "+v+" rules=none input=raw.swf"),
		record(t, "mytool version=1 scale=2 input=-"),
		record(t, "swfstat "+v+" input=x"),
		record(t, "swfsim "+v+" policy=fcfs input=-"),
	}
	got, warnings, err := Commands(recs, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	want := "swfclean --rules=none raw.swf -o replay-1-in\n" +
		"# not replayed, another program's run: mytool version=1 scale=2 input=-\n" +
		"# run it on replay-1-in, writing replay-1-out\n" +
		"swfsim --policy=fcfs replay-1-out\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], "line 2: mytool is not a swfkit tool") ||
		!strings.Contains(warnings[1], "line 3: swfstat writes no trace") {
		t.Errorf("warnings %q", warnings)
	}
	// Another program's run first and last.
	got, _, err = Commands([]provenance.Record{record(t, "mytool a=1 input=-"), record(t, "swfsim "+v+" policy=fcfs input=-"),
		record(t, "other b=2 input=-")}, nil, "")
	want = "# not replayed, another program's run: mytool a=1 input=-\n" +
		"# run it on its input, writing replay-0-out\n" +
		"swfsim --policy=fcfs replay-0-out -o replay-2-in\n" +
		"# not replayed, another program's run: other b=2 input=-\n" +
		"# run it on replay-2-in, writing replay-2-out\n"
	if err != nil || got != want {
		t.Errorf("got %v\n%s\nwant\n%s", err, got, want)
	}
	_, _, err = Commands([]provenance.Record{record(t, "swfsim "+v+" seed=3 seed=5 input=-")}, nil, "")
	if err == nil || !strings.Contains(err.Error(), "--seed recorded twice (3 and 5)") {
		t.Errorf("a flag twice: %v", err)
	}
}

// TestCommandsGivenAtDefault: a flag whose being given matters is replayed
// also at its default value, so that the replayed run makes the same
// records: a study's baseline point --error-quant 0 (the replay refused
// --error-category without it) and --error-percent 0 (required with
// --error-qual).
func TestCommandsGivenAtDefault(t *testing.T) {
	const trace = "../augment/testdata/small.swf"
	for _, args := range [][]string{
		{"--error-quant", "0", "--error-category", "3", "--seed", "2"},
		{"--error-qual", "s2l", "--error-percent", "0", "--seed", "2"},
		{"--error-quant", "20", "--error-category", "3"},
		{"--estimate", "uniform:1,3"},
	} {
		made := runAugment(t, append(args, trace))
		hdr, err := swf.NewReader(strings.NewReader(made)).Header()
		if err != nil {
			t.Fatal(err)
		}
		recs, err := provenance.FromHeader(hdr)
		if err != nil || len(recs) != 1 {
			t.Fatalf("%v: %d Provenance lines, %v", args, len(recs), err)
		}
		cmds, _, err := Commands(recs, nil, "")
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		words := strings.Fields(strings.TrimSpace(cmds)) // no word here needs shell quotes
		if again := runAugment(t, words[1:]); again != made {
			t.Errorf("%v: replayed as %q, another file:\n%s\nwant\n%s", args, cmds, again, made)
		}
	}
}

// TestCommandsTinyFloat: a tiny float option is recorded in exponent form
// (rt-lower-bound=1e-09, not 0.000000001), and the replay gives it back so
// that the run makes the same file.
func TestCommandsTinyFloat(t *testing.T) {
	made := runAugment(t, []string{"--bounds", "--rt-lower-bound", "1e-9", "../augment/testdata/small.swf"})
	hdr, err := swf.NewReader(strings.NewReader(made)).Header()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := provenance.FromHeader(hdr)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d Provenance lines, %v", len(recs), err)
	}
	if v, _ := recs[0].Get("rt-lower-bound"); v != "1e-09" {
		t.Errorf("rt-lower-bound=%s, want 1e-09", v)
	}
	cmds, _, err := Commands(recs, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Fields(strings.TrimSpace(cmds))
	if !slices.Contains(words, "--rt-lower-bound=1e-09") {
		t.Errorf("replayed as %q, want --rt-lower-bound=1e-09", cmds)
	}
	if again := runAugment(t, words[1:]); again != made {
		t.Errorf("replayed as %q, another file:\n%s\nwant\n%s", cmds, again, made)
	}
}

func runAugment(t *testing.T, args []string) string {
	t.Helper()
	var out, errs strings.Builder
	if code := augmentcli.Run(append([]string{"swfaugment"}, args...), strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("swfaugment %v: exit %d: %s", args, code, errs.String())
	}
	return out.String()
}

// TestCommandsNoLineBreakInComments: the commands are run (| sh), so a
// value of an edited or crafted header that holds a line break must not end
// a comment and become a command of its own.
func TestCommandsNoLineBreakInComments(t *testing.T) {
	v := "version=" + cmdio.Version
	recs := []provenance.Record{
		record(t, "swfclean "+v+` rules=none input=raw.swf`),
		record(t, `swfsim version="9\ntouch pwned-version" policy=fcfs input="mid\ntouch pwned-input"`),
	}
	got, _, err := Commands(recs, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if strings.HasPrefix(line, "touch") {
			t.Errorf("a header value became a command:\n%s", got)
		}
	}
	if c := Comment("runs/a\nb.swf"); c != "# \"runs/a\\nb.swf\"\n" {
		t.Errorf("Comment: %q", c)
	}
}

// TestCommandsCheckInput: a first run that read a file is checked against
// its recorded hash: another hash is a comment and a warning naming both, a
// file that cannot be read a comment, the same hash nothing; a run from
// standard input names the hash in its comment; a line without the field is
// not checked; a run that read a file the replay itself makes is not checked.
func TestCommandsCheckInput(t *testing.T) {
	v := "version=" + cmdio.Version
	same, other := strings.Repeat("a", 64), strings.Repeat("b", 64)
	files := map[string]string{"t.swf": same, "changed.swf": other}
	var asked []string
	hash := func(path string) (string, error) {
		asked = append(asked, path)
		if s, ok := files[path]; ok {
			return s, nil
		}
		return "", errors.New("open " + path + ": no such file or directory")
	}
	run := func(line string) (string, []string) {
		t.Helper()
		got, warnings, err := Commands([]provenance.Record{record(t, line)}, hash, "")
		if err != nil {
			t.Fatal(err)
		}
		return got, warnings
	}
	if got, w := run("swfsim " + v + " policy=fcfs input=t.swf input-sha256=" + same); got != "swfsim --policy=fcfs t.swf\n" || w != nil {
		t.Errorf("the same file: %q %q", got, w)
	}
	got, w := run("swfsim " + v + " policy=fcfs input=changed.swf input-sha256=" + same)
	want := "# the file at changed.swf is not the one the run read: its bytes (decompressed) have sha256 " + other + ", the run read " + same + "\n"
	if got != want+"swfsim --policy=fcfs changed.swf\n" || len(w) != 1 || "# "+w[0]+"\n" != want {
		t.Errorf("a changed file:\n%s%q", got, w)
	}
	got, w = run("swfsim " + v + " policy=fcfs input=gone.swf input-sha256=" + same)
	if !strings.HasPrefix(got, "# gone.swf cannot be read here") || !strings.Contains(got, "no such file") ||
		!strings.Contains(got, same) || w != nil {
		t.Errorf("a file that cannot be read:\n%s%q", got, w)
	}
	got, _ = run("swfsim " + v + " policy=fcfs input=- input-sha256=" + same)
	if !strings.HasPrefix(got, "# the next run read its standard input") || !strings.Contains(got, "sha256 "+same) {
		t.Errorf("standard input:\n%s", got)
	}
	asked = nil
	if got, w := run("swfsim " + v + " policy=fcfs input=changed.swf"); got != "swfsim --policy=fcfs changed.swf\n" || w != nil || asked != nil {
		t.Errorf("a line without the hash: %q %q, hashed %v", got, w, asked)
	}
	// Only the first run's file is read by the commands; the second run's
	// is one the commands make (replay-1-changed.swf).
	asked = nil
	_, _, err := Commands([]provenance.Record{
		record(t, "swfclean "+v+" rules=none input=t.swf input-sha256="+same),
		record(t, "swfsim "+v+" policy=fcfs input=changed.swf input-sha256="+same),
	}, hash, "")
	if err != nil || len(asked) != 1 || asked[0] != "t.swf" {
		t.Errorf("hashed %v (%v), want only t.swf", asked, err)
	}
	if _, _, err := Commands([]provenance.Record{record(t, "swfsim "+v+" policy=fcfs input=t.swf input-sha256="+same+" input-sha256="+same)}, hash, ""); err == nil {
		t.Error("two input-sha256 fields: no error")
	}
}

// The files an exec run's command named (exec-file-sha256=HASH:PATH) are
// hashed as they are and checked when the commands check inputs: the same
// file says nothing, another one a comment and a warning, a missing one a
// comment; the field never becomes a flag of the command.
func TestCommandsCheckExecFiles(t *testing.T) {
	v := "version=" + cmdio.Version
	dir := t.TempDir()
	script := filepath.Join(dir, "pol.py")
	if err := os.WriteFile(script, []byte("print('hello')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := cmdio.RawFileSHA256(script)
	if err != nil {
		t.Fatal(err)
	}
	line := "swfsim " + v + ` policy=exec exec="python3 ` + script + `" exec-file-sha256="` + sum + ":" + script + `" input=-`
	noInput := func(string) (string, error) { return "", errors.New("not asked") }
	got, w, err := Commands([]provenance.Record{record(t, line)}, noInput, "")
	if err != nil || strings.Contains(got, script+" is not") || strings.Contains(got, "exec-file") || len(w) != 1 {
		t.Errorf("the same script: %v\n%s%q", err, got, w) // the one warning: stdin
	}
	if err := os.WriteFile(script, []byte("print('changed')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, w, err = Commands([]provenance.Record{record(t, line)}, noInput, "")
	if err != nil || !strings.Contains(got, "# the file at "+script+" is not the one the run's --exec command used") ||
		!strings.Contains(got, "the run's had "+sum) || len(w) != 2 || !strings.Contains(w[0], script) {
		t.Errorf("a changed script: %v\n%s%q", err, got, w)
	}
	if got, _, _ := Commands([]provenance.Record{record(t, line)}, nil, ""); strings.Contains(got, "#") && strings.Contains(got, script+" is not") {
		t.Errorf("checked without a hasher:\n%s", got)
	}
	os.Remove(script)
	got, w, err = Commands([]provenance.Record{record(t, line)}, noInput, "")
	if err != nil || !strings.Contains(got, "# "+script+", which the run's --exec command named, cannot be read here") || len(w) != 1 {
		t.Errorf("a missing script: %v\n%s%q", err, got, w)
	}
	bad := "swfsim " + v + ` policy=exec exec=x exec-file-sha256=nohash input=-`
	if _, _, err := Commands([]provenance.Record{record(t, bad)}, noInput, ""); err == nil || !strings.Contains(err.Error(), "want HASH:PATH") {
		t.Errorf("a field without its path: %v", err)
	}
}

// A first run's input recorded as a relative path that is not in the
// current directory is looked for from the replayed file's directory up,
// and taken only with the recorded hash: found beside a study's runs
// folder, the command names it as reachable from here; a file of that name
// with other bytes on the way is passed over; with no match, or an
// absolute path, or no replayed file, nothing is looked for.
func TestCommandsFindInput(t *testing.T) {
	v := "version=" + cmdio.Version
	root := t.TempDir()
	study := filepath.Join(root, "study")
	text := "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"
	writeTree(t, root, map[string]string{
		"study/trace.swf":      text,
		"study/runs/trace.swf": text + "2 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n", // same name, other bytes
		"study/runs/out.swf":   "",
		"elsewhere/.keep":      "",
	})
	sum, err := cmdio.FileSHA256(filepath.Join(study, "trace.swf"))
	if err != nil {
		t.Fatal(err)
	}
	line := "swfsim " + v + " policy=fcfs input=trace.swf input-sha256=" + sum
	run := func(dir, near, line string) (string, []string) {
		t.Helper()
		t.Chdir(dir)
		got, w, err := Commands([]provenance.Record{record(t, line)}, cmdio.FileSHA256, near)
		if err != nil {
			t.Fatal(err)
		}
		return got, w
	}

	// From elsewhere: study/runs/trace.swf has other bytes, study/trace.swf
	// is the one.
	got, w := run(filepath.Join(root, "elsewhere"), "../study/runs/out.swf", line)
	want := "# trace.swf, the run's input, is not in the current directory; ../study/trace.swf (looked for from the directory of " +
		"../study/runs/out.swf up) has the bytes the run read, of sha256 " + sum + " decompressed: the command reads it\n" +
		"swfsim --policy=fcfs ../study/trace.swf\n"
	if got != want || w != nil {
		t.Errorf("from elsewhere:\n%s%q\nwant\n%s", got, w, want)
	}
	// From the study's folder the recorded path is the file: nothing said.
	if got, w := run(study, "runs/out.swf", line); got != "swfsim --policy=fcfs trace.swf\n" || w != nil {
		t.Errorf("from the study: %q %q", got, w)
	}
	// From the runs folder, the file there is not the one: said, not
	// looked for elsewhere (the recorded path names a file here).
	if got, w := run(filepath.Join(study, "runs"), "out.swf", line); !strings.HasPrefix(got, "# the file at trace.swf is not the one the run read") || len(w) != 1 {
		t.Errorf("a changed file at the recorded path: %q %q", got, w)
	}
	// No file with the hash anywhere up: as before, cannot be read.
	other := "swfsim " + v + " policy=fcfs input=trace.swf input-sha256=" + strings.Repeat("c", 64)
	if got, _ := run(filepath.Join(root, "elsewhere"), "../study/runs/out.swf", other); !strings.HasPrefix(got, "# trace.swf cannot be read here") ||
		!strings.HasSuffix(got, "swfsim --policy=fcfs trace.swf\n") {
		t.Errorf("no match: %q", got)
	}
	// No replayed file (standard input) or an absolute path: not looked for.
	for _, near := range []string{"", "-"} {
		if got, _ := run(filepath.Join(root, "elsewhere"), near, line); !strings.HasPrefix(got, "# trace.swf cannot be read here") {
			t.Errorf("near %q: %q", near, got)
		}
	}
	abs := "swfsim " + v + " policy=fcfs input=" + filepath.Join(root, "gone", "trace.swf") + " input-sha256=" + sum
	if got, _ := run(filepath.Join(study, "runs"), "out.swf", abs); !strings.Contains(got, "cannot be read here") {
		t.Errorf("an absolute path: %q", got)
	}
}

// A file an exec run's command named by a relative path that is not in the
// current directory is looked for from the replayed file's directory up, by
// its bytes as they are, and the command's --exec names the file found; a
// file of that name with other bytes is passed over, and from the study's
// folder nothing changes.
func TestCommandsFindExecFile(t *testing.T) {
	v := "version=" + cmdio.Version
	root := t.TempDir()
	study := filepath.Join(root, "study")
	writeTree(t, root, map[string]string{
		"study/pol.py":       "print('the policy')\n",
		"study/bin/run":      "#!/bin/sh\n",
		"study/runs/pol.py":  "print('another policy')\n", // same name, other bytes
		"study/runs/out.swf": "",
		"elsewhere/.keep":    "",
	})
	hash := func(name string) string {
		t.Helper()
		sum, err := cmdio.RawFileSHA256(filepath.Join(study, name))
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	pol, run := hash("pol.py"), hash("bin/run")
	line := "swfsim " + v + ` policy=exec exec="bin/run python3 'pol.py'" exec-file-sha256="` + run + `:bin/run" exec-file-sha256="` +
		pol + `:pol.py" input=-`
	commands := func(dir, near string) string {
		t.Helper()
		t.Chdir(dir)
		got, _, err := Commands([]provenance.Record{record(t, line)}, cmdio.FileSHA256, near)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	got := commands(filepath.Join(root, "elsewhere"), "../study/runs/out.swf")
	for _, want := range []string{
		"# bin/run, which the run's --exec command named, is not in the current directory; ../study/bin/run (looked for from the directory of ../study/runs/out.swf up) has the bytes the run's had, of sha256 " + run + ": the command names it\n",
		"# pol.py, which the run's --exec command named, is not in the current directory; ../study/pol.py (looked for from the directory of ../study/runs/out.swf up) has the bytes the run's had, of sha256 " + pol + ": the command names it\n",
		"swfsim --policy=exec '--exec=../study/bin/run python3 ../study/pol.py' -\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("from elsewhere, missing\n%s in\n%s", want, got)
		}
	}
	// From the study's folder the recorded paths are the files.
	if got := commands(study, "runs/out.swf"); strings.Contains(got, "is not in the current directory") ||
		!strings.Contains(got, "swfsim --policy=exec '--exec=bin/run python3 '\\''pol.py'\\''' -\n") {
		t.Errorf("from the study:\n%s", got)
	}
	// From the runs folder, pol.py there has other bytes: said, not looked
	// for elsewhere; bin/run is found in the study.
	got = commands(filepath.Join(study, "runs"), "out.swf")
	if !strings.Contains(got, "# the file at pol.py is not the one the run's --exec command used") ||
		!strings.Contains(got, "python3 pol.py") || !strings.Contains(got, "'--exec=../bin/run python3") {
		t.Errorf("from the runs folder:\n%s", got)
	}
	// Nothing replayed from a file: not looked for.
	if got := commands(filepath.Join(root, "elsewhere"), ""); !strings.Contains(got, "# pol.py, which the run's --exec command named, cannot be read here") {
		t.Errorf("without the replayed file's path:\n%s", got)
	}
}

// A --checkpoint-from file (side-input-sha256) recorded as a relative path
// that is not in the current directory is looked for from the replayed
// file's directory up, as the trace is, by its bytes decompressed, and the
// command's --checkpoint-from names the file found; a file of that name
// with other bytes on the way is passed over; from the study's folder
// nothing changes.
func TestCommandsFindSideInput(t *testing.T) {
	v := "version=" + cmdio.Version
	root := t.TempDir()
	study := filepath.Join(root, "study")
	writeTree(t, root, map[string]string{
		"study/ans.txt":      "2 600\n",
		"study/runs/ans.txt": "2 1800\n", // same name, other bytes
		"study/runs/out.swf": "",
		"elsewhere/.keep":    "",
	})
	sum, err := cmdio.FileSHA256(filepath.Join(study, "ans.txt"))
	if err != nil {
		t.Fatal(err)
	}
	line := "swfaugment " + v + " checkpoint-from=ans.txt side-input-sha256=checkpoint-from:" + sum + " input=-"
	run := func(dir, near string) (string, []string) {
		t.Helper()
		t.Chdir(dir)
		got, w, err := Commands([]provenance.Record{record(t, line)}, cmdio.FileSHA256, near)
		if err != nil {
			t.Fatal(err)
		}
		return got, w
	}
	found := "# ans.txt, the run's --checkpoint-from file, is not in the current directory; ../study/ans.txt (looked for from the directory of " +
		"../study/runs/out.swf up) has the bytes the run read, of sha256 " + sum + " decompressed: the command reads it\n"
	got, w := run(filepath.Join(root, "elsewhere"), "../study/runs/out.swf")
	if !strings.HasPrefix(got, found) || !strings.HasSuffix(got, "swfaugment --checkpoint-from=../study/ans.txt -\n") ||
		len(w) != 1 || !strings.Contains(w[0], "standard input") {
		t.Errorf("from elsewhere:\n%s%q", got, w)
	}
	// From the study's folder the recorded path is the file.
	if got, _ := run(study, "runs/out.swf"); strings.Contains(got, "--checkpoint-from file") ||
		!strings.HasSuffix(got, "swfaugment --checkpoint-from=ans.txt -\n") {
		t.Errorf("from the study:\n%s", got)
	}
	// From the runs folder the file there has other bytes: said, not
	// looked for elsewhere.
	if got, _ := run(filepath.Join(study, "runs"), "out.swf"); !strings.Contains(got, "# the file at ans.txt is not the --checkpoint-from file the run read") ||
		!strings.HasSuffix(got, "swfaugment --checkpoint-from=ans.txt -\n") {
		t.Errorf("from the runs folder:\n%s", got)
	}
	// Nothing replayed from a file: not looked for.
	if got, _ := run(filepath.Join(root, "elsewhere"), ""); !strings.Contains(got, "# ans.txt, the run's --checkpoint-from file, cannot be read here") {
		t.Errorf("without the replayed file's path:\n%s", got)
	}
}

// writeTree writes files (path relative to root: contents) below root,
// making their folders.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCommandsFileNames: the commands run as written. A file the commands
// write between two runs is named after the run's input, but a compression
// the tools cannot write (xz aug.swf after the run) becomes .zst, which they
// can; an input whose path starts with '-' is not read as a flag.
func TestCommandsFileNames(t *testing.T) {
	v := "version=" + cmdio.Version
	for _, tc := range []struct {
		name string
		recs []string
		want string
	}{
		{"xz intermediate", []string{"swfaugment " + v + " load=1.5 input=small.swf", "swfsim " + v + " policy=easy input=aug.swf.xz"},
			"swfaugment --load=1.5 small.swf -o replay-1-aug.swf.zst\n# the next run read aug.swf.xz\nswfsim --policy=easy replay-1-aug.swf.zst\n"},
		{"bz2 intermediate, upper case", []string{"swfaugment " + v + " load=1.5 input=small.swf", "swfsim " + v + " policy=easy input=dir/AUG.SWF.BZ2"},
			"swfaugment --load=1.5 small.swf -o replay-1-AUG.SWF.zst\n# the next run read dir/AUG.SWF.BZ2\nswfsim --policy=easy replay-1-AUG.SWF.zst\n"},
		{"gz intermediate kept", []string{"swfaugment " + v + " load=1.5 input=small.swf", "swfsim " + v + " policy=easy input=aug.swf.gz"},
			"swfaugment --load=1.5 small.swf -o replay-1-aug.swf.gz\n# the next run read aug.swf.gz\nswfsim --policy=easy replay-1-aug.swf.gz\n"},
		{"dash input", []string{"swfaugment " + v + " load=2 input=-dash.swf"}, "swfaugment --load=2 ./-dash.swf\n"},
		{"dash input quoted", []string{"swfaugment " + v + ` load=2 input="--a b.swf"`}, "swfaugment --load=2 './--a b.swf'\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var recs []provenance.Record
			for _, line := range tc.recs {
				recs = append(recs, record(t, line))
			}
			got, _, err := Commands(recs, nil, "")
			if err != nil || got != tc.want {
				t.Errorf("got %v\n%s\nwant\n%s", err, got, tc.want)
			}
		})
	}
}

// A file a run read besides its trace (swfaugment's --checkpoint-from,
// side-input-sha256=FLAG:HASH) is hashed and checked as the trace is: the
// answers change the records as much.
func TestCommandsCheckSideInputs(t *testing.T) {
	v := "version=" + cmdio.Version
	same, other := strings.Repeat("a", 64), strings.Repeat("b", 64)
	files := map[string]string{"t.swf": same, "ans.txt": same, "changed.txt": other}
	hash := func(path string) (string, error) {
		if s, ok := files[path]; ok {
			return s, nil
		}
		return "", errors.New("open " + path + ": no such file or directory")
	}
	run := func(answers string) (string, []string) {
		t.Helper()
		line := "swfaugment " + v + " checkpoint-from=" + answers + " side-input-sha256=checkpoint-from:" + same + " input=t.swf input-sha256=" + same
		got, warnings, err := Commands([]provenance.Record{record(t, line)}, hash, "")
		if err != nil {
			t.Fatal(err)
		}
		return got, warnings
	}
	if got, w := run("ans.txt"); got != "swfaugment --checkpoint-from=ans.txt t.swf\n" || w != nil {
		t.Errorf("the same answers: %q %q", got, w)
	}
	got, w := run("changed.txt")
	want := "# the file at changed.txt is not the --checkpoint-from file the run read: its bytes (decompressed) have sha256 " + other + ", the run read " + same + "\n"
	if got != want+"swfaugment --checkpoint-from=changed.txt t.swf\n" || len(w) != 1 || "# "+w[0]+"\n" != want {
		t.Errorf("changed answers:\n%s%q", got, w)
	}
	if got, w := run("gone.txt"); !strings.HasPrefix(got, "# gone.txt, the run's --checkpoint-from file, cannot be read here") || w != nil {
		t.Errorf("missing answers:\n%s%q", got, w)
	}
	if got, w := run("-"); !strings.HasPrefix(got, "# the next run read its --checkpoint-from file from its standard input") || len(w) != 1 {
		t.Errorf("answers from standard input:\n%s%q", got, w)
	}
	if _, _, err := Commands([]provenance.Record{record(t, "swfaugment "+v+" side-input-sha256=checkpoint-from:"+same+" input=t.swf")}, hash, ""); err == nil {
		t.Error("a side-input-sha256 before its flag's field: no error")
	}
}
