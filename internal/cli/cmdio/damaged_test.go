package cmdio

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// TestDamagedCompressedInput: a compressed input with a byte changed
// mid-file decompresses to a garbage line before its checksum fails at the
// end; the reader reports the damage (a *CorruptError naming the file), as
// swfsim, which reads its input whole first, always did, not the garbage
// line as malformed SWF. A genuine bad line in a sound compressed file, or
// in a plain one, is still the line's error.
func TestDamagedCompressedInput(t *testing.T) {
	var text strings.Builder
	for job := 1; job <= 2000; job++ {
		fmt.Fprintf(&text, "%d %d 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n", job, job*10)
	}
	bad := strings.Replace(text.String(), "\n1500 ", "\nx500 ", 1)
	// Stored (level 0) deflate blocks: the changed byte is the same one
	// in the compressed file, whose CRC then fails.
	stored := func(s string) []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.NoCompression)
		io.WriteString(zw, s)
		zw.Close()
		return b.Bytes()
	}
	damaged := stored(text.String())
	at := bytes.Index(damaged, []byte("\n1500 "))
	if at < 0 {
		t.Fatal("the line is not stored as is")
	}
	damaged[at+1] = 'x'
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		content []byte
		corrupt bool // want the damage, else the line's *swf.ParseError
	}{
		{"damaged gzip", damaged, true},
		{"sound gzip, bad line", stored(bad), false},
		{"plain, bad line", []byte(bad), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			if err := os.WriteFile(path, tc.content, 0o644); err != nil {
				t.Fatal(err)
			}
			files := NewFiles(nil, io.Discard)
			for _, hashed := range []bool{false, true} {
				var in io.ReadCloser
				var err error
				if hashed {
					in, _, err = files.OpenHashed(path)
				} else {
					in, err = files.Open(path)
				}
				if err != nil {
					t.Fatal(err)
				}
				r := swf.NewReader(in)
				r.Name = path
				r.Damaged = Damaged(in)
				for err == nil {
					_, err = r.Read()
				}
				in.Close()
				var corrupt *CorruptError
				var perr *swf.ParseError
				switch {
				case tc.corrupt && (!errors.As(err, &corrupt) || corrupt.File != path):
					t.Errorf("hashed %v: %v, want a *CorruptError naming %s", hashed, err, path)
				case !tc.corrupt && (!errors.As(err, &perr) || perr.Line != 1500):
					t.Errorf("hashed %v: %v, want line 1500's *swf.ParseError", hashed, err)
				}
			}
		})
	}
}
