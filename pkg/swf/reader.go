package swf

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
)

// MaxMalformedKept is how many malformed-line errors a lenient Reader keeps.
const MaxMalformedKept = 5

var bom = []byte("\xEF\xBB\xBF")

// Reader reads SWF records, shaped like encoding/csv's Reader. Set the exported
// fields before the first call to Header or Read.
type Reader struct {
	// Name is the file name used in errors ("" for none).
	Name string
	// ReuseRecord lets Read reuse the slices of the previous Job (raw line, Extra,
	// Comments), so that reading a standard 18-field record does not allocate.
	ReuseRecord bool
	// Lenient skips malformed records instead of returning an error; see Malformed.
	Lenient bool
	// Damaged, when not nil, is called before Read returns a malformed
	// record's *ParseError (without Lenient), and a non-nil error it returns
	// is returned instead. A caller that decompresses the input checks the
	// rest of the stream there: a damaged stream decompresses to garbage
	// lines well before its checksum fails at its end, and the damage, not
	// the garbage, is what to report.
	Damaged func() error

	br         *bufio.Reader
	long       []byte // assembly buffer for lines longer than br's buffer
	rawCopy    []byte // reused raw storage with ReuseRecord
	line       int
	header     *Header
	headerDone bool
	pending    []byte // first record line, read while reading the header
	hasPending bool
	comments   []string
	extra      []string
	spans      []tokenSpan    // the line's extension tokens so far (duplicate keys)
	keySet     map[string]int // their keys by index, on lines of manyTokens or more
	trailer    []string
	eof        bool
	headerOnly bool // the input ended in the header: no record line at all

	malformedCount int
	malformed      []*ParseError
	firstBadLine   string // the text of the first malformed line skipped, cut
	records        int    // records returned by Read

	noNewline    bool // the line readLine returned last had no '\n' after it
	unterminated int  // the line number of a last record line without '\n', or 0

	generalOnly bool // tests: parse every field the general way (no fast path)
	prevCR      bool // the previous line ended in "\r\n"
	firstCR     bool // the first line ended in "\r\n"
	bom         bool // the input began with a UTF-8 byte-order mark
}

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10)}
}

// readLine returns the next line without its '\n', valid until the next call.
func (r *Reader) readLine() ([]byte, error) {
	line, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = r.br.ReadSlice('\n')
			r.long = append(r.long, line...)
		}
		line = r.long
	}
	if len(line) == 0 && err != nil {
		return nil, err
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	r.line++
	r.noNewline = line[len(line)-1] != '\n'
	if !r.noNewline {
		line = line[:len(line)-1]
		r.prevCR = len(line) > 0 && line[len(line)-1] == '\r'
	} else if r.prevCR && line[len(line)-1] != '\r' {
		// The last line of a CRLF file, without its newline: take it as
		// ending like the others, so that the '\n' a writer adds keeps
		// the file CRLF ('\r' separates fields like a blank).
		r.long = append(append(r.long[:0], line...), '\r')
		line = r.long
	}
	if r.line == 1 {
		r.firstCR = r.prevCR
		r.bom = bytes.HasPrefix(line, bom)
		line = bytes.TrimPrefix(line, bom)
	}
	return line, nil
}

func isComment(line []byte) bool {
	for _, c := range line {
		if !isSpace(c) {
			return c == ';'
		}
	}
	return true // blank
}

// Header reads (once) and returns the comment lines before the first record.
func (r *Reader) Header() (*Header, error) {
	if r.headerDone {
		return r.header, nil
	}
	r.headerDone = true
	r.header = &Header{File: r.Name}
	prev := ""
	for {
		line, err := r.readLine()
		if err == io.EOF {
			r.eof = true
			r.headerOnly = true
			return r.header, nil
		}
		if err != nil {
			return r.header, err
		}
		if !isComment(line) {
			r.pending = append(r.pending[:0], line...)
			r.hasPending = true
			return r.header, nil
		}
		hl := parseHeaderLine(string(line), r.line, prev)
		if hl.Label != "" {
			prev = hl.Label
		} else {
			prev = ""
		}
		r.header.Lines = append(r.header.Lines, hl)
	}
}

