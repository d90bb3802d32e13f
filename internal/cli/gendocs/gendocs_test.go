package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	augmentcli "github.com/swfkit/swfkit/internal/cli/augment"
	cleancli "github.com/swfkit/swfkit/internal/cli/clean"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	statcli "github.com/swfkit/swfkit/internal/cli/stat"
	"github.com/swfkit/swfkit/internal/testutil"
)

var runs = map[string]func([]string, *bytes.Buffer, *bytes.Buffer) int{
	"swfclean":   func(a []string, o, e *bytes.Buffer) int { return cleancli.Run(a, nil, o, e) },
	"swfaugment": func(a []string, o, e *bytes.Buffer) int { return augmentcli.Run(a, nil, o, e) },
	"swfsim":     func(a []string, o, e *bytes.Buffer) int { return simcli.Run(a, nil, o, e) },
	"swfstat":    func(a []string, o, e *bytes.Buffer) int { return statcli.Run(a, nil, o, e) },
}

var (
	placeholder   = regexp.MustCompile(`^[A-Z][A-Z0-9_]*([:,x.=][A-Z0-9_.]*)*$|^WxH$`)
	statedDefault = regexp.MustCompile(`(?i)\(default[: ]|default: `)
	// A share or fraction states its range: 0..1, (0..1], 1-11, 36-1200.
	bounded = regexp.MustCompile(`\b(SHARE|FRACTION|PCT)\b`)
	ranged  = regexp.MustCompile(`[(\[]?\d+(\.\d+)?\s*(\.\.|-)\s*\d+(\.\d+)?[)\]]?`)
)

// TestFlagsExplainThemselves is the check over every flag of every tool:
// a value has a meaningful placeholder, a default is stated once and only
// where there is one, a bounded value states its range. A flag added later
// with a bad placeholder fails here.
func TestFlagsExplainThemselves(t *testing.T) {
	for _, app := range apps() {
		for _, f := range cmdio.Flags(app) {
			name := app.Name + " --" + f.Name
			line := cmdio.FlagLine(f)
			if f.Usage == "" {
				t.Errorf("%s: no usage text", name)
			}
			if f.Placeholder != "" && !placeholder.MatchString(f.Placeholder) {
				t.Errorf("%s: placeholder %q; write the value's kind in backquotes in Usage, e.g. `N` or `FILE`", name, f.Placeholder)
			}
			if n := len(statedDefault.FindAllString(line, -1)); n > 1 {
				t.Errorf("%s states its default %d times: %q", name, n, line)
			}
			if f.Placeholder == "" && statedDefault.MatchString(line) {
				t.Errorf("%s: a switch with a default: %q", name, line)
			}
			for _, bad := range []string{"(default: 0)", "(default: false)", "(default: true)", `(default: "")`} {
				if strings.Contains(line, bad) {
					t.Errorf("%s: %q", name, line)
				}
			}
			if bounded.MatchString(f.Placeholder) && !ranged.MatchString(f.Usage) {
				t.Errorf("%s: a %s without its range: %q", name, f.Placeholder, f.Usage)
			}
		}
	}
}

// TestHelp runs every tool's --help: a description, examples, OPTIONS (not
// urfave/cli's GLOBAL OPTIONS, there are no subcommands), the docs page.
func TestHelp(t *testing.T) {
	root := testutil.RepoRoot(t)
	for _, app := range apps() {
		var out, errb bytes.Buffer
		if code := runs[app.Name]([]string{app.Name, "--help"}, &out, &errb); code != 0 {
			t.Fatalf("%s --help: exit %d: %s", app.Name, code, errb.String())
		}
		help := out.String()
		if help != cmdio.HelpText(app) {
			t.Errorf("%s --help is not cmdio.HelpText", app.Name)
		}
		for _, want := range []string{"\nDESCRIPTION\n", "\nEXAMPLES\n", "\nOPTIONS\n", "\nDOCUMENTATION\n"} {
			if !strings.Contains(help, want) {
				t.Errorf("%s --help lacks %s", app.Name, strings.TrimSpace(want))
			}
		}
		if strings.Contains(help, "GLOBAL OPTIONS") || regexp.MustCompile(`-[a-z0-9-]+ value\b`).MatchString(help) {
			t.Errorf("%s --help says GLOBAL OPTIONS or shows a placeholder `value`", app.Name)
		}
		docs := cmdio.HelpOf(app).Docs
		if _, err := os.Stat(filepath.Join(root, docs)); docs == "" || err != nil || !strings.Contains(help, docs) {
			t.Errorf("%s --help points to %q, which is not a file of the repository", app.Name, docs)
		}
		if len(cmdio.HelpOf(app).Examples) < 3 {
			t.Errorf("%s: fewer than 3 examples", app.Name)
		}
	}
}

