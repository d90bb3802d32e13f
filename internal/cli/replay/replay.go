package replay

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/urfave/cli/v2"

	augmentcli "github.com/swfkit/swfkit/internal/cli/augment"
	cleancli "github.com/swfkit/swfkit/internal/cli/clean"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	"github.com/swfkit/swfkit/pkg/extpolicy"
	"github.com/swfkit/swfkit/pkg/provenance"
)

// apps are the tools whose runs a trace can record.
var apps = map[string]func() *cli.App{
	"swfclean":   func() *cli.App { return cleancli.NewApp(nil, io.Discard, io.Discard) },
	"swfaugment": func() *cli.App { return augmentcli.NewApp(nil, io.Discard, io.Discard) },
	"swfsim":     func() *cli.App { return simcli.NewApp(nil, io.Discard, io.Discard) },
}

// Commands returns the shell commands that remake the records of the file
// whose Provenance records are recs: one pipeline, or several commands when
// a recorded run read a file (its input=) rather than standard input, the
// command before it then writing that file under a new name in the current
// directory (replay-N-BASE, BASE's .xz or .bz2 written .zst: writableName),
// which the run reads instead. An input path starting with '-' is written
// ./-name (operand). Lines starting
// with '#' are comments (a run made by another version of swfkit, the file
// a run read). A run of another program (a Provenance line no swfkit tool
// wrote) cannot be replayed: the pipeline stops there, writing
// replay-N-in, and a comment says what to run to make replay-N-out, which
// the next run reads; warnings say so too. A swfstat line (swfstat writes no
// trace) is left out with a warning.
//
// A run that recorded the hash of its input (input-sha256=) and that the
// commands have read the file at its recorded path is checked against it
// when hashFile is not nil: hashFile(path) hashes the file as the run did
// (cmdio.FileSHA256). Another hash is a comment before the command and a
// warning (the file at that path is not the one the run read); a file that
// cannot be read is a comment; the same hash says nothing. A first run that
// read its standard input names the hash in its comment. Lines without the
// field are replayed as before. Likewise, when hashFile is not nil, each file
// an exec run's command named (exec-file-sha256=HASH:PATH) is hashed as it
// is (cmdio.RawFileSHA256) and checked: the policy program is code that may
// have changed since. Each comment is a line of its own before the command
// it concerns; those about a run piped into the run before it stand before
// the whole pipeline, which a comment cannot sit inside, and name the run.
//
// near, when not "", is the path of the file the records come from. A first
// run's input recorded as a relative path (relative to the directory the run
// was started in, which the provenance does not record) that does not exist
// from the current directory is then looked for relative to near's directory
// and each directory above it (findInput); the first file there with the
// recorded hash is the one the command reads, and a comment says so. A file
// an exec run's command named (exec-file-sha256) is looked for the same way,
// by its bytes as they are, and the command's --exec then names the file
// found; and so is a file a run read besides its trace whose hash it
// recorded (side-input-sha256: swfaugment's --checkpoint-from), by its
// bytes decompressed, the command's flag then naming the file found.
func Commands(recs []provenance.Record, hashFile func(path string) (string, error), near string) (cmds string, warnings []string, err error) {
	if len(recs) == 0 {
		return "", nil, fmt.Errorf("no Provenance line: nothing to replay")
	}
	type step struct {
		words   []string // quoted; nil for another program's run
		input   string
		sum     string   // the input's recorded input-sha256, "" when none
		exec    []string // recorded exec-file-sha256 values, HASH:PATH
		execCmd string   // the recorded --exec command, when exec is not empty
		side    []sideInput
		foreign string // another program's run, as recorded
	}
	var steps []step
	var comments []string
	for i, r := range recs {
		newApp, ok := apps[r.Tool]
		switch {
		case r.Tool == "swfstat":
			warnings = append(warnings, fmt.Sprintf("provenance line %d: swfstat writes no trace: left out", i+1))
			continue
		case !ok:
			text := r.Other
			if text == "" {
				text = r.Format()
			}
			if strings.TrimSpace(text) == "" {
				text = "(an empty Provenance line)"
			}
			steps = append(steps, step{foreign: text})
			warnings = append(warnings, fmt.Sprintf("provenance line %d: %s is not a swfkit tool: its run is not replayed, "+
				"the commands stop before it and say what it must make", i+1, r.Tool))
			continue
		}
		words, in, sum, side, note, err := command(newApp(), r)
		if err != nil {
			return "", nil, fmt.Errorf("provenance line %d (%s): %w", i+1, r.Tool, err)
		}
		if note != "" {
			comments = append(comments, note)
		}
		var execFiles []string
		var execCmd string
		for _, f := range r.Fields {
			if f.Key == "exec" {
				execCmd = f.Value
			}
			if f.Key == provenance.ExecFileSHA256 {
				if _, _, ok := strings.Cut(f.Value, ":"); !ok {
					return "", nil, fmt.Errorf("provenance line %d (%s): %s=%s: want HASH:PATH", i+1, r.Tool, f.Key, f.Value)
				}
				execFiles = append(execFiles, f.Value)
			}
		}
		steps = append(steps, step{words: words, input: in, sum: sum, exec: execFiles, execCmd: execCmd, side: side})
	}
	if len(steps) == 0 {
		return "", warnings, fmt.Errorf("no run of swfclean, swfaugment or swfsim recorded: nothing to replay")
	}
	var b strings.Builder
	for _, c := range comments {
		b.WriteString(Comment(c))
	}
	// A comment cannot stand inside a command line continued over a pipe
	// (nor be glued to one), so the command line being written is kept in
	// chain and the comments about its runs in before, written ahead of it
	// when it ends (end).
	var chain strings.Builder
	var before []string
	piped := 0 // the runs in chain
	end := func(tail string) {
		for _, c := range before {
			b.WriteString(Comment(c))
		}
		b.WriteString(chain.String())
		b.WriteString(tail)
		chain.Reset()
		before, piped = nil, 0
	}
	open := false // a command line is being written
	feed := ""    // the file another program's run was to write, for the next run
	for i, st := range steps {
		if st.foreign != "" {
			in, out := fmt.Sprintf("replay-%d-in", i), fmt.Sprintf("replay-%d-out", i)
			if open {
				end(" -o " + quote(in) + "\n")
				open = false
			} else {
				in = "its input"
			}
			b.WriteString(Comment("not replayed, another program's run: " + st.foreign))
			b.WriteString(Comment("run it on " + in + ", writing " + out))
			feed = out
			continue
		}
		// notes are this run's comments; a run piped into one before it
		// names itself in them, as they stand before the whole pipeline.
		var notes []string
		if hashFile != nil {
			for _, v := range st.exec {
				recorded, path, _ := strings.Cut(v, ":")
				sum, err := cmdio.RawFileSHA256(path)
				if found := findInput(path, recorded, near, cmdio.RawFileSHA256, err); found != "" {
					if words, cmd, ok := renameExecFile(st.words, st.execCmd, path, found); ok {
						st.words, st.execCmd = words, cmd
						notes = append(notes, fmt.Sprintf("%s, which the run's --exec command named, is not in the current directory; %s "+
							"(looked for from the directory of %s up) has the bytes the run's had, of sha256 %s: the command names it",
							path, found, near, recorded))
						continue
					}
				}
				comment, warning := checkExecFile(path, recorded, sum, err)
				if comment != "" {
					notes = append(notes, comment)
				}
				if warning != "" {
					warnings = append(warnings, warning)
				}
			}
		}
		if hashFile != nil {
			for _, in := range st.side {
				var sum string
				var err error
				if in.path != "-" {
					sum, err = hashFile(in.path)
					if found := findInput(in.path, in.sum, near, hashFile, err); found != "" {
						if words, ok := renameFlagFile(st.words, in.flag, in.path, found); ok {
							st.words = words
							notes = append(notes, fmt.Sprintf("%s, the run's --%s file, is not in the current directory; %s (looked for from the directory of %s up) "+
								"has the bytes the run read, of sha256 %s decompressed: the command reads it", in.path, in.flag, found, near, in.sum))
							continue
						}
					}
				}
				comment, warning := checkSideInput(in, sum, err)
				if comment != "" {
					notes = append(notes, comment)
				}
				if warning != "" {
					warnings = append(warnings, warning)
				}
			}
		}
		line := strings.Join(st.words, " ")
		switch {
		case feed != "":
			line += " " + quote(feed)
			feed = ""
		case !open:
			if st.input == "-" {
				// Piped into a shell, "-" would read the rest of the
				// script as the trace.
				text := "the next run read its standard input: give it the same trace there, or replace - with the trace's file"
				if st.sum != "" {
					text += "; the bytes it read (decompressed) have sha256 " + st.sum
				}
				notes = append(notes, text)
				warnings = append(warnings, fmt.Sprintf("the %s run read its standard input, which the provenance does not name: give it the same trace", st.words[0]))
			} else if st.sum != "" && hashFile != nil {
				var comment, warning string
				sum, err := hashFile(st.input)
				if found := findInput(st.input, st.sum, near, hashFile, err); found != "" {
					comment = fmt.Sprintf("%s, the run's input, is not in the current directory; %s (looked for from the directory of %s up) "+
						"has the bytes the run read, of sha256 %s decompressed: the command reads it", st.input, found, near, st.sum)
					st.input = found
				} else {
					comment, warning = checkInput(st.input, st.sum, sum, err)
				}
				if comment != "" {
					notes = append(notes, comment)
				}
				if warning != "" {
					warnings = append(warnings, warning)
				}
			}
			line += " " + quote(operand(st.input))
		case st.input == "-":
			chain.WriteString(" \\\n  | ")
			for i := range notes {
				notes[i] = fmt.Sprintf("run %d of the pipeline below (%s): %s", piped+1, st.words[0], notes[i])
			}
		default:
			// This run read a file, which the run before wrote: the
			// commands write it under a name of their own, so that running
			// them replaces no file of the study.
			mid := fmt.Sprintf("replay-%d-%s", i, writableName(strings.Map(noControl, filepath.Base(st.input))))
			end(" -o " + quote(mid) + "\n")
			notes = append([]string{"the next run read " + st.input}, notes...)
			line += " " + quote(mid)
		}
		before = append(before, notes...)
		chain.WriteString(line)
		piped++
		open = true
	}
	if open {
		end("\n")
	}
	return b.String(), warnings, nil
}

