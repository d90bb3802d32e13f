package extpolicy

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

var replyCases = []struct {
	line  string
	start []int64
	timer int64 // -1: none
	ok    bool
}{
	{`{"start":[3,1,2]}`, []int64{3, 1, 2}, -1, true},
	{`{"start":[],"timer":100}`, nil, 100, true},
	{` { "timer" : 7 , "start" : [ 0 ] } ` + "\r\n", []int64{0}, 7, true},
	{`{}`, nil, -1, true},
	{`{"start":null,"timer":null}`, nil, -1, true},
	{`{"start":[-1]}`, []int64{-1}, -1, true},
	{`{"start":[1e2]}`, nil, -1, false},                  // not an integer for int64
	{`{"start":[1.0]}`, nil, -1, false},                  // idem
	{`{"start":[01]}`, nil, -1, false},                   // leading zero: not JSON
	{`{"start":[1,]}`, nil, -1, false},                   // trailing comma
	{`{"start":[1]`, nil, -1, false},                     // unterminated
	{`{"start":[1]} {}`, nil, -1, false},                 // two values
	{`{"starts":[1]}`, nil, -1, false},                   // unknown key
	{`{"start":"1"}`, nil, -1, false},                    // wrong type
	{`[1,2]`, nil, -1, false},                            // not an object
	{``, nil, -1, false},                                 // empty line
	{`{"\u0073tart":[4]}`, []int64{4}, -1, true},         // escaped key: the slow path
	{`{"start":[1],"start":[2]}`, nil, -1, false},        // a key twice: which one was meant?
	{`{"START":[1]}`, nil, -1, false},                    // another case: encoding/json would take it
	{`{"Timer":5}`, nil, -1, false},                      // idem
	{`null`, nil, -1, false},                             // not an object
	{`{"start":[99999999999999999999]}`, nil, -1, false}, // overflows int64
	{`{"start":[9223372036854775807]}`, []int64{9223372036854775807}, -1, true},
	{`{"start":[1],"quiet_ends":[0,2]}`, []int64{1}, -1, true},
	{` { "quiet_ends" : [ ] , "timer" : 9 } `, nil, 9, true},
	{`{"quiet_ends":null}`, nil, -1, true},
	{`{"quiet_ends":[1.5]}`, nil, -1, false},
	{`{"quiet_ends":"0"}`, nil, -1, false},
	{`{"quiet_ends":[1],"quiet_ends":[2]}`, nil, -1, false}, // a key twice
}

// quiet_ends is read by both paths.
func TestParseReplyQuietEnds(t *testing.T) {
	for line, want := range map[string][]int64{
		`{"start":[],"quiet_ends":[3,1]}`: {3, 1},
		`{"\u0071uiet_ends":[4]}`:         {4}, // escaped key: the slow path
		`{"start":[2]}`:                   nil,
	} {
		r := reply{QuietEnds: []int64{7}}
		if err := parseReply([]byte(line), &r); err != nil || !slices.Equal(r.QuietEnds, want) {
			t.Errorf("%s: quiet_ends %v, error %v; want %v", line, r.QuietEnds, err, want)
		}
	}
}

func TestParseReply(t *testing.T) {
	var r reply
	for _, tc := range replyCases {
		err := parseReply([]byte(tc.line), &r)
		if (err == nil) != tc.ok {
			t.Errorf("%q: error %v, want ok=%v", tc.line, err, tc.ok)
			continue
		}
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("%q: %v is not ErrMalformed", tc.line, err)
			}
			continue
		}
		timer := int64(-1)
		if r.Timer != nil {
			timer = *r.Timer
		}
		if !slices.Equal(r.Start, tc.start) || timer != tc.timer {
			t.Errorf("%q: start %v timer %d, want %v %d", tc.line, r.Start, timer, tc.start, tc.timer)
		}
	}
}