// NonEmpty returns an error wrapping ErrEmpty, naming the file, when the
// input held nothing at all, not even a blank line. Tools call it after
// Header: an empty input is what a failed command before them in a pipe
// leaves, and a trace of no jobs written from it would look like a result.
// A header without records is a valid, empty trace (see HasRecords).
func (r *Reader) NonEmpty() error {
	if _, err := r.Header(); err != nil {
		return err
	}
	if r.line > 0 {
		return nil
	}
	return fmt.Errorf("%s: %w: did a command before this one fail?", r.displayName(), ErrEmpty)
}

// displayName is the input's name for messages.
func (r *Reader) displayName() string {
	if r.Name == "" {
		return "<stdin>"
	}
	return r.Name
}

// HasRecords returns NonEmpty's error for an input of nothing at all, and an
// error wrapping ErrHeaderOnly, naming the file, for one of comment and blank
// lines only, without a record line (a malformed one counts as a record
// line). It reads the header only. Such a file is a valid, empty trace, but
// it is also what a cut download or a failed command writing it leaves, so
// tools say so; whether that is an error is theirs to decide.
func (r *Reader) HasRecords() error {
	if err := r.NonEmpty(); err != nil {
		return err
	}
	if !r.headerOnly {
		return nil
	}
	return fmt.Errorf("%s: %w: %d comment or blank lines and no job (a file cut short, a command before this one that failed, "+
		"or a step that dropped every job?)", r.displayName(), ErrHeaderOnly, r.line)
}

// Read returns the next record, or io.EOF after the last one. Comment and blank
// lines before a record are returned in its Comments; those after the last
// record are in Trailer. A malformed record is a *ParseError unless Lenient.
func (r *Reader) Read() (Job, error) {
	if _, err := r.Header(); err != nil {
		return Job{}, err
	}
	if r.ReuseRecord {
		r.comments = r.comments[:0]
	} else {
		r.comments = nil
	}
	for {
		var line []byte
		lineNo := r.line
		if r.hasPending {
			line, r.hasPending = r.pending, false
		} else {
			if r.eof {
				r.trailer = r.comments
				return Job{}, io.EOF
			}
			var err error
			line, err = r.readLine()
			if err == io.EOF {
				r.eof = true
				r.trailer = r.comments
				return Job{}, io.EOF
			}
			if err != nil {
				return Job{}, err
			}
			lineNo = r.line
		}
		if isComment(line) {
			r.comments = append(r.comments, string(line))
			continue
		}
		if r.noNewline {
			// Only the input's last line can lack its newline, and
			// this one is it: the line just read, or the pending one
			// when Header stopped on it.
			r.unterminated = lineNo
		}
		job, perr := r.parse(line, lineNo)
		if perr != nil {
			if r.firstBadLine == "" {
				r.firstBadLine = string(line[:min(len(line), maxBadLineKept)])
			}
			if !r.Lenient {
				if r.Damaged != nil {
					if err := r.Damaged(); err != nil {
						return Job{}, err
					}
				}
				return Job{}, perr
			}
			r.malformedCount++
			if len(r.malformed) < MaxMalformedKept {
				r.malformed = append(r.malformed, perr)
			}
			continue
		}
		job.Comments = r.comments
		r.records++
		return job, nil
	}
}

// Trailer returns the comment lines after the last record (valid after io.EOF).
func (r *Reader) Trailer() []string { return r.trailer }

// Malformed returns how many records a lenient Reader skipped and the first few errors.
func (r *Reader) Malformed() (int, []*ParseError) { return r.malformedCount, r.malformed }

// maxBadLineKept bounds the text FirstMalformedLine keeps.
const maxBadLineKept = 4096

// FirstMalformedLine returns the text of the first malformed record line
// (its first 4 KB): the first a lenient Reader skipped, or the one whose
// *ParseError Read returned; "" when there was none. It is what the input
// looks like when no line of it is SWF (another log format?).
func (r *Reader) FirstMalformedLine() string { return r.firstBadLine }

// Records returns how many records Read has returned so far.
func (r *Reader) Records() int { return r.records }

