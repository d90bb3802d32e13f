package cmdio

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

var (
	magicGzip  = []byte{0x1f, 0x8b}
	magicZstd  = []byte{0x28, 0xb5, 0x2f, 0xfd}
	magicBzip2 = []byte("BZh")
	magicXz    = []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}
)

// IsStdio reports whether a file argument means standard input or output.
func IsStdio(name string) bool { return name == "" || name == "-" }

// DisplayName is the name used in messages for a file argument.
func DisplayName(name string) string {
	if IsStdio(name) {
		return "<stdin>"
	}
	return name
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

// Open opens a trace for reading: name "" or "-" is stdin. gzip and zstd input is
// decompressed whatever the file is called; bzip2 and xz are refused clearly.
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
	br := bufio.NewReaderSize(src, 64<<10)
	magic, _ := br.Peek(6)
	switch {
	case bytes.HasPrefix(magic, magicGzip):
		zr, err := gzip.NewReader(br)
		if err != nil {
			rc.Close()
			return nil, fmt.Errorf("%s: %w", DisplayName(name), err)
		}
		rc.Reader = zr
		rc.closers = append([]func() error{zr.Close}, rc.closers...)
	case bytes.HasPrefix(magic, magicZstd):
		zr, err := zstd.NewReader(br)
		if err != nil {
			rc.Close()
			return nil, fmt.Errorf("%s: %w", DisplayName(name), err)
		}
		rc.Reader = zr
		rc.closers = append([]func() error{func() error { zr.Close(); return nil }}, rc.closers...)
	case bytes.HasPrefix(magic, magicBzip2), bytes.HasPrefix(magic, magicXz):
		rc.Close()
		return nil, fmt.Errorf("%s: bzip2/xz compression is not supported; decompress it first or recompress with gzip or zstd", DisplayName(name))
	default:
		rc.Reader = br
	}
	return rc, nil
}

// Output is a command's output: standard output, or a file that is written under
// a temporary name in the same directory and renamed into place only when the
// command succeeds, so that a failed run never leaves a truncated file that looks
// valid. Use Finish to close it.
type Output struct {
	io.Writer
	closers []func() error
	file    *os.File // nil for stdout
	name    string
	done    bool
}

// Close flushes the compressor and commits the file (renames it into place).
// Commands should call Finish instead, which aborts on failure.
func (o *Output) Close() error { return o.finish(true) }

// Abort closes the output and removes the temporary file; nothing is written
// under the output's name. It does nothing for stdout or after Close.
func (o *Output) Abort() { o.finish(false) }

func (o *Output) finish(commit bool) error {
	if o.done {
		return nil
	}
	o.done = true
	var first error
	for _, c := range o.closers {
		if err := c(); err != nil && first == nil {
			first = err
		}
	}
	if o.file == nil {
		return first
	}
	if !commit || first != nil {
		os.Remove(o.file.Name())
		return first
	}
	if err := os.Rename(o.file.Name(), o.name); err != nil {
		os.Remove(o.file.Name())
		return err
	}
	return nil
}

// Finish ends a command's output: it commits it when *errp is nil (and stores
// a commit error in *errp), else aborts it. Use it as
//
//	defer cmdio.Finish(out, &err)
func Finish(o *Output, errp *error) {
	if o == nil {
		return
	}
	if *errp != nil {
		o.Abort()
		return
	}
	if err := o.Close(); err != nil {
		*errp = err
	}
}

// Create opens an output: name "" or "-" is stdout; a name ending in .gz or .zst
// is compressed. A file is written under a temporary name and appears under its
// own name only when Close (or Finish on success) commits it; stdout is never closed.
func Create(name string, stdout io.Writer) (*Output, error) {
	o := &Output{Writer: stdout, name: name}
	if IsStdio(name) {
		return o, nil
	}
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	o.file = f
	o.Writer = f
	o.closers = []func() error{f.Close}
	switch {
	case strings.HasSuffix(name, ".gz"):
		zw := gzip.NewWriter(f)
		o.Writer = zw
		o.closers = append([]func() error{zw.Close}, o.closers...)
	case strings.HasSuffix(name, ".zst"):
		zw, err := zstd.NewWriter(f)
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, err
		}
		o.Writer = zw
		o.closers = append([]func() error{zw.Close}, o.closers...)
	}
	return o, nil
}
