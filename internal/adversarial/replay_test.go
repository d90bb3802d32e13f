//go:build unix

package adversarial

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shell runs script with bash in dir, the commands first in PATH, and
// returns its standard output; a failure fails the test with its stderr.
func shell(t *testing.T, dir, script string) string {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash -c %q: %v: %s", script, err, clip(stderr.String()))
	}
	return string(out)
}

// records is a trace's lines other than its header and comments.
func records(trace string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(trace, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), ";") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// TestReplayCommentsOnLinesOfTheirOwn: the # comment --replay writes about
// a run's side file (--checkpoint-from answers, an --exec program) whose
// hash differs or that cannot be read is a line of its own before the
// command, also for a run piped into another (before the whole pipeline,
// naming the run) or fed by a file the commands write: the scripts parse,
// and run, remake the records. The side files are edited so that their
// hash changes and their meaning does not (a comment line added).
func TestReplayCommentsOnLinesOfTheirOwn(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "t.swf", small(t), 0o644)
	write(t, dir, "ans.txt", []byte("1 600\n2 60\n"), 0o644)
	shell(t, dir, "swfclean -q t.swf -o n.swf")
	cases := []struct {
		name, made, out string
		edit            string // the side file given a comment line
		gone            bool   // moved away while the script is made
		want            string // a comment line the script must hold
	}{
		{name: "piped, changed answers", made: "swfclean -q n.swf | swfaugment --checkpoint-from ans.txt | swfsim -p easy --no-progress -o out.swf",
			out: "out.swf", edit: "ans.txt", want: "# run 2 of the pipeline below (swfaugment): the file at ans.txt is not the --checkpoint-from file the run read"},
		{name: "piped, missing answers", made: "swfclean -q n.swf | swfaugment --checkpoint-from ans.txt | swfsim -p easy --no-progress -o out.swf",
			out: "out.swf", edit: "ans.txt", gone: true, want: "# run 2 of the pipeline below (swfaugment): ans.txt, the run's --checkpoint-from file, cannot be read here"},
		{name: "no pipe, changed answers", made: "swfaugment --checkpoint-from ans.txt n.swf -o ck.swf",
			out: "ck.swf", edit: "ans.txt", want: "# the file at ans.txt is not the --checkpoint-from file the run read"},
	}
	if _, err := exec.LookPath("python3"); err == nil {
		policy := read(t, filepath.Join("..", "..", "examples", "policies", "easy.py"))
		write(t, dir, "pol.py", policy, 0o644)
		cases = append(cases, struct {
			name, made, out string
			edit            string
			gone            bool
			want            string
		}{name: "piped, changed exec file", made: `swfclean -q n.swf | swfsim -p exec --exec "python3 pol.py" --no-progress -o ex.swf`,
			out: "ex.swf", edit: "pol.py", want: "# run 2 of the pipeline below (swfsim): the file at pol.py is not the one the run's --exec command used"})
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			side := filepath.Join(dir, tt.edit)
			kept := read(t, side)
			defer os.WriteFile(side, kept, 0o644)
			shell(t, dir, tt.made)
			write(t, dir, tt.edit, append(kept[:len(kept):len(kept)], "# edited\n"...), 0o644)
			if tt.gone {
				if err := os.Rename(side, side+".away"); err != nil {
					t.Fatal(err)
				}
			}
			script := shell(t, dir, "swfstat --replay "+tt.out+" 2>/dev/null")
			if tt.gone {
				if err := os.Rename(side+".away", side); err != nil {
					t.Fatal(err)
				}
			}
			if !strings.Contains(script, "\n"+tt.want) {
				t.Errorf("the script lacks a line %q:\n%s", tt.want, script)
			}
			for _, line := range strings.Split(script, "\n") {
				if i := strings.Index(line, "#"); i > 0 && !strings.Contains(line[:i], "'") {
					t.Errorf("a comment after a command: %q", line)
				}
			}
			path := write(t, dir, "replay.sh", []byte(script), 0o644)
			if out, err := exec.Command("bash", "-n", path).CombinedOutput(); err != nil {
				t.Fatalf("bash -n: %v: %s\n%s", err, out, script)
			}
			got := shell(t, dir, "bash replay.sh 2>/dev/null")
			if want := records(string(read(t, filepath.Join(dir, tt.out)))); records(got) != want || want == "" {
				t.Errorf("the script made other records:\n%s\nwant\n%s\nscript:\n%s", records(got), want, script)
			}
		})
	}
}
