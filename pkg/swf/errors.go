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
	// ErrTokenValue: a key=value extension token whose value is not what
	// its key takes (Job.TokenError: u=, ckpt=, fairstart=, ...).
	ErrTokenValue = errors.New("malformed extension token value")
	// ErrDuplicateToken: two extension tokens of a record have one key.
	ErrDuplicateToken = errors.New("extension token key given twice")
	// ErrRange: a whole number beyond 64 bits, or a time beyond MaxTime.
	ErrRange = errors.New("out of range")
	// ErrHeaderValue: a header label the toolkit needs has a malformed value.
	ErrHeaderValue = errors.New("malformed header value")
	// ErrEmpty: the input holds nothing at all (Reader.NonEmpty).
	ErrEmpty = errors.New("empty input (no header line and no job)")
	// ErrHeaderOnly: the input holds comment or blank lines and no record
	// (Reader.HasRecords).
	ErrHeaderOnly = errors.New("no job lines (header only)")
)

// MaxTime bounds every time field (2 Submit, 3 Wait, 4 Run, 6 Average CPU,
// 9 Requested, 18 Think Time): a Reader refuses a value beyond ±MaxTime
// seconds (2^40 s, about 34,800 years) with ErrRange. Real traces are far
// inside it (ten years are 3.2e8 s; Unix times 1.7e9), and within it the sum
// of the times of more than four million jobs fits in int64, so code that
// adds a few times of a record, or the runtimes of a trace, cannot overflow.
const MaxTime = 1 << 40

// MaxProcessors bounds the processor fields (5 Allocated, 8 Requested): a
// Reader refuses a count beyond ±MaxProcessors (2^31 - 1, twice the largest
// machine ever built) with ErrRange, so that the processors in use at once,
// summed over billions of jobs, fit in int64.
const MaxProcessors = 1<<31 - 1

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

// missingFields is the detail of ErrFieldCount when field first is the
// first one missing: it names that field, so a line cut short at its end
// ("got 17") reads as the Think Time it lacks.
func missingFields(first int) string {
	msg := "expected 18 whitespace-separated fields, got " + itoa(first-1) + ": "
	if first == NumFields {
		return msg + fmt.Sprintf("field %d (%s) is missing", first, FieldNames[first-1])
	}
	return msg + fmt.Sprintf("fields %d (%s) to %d are missing", first, FieldNames[first-1], NumFields)
}
