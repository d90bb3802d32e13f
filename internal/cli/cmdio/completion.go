package cmdio

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// takesFile reports whether a flag's value is a file name, from its
// placeholder.
func takesFile(f FlagDoc) bool { return strings.Contains(f.Placeholder, "FILE") }

// takesList reports whether a flag's value may be a comma-separated list:
// a repeatable flag (urfave/cli splits its values at commas) or one whose
// placeholder says LIST (swfclean --rules).
func takesList(f FlagDoc) bool { return f.Repeatable || strings.Contains(f.Placeholder, "LIST") }

// bashChoices is the function of a bash completion script that completes
// the choices $2 for the word $1 after its last comma. A choice already
// before that comma is not offered again (--by category,<TAB> offers status,
// not category): ",$pre" holds each given value between two commas.
const bashChoices = `%s() {
	local pre= word=$1 choice left=
	if [[ $word == *,* ]]; then
		pre=${word%%,*},
		word=${word##*,}
	fi
	for choice in $2; do
		[[ ,$pre == *,"$choice",* ]] || left+=" $choice"
	done
	COMPREPLY=($(compgen -P "$pre" -W "$left" -- "$word"))
}
`

// BashCompletion is a bash completion script for app: option names, the
// values of options with known choices (Help.Choices), file names for FILE
// values and for arguments.
//
// bash splits --flag=value into three words at the '=' (COMP_WORDBREAKS), so
// the script looks past it for the flag; file names are read one a line,
// so that a name with a space is one completion, not one per word; and a
// choice is completed after the last comma of the word, for the options that
// take a comma-separated list of them (--rules default,sort_<TAB>), leaving
// out those the list already has.
func BashCompletion(app *cli.App) string {
	h := HelpOf(app)
	fn := "_" + strings.ReplaceAll(app.Name, "-", "_")
	files := fn + "_files"
	choices := fn + "_choices"
	var names []string
	var b strings.Builder
	fmt.Fprintf(&b, "# bash completion for %s, generated from its flag definitions (make completion).\n", app.Name)
	fmt.Fprintf(&b, "%s() {\n\tlocal name\n\tCOMPREPLY=()\n\twhile IFS= read -r name; do COMPREPLY+=(\"$name\"); done < <(compgen -f -- \"$1\")\n}\n", files)
	fmt.Fprintf(&b, bashChoices, choices)
	fmt.Fprintf(&b, "%s() {\n\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n", fn)
	b.WriteString("\tif [[ $cur == = ]]; then\n\t\tcur=\n\telif [[ $prev == = && COMP_CWORD -ge 2 ]]; then\n\t\tprev=${COMP_WORDS[COMP_CWORD-2]}\n\tfi\n\tcase $prev in\n")
	for _, f := range Flags(app) {
		names = append(names, f.Names()...)
		if f.Placeholder == "" {
			continue
		}
		pattern := strings.Join(f.Names(), "|")
		switch {
		case len(h.Choices[f.Name]) > 0:
			fmt.Fprintf(&b, "\t%s) %s \"$cur\" %q; return ;;\n", pattern, choices, strings.Join(h.Choices[f.Name], " "))
		case takesFile(f):
			fmt.Fprintf(&b, "\t%s) %s \"$cur\"; return ;;\n", pattern, files)
		default:
			fmt.Fprintf(&b, "\t%s) COMPREPLY=(); return ;; # %s\n", pattern, f.Placeholder)
		}
	}
	b.WriteString("\tesac\n")
	fmt.Fprintf(&b, "\tif [[ $cur == -* ]]; then\n\t\tCOMPREPLY=($(compgen -W %q -- \"$cur\"))\n\telse\n\t\t%s \"$cur\"\n\tfi\n}\n", strings.Join(names, " "), files)
	fmt.Fprintf(&b, "complete -o filenames -F %s %s\n", fn, app.Name)
	return b.String()
}

