package convert

import "strings"

// Guess names the format a line of a log that is not SWF looks like, "sacct"
// or "alea" (the formats this package reads), or "" when it looks like
// neither. It is a hint for an error message about a file given as SWF, not a
// check: a line Guess names may still fail to convert.
//
//   - alea: the 21 columns of an Alea job line, the 19th a {node,...} list
//     (MetaCentrum's logs);
//   - sacct: a `sacct --parsable2` header line, '|'-separated column names
//     with JobID among them (the first line of every dump ReadSacct reads).
func Guess(line string) string {
	if tokens := strings.Fields(line); len(tokens) == AleaFields {
		list := tokens[18]
		if len(list) >= 2 && list[0] == '{' && list[len(list)-1] == '}' {
			return "alea"
		}
	}
	if strings.Contains(line, "|") {
		for _, col := range strings.Split(line, "|") {
			if strings.EqualFold(strings.TrimSpace(col), "JobID") {
				return "sacct"
			}
		}
	}
	return ""
}