// renameExecFile rewrites the --exec word of a command's words so that each
// word of the recorded command cmd that is path becomes found (a file with
// the recorded bytes, elsewhere: findInput); it returns the new words and
// command, or false when cmd does not name path as a word or its --exec word
// is not among words.
func renameExecFile(words []string, cmd, path, found string) ([]string, string, bool) {
	argv, err := extpolicy.SplitCommand(cmd)
	if err != nil || !slices.Contains(argv, path) {
		return nil, "", false
	}
	at := slices.Index(words, quote("--exec="+cmd))
	if at < 0 {
		return nil, "", false
	}
	for i, a := range argv {
		if a != path {
			continue
		}
		argv[i] = found
		if i == 0 && !strings.ContainsRune(found, os.PathSeparator) {
			argv[i] = "." + string(os.PathSeparator) + found // a program, not a name to look up in PATH
		}
	}
	cmd = extpolicy.JoinCommand(argv)
	words = slices.Clone(words)
	words[at] = quote("--exec=" + cmd)
	return words, cmd, true
}

// checkExecFile compares the hash of a file an exec run's command named
// (sum, or the error hashing it as it is gave) with the hash the run
// recorded, as checkInput does for inputs.
func checkExecFile(path, recorded, sum string, err error) (comment, warning string) {
	switch {
	case err != nil:
		return fmt.Sprintf("%s, which the run's --exec command named, cannot be read here to check it (%v); the run's had sha256 %s", path, err, recorded), ""
	case sum != recorded:
		text := fmt.Sprintf("the file at %s is not the one the run's --exec command used: its bytes have sha256 %s, the run's had %s", path, sum, recorded)
		return text, text
	}
	return "", ""
}

