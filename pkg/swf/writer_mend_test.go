package swf

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

// LeadingComposed counts the composed lines before the first line read
// from a file, with the ending they got; CopyMendingLeading gives those lines
// the other ending and copies the rest as it is, lines longer than its
// reader's buffer included.
func TestLeadingComposedMended(t *testing.T) {
	r := NewReader(strings.NewReader("; MaxProcs: 4\r\n1 0 1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\r\n"))
	if _, err := r.Header(); err != nil {
		t.Fatal(err)
	}
	var spool bytes.Buffer
	w := NewWriter(&spool)
	w.FollowEnding(r)
	long := strings.Repeat("x", 100)
	w.WriteComment(long)
	w.WriteComment("b")
	w.line([]byte("raw\r"), false)
	w.WriteComment("after")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if n, cr := w.LeadingComposed(); n != 2 || !cr {
		t.Fatalf("LeadingComposed = %d, %v, want 2, true", n, cr)
	}
	var out bytes.Buffer
	if err := CopyMendingLeading(&out, bufio.NewReaderSize(&spool, 16), 2, false); err != nil {
		t.Fatal(err)
	}
	if want := long + "\nb\nraw\r\nafter\r\n"; out.String() != want {
		t.Errorf("mended %q, want %q", out.String(), want)
	}
	if err := CopyMendingLeading(&out, bufio.NewReader(strings.NewReader("one\n")), 2, true); err == nil {
		t.Error("two lines to mend in one: no error")
	}
}
