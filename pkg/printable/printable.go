package printable

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Label is s for one line of text: every control character replaced, tabs
// and line breaks too.
func Label(s string) string { return escape(s, "") }

// Text is s for a block of text such as a <pre>: tabs and line breaks are
// kept, other control characters replaced.
func Text(s string) string { return escape(s, "\t\n") }

func escape(s, keep string) string {
	bad := func(r rune) bool {
		return (unicode.IsControl(r) && !strings.ContainsRune(keep, r)) || r == 0xFFFE || r == 0xFFFF
	}
	if utf8.ValidString(s) && !strings.ContainsFunc(s, bad) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case bad(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case bad(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
