package provenance

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Label is the header label of a provenance line.
const Label = "Provenance"

// InputSHA256 is the key of the field, after input=, that holds the SHA-256
// of the bytes the run read from its main input after decompression, in 64
// lowercase hexadecimal digits. It says which bytes the run read, not a
// configuration: a study that groups runs by their columns reads it along
// with its input= column.
const InputSHA256 = "input-sha256"

// ExecFileSHA256 is the key of the fields, after swfsim's exec=, that each
// hold HASH:PATH for a file the exec command names (the program when given
// by a path, and every argument that is an existing regular file): the
// SHA-256 of its bytes as the run found them, in 64 lowercase hexadecimal
// digits, then the path as given. A policy program is code that changes
// between runs; the hash tells a replay whether the file at that path is
// still the one the run used.
const ExecFileSHA256 = "exec-file-sha256"

// SideInputSHA256 is the key of the field, after the field of a flag that
// names a file the run read besides its trace (swfaugment's
// --checkpoint-from answers), that holds FLAG:HASH: the flag's long name and
// the SHA-256 of the bytes the run read from the file after decompression,
// in 64 lowercase hexadecimal digits. Such a file changes the records as
// the trace does; the hash tells a replay whether the file at the recorded
// path is still the one the run read.
const SideInputSHA256 = "side-input-sha256"

// Field is one KEY=VALUE of a record.
type Field struct {
	Key, Value string
}

// Record is one tool's configuration: its name and its fields in order.
type Record struct {
	Tool   string
	Fields []Field
	// Other is the whole text of a Provenance line no swfkit tool wrote
	// (AllFromHeader), "" for a swfkit tool's.
	Other string
}

// Add appends a field.
func (r *Record) Add(key, value string) { r.Fields = append(r.Fields, Field{key, value}) }

// Get returns the value of key; the values of a repeated key are joined by
// commas. ok is false when the key is absent.
func (r *Record) Get(key string) (value string, ok bool) {
	vs := r.values(key)
	return strings.Join(vs, ","), len(vs) > 0
}

// values returns the values of key, in order.
func (r *Record) values(key string) []string {
	var vs []string
	for _, f := range r.Fields {
		if f.Key == key {
			vs = append(vs, f.Value)
		}
	}
	return vs
}

// Format renders the record as the text after "Provenance:".
func (r *Record) Format() string {
	var b strings.Builder
	b.WriteString(r.Tool)
	for _, f := range r.Fields {
		b.WriteByte(' ')
		b.WriteString(f.Key)
		b.WriteByte('=')
		b.WriteString(Quote(f.Value))
	}
	return b.String()
}

// FormatFloat returns x as a record writes a float: the shortest decimal
// that reads back to x, plain from 1e-4 up to 1e21 (0.04, 0.9, 3600) and in
// exponent form outside (1e-09, 1e+300), where the plain decimal is a run of
// zeros, 302 characters for 1e-300, that hides the value. The bounds are
// those of %g's lower switch and of encoding/json's upper one; swfaugment's
// Notes write their numbers the same way.
func FormatFloat(x float64) string {
	if a := math.Abs(x); a >= 1e-4 && a < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// Quote returns v as written in a record: bare when it is non-empty and made
// of safe characters only, else a Go double-quoted string.
func Quote(v string) string {
	if v == "" {
		return `""`
	}
	for i := 0; i < len(v); i++ {
		if !bare(v[i]) {
			return strconv.Quote(v)
		}
	}
	return v
}

func bare(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte(".,:/+-_@%", c) >= 0
}

func keyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// ErrSyntax is wrapped by every Parse error.
var ErrSyntax = errors.New("provenance: bad record")

// SyntaxError says where a record could not be read.
type SyntaxError struct {
	Offset int    // byte offset in the text given to Parse
	Msg    string // what was expected
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("provenance record, byte %d: %s", e.Offset, e.Msg)
}

// Unwrap returns ErrSyntax.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// Parse reads the text after "Provenance:" (leading and trailing blanks are
// ignored).
func Parse(text string) (Record, error) {
	var r Record
	s := strings.TrimRight(text, " \t\r")
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	start := i
	for i < len(s) && s[i] != ' ' {
		i++
	}
	r.Tool = s[start:i]
	if r.Tool == "" {
		return r, &SyntaxError{start, "expected a tool name"}
	}
	for i < len(s) {
		if s[i] != ' ' {
			return r, &SyntaxError{i, "expected a space between fields"}
		}
		i++
		ks := i
		for i < len(s) && keyChar(s[i]) {
			i++
		}
		if i == ks || i >= len(s) || s[i] != '=' {
			return r, &SyntaxError{ks, "expected KEY=VALUE with a key of letters, digits, '-' or '_'"}
		}
		key := s[ks:i]
		i++
		var value string
		if i < len(s) && s[i] == '"' {
			q, err := strconv.QuotedPrefix(s[i:])
			if err != nil {
				return r, &SyntaxError{i, "unterminated or malformed quoted value"}
			}
			value, _ = strconv.Unquote(q)
			i += len(q)
		} else {
			vs := i
			for i < len(s) && s[i] != ' ' {
				if !bare(s[i]) {
					return r, &SyntaxError{i, fmt.Sprintf("character %q in an unquoted value (quote it)", s[i])}
				}
				i++
			}
			if i == vs {
				return r, &SyntaxError{vs, `expected a value (the empty value is written "")`}
			}
			value = s[vs:i]
		}
		r.Fields = append(r.Fields, Field{key, value})
	}
	return r, nil
}

// Column is one named value of Columns.
type Column struct {
	Name, Value string
}

// Columns flattens records into columns named TOOL.KEY, in record and field
// order; the n-th record (n >= 2) of the same tool is named TOOL_n.KEY. A
// repeated key gives one column with the values joined by commas; when one
// of them is empty or holds a comma or a double quote, each such value is
// written as a Go double-quoted string (strconv.Quote), so that the list
// reads back unambiguously: --set 'Note=a, b' --set Note=c gives
// "Note=a, b",Note=c.
func Columns(records []Record) []Column {
	var out []Column
	seen := map[string]int{}
	for _, r := range records {
		seen[r.Tool]++
		prefix := r.Tool
		if n := seen[r.Tool]; n > 1 {
			prefix += "_" + strconv.Itoa(n)
		}
		done := map[string]bool{}
		for _, f := range r.Fields {
			if done[f.Key] {
				continue
			}
			done[f.Key] = true
			out = append(out, Column{prefix + "." + f.Key, r.list(f.Key)})
		}
	}
	return out
}

// list returns the values of key for a column: one value as it is, several
// joined by commas, each quoted when it is empty or holds ',' or '"'.
func (r *Record) list(key string) string {
	vs := r.values(key)
	if len(vs) == 1 {
		return vs[0]
	}
	for i, v := range vs {
		if v == "" || strings.ContainsAny(v, ",\"") {
			vs[i] = strconv.Quote(v)
		}
	}
	return strings.Join(vs, ",")
}
