package cmdio

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
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

type writeCloser struct {
	io.Writer
	closers []func() error
}

func (w *writeCloser) Close() error {
	var first error
	for _, c := range w.closers {
		if err := c(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Create opens an output: name "" or "-" is stdout; a name ending in .gz or .zst
// is compressed. Close flushes the compressor and closes the file; it does not
// close stdout.
func Create(name string, stdout io.Writer) (io.WriteCloser, error) {
	wc := &writeCloser{Writer: stdout}
	if IsStdio(name) {
		return wc, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	wc.Writer = f
	wc.closers = []func() error{f.Close}
	switch {
	case strings.HasSuffix(name, ".gz"):
		zw := gzip.NewWriter(f)
		wc.Writer = zw
		wc.closers = append([]func() error{zw.Close}, wc.closers...)
	case strings.HasSuffix(name, ".zst"):
		zw, err := zstd.NewWriter(f)
		if err != nil {
			f.Close()
			return nil, err
		}
		wc.Writer = zw
		wc.closers = append([]func() error{zw.Close}, wc.closers...)
	}
	return wc, nil
}
