package swf

import (
	"errors"
	"fmt"
)

// Sentinel errors wrapped by ParseError, for errors.Is.
var (
	// ErrFieldCount: a record has fewer than 18 fields.
	ErrFieldCount = errors.New("too few fields")
	// ErrNumber: a field is not a number.
	ErrNumber = errors.New("not a number")
	// ErrNotInteger: a field that must be an integer holds a non-integral number.
	ErrNotInteger = errors.New("not an integer")
	// ErrExtraToken: a token after field 18 is not of the form key=value.
	ErrExtraToken = errors.New("not a key=value extension token")
	// ErrHeaderValue: a header label the toolkit needs has a malformed value.
	ErrHeaderValue = errors.New("malformed header value")
)

// ParseError reports a problem at a line (and field) of a trace.
type ParseError struct {
	File  string // file name, "" when unknown
	Line  int    // 1-based line number
	Field int    // 1-based field number, 0 when the error concerns the whole line
	Err   error  // one of the sentinel errors, possibly wrapped with detail
	// Detail says what was found and what was expected.
	Detail string
}

func (e *ParseError) Error() string {
	pos := fmt.Sprintf("line %d", e.Line)
	if e.File != "" {
		pos = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Field > 0 {
		name := "extension token"
		if e.Field <= NumFields {
			name = FieldNames[e.Field-1]
		}
		pos += fmt.Sprintf(": field %d (%s)", e.Field, name)
	}
	if e.Detail != "" {
		return pos + ": " + e.Detail
	}
	return pos + ": " + e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }

// shorten quotes a token for an error message, cutting long ones.
func shorten(b []byte) string {
	const max = 40
	if len(b) > max {
		return fmt.Sprintf("%q...", b[:max])
	}
	return fmt.Sprintf("%q", b)
}
