//go:build unix

package cmdio

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/swfkit/swfkit/pkg/provenance"
)

// TestDigest: the sum is that of every byte read, and unknown until the
// reader returned io.EOF (a prefix's hash is never recorded); the field goes
// right after input=, on a copy of the record.
func TestDigest(t *testing.T) {
	d := NewDigest(strings.NewReader(smallText))
	buf := make([]byte, 10)
	if _, err := d.Read(buf); err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Sum(); ok {
		t.Error("a sum before the end of the input")
	}
	rec := provenance.Record{Tool: "swfsim", Fields: []provenance.Field{{Key: "policy", Value: "easy"}, {Key: "input", Value: "-"}}}
	if got := WithInputSHA256(rec, d); len(got.Fields) != 2 {
		t.Errorf("a partly read input recorded: %v", got.Format())
	}
	if _, err := io.Copy(io.Discard, d); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256([]byte(smallText))
	if sum, ok := d.Sum(); !ok || sum != hex.EncodeToString(want[:]) {
		t.Errorf("Sum = %s %v, want %x", sum, ok, want)
	}
	got := WithInputSHA256(rec, d)
	if s := got.Format(); s != "swfsim policy=easy input=- input-sha256="+hex.EncodeToString(want[:]) || len(rec.Fields) != 2 {
		t.Errorf("WithInputSHA256: %s (the original has %d fields)", s, len(rec.Fields))
	}
	// FileSHA256 hashes the decompressed bytes of every format Open reads.
	dir := t.TempDir()
	for format, data := range compressedForms(t) {
		path := filepath.Join(dir, format)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if sum, err := FileSHA256(path); err != nil || sum != hex.EncodeToString(want[:]) {
			t.Errorf("%s: FileSHA256 = %s, %v", format, sum, err)
		}
	}
	if _, err := FileSHA256(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}

// TestWithEachInputSHA256: each input= field is followed by its own
// input's hash, in order; an input not read to its end gets none, and the
// record passed in is not changed.
func TestWithEachInputSHA256(t *testing.T) {
	read := func(text string) *Digest {
		d := NewDigest(strings.NewReader(text))
		io.Copy(io.Discard, d)
		return d
	}
	partial := NewDigest(strings.NewReader("abc"))
	partial.Read(make([]byte, 1))
	sum := func(text string) string {
		s := sha256.Sum256([]byte(text))
		return hex.EncodeToString(s[:])
	}
	rec := provenance.Record{Tool: "swfstat", Fields: []provenance.Field{{Key: "by", Value: ""}, {Key: "input", Value: "a"},
		{Key: "input", Value: "b"}, {Key: "input", Value: "-"}}}
	got := WithEachInputSHA256(rec, []*Digest{read("x"), partial, read("z")})
	want := `swfstat by="" input=a input-sha256=` + sum("x") + " input=b input=- input-sha256=" + sum("z")
	if s := got.Format(); s != want || len(rec.Fields) != 4 {
		t.Errorf("WithEachInputSHA256:\n%s\nwant\n%s\n(the original has %d fields)", s, want, len(rec.Fields))
	}
}

// BenchmarkDigest: the cost a run pays for its input's hash, per byte of
// decompressed trace.
func BenchmarkDigest(b *testing.B) {
	data := bytes.Repeat([]byte(smallText), (4<<20)/len(smallText)+1)
	buf := make([]byte, 64<<10)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d := NewDigest(bytes.NewReader(data))
		for {
			if _, err := d.Read(buf); err != nil {
				break
			}
		}
	}
}

// A Digest kept for its sum after its input was read (swfstat keeps one an
// input, for thousands of inputs) holds no reader: the decompressor and its
// buffers are let go at io.EOF, and a read after that is io.EOF again.
func TestDigestLetsGoOfItsReader(t *testing.T) {
	d := NewDigest(strings.NewReader("abc"))
	if _, err := io.ReadAll(d); err != nil {
		t.Fatal(err)
	}
	if d.r != nil {
		t.Error("the Digest still holds its reader after io.EOF")
	}
	if n, err := d.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Errorf("a read after io.EOF: %d, %v", n, err)
	}
	if sum, ok := d.Sum(); !ok || sum != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("sum %q %v", sum, ok)
	}
}

// RawFileSHA256 refuses what is not a regular file before opening it: a
// FIFO named by an exec command or by an old Provenance line would block
// the open.
func TestRawFileSHA256RefusesFIFOs(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := RawFileSHA256(fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("a FIFO: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("RawFileSHA256 blocked on a FIFO")
	}
}
