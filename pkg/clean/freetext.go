package clean

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// idMention matches a number named as an id of an anonymize kind: a word
// for the kind (submatch 1; plural, "(s)", "id" or "number" after it
// allowed), then blanks, an operator, a colon, '#' or '[', and a digit, as in
// the archive's cleaning Notes ("user=4 and (job>=3874 ..."), free text
// ("users 3 and 7", "group 1 is normal users", "uid 1042"), swfkit's own
// Notes and Provenance lines (swfclean's filters and flurries "user=9",
// swfaugment's "top 10 applications [12 7 44]", "--priority-order lists
// queue(s) 3,7"); or a priority order of queues (swfsim's and swfaugment's
// Notes and Provenance lines: "priority-order 5,0", "priority order
// (highest first, from flag)=0,1+12,2", "priority-order=5,0"). A word
// joined to the one before by a letter, a digit or '-' is not one:
// MaxQueues, top-apps=10, /data/user4.swf. A number before the word
// ("128 users") is a count.
var idMention = regexp.MustCompile(`(?i)(?:^|[^\w-])(users?|uids?|groups?|gids?|executables?|exes?|applications?|apps?|queues?|partitions?)\b` +
	`(?:\(s\))?(?:\s+(?:ids?|numbers?))?\s*(?:[=<>!]{1,2}|:|#|\[)?\s*\d` +
	`|priority[ -]order(?:\s*\([^)]*\))?\s*[=:]?\s*\d`)

// idWords gives the anonKinds index each word of idMention names.
var idWords = map[string]int{
	"user": 0, "uid": 0,
	"group": 1, "gid": 1,
	"executable": 2, "exe": 2, "application": 2, "app": 2,
	"queue": 3, "partition": 4,
}

// mentionedKinds reports which kinds of id text names with a number.
func mentionedKinds(text string) (kinds [5]bool) {
	for _, m := range idMention.FindAllStringSubmatch(text, -1) {
		if m[1] == "" {
			kinds[3] = true // a priority order of queues
			continue
		}
		kinds[idWords[strings.TrimSuffix(strings.ToLower(m[1]), "s")]] = true
	}
	return kinds
}

// freeText is the text of a header line that may name ids in words: all of
// it, label included ("; Users: 4 is root"), except for the lines of the
// labels editHeader handles, whose label names their kind.
func freeText(l swf.HeaderLine) string {
	if l.Label == "" || l.Continuation {
		return l.Value
	}
	for _, ak := range anonKinds {
		if ak.label != "" && (strings.EqualFold(l.Label, ak.label) || strings.EqualFold(l.Label, ak.text)) {
			return l.Value
		}
	}
	return l.Label + ": " + l.Value
}

// idsInFreeText finds the lines of h that name, with a number, an id of a
// kind the rule renumbered: Notes and their continuation lines (the
// archive's cleaning filters, a site's "group 1 is normal users"), the
// Notes of swfkit's tools (this run's filters and flurries too, which ran
// before the renumbering) and Provenance lines (a --filter, a
// --priority-order), any other free text. It warns about each, by input
// line or, for this run's own, by its text, and returns the Note that says
// how many there are, "" for none. The lines are kept as written: a number
// in free text may be a count, a limit or a time, so it is not rewritten
// (Queues lines, wholly about queue numbers, are dropped by editHeader
// instead); the warning lets whoever publishes the log read them, the Note
// tells its readers that their numbers may not be the records'. A kind
// whose numbers all stayed is not looked for: its ids still agree.
func (a *anonymizer) idsInFreeText(h *swf.Header, warn func(string)) string {
	var changed [5]bool
	anyChanged := false
	for k := range anonKinds {
		changed[k] = a.renumbered(k)
		anyChanged = anyChanged || changed[k]
	}
	if !anyChanged {
		return ""
	}
	lines := 0
	var named [5]bool
	for _, l := range h.Lines {
		var kinds []string
		for k, found := range mentionedKinds(freeText(l)) {
			if found && changed[k] {
				kinds = append(kinds, anonKinds[k].kind)
				named[k] = true
			}
		}
		if len(kinds) == 0 {
			continue
		}
		lines++
		where := fmt.Sprintf("this run's %s %q", l.Label, l.Value)
		if l.Line > 0 {
			where = fmt.Sprintf("line %d: header line", l.Line)
			if h.File != "" {
				where = fmt.Sprintf("%s:%d: header line", h.File, l.Line)
			}
		}
		warn(fmt.Sprintf("%s may name %s ids from before the renumbering", where, orList(kinds)))
	}
	if lines == 0 {
		return ""
	}
	count, these := fmt.Sprintf("%d header lines", lines), fmt.Sprintf("the %d header lines", lines)
	if lines == 1 {
		count, these = "1 header line", "the header line"
	}
	warn(fmt.Sprintf("rule anonymize keeps free text as written: check %s above before the log is published "+
		"(--anonymize-map writes the old and new numbers)", these))
	var kinds []string
	for k, n := range named {
		if n {
			kinds = append(kinds, anonKinds[k].kind)
		}
	}
	return fmt.Sprintf("rule anonymize: %s may name %s ids from before the renumbering (free text, kept as written: its numbers are not rewritten)",
		count, orList(kinds))
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
