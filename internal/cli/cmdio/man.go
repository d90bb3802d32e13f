package cmdio

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// ManPage is the man page (section 1, roff) of app, written from the same
// definitions as its --help. others names the toolkit's other commands for
// SEE ALSO.
func ManPage(app *cli.App, others []string) string {
	h := HelpOf(app)
	var b strings.Builder
	fmt.Fprintf(&b, ".TH %s 1 \"\" \"swfkit %s\" \"swfkit manual\"\n", strings.ToUpper(app.Name), roff(app.Version))
	// No hyphenation: the text is full of option values and policy names
	// (requested-only, priofifo) that a break would cut into words a reader
	// copies or searches for wrongly (re-quested-only, pri-ofifo).
	b.WriteString(".nh\n")
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", app.Name, roff(app.Usage))
	fmt.Fprintf(&b, ".SH SYNOPSIS\n.B %s\n%s\n", app.Name, roff(Synopsis(app)))
	if app.Description != "" {
		b.WriteString(".SH DESCRIPTION\n")
		pre := false
		for _, para := range paragraphs(app.Description) {
			indented := strings.HasPrefix(para, " ")
			switch {
			case para == "":
				if pre {
					b.WriteString(".fi\n")
					pre = false
				}
				b.WriteString(".PP\n")
			case indented && !pre:
				b.WriteString(".nf\n" + roffLine(para) + "\n")
				pre = true
			default:
				b.WriteString(roffLine(para) + "\n")
			}
		}
		if pre {
			b.WriteString(".fi\n")
		}
	}
	b.WriteString(".SH OPTIONS\n")
	category := ""
	for _, f := range Flags(app) {
		if f.Category != category {
			fmt.Fprintf(&b, ".SS %s\n", roff(strings.TrimSuffix(categoryTitle(f.Category), ":")))
			category = f.Category
		}
		names := make([]string, len(f.Names()))
		for i, n := range f.Names() {
			names[i] = `\fB` + roff(n) + `\fR`
		}
		spec := strings.Join(names, ", ")
		if f.Placeholder != "" {
			spec += ` \fI` + roff(f.Placeholder) + `\fR`
		}
		fmt.Fprintf(&b, ".TP\n%s\n%s\n", spec, roffLine(FlagLine(f)))
	}
	if len(h.Examples) > 0 {
		b.WriteString(".SH EXAMPLES\n")
		for _, e := range h.Examples {
			fmt.Fprintf(&b, ".PP\n%s\n.PP\n.RS\n.nf\n%s\n.fi\n.RE\n", roffLine(e.Explanation), roffLine(e.Command))
		}
	}
	one := "bad input or I/O error"
	if h.ExitStatus != "" {
		one = "bad input, I/O error, or " + h.ExitStatus
	}
	fmt.Fprintf(&b, ".SH EXIT STATUS\n0 success, 1 %s, 2 usage error. A closed output pipe ends quietly with 0, unless files the run was to write are left unwritten (1, naming them).\n", roff(one))
	b.WriteString(".SH SEE ALSO\n")
	var refs []string
	for _, o := range others {
		if o != app.Name {
			refs = append(refs, `\fB`+o+`\fR(1)`)
		}
	}
	b.WriteString(strings.Join(refs, ", "))
	if h.Docs != "" {
		fmt.Fprintf(&b, "\n.PP\n%s in the swfkit sources: every option, every choice the papers leave open, and the commands behind the figures quoted.", roff(h.Docs))
	}
	b.WriteString("\n")
	return b.String()
}

// roff escapes text for a roff line: backslashes and hyphens (so that
// options copy and paste as ASCII).
func roff(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
}

// roffLine is roff(s) made safe at the start of a line, where . and ' begin
// requests.
func roffLine(s string) string {
	s = roff(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
