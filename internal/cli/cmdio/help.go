package cmdio

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// Help is what a command's --help, man page and completion scripts say
// beyond its flags. Commands attach it with SetHelp.
type Help struct {
	// Examples are real pipelines, each with what it does.
	Examples []Example
	// Docs is the command's reference page in the sources, "docs/X.md".
	Docs string
	// Choices lists the values a flag accepts, by flag name, for completion.
	Choices map[string][]string
	// ExitStatus is what status 1 means beyond bad input and I/O errors
	// (swfclean's --fail-on-anomaly, swfstat's capacity check), for the man
	// page; "" when nothing more.
	ExitStatus string
}

// Example is one command line and what it does.
type Example struct{ Command, Explanation string }

const helpKey = "swfkit.help"

// SetHelp attaches h to app.
func SetHelp(app *cli.App, h Help) {
	if app.Metadata == nil {
		app.Metadata = map[string]any{}
	}
	app.Metadata[helpKey] = h
}

// HelpOf returns the Help attached to app, zero when none.
func HelpOf(app *cli.App) Help {
	h, _ := app.Metadata[helpKey].(Help)
	return h
}

// FlagDoc is one option as every help surface shows it, derived from the
// flag's definition: Usage with `PLACEHOLDER` in backquotes, Value, and
// DefaultText for a default that is not a value.
type FlagDoc struct {
	Name        string   // the long name
	Aliases     []string // other names, short ones first
	Placeholder string   // what the value is (FILE, N); "" for a switch
	Usage       string   // the Usage text without the backquotes
	Default     string   // the default; "" when there is none
	Category    string
	Repeatable  bool
}

// Names returns every name of the flag with its dashes, short ones first.
func (f FlagDoc) Names() []string {
	var out []string
	for _, n := range append(append([]string(nil), f.Aliases...), f.Name) {
		if len(n) == 1 {
			out = append(out, "-"+n)
		}
	}
	for _, n := range append([]string{f.Name}, f.Aliases...) {
		if len(n) > 1 {
			out = append(out, "--"+n)
		}
	}
	return out
}

// Flags returns the options of app in definition order, then --help and
// --version.
func Flags(app *cli.App) []FlagDoc {
	var out []FlagDoc
	seen := map[string]bool{}
	for _, f := range append(append([]cli.Flag(nil), app.Flags...), cli.HelpFlag, cli.VersionFlag) {
		if f == nil || seen[f.Names()[0]] {
			continue
		}
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		seen[f.Names()[0]] = true
		out = append(out, flagDoc(f))
	}
	return out
}

func flagDoc(f cli.Flag) FlagDoc {
	names := f.Names()
	d := FlagDoc{Name: names[0], Aliases: names[1:]}
	dg, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return d
	}
	d.Placeholder, d.Usage = unquoteUsage(dg.GetUsage())
	if c, ok := f.(cli.CategorizableFlag); ok {
		d.Category = c.GetCategory()
	}
	if !dg.TakesValue() {
		d.Placeholder = "" // a switch: its default is off
		return d
	}
	if d.Placeholder == "" {
		d.Placeholder = "value" // what urfave/cli shows; the help check refuses it
	}
	d.Default = defaultText(f)
	switch f.(type) {
	case *cli.StringSliceFlag, *cli.IntSliceFlag, *cli.Int64SliceFlag, *cli.Float64SliceFlag:
		d.Repeatable = true
	}
	return d
}

// defaultText is a flag's DefaultText, else its non-zero Value.
func defaultText(f cli.Flag) string {
	var text string
	switch f := f.(type) {
	case *cli.StringFlag:
		text = f.DefaultText
	case *cli.IntFlag:
		text = f.DefaultText
	case *cli.Int64Flag:
		text = f.DefaultText
	case *cli.UintFlag:
		text = f.DefaultText
	case *cli.Uint64Flag:
		text = f.DefaultText
	case *cli.Float64Flag:
		text = f.DefaultText
	case *cli.DurationFlag:
		text = f.DefaultText
	case *cli.StringSliceFlag:
		text = f.DefaultText
	case *cli.IntSliceFlag:
		text = f.DefaultText
	case *cli.Int64SliceFlag:
		text = f.DefaultText
	case *cli.Float64SliceFlag:
		text = f.DefaultText
	case *cli.GenericFlag:
		text = f.DefaultText
	case *cli.PathFlag:
		text = f.DefaultText
	}
	if text != "" {
		return text
	}
	dg, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return ""
	}
	v := dg.GetValue()
	if n, err := strconv.ParseFloat(v, 64); err == nil && n == 0 {
		return "" // an option that is off unless given
	}
	return v
}

