package plot

import (
	"slices"
	"testing"
)

// Latin, Greek, Cyrillic and the usual punctuation are in the font; CJK and
// symbols such as a snowman are not.
func TestUndrawable(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []rune
	}{
		{"easy, conservative (k=3) #2 é ü ß", nil},
		{"Ωμέγα Жук", nil},
		{"日本語 run 日", []rune{'日', '本', '語'}},
		{"☃ snow", []rune{'☃'}},
		// Drawn as the text \xff, not as U+FFFD, which the font lacks.
		{"inv\xffname.swf", nil},
	} {
		if got := Undrawable(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Undrawable(%q) = %q, want %q", c.in, string(got), string(c.want))
		}
	}
}
