package cmdio

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"

	"github.com/swfkit/swfkit/pkg/swf"
)

var (
	magicGzip  = []byte{0x1f, 0x8b}
	magicZstd  = []byte{0x28, 0xb5, 0x2f, 0xfd}
	magicBzip2 = []byte("BZh")
	magicXz    = []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}
)

// IsStdio reports whether a file argument means standard input or output.
func IsStdio(name string) bool { return name == "" || name == "-" }

// ReadOnce reports whether the input named by a file argument can be read
// only once: standard input, or anything but a regular file (a pipe such as
// <(...) or /dev/fd/N, a FIFO, a device), which a second open does not read
// from its start but from wherever the first reader stopped.
func ReadOnce(name string) bool {
	if IsStdio(name) {
		return true
	}
	info, err := os.Stat(name)
	return err != nil || !info.Mode().IsRegular()
}

// DisplayName is the name used in messages for a file argument.
func DisplayName(name string) string {
	if IsStdio(name) {
		return "<stdin>"
	}
	return name
}

// CorruptError is a compressed input that ends early or fails its checks (a
// missing trailer, a bad CRC, garbage after a member). It is never io.EOF nor
// io.ErrUnexpectedEOF, so no reader can take it for the end of the data, and
// it is not a malformed line: --lenient does not skip it.
type CorruptError struct {
	File   string // the display name of the input
	Format string // gzip, zstd, bzip2 or xz
	Err    error  // what the decompressor said
}

func (e *CorruptError) Error() string {
	var trailing *TrailingDataError
	if errors.As(e.Err, &trailing) {
		return fmt.Sprintf("%s: %s: %v; the file is damaged, or something was appended to it", e.File, e.Format, trailing)
	}
	what := "corrupt"
	if errors.Is(e.Err, io.ErrUnexpectedEOF) {
		what = "truncated"
	}
	return fmt.Sprintf("%s: %s %s data (%v); the file is incomplete or damaged", e.File, what, e.Format, e.Err)
}

// Unwrap returns the decompressor's error only when it is not an end-of-file
// sentinel, so that errors.Is(err, io.ErrUnexpectedEOF) never treats a
// damaged file as a short one.
func (e *CorruptError) Unwrap() error {
	if errors.Is(e.Err, io.ErrUnexpectedEOF) || errors.Is(e.Err, io.EOF) {
		return nil
	}
	return e.Err
}

// TrailingDataError is bytes after the last member of a gzip file that do
// not begin another member (`cat x.gz; echo garbage`). Tools refuse them as a
// *CorruptError like any damage: which of the two was meant is unknown.
type TrailingDataError struct {
	Start []byte // the first bytes of the trailing data, at most 16
}

func (e *TrailingDataError) Error() string {
	return fmt.Sprintf("trailing data after the end of the compressed stream, not another member (starting %q)", e.Start)
}

// gzipMembers reads the members of a gzip file one after another, as a
// multistream gzip.Reader does, but tells trailing non-gzip bytes
// (TrailingDataError) from a member cut short: a multistream reader takes
// them for the header of the next member and reports a truncated or invalid
// header.
type gzipMembers struct {
	br *bufio.Reader // positioned just after a member when gz ends (RFC 1952 reader over an io.ByteReader)
	gz *gzip.Reader
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for {
		n, err := g.gz.Read(p)
		if err != io.EOF {
			return n, err
		}
		// The end of a member: the end of the file, another member, or
		// trailing bytes.
		next, perr := g.br.Peek(len(magicGzip))
		switch {
		case len(next) == 0 && perr == io.EOF:
			return n, io.EOF
		case len(next) == 0:
			return n, perr
		case !bytes.Equal(next, magicGzip):
			start, _ := g.br.Peek(16)
			return n, &TrailingDataError{Start: bytes.Clone(start)}
		}
		if err := g.gz.Reset(g.br); err != nil {
			return n, err
		}
		g.gz.Multistream(false)
		if n > 0 {
			return n, nil
		}
	}
}

// checkedReader turns every error of a decompressor other than a clean io.EOF
// into a CorruptError.
type checkedReader struct {
	r      io.Reader
	file   string
	format string
	err    error // sticky
}

func (c *checkedReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.r.Read(p)
	switch {
	case err == nil, err == io.EOF:
		if err != nil {
			c.err = err
		}
	default:
		var pathErr *os.PathError
		if errors.As(err, &pathErr) {
			c.err = err // an I/O error of the file itself names the file already
		} else {
			c.err = &CorruptError{File: c.file, Format: c.format, Err: err}
		}
		err = c.err
	}
	return n, err
}

// xzTail passes an xz file through and keeps its last two bytes before any
// stream padding (zero bytes), for xzFooter.
type xzTail struct {
	r    io.Reader
	last [2]byte
}

func (t *xzTail) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	for _, b := range p[:n] {
		if b != 0 {
			t.last[0], t.last[1] = t.last[1], b
		}
	}
	return n, err
}

// xzFooter ends an xz stream with an error unless its file ended with a
// stream footer (whose last bytes are "YZ", before any padding): the
// decompressor takes a file cut right after its last block, before the
// index and footer, for a whole one (every block checked, the end lost).
type xzFooter struct {
	r    io.Reader
	tail *xzTail
}

func (x *xzFooter) Read(p []byte) (int, error) {
	n, err := x.r.Read(p)
	if err == io.EOF && x.tail.last != [2]byte{'Y', 'Z'} {
		err = errors.New("unexpected end of input: the stream's index and footer are missing (a file cut short)")
	}
	return n, err
}