// UnterminatedLine returns the line number of the input's last record line
// when no newline follows it, and 0 when one does, when the input ends in
// comment or blank lines, or when it has no record line at all. Call it after
// Read returned io.EOF. The Reader accepts such a line, since hand-made files
// often lack the final newline, but it is also where a file cut short ends,
// and a cut inside the last field leaves a shorter number (120 read as 12)
// that parses: tools warn about it. A line ending in "\r" without "\n" counts
// as unterminated too. A malformed last line a lenient Reader skipped counts
// (it is a record line, as for HasRecords): its missing newline is the hint
// that a cut made it malformed.
func (r *Reader) UnterminatedLine() int { return r.unterminated }

// Line returns the number of lines read so far.
func (r *Reader) Line() int { return r.line }

func (r *Reader) parse(line []byte, lineNo int) (Job, *ParseError) {
	var j Job
	j.Line = lineNo
	i := 0
	for n := 1; n <= NumFields; n++ {
		// The common token, an optional '-' and up to 15 digits, is read
		// in the same loop that finds it; anything else (and anything out
		// of range, for its error) goes the general way below.
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		k := i
		if k < len(line) && line[k] == '-' {
			k++
		}
		digits := k
		var mant int64
		for k < len(line) && line[k]-'0' <= 9 {
			mant = mant*10 + int64(line[k]-'0')
			k++
		}
		if nd := k - digits; !r.generalOnly && nd > 0 && nd <= 15 && (k == len(line) || isSpace(line[k])) && mant <= fieldBound[n] {
			if n == FieldAverageCPUTime {
				v := float64(mant) // exact below 2^53, as parseNumber has it
				if digits > i {
					v = -v // "-0" is -0.0, as parseNumber has it
				}
				j.orig[n-1] = int64(math.Float64bits(v))
			} else if digits > i {
				j.orig[n-1] = -mant
			} else {
				j.orig[n-1] = mant
			}
			i = k
			continue
		}
		s, e := nextToken(line, i)
		i = e
		if s == e {
			return j, &ParseError{File: r.Name, Line: lineNo, Err: ErrFieldCount, Detail: missingFields(n)}
		}
		if n == FieldAverageCPUTime {
			v, _, ok := parseNumber(line[s:e])
			switch {
			case !ok:
				return j, numberError(r.Name, lineNo, n, numBad, line[s:e])
			case math.Abs(v) > MaxTime:
				return j, numberError(r.Name, lineNo, n, numRange, line[s:e])
			}
			j.orig[n-1] = int64(math.Float64bits(v))
			continue
		}
		v, res := parseInt(line[s:e])
		if res == numOK && (isTimeField(n) && (v > MaxTime || v < -MaxTime) ||
			isProcsField(n) && (v > MaxProcessors || v < -MaxProcessors)) {
			res = numRange
		}
		if res != numOK {
			return j, numberError(r.Name, lineNo, n, res, line[s:e])
		}
		j.orig[n-1] = v
	}
	j.setValues(&j.orig)
	// Extension tokens.
	tailStart := i
	count := 0
	r.spans = r.spans[:0]
	if len(r.keySet) > 0 { // only after a line of manyTokens or more
		clear(r.keySet)
	}
	for {
		s, e := nextToken(line, i)
		if s == e {
			break
		}
		if !validExtra(line[s:e]) {
			detail := "expected a key=value extension token after the 18 SWF fields, got " + shorten(line[s:e])
			return j, &ParseError{File: r.Name, Line: lineNo, Field: NumFields + 1 + count,
				Err: ErrExtraToken, Detail: detail}
		}
		// A key given twice (pred=100 pred=200) leaves which value is
		// meant unclear: every reader of tokens takes the first.
		key := line[s : s+bytes.IndexByte(line[s:e], '=')]
		if k := r.seenKey(line, key, count); k >= 0 {
			sp := r.spans[k]
			detail := fmt.Sprintf("%s repeats the key %s of field %d (%s): give each key once",
				shorten(line[s:e]), key, NumFields+1+k, shorten(line[sp.s:sp.e]))
			return j, &ParseError{File: r.Name, Line: lineNo, Field: NumFields + 1 + count,
				Err: ErrDuplicateToken, Detail: detail}
		}
		r.spans = append(r.spans, tokenSpan{s, e, len(key)})
		count++
		i = e
	}
	if r.ReuseRecord {
		r.rawCopy = append(r.rawCopy[:0], line...)
		j.raw = r.rawCopy
		r.extra = r.extra[:0]
	} else {
		j.raw = append([]byte(nil), line...)
		r.extra = nil
	}
	if count > 0 {
		tail := string(line[tailStart:i]) // one allocation for all tokens
		k := 0
		for {
			s, e := nextTokenString(tail, k)
			if s == e {
				break
			}
			r.extra = append(r.extra, tail[s:e])
			k = e
		}
		j.Extra = r.extra
	}
	j.origExtra = count
	return j, nil
}