// TestExamplesUseRealFlags: every option an example passes to a swfkit tool
// is one of that tool's flags, so a renamed flag cannot leave a stale example.
func TestExamplesUseRealFlags(t *testing.T) {
	flagsOf := map[string]map[string]bool{}
	for _, app := range apps() {
		flagsOf[app.Name] = map[string]bool{}
		for _, f := range cmdio.Flags(app) {
			for _, n := range f.Names() {
				flagsOf[app.Name][n] = true
			}
		}
	}
	for _, app := range apps() {
		for _, e := range cmdio.HelpOf(app).Examples {
			for _, segment := range regexp.MustCompile(`\||&&|;`).Split(e.Command, -1) {
				words := strings.Fields(segment)
				if len(words) == 0 {
					continue
				}
				known, ok := flagsOf[filepath.Base(words[0])]
				if !ok {
					continue
				}
				for _, w := range words[1:] {
					if w == ">" || w == "<" {
						break
					}
					if len(w) > 1 && w[0] == '-' {
						name, _, _ := strings.Cut(w, "=")
						if !known[name] {
							t.Errorf("%s example %q: %s has no flag %s", app.Name, e.Command, words[0], name)
						}
					}
				}
			}
		}
	}
}

// TestGeneratedFiles: the man pages and completion scripts name every option.
func TestGeneratedFiles(t *testing.T) {
	dir := t.TempDir()
	if err := write(filepath.Join(dir, "man"), filepath.Join(dir, "completion")); err != nil {
		t.Fatal(err)
	}
	for _, app := range apps() {
		read := func(parts ...string) string {
			data, err := os.ReadFile(filepath.Join(append([]string{dir}, parts...)...))
			if err != nil {
				t.Fatal(err)
			}
			return string(data)
		}
		man := read("man", app.Name+".1")
		bash := read("completion", "bash", app.Name)
		zsh := read("completion", "zsh", "_"+app.Name)
		fish := read("completion", "fish", app.Name+".fish")
		for _, want := range []string{".TH " + strings.ToUpper(app.Name) + " 1", ".SH EXAMPLES", ".SH OPTIONS", `\fBswfstat\fR(1)`} {
			if app.Name != "swfstat" || want != `\fBswfstat\fR(1)` {
				if !strings.Contains(man, want) {
					t.Errorf("%s.1 lacks %q", app.Name, want)
				}
			}
		}
		if strings.Contains(man, "GLOBAL OPTIONS") {
			t.Errorf("%s.1 says GLOBAL OPTIONS", app.Name)
		}
		for _, f := range cmdio.Flags(app) {
			long := "--" + f.Name
			if !strings.Contains(man, `\fB\-\-`+strings.ReplaceAll(f.Name, "-", `\-`)+`\fR`) {
				t.Errorf("%s.1 lacks %s", app.Name, long)
			}
			if !strings.Contains(bash, long) || !strings.Contains(zsh, long) || !strings.Contains(fish, "-l "+f.Name+" ") {
				t.Errorf("%s: a completion script lacks %s", app.Name, long)
			}
		}
		// Flags whose values are a fixed list complete them.
		choices := map[string]string{
			"swfclean": `--from) _swfclean_choices "$cur" "swf sacct alea"`,
			"swfstat":  `--plot-kind) _swfstat_choices "$cur" "wait-cdf bsld-cdf utilization queue-length category gantt sweep"`,
		}
		if want, ok := choices[app.Name]; ok && !strings.Contains(bash, want) {
			t.Errorf("%s: the bash completion lacks %s", app.Name, want)
		}
		if !strings.Contains(bash, "complete -o filenames -F _"+app.Name+" "+app.Name) || !strings.HasPrefix(zsh, "#compdef "+app.Name) {
			t.Errorf("%s: completion scripts do not register themselves", app.Name)
		}
	}
}