// ZshCompletion is a zsh completion function (#compdef) for app. A flag that
// takes a comma list completes each of its values in turn (_values -s ,).
func ZshCompletion(app *cli.App) string {
	h := HelpOf(app)
	var b strings.Builder
	fmt.Fprintf(&b, "#compdef %s\n# zsh completion for %s, generated from its flag definitions (make completion).\n", app.Name, app.Name)
	b.WriteString("_arguments -s -S \\\n")
	for _, f := range Flags(app) {
		desc := zshEscape(firstSentence(f.Usage))
		action := ""
		if f.Placeholder != "" {
			switch {
			case len(h.Choices[f.Name]) > 0 && takesList(f):
				// _values completes each value of a comma list in turn.
				action = fmt.Sprintf(":%s:_values -s , %s %s", zshEscape(f.Placeholder), zshEscape(f.Placeholder), strings.Join(h.Choices[f.Name], " "))
			case len(h.Choices[f.Name]) > 0:
				action = fmt.Sprintf(":%s:(%s)", zshEscape(f.Placeholder), strings.Join(h.Choices[f.Name], " "))
			case takesFile(f):
				action = fmt.Sprintf(":%s:_files", zshEscape(f.Placeholder))
			default:
				action = fmt.Sprintf(":%s: ", zshEscape(f.Placeholder))
			}
		}
		repeat := ""
		if f.Repeatable {
			repeat = "*"
		}
		names := f.Names()
		// A long option's value may follow an '=' in the same word as well
		// as be the next word (--policy=easy): _arguments says so by NAME=.
		specs := make([]string, len(names))
		for i, n := range names {
			specs[i] = n
			if f.Placeholder != "" && strings.HasPrefix(n, "--") {
				specs[i] += "="
			}
		}
		if len(names) == 1 {
			fmt.Fprintf(&b, "\t'%s%s[%s]%s' \\\n", repeat, specs[0], desc, action)
			continue
		}
		fmt.Fprintf(&b, "\t'(%s)'%s{%s}'[%s]%s' \\\n", strings.Join(names, " "), repeat, strings.Join(specs, ","), desc, action)
	}
	b.WriteString("\t'*:file:_files'\n")
	return b.String()
}

// fishChoices is the function of a fish completion script that prints the
// choices of a comma list flag, one a line, for __fish_complete_list; it
// leaves out those the token already has before its last comma (the token
// may begin with --flag=).
const fishChoices = `function %s
	set -l given (string split , -- (commandline -t | string replace -r -- '^-[^=]*=' ''))
	set -e given[-1]
	for choice in %s
		contains -- $choice $given; or printf '%%s\n' $choice
	end
end
`

// FishCompletion is a fish completion script for app. The choices of a flag
// that takes a comma list come from a function of the script, through
// fish's __fish_complete_list, which completes after the last comma; values
// the list already has are not offered again.
func FishCompletion(app *cli.App) string {
	h := HelpOf(app)
	var b strings.Builder
	fmt.Fprintf(&b, "# fish completion for %s, generated from its flag definitions (make completion).\n", app.Name)
	listFn := func(f FlagDoc) string {
		return "__" + strings.ReplaceAll(app.Name+"_"+f.Name, "-", "_") + "_choices"
	}
	for _, f := range Flags(app) {
		if len(h.Choices[f.Name]) > 0 && f.Placeholder != "" && takesList(f) {
			fmt.Fprintf(&b, fishChoices, listFn(f), strings.Join(h.Choices[f.Name], " "))
		}
	}
	for _, f := range Flags(app) {
		fmt.Fprintf(&b, "complete -c %s", app.Name)
		for _, n := range f.Names() {
			if strings.HasPrefix(n, "--") {
				fmt.Fprintf(&b, " -l %s", n[2:])
			} else {
				fmt.Fprintf(&b, " -s %s", n[1:])
			}
		}
		if f.Placeholder != "" {
			b.WriteString(" -r")
			switch {
			case len(h.Choices[f.Name]) > 0 && takesList(f):
				fmt.Fprintf(&b, " -f -a '(__fish_complete_list , %s)'", listFn(f))
			case len(h.Choices[f.Name]) > 0:
				fmt.Fprintf(&b, " -f -a '%s'", strings.Join(h.Choices[f.Name], " "))
			case takesFile(f):
				b.WriteString(" -F")
			default:
				b.WriteString(" -f")
			}
		}
		fmt.Fprintf(&b, " -d '%s'\n", strings.ReplaceAll(firstSentence(f.Usage), "'", `\'`))
	}
	return b.String()
}

// firstSentence shortens a usage text for a completion menu: asides in
// parentheses go (cutting at the first one hid the choices after it:
// "table (aligned...), csv or json"), and so does what follows a ';'.
func firstSentence(s string) string {
	var b strings.Builder
	depth := 0
	for _, c := range s {
		switch {
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(c)
		}
	}
	s = strings.Join(strings.Fields(b.String()), " ")
	if i := strings.Index(s, ";"); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(strings.NewReplacer(" ,", ",", " :", ":").Replace(s))
}

func zshEscape(s string) string {
	return strings.NewReplacer("'", `'\''`, "[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}
