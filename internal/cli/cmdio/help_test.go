package cmdio

import (
	"bytes"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

func testApp(out *bytes.Buffer) *cli.App {
	app := NewApp("tool", "do {{things}}", out, out)
	app.ArgsUsage = "[FILE]"
	app.Description = "First line\nof a paragraph.\n\n    kept as written\n"
	app.Flags = []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE`"},
		&cli.IntFlag{Name: "count", Value: 3, Usage: "`N` things"},
		&cli.Float64Flag{Name: "share", Usage: "`SHARE` of jobs (0..1)"},
		&cli.Int64Flag{Name: "procs", Usage: "machine size `N`", DefaultText: "the header's"},
		&cli.StringFlag{Name: "skip", Value: "0", Usage: "skip `N`"},
		&cli.BoolFlag{Name: "fast", Usage: "go fast", Category: "Speed:"},
		&cli.StringSliceFlag{Name: "by", Usage: "group by `KEY`"},
	}
	SetHelp(app, Help{Docs: "docs/tool.md", Examples: []Example{{"tool --fast x.swf", "Fast."}}})
	return app
}

func TestFlagDocs(t *testing.T) {
	docs := map[string]FlagDoc{}
	for _, f := range Flags(testApp(&bytes.Buffer{})) {
		docs[f.Name] = f
	}
	for name, want := range map[string]string{
		"output": "-o, --output FILE|write to FILE",
		"count":  "--count N|N things (default: 3)",
		"share":  "--share SHARE|SHARE of jobs (0..1)",               // 0: off unless given, no default
		"procs":  "--procs N|machine size N (default: the header's)", // DefaultText
		"skip":   "--skip N|skip N",                                  // "0" is no default either
		"fast":   "--fast|go fast",                                   // a switch: no placeholder, no default
		"by":     "--by KEY|group by KEY",
		"help":   "-h, --help|show help",
	} {
		got := FlagSpec(docs[name]) + "|" + FlagLine(docs[name])
		if got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

func TestHelpText(t *testing.T) {
	var out bytes.Buffer
	app := testApp(&out)
	if code := Run(app, []string{"tool", "--help"}, &out); code != 0 {
		t.Fatalf("exit %d", code)
	}
	help := out.String()
	if help != HelpText(app) {
		t.Errorf("--help printed\n%s\nwant\n%s", help, HelpText(app))
	}
	for _, want := range []string{
		"NAME\n   tool - do {{things}}\n", // braces printed, not run as a template
		"USAGE\n   tool [OPTIONS] [FILE]\n",
		"   First line of a paragraph.\n\n       kept as written\n",
		"EXAMPLES\n   # Fast.\n   tool --fast x.swf\n",
		"\n  Speed:\n   --fast", "DOCUMENTATION\n   docs/tool.md",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
}

func TestManPage(t *testing.T) {
	man := ManPage(testApp(&bytes.Buffer{}), []string{"tool", "other"})
	for _, want := range []string{
		".TH TOOL 1", "tool \\- do {{things}}", ".SH SYNOPSIS\n.B tool\n[OPTIONS] [FILE]",
		".TP\n\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIFILE\\fR\nwrite to FILE\n", ".SS Speed",
		".nf\n    kept as written\n.fi", ".SH EXAMPLES", "tool \\-\\-fast x.swf", "\\fBother\\fR(1)",
		"\n.nh\n",                            // no hyphenation inside option values and names
		".SS General\n.TP\n\\fB\\-\\-by\\fR", // flags after a category get a heading, as in --help
	} {
		if !strings.Contains(man, want) {
			t.Errorf("man page lacks %q:\n%s", want, man)
		}
	}
	if strings.Contains(man, ".SS \n") {
		t.Errorf("man page has an empty subsection heading:\n%s", man)
	}
	if roffLine(".starts a request") != `\&.starts a request` {
		t.Error("a line starting with . is not escaped")
	}
}

// A long option's value may follow an '=' (--output=x.swf, as the commands
// accept): zsh's _arguments completes it there only for a spec NAME=.
func TestZshCompletionValueAfterEquals(t *testing.T) {
	zsh := ZshCompletion(testApp(&bytes.Buffer{}))
	for _, want := range []string{
		`'(-o --output)'{-o,--output=}'[write to FILE]:FILE:_files'`,
		`'--count=[N things]:N: '`,
		`'--fast[go fast]'`, // a switch takes no value
		`'*--by=[group by KEY]:KEY: '`,
	} {
		if !strings.Contains(zsh, want) {
			t.Errorf("zsh completion lacks %s:\n%s", want, zsh)
		}
	}
}