// sideInput is a file a run read besides its trace, recorded by its flag's
// value and side-input-sha256=FLAG:HASH.
type sideInput struct {
	flag, path, sum string
}

// renameFlagFile rewrites the word of a command's words that gives flag
// the file path so that it names found instead (a file with the recorded
// bytes, elsewhere: findInput); false when no word gives it.
func renameFlagFile(words []string, flag, path, found string) ([]string, bool) {
	at := slices.Index(words, quote("--"+flag+"="+path))
	if at < 0 {
		return nil, false
	}
	words = slices.Clone(words)
	words[at] = quote("--" + flag + "=" + found)
	return words, true
}

// checkSideInput compares the hash of the file at a side input's recorded
// path, hashed as the run did (decompressed: sum, or the error hashing it
// gave), with the recorded hash, as checkInput does for the trace: a
// comment and a warning when they differ. One the run read from its
// standard input is named with its hash, to give it again.
func checkSideInput(in sideInput, sum string, err error) (comment, warning string) {
	if in.path == "-" {
		text := fmt.Sprintf("the next run read its --%s file from its standard input, which the provenance does not name: give it the same bytes, of sha256 %s decompressed", in.flag, in.sum)
		return text, text
	}
	switch {
	case err != nil:
		return fmt.Sprintf("%s, the run's --%s file, cannot be read here to check it (%v); the run read bytes (decompressed) of sha256 %s", in.path, in.flag, err, in.sum), ""
	case sum != in.sum:
		text := fmt.Sprintf("the file at %s is not the --%s file the run read: its bytes (decompressed) have sha256 %s, the run read %s", in.path, in.flag, sum, in.sum)
		return text, text
	}
	return "", ""
}

