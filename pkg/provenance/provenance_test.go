package provenance

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

func TestFormatParse(t *testing.T) {
	tests := []struct {
		rec  Record
		line string
	}{
		{Record{Tool: "swfsim", Fields: []Field{{"version", "0.1.0-dev"}, {"policy", "easy"}, {"no-kill", "false"}, {"target", "0.9"}}},
			"swfsim version=0.1.0-dev policy=easy no-kill=false target=0.9"},
		{Record{Tool: "swfclean", Fields: []Field{{"filter", "user=374 and job>14968"}, {"filter", "a,b"}, {"output", ""}}},
			`swfclean filter="user=374 and job>14968" filter=a,b output=""`},
		{Record{Tool: "swfaugment", Fields: []Field{{"decay", "linear:1,exponential:1"}, {"path", "/tmp/x y/\"q\"\n"}}},
			`swfaugment decay=linear:1,exponential:1 path="/tmp/x y/\"q\"\n"`},
		{Record{Tool: "swfstat"}, "swfstat"},
	}
	for _, tt := range tests {
		if got := tt.rec.Format(); got != tt.line {
			t.Errorf("Format = %q, want %q", got, tt.line)
		}
		back, err := Parse("  " + tt.line + " \r")
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.line, err)
			continue
		}
		if !reflect.DeepEqual(back, tt.rec) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.line, back, tt.rec)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		text   string
		offset int
		msg    string
	}{
		{"", 0, "tool name"},
		{"swfsim policy", 7, "KEY=VALUE"},
		{"swfsim =easy", 7, "KEY=VALUE"},
		{"swfsim policy=", 14, "expected a value"},
		{`swfsim label="open`, 13, "unterminated"},
		{"swfsim label=a\"b", 14, "unquoted value"},
		{"swfsim a=1  b=2", 11, "KEY=VALUE"},
		{`swfsim a="x"b=2`, 12, "space between fields"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.text)
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) = %v, want a SyntaxError", tt.text, err)
			continue
		}
		if se.Offset != tt.offset || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("Parse(%q): offset %d %q, want %d and %q", tt.text, se.Offset, se.Msg, tt.offset, tt.msg)
		}
	}
}

