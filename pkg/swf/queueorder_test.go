package swf

import (
	"fmt"
	"strings"
	"testing"
)

// TestQueueOrder: groups highest first, '+' joins equals, blanks allowed;
// a queue twice or a word is an error; Format gives the canonical text back.
func TestQueueOrder(t *testing.T) {
	order, err := ParseQueueOrder("0, 1+12 ,2")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(order); got != "[[0] [1 12] [2]]" {
		t.Errorf("groups %s, want [[0] [1 12] [2]]", got)
	}
	if got := FormatQueueOrder(order); got != "0,1+12,2" {
		t.Errorf("formatted %q, want 0,1+12,2", got)
	}
	for in, want := range map[string]string{
		"1,2+1": "queue 1 listed twice",
		"1,x":   `"x" is not a queue number`,
		"1,,2":  `"" is not a queue number`,
		"1+ +2": `"" is not a queue number`,
		"3,1e3": `"1e3" is not a queue number`,
	} {
		if _, err := ParseQueueOrder(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", in, err, want)
		}
	}
}
