package swf

import (
	"errors"
	"strings"
	"testing"
)

// TestHeaderIntDigitGroups: a value whose integer goes on after a blank
// ("4 096", a thousands separator) is malformed, like "4,096", instead of
// being read as its first group (a machine of 4); words, units and comments
// after the integer are still read past, as archive headers have them.
func TestHeaderIntDigitGroups(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  int64 // -1: malformed
	}{
		{"8192", 8192},
		{"9216 (8 partitions)", 9216},
		{"9216(8 partitions)", 9216},
		{"64800 seconds", 64800},
		{"1024 MB", 1024},
		{"128 x 2", 128},
		{"4.0", 4},
		{"-25200", -25200},
		{"4 096", -1},
		{"4\t096", -1},
		{"4  096 processors", -1},
		{"1 048 576", -1},
		{"4,096", -1},
		{"4_096", -1},
		{"4 +1", 4}, // not a digit group: the + is a word of its own
	} {
		t.Run(tc.value, func(t *testing.T) {
			h := Header{File: "t.swf", Lines: []HeaderLine{{Label: "MaxProcs", Value: tc.value, Line: 3}}}
			v, ok, err := h.Int("MaxProcs")
			if tc.want == -1 {
				if !errors.Is(err, ErrHeaderValue) || !ok || !strings.Contains(err.Error(), "t.swf:3") {
					t.Fatalf("Int(%q) = %d, %v, %v; want a malformed-value error at t.swf:3", tc.value, v, ok, err)
				}
				return
			}
			if err != nil || !ok || v != tc.want {
				t.Fatalf("Int(%q) = %d, %v, %v; want %d", tc.value, v, ok, err, tc.want)
			}
		})
	}
}