// TestBashCompletion runs the generated bash completion the way bash calls
// it: --flag=value arrives as three words split at the '=', a file name
// with a space is one completion, and a list's next choice completes after
// its last comma, leaving out the choices the list already has.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	dir := t.TempDir()
	if err := write("", filepath.Join(dir, "completion")); err != nil {
		t.Fatal(err)
	}
	files := filepath.Join(dir, "files")
	if err := os.MkdirAll(files, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"my trace.swf", "other.swf"} {
		if err := os.WriteFile(filepath.Join(files, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		words []string // as bash splits the line; the last is the word being completed
		want  string   // the completions, one a line
	}{
		{[]string{"swfsim", "--policy", "ga"}, "ga\nga-ckpt"},
		{[]string{"swfsim", "--policy", "=", "ga"}, "ga\nga-ckpt"},
		{[]string{"swfstat", "--format", "="}, "table\ncsv\njson"},
		{[]string{"swfstat", "--plot", "my"}, "my trace.swf"},
		{[]string{"swfstat", "--html", "=", "my"}, "my trace.swf"},
		{[]string{"swfstat", "my"}, "my trace.swf"},
		{[]string{"swfclean", "--from", "s"}, "swf\nsacct"},
		{[]string{"swfsim", "--predictor", "e"}, "estimate\nexact"},
		{[]string{"swfsim", "--price-window", ""}, "thesis\nwhole-wait"},
		{[]string{"swfclean", "--rules", "default,sort_"}, "default,sort_submit"},
		{[]string{"swfclean", "--rules", "=", "none,re"}, "none,renumber"},
		{[]string{"swfstat", "--by", "category,st"}, "category,status"},
		// A value the list already has is not offered again.
		{[]string{"swfstat", "--by", "category,"}, "category,status\ncategory,short\ncategory,user\ncategory,queue"},
		{[]string{"swfstat", "--by", "=", "category,status,s"}, "category,status,short"},
		{[]string{"swfclean", "--rules", "default,sort_submit,so"}, ""},
		{[]string{"swfclean", "--skip", "flurries,renumber,"}, "flurries,renumber,merge_partial\nflurries,renumber,zero_to_unknown\n" +
			"flurries,renumber,negative_to_unknown\nflurries,renumber,runtime_from_cpu\nflurries,renumber,estimate_from_runtime\n" +
			"flurries,renumber,clamp_too_big\nflurries,renumber,cancelled_unstarted\nflurries,renumber,no_procs\n" +
			"flurries,renumber,too_big\nflurries,renumber,unknown_runtime\nflurries,renumber,unknown_submit\nflurries,renumber,sort_submit\n" +
			"flurries,renumber,shift_time\nflurries,renumber,anonymize"},
	} {
		script := fmt.Sprintf(`source %q; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _%s; printf '%%s\n' "${COMPREPLY[@]}"`,
			filepath.Join(dir, "completion", "bash", c.words[0]), c.words[0])
		cmd := exec.Command(bash, append([]string{"--norc", "--noprofile", "-c", script, "bash"}, c.words...)...)
		cmd.Dir = files
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v: %s", c.words, err, out)
		}
		if got := strings.TrimSpace(string(out)); got != c.want {
			t.Errorf("completing %q: got %q, want %q", c.words, got, c.want)
		}
	}
}

