package swf

import (
	"bufio"
	"io"
)

// Writer writes SWF. Output is buffered: call Flush at the end. The first write
// error is kept; later writes do nothing and Flush returns it.
type Writer struct {
	w   *bufio.Writer
	buf []byte
	err error
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10)}
}

func (w *Writer) line(b []byte) {
	if w.err != nil {
		return
	}
	if _, err := w.w.Write(b); err != nil {
		w.err = err
		return
	}
	if err := w.w.WriteByte('\n'); err != nil {
		w.err = err
	}
}

func (w *Writer) lineString(s string) {
	if w.err != nil {
		return
	}
	if _, err := w.w.WriteString(s); err != nil {
		w.err = err
		return
	}
	if err := w.w.WriteByte('\n'); err != nil {
		w.err = err
	}
}

// WriteHeader writes every header line's Raw text.
func (w *Writer) WriteHeader(h *Header) error {
	for _, l := range h.Lines {
		w.lineString(l.Raw)
	}
	return w.err
}

// Write writes the job's comment lines, then the record: its raw line when
// nothing changed (byte-identical), else its canonical form.
func (w *Writer) Write(j *Job) error {
	for _, c := range j.Comments {
		w.lineString(c)
	}
	if !j.Changed() {
		w.line(j.raw)
		return w.err
	}
	w.buf = j.AppendCanonical(w.buf[:0])
	w.line(w.buf)
	return w.err
}

// WriteComment writes one comment line as given (it should start with ';').
func (w *Writer) WriteComment(line string) error {
	w.lineString(line)
	return w.err
}

// WriteTrailer writes comment lines that follow the last record.
func (w *Writer) WriteTrailer(lines []string) error {
	for _, l := range lines {
		w.lineString(l)
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