// checkInput compares the hash of the file at a run's recorded input path
// (sum, or the error hashing it gave) with the recorded hash: a comment and
// a warning when they differ, a comment when the file cannot be read,
// nothing when they are the same.
func checkInput(path, recorded, sum string, err error) (comment, warning string) {
	switch {
	case err != nil:
		return fmt.Sprintf("%s cannot be read here to check it against the run's input (%v); the run read bytes (decompressed) of sha256 %s", path, err, recorded), ""
	case sum != recorded:
		text := fmt.Sprintf("the file at %s is not the one the run read: its bytes (decompressed) have sha256 %s, the run read %s", path, sum, recorded)
		return text, text
	}
	return "", ""
}

// findInput looks for a run's input recorded as the relative path input,
// with the recorded hash sum, when it could not be read from the current
// directory (missing): relative to the directory of near and then of each
// directory above it. A run started in a study's folder records its trace
// relative to that folder, and its output lies in or below it, so a replay
// from elsewhere finds the trace there. Only a file with the recorded hash
// is taken, so a search cannot put another trace in the commands. It returns
// the path the command should name (relative to the current directory when
// that is shorter than the absolute one), or "" when none is found; err is
// what hashing input from the current directory gave.
func findInput(input, sum, near string, hashFile func(string) (string, error), err error) string {
	// A file that is there but cannot be read is not looked for elsewhere:
	// the comment says why it cannot be read.
	if !errors.Is(err, fs.ErrNotExist) || near == "" || near == "-" || filepath.IsAbs(input) {
		return ""
	}
	dir, err := filepath.Abs(filepath.Dir(near))
	if err != nil {
		return ""
	}
	cwd, _ := os.Getwd()
	for {
		cand := filepath.Join(dir, input)
		if got, err := hashFile(cand); err == nil && got == sum {
			if rel, err := filepath.Rel(cwd, cand); err == nil && cwd != "" && len(rel) < len(cand) {
				return rel
			}
			return cand
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// givenWith lists, by tool, the flags whose being given matters also at
// their default value, each with the flag whose recorded value shows that
// the run gave it: swfaugment's --error-quant selects its operation (0, its
// default, is a valid error) and --error-category, which has no valid
// default, comes only with it; --error-percent is required with
// --error-qual. Left out, the replayed run would refuse its flags or run
// without the operation.
var givenWith = map[string]map[string]string{
	"swfaugment": {"error-quant": "error-category", "error-percent": "error-qual"},
}

// command returns a run's words (the tool, then its non-default flags in
// the recorded order), its input and the input's recorded hash ("" when
// none), the side inputs whose hash it recorded, and a note when another
// version made it.
func command(app *cli.App, r provenance.Record) (words []string, input, sum string, side []sideInput, note string, err error) {
	set := flag.NewFlagSet(app.Name, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	byName := map[string]cli.Flag{}
	for _, f := range app.Flags {
		if err := f.Apply(set); err != nil {
			return nil, "", "", nil, "", err
		}
		for _, n := range f.Names() {
			byName[n] = f
		}
	}
	defaults := cli.NewContext(app, set, nil)
	words = []string{app.Name}
	var inputs, sums []string
	lists := map[string][]string{} // list flags: every recorded value
	var order []string             // flags in the recorded order
	for _, f := range r.Fields {
		switch f.Key {
		case "version":
			if f.Value != app.Version {
				// The version carries the build's commit
				// (cmdio.BuildVersion): another build of one
				// version string is flagged too.
				note = fmt.Sprintf("%s %s made this run; this is %s, whose defaults and results may differ", r.Tool, f.Value, app.Version)
			}
			continue
		case "input":
			inputs = append(inputs, f.Value)
			continue
		case provenance.InputSHA256:
			sums = append(sums, f.Value)
			continue
		case provenance.ExecFileSHA256:
			continue // checked by Commands
		case provenance.SideInputSHA256:
			name, hash, ok := strings.Cut(f.Value, ":")
			if !ok || len(lists[name]) != 1 || lists[name][0] == "" {
				return nil, "", "", nil, "", fmt.Errorf("%s=%s: want FLAG:HASH after the flag's field", f.Key, f.Value)
			}
			side = append(side, sideInput{flag: name, path: lists[name][0], sum: hash})
			continue
		}
		fl, ok := byName[f.Key]
		if !ok {
			return nil, "", "", nil, "", fmt.Errorf("%s has no flag --%s (made by another version?)", app.Name, f.Key)
		}
		if _, isList := fl.(*cli.StringSliceFlag); isList {
			if _, seen := lists[f.Key]; !seen {
				order = append(order, f.Key)
			}
			if f.Value != "" {
				lists[f.Key] = append(lists[f.Key], f.Value)
			} else if lists[f.Key] == nil {
				lists[f.Key] = []string{}
			}
			continue
		}
		if prev, twice := lists[f.Key]; twice {
			return nil, "", "", nil, "", fmt.Errorf("--%s recorded twice (%s and %s): the line was edited or damaged", f.Key, prev[0], f.Value)
		}
		order = append(order, f.Key)
		lists[f.Key] = []string{f.Value}
	}
	given := func(name string) bool {
		by, ok := givenWith[app.Name][name]
		if !ok || len(lists[by]) == 0 {
			return false
		}
		return lists[by][0] != cmdio.FlagValue(defaults, byName[by])
	}
	for _, name := range order {
		fl := byName[name]
		values := lists[name]
		switch fl := fl.(type) {
		case *cli.StringSliceFlag:
			for _, v := range values {
				words = append(words, quote("--"+name+"="+v))
			}
		case *cli.BoolFlag:
			if def := cmdio.FlagValue(defaults, fl); values[0] != def {
				if values[0] == "true" {
					words = append(words, "--"+name)
				} else {
					words = append(words, "--"+name+"="+values[0])
				}
			}
		default:
			if values[0] != cmdio.FlagValue(defaults, fl) || given(name) {
				words = append(words, quote("--"+name+"="+values[0]))
			}
		}
	}
	if len(inputs) != 1 {
		return nil, "", "", nil, "", fmt.Errorf("%d input= fields, want one", len(inputs))
	}
	if len(sums) > 1 {
		return nil, "", "", nil, "", fmt.Errorf("%d %s= fields, want one at most", len(sums), provenance.InputSHA256)
	}
	if len(sums) == 1 {
		sum = sums[0]
	}
	return words, inputs[0], sum, side, note, nil
}

// Comment returns text as one shell comment line. The commands are meant to
// be run (swfstat --replay FILE | sh), and a value or file name holding a
// line break (input="a\nrm -rf ~" in an edited header) would otherwise end
// the comment and run what follows: such text is written Go-quoted.
func Comment(text string) string {
	if strings.IndexFunc(text, unicode.IsControl) >= 0 {
		text = strconv.Quote(text)
	}
	return "# " + text + "\n"
}

// writableName renames a file the commands write in place of a run's
// input when its name asks for a compression the tools read but do not
// write (aug.swf.xz, made by xz after the run): as .zst, which they write,
// so that the replayed run is not refused as a usage error.
func writableName(name string) string {
	if ext := cmdio.UnwritableExtension(name); ext != "" {
		return strings.TrimSuffix(name, ext) + ".zst"
	}
	return name
}

// operand writes a file operand so that the command cannot read it as a
// flag: a path that starts with '-' (other than "-", standard input) gets
// "./" before it.
func operand(path string) string {
	if len(path) > 1 && path[0] == '-' {
		return "./" + path
	}
	return path
}

// noControl keeps a name of the replay's own on one line.
func noControl(r rune) rune {
	if unicode.IsControl(r) {
		return '_'
	}
	return r
}

// quote makes s one shell word.
func quote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._,:/+=@%-", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
