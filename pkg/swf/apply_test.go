package swf

import (
	"strings"
	"testing"
)

// TestHeaderApply: --set keeps an archive's Note and queue definitions; a
// label that cannot repeat is replaced.
func TestHeaderApply(t *testing.T) {
	const in = "; Version: 2.2\n; Note: the archive's note\n; Queue: 1 batch\n;    continued\n; Queue: 2 short\n; MaxProcs: 8\n;\n"
	r := NewReader(strings.NewReader(in + "1 0 0 1 1 -1 -1 1 1 -1 1 1 1 -1 -1 -1 -1 -1\n"))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	h.Apply("Note", "mine")
	h.Apply("note", "mine too")
	h.Apply("Queue", "1 interactive")
	h.Apply("Queue", "3 long")
	h.Apply("MaxProcs", "16")
	h.Apply("Installation", "Site X")
	var got []string
	for _, l := range h.Lines {
		got = append(got, l.Raw)
	}
	want := []string{"; Version: 2.2", "; Note: the archive's note", "; Queue: 1 interactive", "; Queue: 2 short",
		"; MaxProcs: 16", "; Note: mine", "; note: mine too", "; Queue: 3 long", "; Installation: Site X", ";"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("header:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
