package replay_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	augmentcli "github.com/swfkit/swfkit/internal/cli/augment"
	cleancli "github.com/swfkit/swfkit/internal/cli/clean"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/provenance"
	"github.com/swfkit/swfkit/pkg/swf"
)

// trace is small, with a user whose burst of submissions the flurries rule
// finds, so that --drop-flurries takes its two-pass path.
func trace() string {
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; MaxProcs: 64\n; Note: input-sha256 test trace\n")
	for i := 1; i <= 60; i++ {
		user := 1 + i%3
		submit := i * 600
		if i > 20 && i <= 40 {
			user, submit = 9, 12000+i // a flurry
		}
		b.WriteString(strings.Join([]string{strconv.Itoa(i), strconv.Itoa(submit), "5", strconv.Itoa(100 + i), "4", "-1", "-1", "4", "600",
			"-1", "1", strconv.Itoa(user), "1", "1", "1", "-1", "-1", "-1"}, " ") + "\n")
	}
	return b.String()
}

type tool func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// recorded runs a tool and returns its Provenance record.
func recorded(t *testing.T, run tool, stdin []byte, args ...string) provenance.Record {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, bytes.NewReader(stdin), &out, &errb); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	hdr, err := swf.NewReader(&out).Header()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := provenance.FromHeader(hdr)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%v: provenance %v %v", args, recs, err)
	}
	return recs[0]
}

func sha(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// TestInputSHA256: every tool records, right after input=, the SHA-256 of
// the bytes it read after decompression, whether it read a plain, gzip or
// zstd file or standard input, in each of swfclean's paths (a body spooled
// before the header; the flurries rule's two passes over a file, or a spool
// of standard input; a --from log converted whole, then cleaned or copied),
// and cmdio.FileSHA256, which --replay checks files with, agrees.
func TestInputSHA256(t *testing.T) {
	text := trace()
	dir := t.TempDir()
	files := map[string][]byte{"plain.swf": []byte(text), "gz.swf.gz": testutil.Gzip(t, text), "zst.swf.zst": testutil.Zstd(t, text)}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := sha([]byte(text))
	tools := []struct {
		name string
		run  tool
		args []string
	}{
		{"swfclean", cleancli.Run, []string{"swfclean", "-q"}},
		{"swfclean", cleancli.Run, []string{"swfclean", "-q", "--drop-flurries", "--flurry-min-jobs", "10"}},
		{"swfclean", cleancli.Run, []string{"swfclean", "-q", "--rules", "all"}},
		{"swfaugment", augmentcli.Run, []string{"swfaugment", "--estimate", "uniform:1,3"}},
		{"swfsim", simcli.Run, []string{"swfsim", "--policy", "easy", "--no-progress"}},
	}
	for _, tt := range tools {
		for name, data := range files {
			path := filepath.Join(dir, name)
			for _, stdin := range []bool{false, true} {
				args, in, input := append(tt.args[:len(tt.args):len(tt.args)], path), []byte(nil), path
				if stdin {
					args, in, input = append(tt.args[:len(tt.args):len(tt.args)], "-"), data, "-"
				}
				r := recorded(t, tt.run, in, args...)
				n := len(r.Fields)
				if n < 2 || r.Fields[n-2] != (provenance.Field{Key: "input", Value: input}) ||
					r.Fields[n-1] != (provenance.Field{Key: provenance.InputSHA256, Value: want}) {
					t.Errorf("%v: the record ends %v, want input=%s %s=%s", args, r.Fields[max(0, n-2):], input, provenance.InputSHA256, want)
				}
			}
			if got, err := cmdio.FileSHA256(path); err != nil || got != want {
				t.Errorf("FileSHA256(%s) = %s, %v; want %s", name, got, err, want)
			}
		}
	}
	// A --from log: the hash of the log, not of the SWF made from it, on
	// the spooled path, the copy (--rules none) and the two-pass one.
	log, err := os.ReadFile("../../../testdata/slurm/sacct.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{nil, {"--rules", "none"}, {"--drop-flurries"}} {
		for _, stdin := range []bool{false, true} {
			args := append([]string{"swfclean", "-q", "--from", "sacct", "--timezone", "UTC"}, extra...)
			var in []byte
			if stdin {
				args, in = append(args, "-"), log
			} else {
				args = append(args, "../../../testdata/slurm/sacct.txt")
			}
			r := recorded(t, cleancli.Run, in, args...)
			if got, _ := r.Get(provenance.InputSHA256); got != sha(log) {
				t.Errorf("%v: %s=%s, want %s", args, provenance.InputSHA256, got, sha(log))
			}
		}
	}
}
