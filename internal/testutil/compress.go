package testutil

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math/bits"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
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

// Damaged returns text compressed in format (gzip, zstd or xz) with one
// byte changed: the first of target, which must occur once in text, becomes
// 'x'. Every format is written with its blocks stored as they are (gzip at
// level 0, zstd raw blocks, xz uncompressed LZMA2 chunks), so the changed
// byte is the text's: the stream decompresses to the changed text, and its
// checksum fails only at its end, as a file damaged on a disk or in a copy
// can do.
func Damaged(tb testing.TB, format, text, target string) []byte {
	tb.Helper()
	var data []byte
	switch format {
	case "gzip":
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.NoCompression)
		io.WriteString(zw, text)
		if err := zw.Close(); err != nil {
			tb.Fatal(err)
		}
		data = b.Bytes()
	case "zstd":
		data = storedZstd([]byte(text))
	case "xz":
		data = storedXz([]byte(text))
	default:
		tb.Fatalf("testutil.Damaged: no format %q", format)
	}
	if err := decompresses(format, data, text); err != nil {
		tb.Fatalf("testutil.Damaged: the %s stream before the change: %v", format, err)
	}
	if strings.Count(text, target) != 1 || bytes.Count(data, []byte(target)) != 1 {
		tb.Fatalf("testutil.Damaged: %q is not once in the text and once in its %s stream", target, format)
	}
	data[bytes.Index(data, []byte(target))] = 'x'
	return data
}

// decompresses checks that data decompresses to text.
func decompresses(format string, data []byte, text string) error {
	var r io.Reader
	var err error
	switch format {
	case "gzip":
		r, err = gzip.NewReader(bytes.NewReader(data))
	case "zstd":
		var d *zstd.Decoder
		if d, err = zstd.NewReader(bytes.NewReader(data)); err == nil {
			defer d.Close()
			r = d
		}
	case "xz":
		r, err = xz.NewReader(bytes.NewReader(data))
	}
	if err != nil {
		return err
	}
	got, err := io.ReadAll(r)
	if err == nil && string(got) != text {
		err = errors.New("another text")
	}
	return err
}

// storedZstd is one zstd frame (RFC 8878) of raw blocks, with the content
// checksum.
func storedZstd(text []byte) []byte {
	const blockMax = 128 << 10
	// Frame header descriptor 0x04: a content checksum, no content size,
	// a window descriptor; window 2^(10+7) bytes, a raw block's largest.
	out := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x04, 7 << 3}
	for rest := text; ; {
		n := min(len(rest), blockMax)
		header := uint32(n) << 3 // block type 0: raw
		if n == len(rest) {
			header |= 1 // the last block
		}
		out = append(out, byte(header), byte(header>>8), byte(header>>16))
		out = append(out, rest[:n]...)
		rest = rest[n:]
		if len(rest) == 0 {
			break
		}
	}
	return binary.LittleEndian.AppendUint32(out, uint32(xxh64(text)))
}

// xxh64 is XXH64 with seed 0, zstd's content checksum.
func xxh64(b []byte) uint64 {
	const (
		p1 uint64 = 11400714785074694791
		p2 uint64 = 14029467366897019727
		p3 uint64 = 1609587929392839161
		p4 uint64 = 9650029242287828579
		p5 uint64 = 2870177450012600261
	)
	round := func(acc, in uint64) uint64 { return bits.RotateLeft64(acc+in*p2, 31) * p1 }
	n := uint64(len(b))
	var h uint64
	if len(b) >= 32 {
		prime1 := p1 // wrapping arithmetic, which constants refuse
		v := [4]uint64{prime1 + p2, p2, 0, -prime1}
		for ; len(b) >= 32; b = b[32:] {
			for i := range v {
				v[i] = round(v[i], binary.LittleEndian.Uint64(b[8*i:]))
			}
		}
		h = bits.RotateLeft64(v[0], 1) + bits.RotateLeft64(v[1], 7) + bits.RotateLeft64(v[2], 12) + bits.RotateLeft64(v[3], 18)
		for _, x := range v {
			h = (h^round(0, x))*p1 + p4
		}
	} else {
		h = p5
	}
	h += n
	for ; len(b) >= 8; b = b[8:] {
		h = bits.RotateLeft64(h^round(0, binary.LittleEndian.Uint64(b)), 27)*p1 + p4
	}
	if len(b) >= 4 {
		h = bits.RotateLeft64(h^uint64(binary.LittleEndian.Uint32(b))*p1, 23)*p2 + p3
		b = b[4:]
	}
	for _, c := range b {
		h = bits.RotateLeft64(h^uint64(c)*p5, 11) * p1
	}
	h ^= h >> 33
	h *= p2
	h ^= h >> 29
	h *= p3
	return h ^ h>>32
}

// storedXz is one xz stream (the .xz file format, version 1.2.0) of one
// block of uncompressed LZMA2 chunks, with a CRC32 check.
func storedXz(text []byte) []byte {
	crc := func(b []byte) []byte { return binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(b)) }
	pad := func(b []byte) []byte {
		for len(b)%4 != 0 {
			b = append(b, 0)
		}
		return b
	}
	flags := []byte{0x00, 0x01} // CRC32
	out := append([]byte{0xfd, '7', 'z', 'X', 'Z', 0x00}, flags...)
	out = append(out, crc(flags)...)
	// Block header: its size/4-1, no optional sizes, one filter: LZMA2
	// (0x21) with one property byte (the dictionary size, 0: 4 KiB).
	header := pad([]byte{0x02, 0x00, 0x21, 0x01, 0x00})
	header = append(header, crc(header)...)
	out = append(out, header...)
	start := len(out)
	for rest, first := text, true; len(rest) > 0; first = false {
		n := min(len(rest), 64<<10)
		control := byte(0x02) // uncompressed, no dictionary reset
		if first {
			control = 0x01 // uncompressed, dictionary reset
		}
		out = append(out, control, byte((n-1)>>8), byte(n-1))
		out = append(out, rest[:n]...)
		rest = rest[n:]
	}
	out = append(out, 0x00) // the end of the LZMA2 data
	unpadded := len(header) + len(out) - start + 4
	out = pad(out)
	out = append(out, crc(text)...)
	// Index: one record (unpadded size, uncompressed size).
	index := []byte{0x00, 0x01}
	index = binary.AppendUvarint(index, uint64(unpadded))
	index = binary.AppendUvarint(index, uint64(len(text)))
	index = pad(index)
	index = append(index, crc(index)...)
	out = append(out, index...)
	footer := binary.LittleEndian.AppendUint32(nil, uint32(len(index)/4-1))
	footer = append(footer, flags...)
	out = append(out, crc(footer)...)
	out = append(out, footer...)
	return append(out, 'Y', 'Z')
}