func itoa(n int) string {
	return string(appendInt(nil, n))
}

func appendInt(b []byte, n int) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}

// numberError is the ParseError for a field that did not parse as res says.
func numberError(file string, line, field int, res number, tok []byte) *ParseError {
	e := &ParseError{File: file, Line: line, Field: field}
	switch {
	case res == numFraction:
		e.Err, e.Detail = ErrNotInteger, "expected an integer, got "+shorten(tok)
	case res == numRange && isProcsField(field):
		e.Err, e.Detail = ErrRange, "expected a processor count within ±"+itoa(MaxProcessors)+" (swfkit's bound, so that sums of counts cannot overflow), got "+shorten(tok)
	case res == numRange && isTimeField(field):
		e.Err, e.Detail = ErrRange, "expected a time within ±"+strconv.FormatInt(MaxTime, 10)+" s (about 34,800 years; swfkit's bound, so that sums of times cannot overflow), got "+shorten(tok)
	case res == numRange:
		e.Err, e.Detail = ErrRange, "expected an integer within ±9223372036854775807 (64 bits), got "+shorten(tok)
	default:
		e.Err, e.Detail = ErrNumber, "expected a number, got "+shorten(tok)
	}
	return e
}

// fieldBound is, by field number, the largest magnitude parse's fast path
// takes (MaxTime or MaxProcessors; every other field, any 15 digits).
var fieldBound = [NumFields + 1]int64{
	FieldSubmitTime: MaxTime, FieldWaitTime: MaxTime, FieldRunTime: MaxTime,
	FieldAverageCPUTime: MaxTime, FieldRequestedTime: MaxTime, FieldThinkTime: MaxTime,
	FieldAllocatedProcs: MaxProcessors, FieldRequestedProcs: MaxProcessors,
	FieldJobNumber: math.MaxInt64, FieldUsedMemory: math.MaxInt64, FieldRequestedMemory: math.MaxInt64,
	FieldStatus: math.MaxInt64, FieldUserID: math.MaxInt64, FieldGroupID: math.MaxInt64,
	FieldExecutable: math.MaxInt64, FieldQueue: math.MaxInt64, FieldPartition: math.MaxInt64,
	FieldPrecedingJob: math.MaxInt64,
}

// isTimeField reports whether field n is a time in seconds (submit, wait,
// run, average CPU, requested time, think time), bounded by MaxTime.
func isTimeField(n int) bool {
	switch n {
	case FieldSubmitTime, FieldWaitTime, FieldRunTime, FieldAverageCPUTime, FieldRequestedTime, FieldThinkTime:
		return true
	}
	return false
}

// isProcsField reports whether field n is a processor count, bounded by
// MaxProcessors.
func isProcsField(n int) bool { return n == FieldAllocatedProcs || n == FieldRequestedProcs }

// tokenSpan is where an extension token of the line being read lies, and
// the length of its key.
type tokenSpan struct{ s, e, klen int }

// manyTokens is the token count from which seenKey looks keys up in a map
// instead of comparing with each earlier one: a line of 50,000 tokens
// would otherwise cost a billion comparisons.
const manyTokens = 16

// seenKey returns the index of the earlier token of the line (r.spans, n
// of them) whose key is key, or -1.
func (r *Reader) seenKey(line, key []byte, n int) int {
	if n < manyTokens {
		for k, sp := range r.spans[:n] {
			if bytes.Equal(line[sp.s:sp.s+sp.klen], key) {
				return k
			}
		}
		return -1
	}
	if r.keySet == nil {
		r.keySet = make(map[string]int)
	}
	if len(r.keySet) == 0 {
		for k, sp := range r.spans[:n] {
			r.keySet[string(line[sp.s:sp.s+sp.klen])] = k
		}
	}
	if k, ok := r.keySet[string(key)]; ok {
		return k
	}
	r.keySet[string(key)] = n
	return -1
}
