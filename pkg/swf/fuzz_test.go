package swf

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

// readJobs reads every job of data; ok is false on the first error.
func readJobs(data []byte) (jobs []Job, out []byte, ok bool) {
	r := NewReader(bytes.NewReader(data))
	var buf bytes.Buffer
	w := NewWriter(&buf)
	h, err := r.Header()
	if err != nil {
		return nil, nil, false
	}
	w.WriteHeader(h)
	for {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, false
		}
		w.Write(&j)
		jobs = append(jobs, j)
	}
	w.WriteTrailer(r.Trailer())
	w.Flush()
	return jobs, buf.Bytes(), true
}

// FuzzReadWrite: whatever parses, written back (raw or canonical) reads back to
// the same jobs, and an unchanged file is written byte-identical up to the BOM and
// the final newline.
func FuzzReadWrite(f *testing.F) {
	f.Add([]byte("; Version: 2\n;\n" + std + "\n"))
	f.Add([]byte(std + " u=0:1,5:0\r\n; c\n\n" + std))
	f.Add([]byte("1 0 10 100.0 4 552.21 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"))
	f.Add([]byte("1 0 1e2 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, out, ok := readJobs(data)
		if !ok {
			return
		}
		jobs2, _, ok := readJobs(out)
		if !ok {
			t.Fatalf("written output does not parse:\n%q", out)
		}
		if len(jobs) != len(jobs2) {
			t.Fatalf("%d jobs, then %d", len(jobs), len(jobs2))
		}
		for i := range jobs {
			if jobs[i].values() != jobs2[i].values() {
				t.Fatalf("job %d: %v then %v", i, jobs[i].values(), jobs2[i].values())
			}
			// The canonical form reads back to the same values too.
			canon := jobs[i].AppendCanonical(nil)
			back, _, ok := readJobs(append(canon, '\n'))
			if !ok || len(back) != 1 || back[0].values() != jobs[i].values() {
				t.Fatalf("canonical %q does not read back", canon)
			}
		}
	})
}

// FuzzParseIntLimits: an integer field is read exactly as strconv.ParseInt
// reads a plain decimal, out-of-range values are ErrRange (never a wrapped
// number), and a record that parses is written back byte-identical.
func FuzzParseIntLimits(f *testing.F) {
	for _, s := range []string{"9223372036854775807", "9223372036854775808", "-9223372036854775808",
		"-9223372036854775809", "99999999999999999999", "18446744073709551615", "18446744073709551616",
		"9007199254740993", "1e18", "9.223372036854775807e18", "-0", "+12.000", "12.5", "0x1p4",
		"1099511627776", "1099511627777", "-1099511627776", "2147483647", "2147483648"} {
		f.Add(s, 1)
		f.Add(s, 4)
		f.Add(s, 8)
	}
	f.Fuzz(func(t *testing.T, tok string, field int) {
		if field < 1 || field > NumFields || field == FieldAverageCPUTime || tok == "" {
			return
		}
		for _, c := range []byte(tok) {
			if isSpace(c) || c == '\n' || c == ';' {
				return
			}
		}
		v, res := parseInt([]byte(tok))
		if plain, err := strconv.ParseInt(tok, 10, 64); err == nil {
			if res != numOK || v != plain {
				t.Fatalf("%q: %d %v, strconv says %d", tok, v, res, plain)
			}
		} else if errors.Is(err, strconv.ErrRange) && plainDecimal(tok) && res != numRange {
			t.Fatalf("%q: %d %v, strconv says out of range", tok, v, res)
		}
		fields := strings.Fields("1 0 1 1 4 -1 -1 4 1 -1 1 1 1 -1 -1 -1 -1 -1")
		fields[field-1] = tok
		line := strings.Join(fields, " ") + "\n"
		jobs, out, ok := readJobs([]byte(line))
		if !ok {
			_, err := NewReader(strings.NewReader(line)).Read()
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Field != field {
				t.Fatalf("%q: error %v does not name field %d", line, err, field)
			}
			return
		}
		if string(out) != line {
			t.Fatalf("%q written back as %q", line, out)
		}
		got := *jobs[0].intField(field)
		if res != numOK || got != v {
			t.Fatalf("%q: field %d = %d, parseInt %d %v", tok, field, got, v, res)
		}
		if isTimeField(field) && (got > MaxTime || got < -MaxTime) {
			t.Fatalf("%q: time %d beyond MaxTime accepted", tok, got)
		}
		if isProcsField(field) && (got > MaxProcessors || got < -MaxProcessors) {
			t.Fatalf("%q: processor count %d beyond MaxProcessors accepted", tok, got)
		}
	})
}

// plainDecimal reports whether s is an optional sign and digits.
func plainDecimal(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return len(s) > 0 && strings.Trim(s, "0123456789") == "" && len(s) == len(strings.TrimSpace(s))
}

// FuzzUnterminatedLine: UnterminatedLine is 0 for an input ending in a
// newline, and otherwise either 0 (the last line is a comment or blank) or
// the last line's number, which is then the last job's line; a written
// trace always ends in a newline.
func FuzzUnterminatedLine(f *testing.F) {
	f.Add([]byte("; MaxProcs: 10\n" + std))
	f.Add([]byte(std + "\r\n" + std))
	f.Add([]byte(std + "\n; end"))
	f.Add([]byte(std + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		last := 0
		for {
			j, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				return
			}
			last = j.Line
		}
		got := r.UnterminatedLine()
		switch {
		case len(data) > 0 && data[len(data)-1] == '\n' && got != 0:
			t.Fatalf("UnterminatedLine() = %d for an input ending in a newline", got)
		case got != 0 && (got != r.Line() || got != last):
			t.Fatalf("UnterminatedLine() = %d, last line %d, last job's line %d", got, r.Line(), last)
		}
		if _, out, ok := readJobs(data); ok {
			r := NewReader(bytes.NewReader(out))
			for {
				if _, err := r.Read(); err != nil {
					break
				}
			}
			if n := r.UnterminatedLine(); n != 0 {
				t.Fatalf("written trace %q: UnterminatedLine() = %d", out, n)
			}
		}
	})
}