// Synopsis is the usage line without the program name.
func Synopsis(app *cli.App) string {
	if app.UsageText != "" {
		return strings.TrimSpace(strings.TrimPrefix(app.UsageText, app.Name))
	}
	return strings.TrimSpace("[OPTIONS] " + app.ArgsUsage)
}

// HelpText is the --help of app.
func HelpText(app *cli.App) string {
	h := HelpOf(app)
	var b strings.Builder
	section := func(title string) { fmt.Fprintf(&b, "\n%s\n", title) }
	fmt.Fprintf(&b, "NAME\n   %s - %s\n", app.Name, app.Usage)
	section("USAGE")
	fmt.Fprintf(&b, "   %s %s\n", app.Name, Synopsis(app))
	if app.Description != "" {
		section("DESCRIPTION")
		for _, para := range paragraphs(app.Description) {
			if strings.HasPrefix(para, " ") || para == "" {
				b.WriteString(strings.TrimRight("   "+para, " ") + "\n") // kept as written
				continue
			}
			for _, l := range wrapText(para, helpWidth-3) {
				b.WriteString("   " + l + "\n")
			}
		}
	}
	if len(h.Examples) > 0 {
		section("EXAMPLES")
		for i, e := range h.Examples {
			if i > 0 {
				b.WriteString("\n")
			}
			for _, line := range wrapText(e.Explanation, helpWidth-5) {
				fmt.Fprintf(&b, "   # %s\n", line)
			}
			fmt.Fprintf(&b, "   %s\n", e.Command)
		}
	}
	section("OPTIONS")
	category := ""
	for _, f := range Flags(app) {
		if f.Category != category {
			fmt.Fprintf(&b, "\n  %s\n", categoryTitle(f.Category))
			category = f.Category
		}
		writeFlag(&b, f)
	}
	if h.Docs != "" {
		section("DOCUMENTATION")
		fmt.Fprintf(&b, "   %s in the swfkit sources: every option, every choice the papers leave open,\n", h.Docs)
		fmt.Fprintf(&b, "   and the commands behind the figures quoted. Installed: man %s.\n", app.Name)
	}
	return b.String()
}

// categoryTitle is the heading of a group of flags in help and man pages:
// flags without a category that follow categorised ones (--help and
// --version, or a tool's own) are "General:".
func categoryTitle(category string) string {
	if category == "" {
		return "General:"
	}
	return category
}

// FlagLine is the usage text of f with its default, as help and man pages
// state it: once, and only when there is one.
func FlagLine(f FlagDoc) string {
	s := f.Usage
	if f.Default != "" {
		s += " (default: " + f.Default + ")"
	}
	return s
}

// FlagSpec is how f is written: its names, then the placeholder.
func FlagSpec(f FlagDoc) string {
	s := strings.Join(f.Names(), ", ")
	if f.Placeholder != "" {
		s += " " + f.Placeholder
	}
	return s
}

// The help's width and the width of its column of option names.
const (
	helpWidth = 90
	specWidth = 28
)

func writeFlag(b *strings.Builder, f FlagDoc) {
	spec := FlagSpec(f)
	lines := wrapText(FlagLine(f), helpWidth-3-specWidth-2)
	if len(spec) > specWidth {
		fmt.Fprintf(b, "   %s\n", spec)
		spec = ""
	}
	for i, l := range lines {
		if i > 0 {
			spec = ""
		}
		fmt.Fprintf(b, "   %-*s  %s\n", specWidth, spec, l)
	}
}

// wrapText breaks s into lines of at most width characters at spaces.
func wrapText(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// helpTemplate makes text a urfave/cli help template that prints it as is.
func helpTemplate(text string) string {
	return strings.ReplaceAll(text, "{{", `{{"{{"}}`)
}

// unquoteUsage splits a Usage into the placeholder, its first backquoted
// word (as urfave/cli reads it), and the text without backquotes.
func unquoteUsage(usage string) (placeholder, text string) {
	if i := strings.IndexByte(usage, '`'); i >= 0 {
		if j := strings.IndexByte(usage[i+1:], '`'); j >= 0 {
			placeholder = usage[i+1 : i+1+j]
		}
	}
	return placeholder, strings.ReplaceAll(usage, "`", "")
}

// paragraphs splits a description into runs of text lines joined by spaces,
// with blank lines ("") and indented lines kept as they are.
func paragraphs(text string) []string {
	var out []string
	joining := false
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		switch {
		case strings.TrimSpace(line) == "":
			out, joining = append(out, ""), false
		case strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t"):
			out, joining = append(out, line), false
		case joining:
			out[len(out)-1] += " " + strings.TrimSpace(line)
		default:
			out, joining = append(out, strings.TrimSpace(line)), true
		}
	}
	return out
}