// The fast path never accepts what encoding/json rejects, and agrees with it
// on what both accept.
func FuzzReplyFastPath(f *testing.F) {
	for _, tc := range replyCases {
		f.Add([]byte(tc.line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast, slow reply
		if !parseReplyFast(line, &fast) {
			return
		}
		if err := decodeStrict(line, &slow); err != nil {
			t.Fatalf("%q: fast path accepts, encoding/json says %v", line, err)
		}
		if !slices.Equal(fast.Start, slow.Start) || !slices.Equal(fast.QuietEnds, slow.QuietEnds) || (fast.Timer == nil) != (slow.Timer == nil) ||
			(fast.Timer != nil && *fast.Timer != *slow.Timer) {
			t.Fatalf("%q: fast %v/%v, encoding/json %v/%v", line, fast.Start, fast.Timer, slow.Start, slow.Timer)
		}
	})
}

func TestParseHello(t *testing.T) {
	for _, tc := range []struct {
		line string
		want error
	}{
		{`{"protocol":1}`, nil},
		{`{"protocol":1,"note":"easy.py","every_round":true}`, nil},
		{`{"protocol":1,"start_head":true}`, nil},
		{`{"protocol":1,"start_head":"yes"}`, ErrMalformed},
		{`{"protocol":2}`, ErrProtocol},
		{`{"note":"x"}`, ErrProtocol},
		{`{"protocol":1,"colour":"red"}`, ErrMalformed},
		{`hello`, ErrMalformed},
	} {
		_, err := parseHello([]byte(tc.line))
		if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("%q: %v, want %v", tc.line, err, tc.want)
		}
	}
}

// The note goes into one header line.
func TestHelloNoteIsOneLine(t *testing.T) {
	h, err := parseHello([]byte(`{"protocol":1,"note":"a\nb\tc\r"}`))
	if err != nil || h.Note != "a b c " {
		t.Fatalf("note %q, %v; want %q", h.Note, err, "a b c ")
	}
	// NEL (C1), the line and paragraph separators and ESC: readers that
	// split on Unicode line ends would see two header lines.
	h, err = parseHello([]byte(`{"protocol":1,"note":"a\u2028b\u0085c\u2029d\u001be\u0080f"}`))
	if err != nil || h.Note != "a b c d e f" {
		t.Fatalf("note %q, %v; want %q", h.Note, err, "a b c d e f")
	}
	long := strings.Repeat("é", 400) // 800 bytes
	h, _ = parseHello([]byte(`{"protocol":1,"note":"` + long + `"}`))
	if len(h.Note) != 500+3 || !utf8.ValidString(h.Note) {
		t.Fatalf("long note: %d bytes, valid UTF-8 %v", len(h.Note), utf8.ValidString(h.Note))
	}
}

// A reply line is bounded: an endless line is an error, not all the memory.
func TestReplyLineBounded(t *testing.T) {
	endless := io.MultiReader(bytes.NewReader(bytes.Repeat([]byte("1"), maxReply+1)), strings.NewReader("\n"))
	p := New(endless, io.Discard, Options{})
	_, err := p.readLine()
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("error %v, want a malformed over-long line", err)
	}
	// What follows the limit is the rest of that line, not a line written
	// after the reply: the error must not quote it as one and ask whether
	// the program answered a message twice.
	if rejectedReply(err) {
		t.Errorf("an over-long line counts as a rejected reply, whose next line the error would quote as another")
	}
	p = New(strings.NewReader(`{"start":[1]}`+"\n"), io.Discard, Options{})
	if line, err := p.readLine(); err != nil || string(line) != `{"start":[1]}`+"\n" {
		t.Fatalf("%q, %v", line, err)
	}
}

// A reply that begins with a UTF-8 byte order mark is malformed, and the
// error says so rather than quote the decoder's "invalid character 'ï'".
func TestReplyWithByteOrderMark(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	_, err := parseHello([]byte(bom + `{"protocol":1}`))
	var r reply
	err2 := parseReply([]byte(bom+`{"start":[]}`), &r)
	for _, e := range []error{err, err2} {
		if !errors.Is(e, ErrMalformed) || (e == nil || !strings.Contains(e.Error(), "byte order mark")) {
			t.Errorf("%v; want a malformed reply naming the byte order mark", e)
		}
	}
}
