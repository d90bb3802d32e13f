package printable

import (
	"fmt"
	"testing"
)

func TestLabelAndText(t *testing.T) {
	for _, c := range []struct{ in, label, text string }{
		{"Malmö Ωμέγα 日本.swf", "Malmö Ωμέγα 日本.swf", "Malmö Ωμέγα 日本.swf"},
		{"inv\xffname.swf", `inv\xffname.swf`, `inv\xffname.swf`},
		{"cut\xc3", `cut\xc3`, `cut\xc3`},
		{"; Note: \x1b[31mred\x01", `; Note: \x1b[31mred\x01`, `; Note: \x1b[31mred\x01`},
		{"a\tb\nc\x7f", `a\x09b\x0ac\x7f`, "a\tb\nc\\x7f"},
		{"c1\u0085 nonchar\uffff", `c1\x85 nonchar\uffff`, `c1\x85 nonchar\uffff`},
		// A real U+FFFD is a character like any other.
		{"\ufffd", "\ufffd", "\ufffd"},
	} {
		if got := Label(c.in); got != c.label {
			t.Errorf("Label(%q) = %q, want %q", c.in, got, c.label)
		}
		if got := Text(c.in); got != c.text {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.text)
		}
	}
}

func ExampleLabel() {
	fmt.Println(Label("run\xff1.swf"))
	// Output: run\xff1.swf
}
