package swf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
)

const std = "1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1"

func readAll(t *testing.T, in string, lenient bool) ([]Job, *Reader, error) {
	t.Helper()
	r := NewReader(strings.NewReader(in))
	r.Name = "t.swf"
	r.Lenient = lenient
	var jobs []Job
	for {
		j, err := r.Read()
		if err == io.EOF {
			return jobs, r, nil
		}
		if err != nil {
			return jobs, r, err
		}
		jobs = append(jobs, j)
	}
}

func TestReaderTolerates(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		jobs     int
		runTime  int64
		cpu      float64
		extra    []string
		comments int
	}{
		{"plain", std + "\n", 1, 100, -1, nil, 0},
		{"no final newline", std, 1, 100, -1, nil, 0},
		{"tabs and padding", "  1\t0  10 100\t4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1   \n", 1, 100, -1, nil, 0},
		{"crlf", std + "\r\n" + std + "\r\n", 2, 100, -1, nil, 0},
		{"blank lines", "\n" + std + "\n\n   \n" + std + "\n", 2, 100, -1, nil, 2},
		{"bom", "\xEF\xBB\xBF" + std + "\n", 1, 100, -1, nil, 0},
		{"integral floats", "1 0 10 100.0 4 -1 -1 4 200.00 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 100, -1, nil, 0},
		{"float cpu", "1 0 10 100 4 552.21 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 100, 552.21, nil, 0},
		{"exponent", "1 0 10 1e2 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 100, -1, nil, 0},
		{"comment between jobs", std + "\n; a comment\n" + std + "\n", 2, 100, -1, nil, 1},
		{"extension tokens", std + " u=0:10,60:0 ckpt=900\n", 1, 100, -1, []string{"u=0:10,60:0", "ckpt=900"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jobs, _, err := readAll(t, tt.in, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(jobs) != tt.jobs {
				t.Fatalf("got %d jobs, want %d", len(jobs), tt.jobs)
			}
			j := jobs[len(jobs)-1]
			if j.RunTime != tt.runTime || j.AverageCPUTime != tt.cpu || j.RequestedTime != 200 {
				t.Errorf("run %d cpu %v req %d", j.RunTime, j.AverageCPUTime, j.RequestedTime)
			}
			if strings.Join(j.Extra, "|") != strings.Join(tt.extra, "|") {
				t.Errorf("extra %q, want %q", j.Extra, tt.extra)
			}
			n := 0
			for _, j := range jobs {
				n += len(j.Comments)
			}
			if n != tt.comments {
				t.Errorf("%d comment lines kept, want %d", n, tt.comments)
			}
		})
	}
}

func TestReaderErrors(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		line  int
		field int
		err   error
		msg   string
	}{
		{"too few fields", "; h\n1 0 10 100\n", 2, 0, ErrFieldCount, "t.swf:2: expected 18 whitespace-separated fields, got 4: fields 5 (Number of Allocated Processors) to 18 are missing"},
		{"one field short", "1 0 10 100 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1\n", 1, 0, ErrFieldCount, "t.swf:1: expected 18 whitespace-separated fields, got 17: field 18 (Think Time from Preceding Job) is missing"},
		{"not a number", "1 0 10 abc 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 4, ErrNumber, `t.swf:1: field 4 (Run Time): expected a number, got "abc"`},
		{"non-integral", "1 0 10.5 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 3, ErrNotInteger, `t.swf:1: field 3 (Wait Time): expected an integer, got "10.5"`},
		{"bad extra", std + "\n" + std + " q_1d\n", 2, 19, ErrExtraToken, `t.swf:2: field 19 (extension token): expected a key=value extension token after the 18 SWF fields, got "q_1d"`},
		{"second extra bad", std + " a=1 {x}\n", 1, 20, ErrExtraToken, ""},
		{"key twice", std + " pred=100 u=1 pred=200\n", 1, 21, ErrDuplicateToken, `t.swf:1: field 21 (extension token): "pred=200" repeats the key pred of field 19 ("pred=100"): give each key once`},
		{"key twice among many", std + manyTokensLine(40) + " k7=x\n", 1, 59, ErrDuplicateToken, `t.swf:1: field 59 (extension token): "k7=x" repeats the key k7 of field 26 ("k7=7"): give each key once`},
		{"empty sign", "1 0 - 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 3, ErrNumber, ""},
		{"nan", "1 0 NaN 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 3, ErrNumber, ""},
		{"beyond int64", "99999999999999999999 0 1 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 1, ErrRange,
			`t.swf:1: field 1 (Job Number): expected an integer within ±9223372036854775807 (64 bits), got "99999999999999999999"`},
		{"int64 max plus one", "9223372036854775808 0 1 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 1, ErrRange, ""},
		{"int64 min minus one", "1 0 1 100 4 -1 -1 4 200 -1 1 1 -9223372036854775809 -1 -1 -1 -1 -1\n", 1, 13, ErrRange, ""},
		{"time beyond the bound", "1 0 1 1099511627777 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 4, ErrRange,
			`t.swf:1: field 4 (Run Time): expected a time within ±1099511627776 s (about 34,800 years; swfkit's bound, so that sums of times cannot overflow), got "1099511627777"`},
		{"negative time beyond the bound", "1 -1099511627777 1 1 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 2, ErrRange, ""},
		{"cpu time beyond the bound", "1 0 1 1 4 2e12 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 6, ErrRange, ""},
		{"exponent beyond 2^53", "1 0 1 1 4 -1 1e17 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 7, ErrRange, ""},
		{"exponent beyond float", "1 0 1 1 4 -1 1e400 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 7, ErrRange, ""},
		{"procs beyond the bound", "1 0 1 1 2147483648 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 5, ErrRange,
			`t.swf:1: field 5 (Number of Allocated Processors): expected a processor count within ±2147483647 (swfkit's bound, so that sums of counts cannot overflow), got "2147483648"`},
		{"hex float", "1 0 0x1p4 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 3, ErrNumber, ""},
		{"hex float in field 6", "1 0 1 100 4 0x1p4 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 6, ErrNumber, ""},
		{"inf", "1 0 1 100 4 Inf -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 6, ErrNumber, ""},
		{"underscore", "1 0 1_0 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 3, ErrNumber, ""},
		{"fraction after big integer", "1 0 1 100 4 -1 99999999999999999999.5 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n", 1, 7, ErrNotInteger, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := readAll(t, tt.in, false)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *ParseError", err)
			}
			if pe.Line != tt.line || pe.Field != tt.field || !errors.Is(err, tt.err) {
				t.Errorf("line %d field %d err %v, want line %d field %d %v", pe.Line, pe.Field, pe.Err, tt.line, tt.field, tt.err)
			}
			if tt.msg != "" && err.Error() != tt.msg {
				t.Errorf("message %q\nwant    %q", err.Error(), tt.msg)
			}
		})
	}
}

func TestReaderLenient(t *testing.T) {
	in := std + "\nbroken line\n" + std + "\n1 2 3\n" + std + "\n"
	jobs, r, err := readAll(t, in, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 3 {
		t.Fatalf("got %d jobs, want 3", len(jobs))
	}
	n, first := r.Malformed()
	if n != 2 || len(first) != 2 || first[0].Line != 2 || first[1].Line != 4 {
		t.Fatalf("malformed %d %v", n, first)
	}
}

func TestReaderLongLine(t *testing.T) {
	long := std + " " + "x=" + strings.Repeat("y", 200000)
	jobs, _, err := readAll(t, long+"\n"+std+"\n", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 || len(jobs[0].Extra[0]) != 200002 {
		t.Fatalf("long line not read whole")
	}
}

func TestHeader(t *testing.T) {
	in := `; Version: 2.2
; Computer: IBM SP2
; Information: http://www.pdc.kth.se/
;              http://www.cs.huji.ac.il/labs/parallel/workload/
; MaxJobs: 28490
; MaxProcs: 9216 (8 partitions)
; Copyright: someone
; Note: first
; Note: second
; Queue:  0  interactive
; Queue:  1  development   long details
; UnixStartTime: soon
;
` + std + "\n"
	r := NewReader(strings.NewReader(in))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Lines) != 13 {
		t.Fatalf("%d header lines, want 13", len(h.Lines))
	}
	if l := h.Lines[3]; !l.Continuation || l.Label != "Information" || l.Value != "http://www.cs.huji.ac.il/labs/parallel/workload/" {
		t.Errorf("continuation line parsed as %+v", l)
	}
	if v, ok, err := h.MaxProcs(); v != 9216 || !ok || err != nil {
		t.Errorf("MaxProcs = %d %v %v", v, ok, err)
	}
	if _, ok, err := h.MaxNodes(); ok || err != nil {
		t.Errorf("MaxNodes should be absent")
	}
	if _, _, err := h.UnixStartTime(); !errors.Is(err, ErrHeaderValue) || !strings.Contains(err.Error(), "line 12") {
		t.Errorf("UnixStartTime error = %v", err)
	}
	if got := h.GetAll("Note"); len(got) != 2 || got[1] != "second" {
		t.Errorf("notes %q", got)
	}
	q := h.Queues()
	if len(q) != 2 || q[1].Number != 1 || q[1].Name != "development" || q[1].Details != "long details" {
		t.Errorf("queues %+v", q)
	}
	h.Set("MaxJobs", "5")
	h.AddNote("swfkit was here")
	h.Set("Computer", "CM-5")
	h.Set("Installation", "LANL")
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.WriteHeader(h)
	w.Flush()
	want := `; Version: 2.2
; Computer: CM-5
; Information: http://www.pdc.kth.se/
;              http://www.cs.huji.ac.il/labs/parallel/workload/
; MaxJobs: 5
; MaxProcs: 9216 (8 partitions)
; Copyright: someone
; Note: first
; Note: second
; Queue:  0  interactive
; Queue:  1  development   long details
; UnixStartTime: soon
; Note: swfkit was here
; Installation: LANL
;
`
	if buf.String() != want {
		t.Errorf("header written as\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestWriterLossless(t *testing.T) {
	in := "; Version: 2\r\n;\r\n  1   0  10  100  4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1 a=1\r\n\n; mid\n2 5 0 3 1 0.50 -1 1 10 -1 0 2 1 -1 -1 -1 -1 -1\n; end\n"
	r := NewReader(strings.NewReader(in))
	var buf bytes.Buffer
	w := NewWriter(&buf)
	h, _ := r.Header()
	w.WriteHeader(h)
	var jobs []Job
	for {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		w.Write(&j)
		jobs = append(jobs, j)
	}
	w.WriteTrailer(r.Trailer())
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if buf.String() != in {
		t.Fatalf("round trip changed the file:\n%q\nwant\n%q", buf.String(), in)
	}
	// Changing a field, or an extension token, gives the canonical form.
	jobs[0].WaitTime = 7
	jobs[1].SetExtra("killed", "1")
	var out []string
	for i := range jobs {
		out = append(out, string(jobs[i].AppendCanonical(nil)))
		if !jobs[i].Changed() {
			t.Errorf("job %d should count as changed", i)
		}
	}
	want := []string{
		"1 0 7 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1 a=1",
		"2 5 0 3 1 0.5 -1 1 10 -1 0 2 1 -1 -1 -1 -1 -1 killed=1",
	}
	if strings.Join(out, "\n") != strings.Join(want, "\n") {
		t.Errorf("canonical\n%s\nwant\n%s", strings.Join(out, "\n"), strings.Join(want, "\n"))
	}
}

func TestExtraEditsDoNotLeakIntoReader(t *testing.T) {
	r := NewReader(strings.NewReader(std + " a=1 b=2\n" + std + " a=3 b=4\n"))
	j1, _ := r.Read()
	j1.SetExtra("a", "9")
	j2, _ := r.Read()
	if v, _ := j2.ExtraValue("a"); v != "3" {
		t.Fatalf("second job's token a = %s", v)
	}
	if v, _ := j1.ExtraValue("a"); v != "9" {
		t.Fatalf("first job's token a = %s", v)
	}
	if j2.Changed() {
		t.Fatal("second job should be unchanged")
	}
	j2.DeleteExtra("a")
	if len(j2.Extra) != 1 || !j2.Changed() {
		t.Fatalf("DeleteExtra: %q", j2.Extra)
	}
}

func TestFieldAccess(t *testing.T) {
	var j Job
	for n := 1; n <= NumFields; n++ {
		j.SetField(n, float64(n))
	}
	f := j.values()
	for n := 1; n <= NumFields; n++ {
		want := int64(n)
		if n == FieldAverageCPUTime {
			want = int64(math.Float64bits(6))
		}
		if j.Field(n) != float64(n) || f[n-1] != want {
			t.Fatalf("field %d round trip", n)
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("field 19 should panic")
		}
	}()
	j.Field(19)
}

// Integers up to the int64 limits are read exactly (not through a float64),
// and a line holding them is written back byte-identical.
func TestReaderExactIntegersAtTheLimits(t *testing.T) {
	line := "9223372036854775807 1099511627776 -1099511627776 1 2147483647 -1 -9223372036854775808 4 1e3 -1 1 12.000 1 9007199254740993 -1 -1 -1 -1"
	jobs, _, err := readAll(t, line+"\n", false)
	if err != nil {
		t.Fatal(err)
	}
	j := jobs[0]
	if j.JobNumber != math.MaxInt64 || j.SubmitTime != MaxTime || j.WaitTime != -MaxTime ||
		j.Executable != 9007199254740993 || j.UsedMemory != math.MinInt64 || j.RequestedTime != 1000 || j.UserID != 12 {
		t.Errorf("read %+v", j)
	}
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Write(&j)
	w.Flush()
	if b.String() != line+"\n" {
		t.Errorf("written back as %q", b.String())
	}
	// Changing a value by one at the limit is seen as a change.
	j.Executable--
	if !j.Changed() {
		t.Error("a change of 1 in 9007199254740993 is not seen")
	}
}

func TestParseDecimal(t *testing.T) {
	for _, s := range []string{"0", "1.5", "-2", "+3e2", ".5", "1e-3"} {
		if _, err := ParseDecimal(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, s := range []string{"", "0x1p4", "0x10", "NaN", "Inf", "-inf", "1_000", "1e999", "abc", " 1"} {
		if v, err := ParseDecimal(s); err == nil {
			t.Errorf("%q accepted as %v", s, v)
		}
	}
}

// writeAll reads in and writes it back, calling edit on the header and each
// job first.
func writeAll(t *testing.T, in string, edit func(h *Header, jobs []*Job)) string {
	t.Helper()
	r := NewReader(strings.NewReader(in))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	var jobs []*Job
	for {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, &j)
	}
	if edit != nil {
		edit(h, jobs)
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.WriteHeader(h)
	for _, j := range jobs {
		w.Write(j)
	}
	w.WriteTrailer(r.Trailer())
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// A CRLF trace stays CRLF: a last line without its newline, a record in
// canonical form and a header line a tool adds all end in "\r\n". An LF
// trace gets LF for the same lines.
func TestWriterKeepsLineEndings(t *testing.T) {
	job2 := "2 5 0 3 1 -1 -1 1 10 -1 0 2 1 -1 -1 -1 -1 -1"
	for _, nl := range []string{"\r\n", "\n"} {
		in := "; Version: 2.2" + nl + "; MaxProcs: 4" + nl + std + nl + job2
		edit := func(h *Header, jobs []*Job) {
			h.AddNote("added by a tool")
			jobs[1].WaitTime = 7
		}
		got := writeAll(t, in, edit)
		want := "; Version: 2.2" + nl + "; MaxProcs: 4" + nl + "; Note: added by a tool" + nl + std + nl +
			"2 5 7 3 1 -1 -1 1 10 -1 0 2 1 -1 -1 -1 -1 -1" + nl
		if got != want {
			t.Errorf("newline %q:\n%q\nwant\n%q", nl, got, want)
		}
		// Unchanged, only the last line's newline is added.
		if got := writeAll(t, in, nil); got != in+nl {
			t.Errorf("newline %q, unchanged:\n%q\nwant\n%q", nl, got, in+nl)
		}
	}
}

// TestFollowHeader: a body written apart from its header (FollowHeader)
// ends its composed lines as one Writer writing both would, whatever the mix
// of line endings in the header and whatever lines a tool adds to the header
// after the body was written.
func TestFollowHeader(t *testing.T) {
	changed := "1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1 u=0:1,10:0"
	inputs := map[string]string{
		"lf":                    "; Version: 2.2\n; MaxProcs: 4\n" + std + "\n",
		"crlf":                  "; Version: 2.2\r\n; MaxProcs: 4\r\n" + std + "\r\n",
		"crlf first, lf last":   "; Version: 2.2\r\n; MaxProcs: 4\n" + std + "\n",
		"lf first, crlf last":   "; Version: 2.2\n; MaxProcs: 4\r\n" + std + "\r\n",
		"crlf first, lf kept":   "; MaxProcs: 4\r\n; Version: 2.2\n" + std + "\n",
		"lf first, crlf kept":   "; MaxProcs: 4\n; Version: 2.2\r\n" + std + "\n",
		"no header, crlf":       std + "\r\n" + std + "\n",
		"bom, crlf":             "\xEF\xBB\xBF; MaxProcs: 4\r\n" + std + "\r\n",
		"closing semicolon lf":  "; MaxProcs: 4\r\n;\n" + std + "\r\n",
		"continuation replaced": "; MaxProcs: 4\r\n;   more\n; Note: x\r\n" + std + "\n",
	}
	read := func(t *testing.T, in string) (*Reader, *Header, []Job) {
		r := NewReader(strings.NewReader(in))
		h, err := r.Header()
		if err != nil {
			t.Fatal(err)
		}
		h.Set("MaxProcs", "8") // before the body is written: it replaces read lines
		var jobs []Job
		for {
			j, err := r.Read()
			if err == io.EOF {
				return r, h, jobs
			}
			if err != nil {
				t.Fatal(err)
			}
			j.Extra = []string{"u=0:1,10:0"} // changed: composed
			jobs = append(jobs, j)
		}
	}
	const note = "added after the body was written"
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			var once bytes.Buffer
			r, h, jobs := read(t, in)
			h.AddNote(note)
			w := NewWriter(&once)
			w.Follow(r)
			w.WriteHeader(h)
			for i := range jobs {
				w.Write(&jobs[i])
			}
			w.Flush()

			var header, body bytes.Buffer
			r, h, jobs = read(t, in)
			bw := NewWriter(&body)
			bw.FollowHeader(r, h)
			for i := range jobs {
				bw.Write(&jobs[i])
			}
			bw.Flush()
			h.AddNote(note)
			hw := NewWriter(&header)
			hw.Follow(r)
			hw.WriteHeader(h)
			hw.Flush()
			if got := header.String() + body.String(); got != once.String() {
				t.Errorf("apart:\n%q\nwant (one writer):\n%q", got, once.String())
			}
			if !strings.Contains(once.String(), changed) {
				t.Errorf("no changed record in %q", once.String())
			}
		})
	}
}

// NonEmpty refuses an input with nothing in it, naming it, and accepts a
// blank line or a header without records.
func TestNonEmpty(t *testing.T) {
	for in, wantErr := range map[string]bool{"": true, "\n": false, "; MaxProcs: 8\n": false} {
		r := NewReader(strings.NewReader(in))
		r.Name = "t.swf"
		err := r.NonEmpty()
		if got := err != nil; got != wantErr {
			t.Errorf("%q: NonEmpty() = %v, want an error: %v", in, err, wantErr)
		}
		if err != nil && (!errors.Is(err, ErrEmpty) || !strings.HasPrefix(err.Error(), "t.swf: empty input")) {
			t.Errorf("%q: error %q should wrap ErrEmpty and name the file", in, err)
		}
	}
}

// HasRecords refuses an empty input as NonEmpty does and names a header-only
// one (comment and blank lines only) with ErrHeaderOnly; a record line, even
// a malformed one read leniently, is a record.
func TestHasRecords(t *testing.T) {
	for _, tc := range []struct {
		in      string
		lenient bool
		want    error
	}{
		{"", false, ErrEmpty},
		{"\n\n", false, ErrHeaderOnly},
		{"; Version: 2.2\n; MaxProcs: 8\n;\n", false, ErrHeaderOnly},
		{"; MaxProcs: 8", false, ErrHeaderOnly}, // no final newline
		{"; MaxProcs: 8\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 -1 1 -1 -1 -1\n", false, nil},
		{"; MaxProcs: 8\nnot a record\n", true, nil},
	} {
		r := NewReader(strings.NewReader(tc.in))
		r.Name, r.Lenient = "t.swf", tc.lenient
		err := r.HasRecords()
		if !errors.Is(err, tc.want) || (err == nil) != (tc.want == nil) {
			t.Errorf("%q: HasRecords() = %v, want %v", tc.in, err, tc.want)
		}
		if tc.want == ErrHeaderOnly && (err == nil || !strings.HasPrefix(err.Error(), "t.swf: no job lines (header only)")) {
			t.Errorf("%q: error %q should name the file", tc.in, err)
		}
		if tc.want == nil {
			if _, err := r.Read(); err != nil && !tc.lenient {
				t.Errorf("%q: Read after HasRecords: %v", tc.in, err)
			}
		}
	}
}

// NotAMachineSize names a MaxProcs or MaxNodes below 1 and its value in
// one phrase, for messages that would otherwise say the labels are missing.
func TestNotAMachineSize(t *testing.T) {
	for in, want := range map[string]string{
		"; MaxProcs: -5\n":               "the header's MaxProcs -5 is not a machine size",
		"; MaxProcs: 0\n; MaxNodes: 4\n": "the header's MaxProcs 0 is not a machine size",
		"; MaxNodes: -1\n":               "the header's MaxNodes -1 is not a machine size",
		"; MaxProcs: 128\n":              "",
		"; Version: 2\n":                 "",
		// Malformed: Int's error says so to the tools that stop there;
		// swfclean --check reads on and says why the size is unknown.
		"; MaxProcs: lots\n":              `the header's MaxProcs "lots" is not a whole number`,
		"; MaxProcs: 4 096\n":             `the header's MaxProcs "4 096" is not a whole number`,
		"; MaxProcs: 64\n; MaxNodes: x\n": `the header's MaxNodes "x" is not a whole number`, // asked only when no label gives a size
	} {
		h, err := NewReader(strings.NewReader(in)).Header()
		if err != nil {
			t.Fatal(err)
		}
		if got := h.NotAMachineSize(); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// A value added to the header with a line break in it (a file name can
// hold one) stays one comment line: the rest must not be read as a record.
func TestAddedHeaderValuesStayOneLine(t *testing.T) {
	var h Header
	h.AddNote("converted from a\nb.txt")
	h.Set("Computer", "x\r\ny")
	h.Add("Queue", "1 q\rz")
	h.Apply("Note", "p\nq")
	var b strings.Builder
	w := NewWriter(&b)
	w.WriteHeader(&h)
	w.Flush()
	got := b.String()
	want := "; Note: converted from a\\nb.txt\n; Computer: x\\ny\n; Queue: 1 q\\rz\n; Note: p\\nq\n"
	if got != want {
		t.Errorf("header written as %q, want %q", got, want)
	}
}

// A label the format defines is read without the blank after its colon or
// with blanks before it; any other word before a colon needs the blank, so
// a URL or a remark stays a comment.
func TestLabelSpacing(t *testing.T) {
	for raw, want := range map[string][2]string{
		"; MaxProcs:8":               {"MaxProcs", "8"},
		"; MaxProcs : 8":             {"MaxProcs", "8"},
		";maxnodes:\t16":             {"maxnodes", "16"},
		"; Note:see below":           {"Note", "see below"},
		"; Copyright: me":            {"Copyright", "me"},
		"; http://example.org/x":     {"", "http://example.org/x"},
		"; Copyright:me":             {"", "Copyright:me"},
		"; remark : with blank":      {"", "remark : with blank"},
		"; UnixStartTime:1700000000": {"UnixStartTime", "1700000000"},
	} {
		l := parseHeaderLine(raw, 1, "")
		if l.Label != want[0] || l.Value != want[1] {
			t.Errorf("%q: label %q value %q, want %q %q", raw, l.Label, l.Value, want[0], want[1])
		}
	}
	h, _ := NewReader(strings.NewReader("; MaxProcs:128\n")).Header()
	if v, ok, err := h.MaxProcs(); v != 128 || !ok || err != nil {
		t.Errorf("MaxProcs:128 read as %d %v %v", v, ok, err)
	}
}

// manyTokensLine is n distinct tokens " k0=0 k1=1 ...".
func manyTokensLine(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, " k%d=%d", i, i)
	}
	return b.String()
}

// TestReaderManyTokens: a line of many distinct tokens is read, and its
// keys checked, in time linear in their number (50,000 tokens took
// about a minute with a comparison per earlier token).
func TestReaderManyTokens(t *testing.T) {
	std := "1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1"
	r := NewReader(strings.NewReader(std + manyTokensLine(50000) + "\n" + std + manyTokensLine(20) + "\n")) // the second line reuses the keys
	for range 2 {
		if _, err := r.Read(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTokenError: the error for a token's value names its field (19 for
// the first token) and is ErrTokenValue.
func TestTokenError(t *testing.T) {
	r := NewReader(strings.NewReader("1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1 a=1 u=x uu=2\n"))
	j, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	e := j.TokenError("t.swf", "u", "u=x: bad")
	if e.Field != 20 || !errors.Is(e, ErrTokenValue) || e.Error() != "t.swf:1: field 20 (extension token): u=x: bad" {
		t.Errorf("%v (field %d)", e, e.Field)
	}
}

// TestReaderRecordsAndFirstMalformedLine: what a tool needs to tell a lenient
// read that skipped some lines from one that skipped every line, and to say
// what the input looked like.
func TestReaderRecordsAndFirstMalformedLine(t *testing.T) {
	long := "x " + strings.Repeat("y", 5000)
	r := NewReader(strings.NewReader("; h\nnot a job\n" + std + "\n" + long + "\n"))
	r.Lenient = true
	for {
		if _, err := r.Read(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := r.Malformed(); n != 2 || r.Records() != 1 || r.FirstMalformedLine() != "not a job" {
		t.Errorf("malformed %d, records %d, first line %q; want 2, 1, \"not a job\"", n, r.Records(), r.FirstMalformedLine())
	}
	r = NewReader(strings.NewReader(long + "\n"))
	r.Lenient = true
	if _, err := r.Read(); err != io.EOF || r.Records() != 0 || len(r.FirstMalformedLine()) != 4096 {
		t.Errorf("err %v, records %d, first line of %d bytes; want EOF, 0, 4096 (cut)", err, r.Records(), len(r.FirstMalformedLine()))
	}
}

// TestReaderFirstMalformedLineStrict: without Lenient, FirstMalformedLine is
// the line whose error Read returned (the first, when the caller reads on),
// so that a tool can say what the input looks like at its first error too.
func TestReaderFirstMalformedLineStrict(t *testing.T) {
	r := NewReader(strings.NewReader("; h\n" + std + "\nJobID|State\nnot a job\n"))
	if _, err := r.Read(); err != nil || r.FirstMalformedLine() != "" {
		t.Fatalf("err %v, first line %q after a record; want none, \"\"", err, r.FirstMalformedLine())
	}
	for _, want := range []string{"JobID|State", "JobID|State"} {
		var pe *ParseError
		if _, err := r.Read(); !errors.As(err, &pe) || r.FirstMalformedLine() != want {
			t.Errorf("err %v, first line %q; want a *ParseError, %q", err, r.FirstMalformedLine(), want)
		}
	}
}

// UnterminatedLine names the last record line when no newline follows it
// (where a cut file ends, and a cut inside the last field still parses), and
// is 0 for a file that ends in a newline or in comment or blank lines.
func TestUnterminatedLine(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		lenient bool
		want    int
	}{
		{"final newline", "; MaxProcs: 10\n" + std + "\n" + std + "\n", false, 0},
		{"no final newline", "; MaxProcs: 10\n" + std + "\n" + std, false, 3},
		{"cut in the last field", "; MaxProcs: 10\n1 0 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 12", false, 2},
		{"cut in a token", "; MaxProcs: 10\n" + std + " ckpt=6", false, 2},
		{"only record, first line", std, false, 1},
		{"crlf with final newline", "; MaxProcs: 10\r\n" + std + "\r\n", false, 0},
		{"crlf without final newline", "; MaxProcs: 10\r\n" + std + "\r\n" + std, false, 3},
		{"crlf cut after the cr", "; MaxProcs: 10\r\n" + std + "\r", false, 2},
		{"trailing comment without newline", std + "\n; end of trace", false, 0},
		{"trailing blank without newline", std + "\n   ", false, 0},
		{"header only without newline", "; MaxProcs: 10", false, 0},
		{"long last line", std + " x=" + strings.Repeat("y", 200000), false, 1},
		{"lenient, malformed last line", std + "\n1 0 0 10 1 -1", true, 2},
		{"lenient, malformed line before", "1 0 0\n" + std, true, 2},
		{"lenient, malformed line with newline", std + "\n1 0 0\n", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, r, err := readAll(t, tc.in, tc.lenient)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.UnterminatedLine(); got != tc.want {
				t.Errorf("UnterminatedLine() = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestReaderDamaged: Damaged is asked before a malformed record's error is
// returned, and its error replaces it; nil keeps the line's error; it is
// not asked with Lenient, nor for a sound input.
func TestReaderDamaged(t *testing.T) {
	damage := errors.New("corrupt gzip data")
	for _, tc := range []struct {
		name    string
		in      string
		lenient bool
		check   error
		want    error // nil: a *ParseError
		asked   int
	}{
		{"damaged", "1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\nx 2 3\n", false, damage, damage, 1},
		{"sound, bad line", "x 2 3\n", false, nil, nil, 1},
		{"lenient", "x 2 3\n", true, damage, io.EOF, 0},
		{"no bad line", "1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n", false, damage, io.EOF, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.in))
			r.Lenient = tc.lenient
			asked := 0
			r.Damaged = func() error { asked++; return tc.check }
			var err error
			for err == nil {
				_, err = r.Read()
			}
			var perr *ParseError
			if tc.want == nil && !errors.As(err, &perr) || tc.want != nil && err != tc.want || asked != tc.asked {
				t.Errorf("error %v, Damaged asked %d times; want %v, %d", err, asked, tc.want, tc.asked)
			}
		})
	}
}
