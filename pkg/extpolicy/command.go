package extpolicy

import (
	"errors"
	"fmt"
	"strings"
)

// SplitCommand splits the text of --exec into a program and its arguments,
// without a shell, by these rules (a small subset of the POSIX shell's):
//
//   - words are separated by blanks (space, tab, newline) outside quotes;
//   - '...' keeps everything between the quotes as it is;
//   - "..." keeps everything as it is, except that \" and \\ stand for " and \
//     (a backslash before any other character stays a backslash);
//   - outside quotes, a backslash makes the next character ordinary (a blank,
//     a quote, a backslash);
//   - quoted and unquoted parts next to each other make one word: a'b c'd is
//     "ab cd"; two single quotes with nothing between them are an empty word.
//
// Nothing else is special: no variables ($HOME), globs (*), ~, redirections,
// pipes or command separators. A user who wants a shell writes sh -c '...'.
// An empty command, an unterminated quote and a trailing backslash are errors.
func SplitCommand(text string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		case c == '\\':
			if i+1 == len(text) {
				return nil, fmt.Errorf("command %q ends with a backslash", text)
			}
			i++
			word.WriteByte(text[i])
			inWord = true
		case c == '\'':
			end := strings.IndexByte(text[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("command %q: the single quote at byte %d is not closed", text, i+1)
			}
			word.WriteString(text[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			j := i + 1
			for ; j < len(text) && text[j] != '"'; j++ {
				if text[j] == '\\' && j+1 < len(text) && (text[j+1] == '"' || text[j+1] == '\\') {
					j++
				}
				word.WriteByte(text[j])
			}
			if j == len(text) {
				return nil, fmt.Errorf("command %q: the double quote at byte %d is not closed", text, i+1)
			}
			i = j
			inWord = true
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty command: give a program and its arguments, e.g. 'python3 easy.py'")
	}
	return words, nil
}

// JoinCommand is SplitCommand's inverse: it quotes each word that needs it
// (in single quotes, a ' inside written as quote, backslash, quote, quote:
// the shell's way), so that SplitCommand gives argv back. Notes and errors
// name the program with it.
func JoinCommand(argv []string) string {
	var b strings.Builder
	for i, w := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w != "" && !strings.ContainsAny(w, " \t\n\r'\"\\") {
			b.WriteString(w)
			continue
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(w, "'", `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}
