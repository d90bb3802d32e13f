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
				r := NewSWFReader(in, path)
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

// TestEveryTraceReaderChecksDamage: the commands make the readers of a
// user's trace with NewSWFReader, which sets the Damaged hook, not with
// swf.NewReader, whose hook a new call site could forget. swfsim is the
// exception: it reads its input whole first (readChunks), where a damaged
// compressed file fails before any line is parsed, and parses that text
// from memory.
func TestEveryTraceReaderChecksDamage(t *testing.T) {
	allowed := map[string]bool{"sim/simulate.go": true}
	root := ".."
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "cmdio/") || allowed[rel] {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, "swf.NewReader(") {
				t.Errorf("internal/cli/%s:%d: swf.NewReader without the damage check: use cmdio.NewSWFReader", rel, i+1)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
