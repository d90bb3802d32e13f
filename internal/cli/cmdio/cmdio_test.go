package cmdio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/urfave/cli/v2"
)

func TestInterspersed(t *testing.T) {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "policy", Aliases: []string{"p"}},
		&cli.StringFlag{Name: "o"},
		&cli.BoolFlag{Name: "no-kill"},
	}
	tests := []struct{ in, want string }{
		{"swfsim --policy easy a.swf", "swfsim --policy easy -- a.swf"},
		{"swfsim a.swf --policy easy -o out.swf", "swfsim --policy easy -o out.swf -- a.swf"},
		{"swfsim a.swf --no-kill b.swf", "swfsim --no-kill -- a.swf b.swf"},
		{"swfsim --policy=easy - ", "swfsim --policy=easy -- -"},
		{"swfsim -p easy -- --odd-name.swf", "swfsim -p easy -- --odd-name.swf"},
		{"swfsim --unknown a.swf", "swfsim --unknown -- a.swf"},
		{"swfsim", "swfsim"},
	}
	for _, tt := range tests {
		got := strings.Join(Interspersed(strings.Fields(tt.in), flags), " ")
		if got != tt.want {
			t.Errorf("%q -> %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{fmt.Errorf("write: %w", syscall.EPIPE), 0},
		{Usagef("bad %s", "flag"), 2},
		{fmt.Errorf("wrapped: %w", Usagef("x")), 2},
		{errors.New("t.swf:3: field 4"), 1},
	}
	for _, tt := range tests {
		if got := ExitCode(tt.err); got != tt.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

func TestOpenCreateCompression(t *testing.T) {
	dir := t.TempDir()
	const text = "; Version: 2\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 -1 -1 -1 -1 -1\n"
	for _, name := range []string{"a.swf", "a.swf.gz", "a.swf.zst"} {
		path := filepath.Join(dir, name)
		w, err := Create(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, text)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(path)
		compressed := bytes.HasPrefix(raw, magicGzip) || bytes.HasPrefix(raw, magicZstd)
		if compressed != (name != "a.swf") {
			t.Errorf("%s: compressed = %v", name, compressed)
		}
		// Detection is by magic bytes, not by name: copy to a neutral name.
		neutral := filepath.Join(dir, "copy-of-"+strings.ReplaceAll(name, ".", "_"))
		os.WriteFile(neutral, raw, 0o644)
		r, err := Open(neutral, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		if err != nil || string(got) != text {
			t.Errorf("%s read back %q, %v", name, got, err)
		}
	}
	// stdin and stdout.
	r, err := Open("-", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(r)
	if string(got) != text {
		t.Errorf("stdin read %q", got)
	}
	var out bytes.Buffer
	w, _ := Create("", &out)
	io.WriteString(w, "x")
	w.Close()
	if out.String() != "x" {
		t.Errorf("stdout got %q", out.String())
	}
	if _, err := Open(filepath.Join(dir, "missing.swf"), nil); err == nil || !strings.Contains(err.Error(), "missing.swf") {
		t.Errorf("missing file error %v", err)
	}
	os.WriteFile(filepath.Join(dir, "b.bz2"), []byte("BZh91AY&SY"), 0o644)
	if _, err := Open(filepath.Join(dir, "b.bz2"), nil); err == nil || !strings.Contains(err.Error(), "bzip2") {
		t.Errorf("bzip2 error %v", err)
	}
}

func TestOutputAtomic(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"x.swf", "x.swf.gz"} {
		path := filepath.Join(dir, name)
		// A failed run leaves nothing under the name, and no temporary file.
		o, err := Create(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(o, "partial")
		failure := errors.New("bad input")
		Finish(o, &failure)
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s exists after a failed run", name)
		}
		// A successful run commits it.
		o, _ = Create(path, nil)
		io.WriteString(o, "whole")
		var ok error
		Finish(o, &ok)
		if ok != nil {
			t.Fatal(ok)
		}
		r, err := Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(r)
		r.Close()
		if string(got) != "whole" {
			t.Errorf("%s holds %q", name, got)
		}
		// A later failed run keeps the earlier good file.
		o, _ = Create(path, nil)
		io.WriteString(o, "again, partial")
		Finish(o, &failure)
		r, _ = Open(path, nil)
		got, _ = io.ReadAll(r)
		r.Close()
		if string(got) != "whole" {
			t.Errorf("%s overwritten by a failed run: %q", name, got)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left %d entries in the directory, want 2 (no temporary files)", len(entries))
	}
}