func TestColumns(t *testing.T) {
	recs := []Record{
		{Tool: "swfaugment", Fields: []Field{{"seed", "1"}, {"target-load", "0.9"}}},
		{Tool: "swfaugment", Fields: []Field{{"seed", "7"}}},
		{Tool: "swfclean", Fields: []Field{{"skip", "a"}, {"skip", "b"}}},
		{Tool: "swfsim", Fields: []Field{{"policy", "easy"}}},
		{Tool: "swfclean", Fields: []Field{{"set", "Note=a, b"}, {"set", "Note=c"}, {"set", ""}, {"set", `say "x"`}, {"one", "x,y"}}},
	}
	got := Columns(recs)
	want := []Column{{"swfaugment.seed", "1"}, {"swfaugment.target-load", "0.9"}, {"swfaugment_2.seed", "7"},
		{"swfclean.skip", "a,b"}, {"swfsim.policy", "easy"},
		// A list whose values hold commas or quotes, or are empty, quotes those values;
		// a single value is as it is.
		{"swfclean_2.set", `"Note=a, b",Note=c,"","say \"x\""`}, {"swfclean_2.one", "x,y"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Columns = %v, want %v", got, want)
	}
}

func TestHeaderRoundTrip(t *testing.T) {
	r := swf.NewReader(strings.NewReader("; Version: 2.2\n; MaxProcs: 8\n;\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 -1 -1 -1 -1 -1\n"))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	a := Record{Tool: "swfaugment", Fields: []Field{{"seed", "3"}}}
	b := Record{Tool: "swfsim", Fields: []Field{{"policy", "easy"}, {"label", "x y"}}}
	AddTo(h, a)
	AddTo(h, b)
	var out strings.Builder
	w := swf.NewWriter(&out)
	w.WriteHeader(h)
	w.Flush()
	want := "; Version: 2.2\n; MaxProcs: 8\n; Provenance: swfaugment seed=3\n; Provenance: swfsim policy=easy label=\"x y\"\n;\n"
	if out.String() != want {
		t.Fatalf("header written:\n%s\nwant:\n%s", out.String(), want)
	}
	h2, err := swf.NewReader(strings.NewReader(out.String())).Header()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := FromHeader(h2)
	if err != nil || !reflect.DeepEqual(recs, []Record{a, b}) {
		t.Errorf("FromHeader = %v, %v", recs, err)
	}
	h2.Add(Label, "swfsim bad=\"")
	h2.File = "t.swf"
	if _, err := FromHeader(h2); err == nil || !strings.Contains(err.Error(), "t.swf:0: header Provenance line") {
		t.Errorf("bad line error %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(`swfsim policy=easy label="x y" a=""`)
	f.Add("swfclean")
	f.Fuzz(func(t *testing.T, text string) {
		r, err := Parse(text)
		if err != nil {
			return
		}
		// What parses formats to a line that parses to the same record.
		again, err := Parse(r.Format())
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", text, r, r.Format(), again, err)
		}
	})
}

// A Provenance line whose first word is no swfkit tool is someone else's:
// left out and reported by Foreign, not an error; a swfkit line that does
// not parse still is one.
func TestForeignProvenanceLines(t *testing.T) {
	read := func(text string) *swf.Header {
		h, err := swf.NewReader(strings.NewReader(text)).Header()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	h := read("; MaxProcs: 8\n; Provenance: made by hand on Tuesday\n; Provenance: swfsim policy=easy\n")
	recs, err := FromHeader(h)
	if err != nil || len(recs) != 1 || recs[0].Tool != "swfsim" {
		t.Errorf("FromHeader: %v, %v", recs, err)
	}
	if got := Foreign(h); len(got) != 1 || got[0] != 2 {
		t.Errorf("Foreign: %v, want [2]", got)
	}
	if _, err := FromHeader(read("; Provenance: swfsim policy\n")); err == nil {
		t.Error("a swfsim line that does not parse: no error")
	}
}

// TestFromHeaderForeignLines: FromHeader leaves out the lines no swfkit tool
// wrote, an empty one too; AllFromHeader keeps them in place.
func TestFromHeaderForeignLines(t *testing.T) {
	h := &swf.Header{}
	for _, v := range []string{"swfclean version=1 input=a", "", "mytool x=1", "swfsim version=1 policy=easy input=-"} {
		h.Add(Label, v)
	}
	recs, err := FromHeader(h)
	if err != nil || len(recs) != 2 || recs[0].Tool != "swfclean" || recs[1].Tool != "swfsim" {
		t.Errorf("FromHeader: %v, %+v", err, recs)
	}
	all, err := AllFromHeader(h)
	if err != nil || len(all) != 4 || all[2].Tool != "mytool" || all[2].Other != "mytool x=1" {
		t.Errorf("AllFromHeader: %v, %+v", err, all)
	}
}

// TestFormatFloat: plain decimals from 1e-4 up to 1e21, as lines always
// wrote them, exponent form outside; every value is bare in a line and reads
// back to the same float.
func TestFormatFloat(t *testing.T) {
	for _, tt := range []struct {
		x    float64
		want string
	}{
		{0, "0"}, {0.5, "0.5"}, {2, "2"}, {100, "100"}, {0.04, "0.04"}, {3600, "3600"},
		{0.30000000000000004, "0.30000000000000004"}, {-0.9, "-0.9"},
		{1e-4, "0.0001"}, {9.999999999999999e-05, "9.999999999999999e-05"},
		{1e-7, "1e-07"}, {1e-9, "1e-09"}, {-2.5e-8, "-2.5e-08"}, {1e-300, "1e-300"},
		{math.SmallestNonzeroFloat64, "5e-324"},
		{1e20, "100000000000000000000"}, {1e21, "1e+21"}, {math.MaxFloat64, "1.7976931348623157e+308"},
	} {
		got := FormatFloat(tt.x)
		if got != tt.want {
			t.Errorf("FormatFloat(%v) = %s, want %s", tt.x, got, tt.want)
		}
		if back, err := strconv.ParseFloat(got, 64); err != nil || back != tt.x {
			t.Errorf("FormatFloat(%v) = %s reads back as %v, %v", tt.x, got, back, err)
		}
		if Quote(got) != got {
			t.Errorf("FormatFloat(%v) = %s is quoted in a line: %s", tt.x, got, Quote(got))
		}
	}
}