type readCloser struct {
	io.Reader
	closers []func() error
}

func (r *readCloser) Close() error {
	var first error
	for _, c := range r.closers {
		if err := c(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Open opens a trace for reading: name "" or "-" is stdin. gzip, zstd, bzip2
// and xz input is decompressed whatever the file is called (detected from the
// first bytes). A compressed stream that is truncated or fails its checksum is
// a *CorruptError naming the file, returned by Read, never a short read that
// ends with io.EOF.
func Open(name string, stdin io.Reader) (io.ReadCloser, error) {
	rc := &readCloser{}
	var src io.Reader = stdin
	if !IsStdio(name) {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		src = f
		rc.closers = append(rc.closers, f.Close)
	}
	if src == nil {
		src = bytes.NewReader(nil)
	}
	display := DisplayName(name)
	br := bufio.NewReaderSize(src, 64<<10)
	magic, _ := br.Peek(6)
	format := ""
	var zr io.Reader
	var err error
	switch {
	case bytes.HasPrefix(magic, magicGzip):
		format = "gzip"
		var gz *gzip.Reader
		if gz, err = gzip.NewReader(br); err == nil {
			gz.Multistream(false)
			zr = &gzipMembers{br: br, gz: gz}
			rc.closers = append([]func() error{gz.Close}, rc.closers...)
		}
	case bytes.HasPrefix(magic, magicZstd):
		format = "zstd"
		var zd *zstd.Decoder
		if zd, err = zstd.NewReader(br, zstd.WithDecoderConcurrency(1)); err == nil {
			zr = zd
			rc.closers = append([]func() error{func() error { zd.Close(); return nil }}, rc.closers...)
		}
	case bytes.HasPrefix(magic, magicBzip2) && len(magic) >= 4 && magic[3] >= '1' && magic[3] <= '9':
		format = "bzip2"
		zr = bzip2.NewReader(br)
	case bytes.HasPrefix(magic, magicXz):
		format = "xz"
		tail := &xzTail{r: br}
		var xr io.Reader
		if xr, err = xz.NewReader(tail); err == nil {
			zr = &xzFooter{r: xr, tail: tail}
		}
	default:
		rc.Reader = br
		return rc, nil
	}
	if err != nil {
		rc.Close()
		return nil, &CorruptError{File: display, Format: format, Err: err}
	}
	rc.Reader = &checkedReader{r: zr, file: display, format: format}
	return rc, nil
}

// Damaged returns, for swf.Reader's Damaged field, a function that reads
// the rest of in, an input Open or Files.Open(Hashed) opened, when it is
// compressed, and returns the decompressor's error (a *CorruptError naming
// the file) or an I/O error: a gzip or bzip2 stream with a byte changed
// decompresses to garbage lines before its checksum fails, and a tool would
// report the first garbage line as malformed SWF. It returns nil for an
// input that is not compressed (nothing to check: the line error stands),
// and its function returns nil when the rest decompresses cleanly. The
// rest is read only on that error path, once.
func Damaged(in io.Reader) func() error {
	for {
		switch r := in.(type) {
		case hashedInput:
			if rc, ok := r.Closer.(io.Reader); ok {
				in = rc
				continue
			}
		case *readCloser:
			check, ok := r.Reader.(*checkedReader)
			if !ok {
				return nil
			}
			return func() error {
				_, err := io.Copy(io.Discard, check)
				return err
			}
		}
		return nil
	}
}

// DamagedOr returns err, the error of a reader of in that stopped before
// the end of in (a malformed line of a converted log, of a --checkpoint-from
// file), or in's damage in its place when the rest of in does not
// decompress (Damaged): a damaged gzip or bzip2 stream decompresses to
// garbage lines before its checksum fails, and the damage is what to
// report. err is returned as it is when it is nil, the damage already or an
// I/O error, or when in is not compressed or its rest is sound.
func DamagedOr(in io.Reader, err error) error {
	var corrupt *CorruptError
	var pathErr *os.PathError
	if err == nil || errors.As(err, &corrupt) || errors.As(err, &pathErr) {
		return err
	}
	if check := Damaged(in); check != nil {
		if damage := check(); damage != nil {
			return damage
		}
	}
	return err
}

// NewSWFReader returns an swf.Reader of in, an input Open or
// Files.Open(Hashed) opened, whose errors name the file name and whose
// Damaged hook checks in (Damaged): every reader of a user's trace is made
// here, so that none reports the garbage of a damaged compressed file as
// malformed SWF.
func NewSWFReader(in io.Reader, name string) *swf.Reader {
	return NewSWFReaderThrough(in, in, name)
}

// NewSWFReaderThrough is NewSWFReader for a reader r that reads in on the
// way (an io.TeeReader or a copy that spools what it reads): the records
// come from r, the damage check reads the rest of in.
func NewSWFReaderThrough(r, in io.Reader, name string) *swf.Reader {
	rd := swf.NewReader(r)
	rd.Name = name
	rd.Damaged = Damaged(in)
	return rd
}

// InFile prefixes err with the display name of a file unless the error names
// the file already (a *CorruptError or an *os.PathError).
func InFile(display string, err error) error {
	var corrupt *CorruptError
	var pathErr *os.PathError
	if err == nil || errors.As(err, &corrupt) || errors.As(err, &pathErr) {
		return err
	}
	return fmt.Errorf("%s: %w", display, err)
}
