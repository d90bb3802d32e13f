package testutil

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Gzip returns text gzip-compressed, as a test's compressed input.
func Gzip(tb testing.TB, text string) []byte {
	tb.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(text))
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// Zstd returns text zstd-compressed, as a test's compressed input.
func Zstd(tb testing.TB, text string) []byte {
	tb.Helper()
	var b bytes.Buffer
	zw, err := zstd.NewWriter(&b)
	if err != nil {
		tb.Fatal(err)
	}
	zw.Write([]byte(text))
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}