// The fish and zsh completions of a flag that takes a comma list (swfclean
// --rules and --skip, swfstat --by) complete each value after the last
// comma, as bash's do, and offer no value the list already has; other
// flags complete one value. Each runs in the real shell: fish through
// complete -C, zsh interactively in a pseudo-terminal (zsh/zpty), where a
// TAB completes the line and a key bound to a widget writes the line as
// completion left it.
func TestIntegrationFishCompletion(t *testing.T) {
	fish := testutil.Component(t, "fish", "fish")
	dir := t.TempDir()
	if err := write("", filepath.Join(dir, "completion")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ line, want string }{
		{"swfclean --rules default,sort_", "default,sort_submit"},
		{"swfclean --rules=none,ren", "--rules=none,renumber"},
		{"swfclean --skip flurries,ano", "flurries,anonymize"},
		{"swfstat --by category,sta", "category,status"},
		// A value the list already has is not offered again.
		{"swfstat --by category,", "category,queue\ncategory,short\ncategory,status\ncategory,user"},
		{"swfstat --by=category,status,s", "--by=category,status,short"},
		{"swfclean --skip flurries,fl", ""},
		{"swfclean --from s", "sacct\nswf"},
		{"swfsim --policy=conservative", "--policy=conservative"},
	} {
		app := strings.Fields(c.line)[0]
		script := fmt.Sprintf("source %s; complete -C %s | string replace -r '\\t.*' ''; true",
			filepath.Join(dir, "completion", "fish", app+".fish"), shellQuote(c.line))
		out, err := exec.Command(fish, "--no-config", "-c", script).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v: %s", c.line, err, out)
		}
		if got := strings.TrimSpace(string(out)); got != c.want {
			t.Errorf("fish completing %q: got %q, want %q", c.line, got, c.want)
		}
	}
}

func TestIntegrationZshCompletion(t *testing.T) {
	zsh := testutil.Component(t, "zsh", "zsh")
	dir := t.TempDir()
	if err := write("", filepath.Join(dir, "completion")); err != nil {
		t.Fatal(err)
	}
	// Typed into an interactive zsh: the line, TAB, then ^G, bound to a
	// widget that writes the line to a file; zle handles keys in order.
	driver := filepath.Join(dir, "complete.zsh")
	if err := os.WriteFile(driver, []byte(`zmodload zsh/zpty
fns=$1 out=$2 line=$3
zpty z zsh -f -i
zpty -w z "PROMPT=''; fpath=($fns \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z "dump() { print -r -- \"\$BUFFER\" > $out }; zle -N dump; bindkey '^G' dump"
zpty -w -n z "$line"$'\t\a'
for i in {1..200}; do [[ -s $out ]] && break; sleep 0.05; done
zpty -d z
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct{ line, want string }{
		// _values leaves a comma after a value, for the next one.
		{"swfclean --rules default,sort_", "swfclean --rules default,sort_submit,"},
		{"swfclean --rules=none,ren", "swfclean --rules=none,renumber,"},
		{"swfclean --skip flurries,ano", "swfclean --skip flurries,anonymize,"},
		{"swfstat --by category,sta", "swfstat --by category,status,"},
		// _values offers no value the list already has: s is short alone.
		{"swfstat --by category,status,s", "swfstat --by category,status,short,"},
		{"swfstat --by category,status,short,user,", "swfstat --by category,status,short,user,queue,"},
		{"swfclean --from sa", "swfclean --from sacct "},
		{"swfstat --format=cs", "swfstat --format=csv "},
	} {
		out := filepath.Join(dir, fmt.Sprintf("line%d", i))
		cmd := exec.Command(zsh, "-f", driver, filepath.Join(dir, "completion", "zsh"), out, c.line)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v: %s", c.line, err, msg)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("zsh completing %q wrote no line: %v", c.line, err)
		}
		if g := strings.TrimRight(string(got), "\n"); g != c.want {
			t.Errorf("zsh completing %q: got %q, want %q", c.line, g, c.want)
		}
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// swfsim runs nothing without --policy (a usage error): its synopsis, in
// --help and in the man page, says so, as docs/swfsim.md does.
func TestSwfsimSynopsisNamesPolicy(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runs["swfsim"]([]string{"swfsim", "--help"}, &out, &errb); code != 0 {
		t.Fatalf("--help: exit %d: %s", code, errb.String())
	}
	if want := "USAGE\n   swfsim --policy NAME [OPTIONS] [FILE]\n"; !strings.Contains(out.String(), want) {
		t.Errorf("swfsim --help lacks %q", want)
	}
	if !strings.Contains(out.String(), "scheduling policy NAME (required; see --list-policies)") {
		t.Error("swfsim --help does not say that --policy is required")
	}
}
