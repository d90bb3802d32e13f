package swf

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// Writer writes SWF. Output is buffered: call Flush at the end. The first write
// error is kept; later writes do nothing and Flush returns it.
type Writer struct {
	w       *bufio.Writer
	buf     []byte
	err     error
	lastCR  bool // the last line written ended in "\r\n"
	bom     bool // write a byte-order mark before the first line
	started bool // a line has been written
	// leading counts the composed lines written before the first line
	// read from a file (rawSeen): they end as Follow's line before them.
	leading   int
	leadingCR bool
	rawSeen   bool
}

// Follow makes the output look like r's input where nothing else decides:
// lines composed before any line read from the input end as the input's
// first line did (a CRLF trace stays CRLF even when a tool's header lines or
// a changed record come first), and the input's UTF-8 byte-order mark, which
// the Reader strips, is written back first. Call it after r has read its
// header.
func (w *Writer) Follow(r *Reader) {
	w.FollowEnding(r)
	w.bom = r.bom
}

// FollowEnding is Follow without the byte-order mark, for a writer of a part
// of the output that does not begin it.
func (w *Writer) FollowEnding(r *Reader) {
	if w.err == nil && !w.started {
		w.lastCR = r.firstCR
	}
}

// FollowHeader is FollowEnding for a writer of the records that come after
// h in an output whose header another Writer, following r, writes apart: a
// body written before its header is final (spooled while the header's
// counts are not known yet). The lines it composes end as they would after
// h's lines. Lines a tool adds to h afterwards (AddNote, Add) do not change
// that, since each ends like the line before it; a Set that replaces read
// lines may, so make those changes first.
func (w *Writer) FollowHeader(r *Reader, h *Header) {
	if w.err != nil || w.started {
		return
	}
	cr := r.firstCR
	for _, l := range h.Lines {
		cr = endsCR(cr, len(l.Raw) > 0 && l.Raw[len(l.Raw)-1] == '\r', l.Line == 0)
	}
	w.lastCR = cr
}

// LeadingComposed returns how many lines the Writer composed before the
// first line read from a file, and whether they ended in "\r\n": the lines
// whose endings Follow, FollowEnding or FollowHeader decided. A tool that
// spools a body before its header is final can then mend them
// (CRLFAfterHeader).
func (w *Writer) LeadingComposed() (lines int, crlf bool) {
	return w.leading, w.leadingCR
}

// CRLFAfterHeader reports whether a line composed right after h, written
// by a Writer following r, ends in "\r\n".
func CRLFAfterHeader(r *Reader, h *Header) bool {
	var w Writer
	w.FollowHeader(r, h)
	return w.lastCR
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10)}
}

// Line endings: a line read from a file keeps its own ending (the reader
// strips only the '\n', so a CRLF line keeps its '\r'), which makes every
// file, even one that mixes endings, round-trip byte for byte. A line the
// Writer or a tool composes (a record in canonical form, a header line a
// tool added, WriteComment's) ends like the line written before it, so that
// a CRLF trace stays CRLF throughout.

// line writes a line read from a file (raw) or, composed, one that takes the
// ending of the line before.
func (w *Writer) line(b []byte, composed bool) {
	if w.err != nil || !w.start() {
		return
	}
	if _, err := w.w.Write(b); err != nil {
		w.err = err
		return
	}
	w.end(len(b) > 0 && b[len(b)-1] == '\r', composed)
}

func (w *Writer) lineString(s string, composed bool) {
	if w.err != nil || !w.start() {
		return
	}
	if _, err := w.w.WriteString(s); err != nil {
		w.err = err
		return
	}
	w.end(len(s) > 0 && s[len(s)-1] == '\r', composed)
}

// start writes the byte-order mark Follow asked for before the first line;
// it reports false on a write error.
func (w *Writer) start() bool {
	if w.started {
		return true
	}
	w.started = true
	if w.bom {
		if _, err := w.w.Write(bom); err != nil {
			w.err = err
			return false
		}
	}
	return true
}

func (w *Writer) end(hasCR, composed bool) {
	if !composed {
		w.rawSeen = true
	} else if !w.rawSeen {
		if w.leading == 0 {
			w.leadingCR = w.lastCR
		}
		w.leading++
	}
	cr := endsCR(w.lastCR, hasCR, composed)
	if cr && !hasCR {
		if err := w.w.WriteByte('\r'); err != nil {
			w.err = err
			return
		}
	}
	w.lastCR = cr
	if err := w.w.WriteByte('\n'); err != nil {
		w.err = err
	}
}

// endsCR reports whether a line ends in "\r\n": hasCR, it has its '\r'; a
// composed line without one gets it when the line before (lastCR) did.
func endsCR(lastCR, hasCR, composed bool) bool {
	return hasCR || composed && lastCR
}

// WriteHeader writes every header line's Raw text (a line a tool added,
// with no line number, ends like the line before it).
func (w *Writer) WriteHeader(h *Header) error {
	for _, l := range h.Lines {
		w.lineString(l.Raw, l.Line == 0)
	}
	return w.err
}

// Write writes the job's comment lines, then the record: its raw line when
// nothing changed (byte-identical), else its canonical form.
func (w *Writer) Write(j *Job) error {
	for _, c := range j.Comments {
		w.lineString(c, false)
	}
	if !j.Changed() {
		w.line(j.raw, false)
		return w.err
	}
	w.buf = j.AppendCanonical(w.buf[:0])
	w.line(w.buf, true)
	return w.err
}

// WriteComment writes one comment line as given (it should start with ';'),
// ending like the line before it.
func (w *Writer) WriteComment(line string) error {
	w.lineString(line, true)
	return w.err
}

// WriteTrailer writes comment lines that follow the last record.
func (w *Writer) WriteTrailer(lines []string) error {
	for _, l := range lines {
		w.lineString(l, false)
	}
	return w.err
}

// Flush writes buffered data and returns the first error seen.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	w.err = w.w.Flush()
	return w.err
}

// Error returns the first error seen.
func (w *Writer) Error() error { return w.err }

// CopyMendingLeading copies src to dst, giving the first n lines the ending
// crlf says ("\r\n" or "\n") in place of theirs: the leading composed lines
// of a body spooled before its header was final (LeadingComposed), whose
// line before turned out to end otherwise.
func CopyMendingLeading(dst io.Writer, src *bufio.Reader, n int, crlf bool) error {
	end := []byte("\n")
	if crlf {
		end = []byte("\r\n")
	}
	var line []byte
	for i := 0; i < n; i++ {
		line = line[:0]
		for {
			part, err := src.ReadSlice('\n')
			line = append(line, part...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				return fmt.Errorf("swf: %d leading lines to mend, %d found: %w", n, i, err)
			}
			break
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if _, err := dst.Write(line); err != nil {
			return err
		}
		if _, err := dst.Write(end); err != nil {
			return err
		}
	}
	_, err := io.Copy(dst, src)
	return err
}
