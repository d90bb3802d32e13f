package statcli

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	simcli "github.com/swfkit/swfkit/internal/cli/sim"
	"github.com/swfkit/swfkit/internal/testutil"
)

// TestSHA256: --sha256 prints what a tool records as input-sha256, the
// hash of the decompressed bytes, whatever the compression, in sha256sum's
// format ("-" for standard input), so that a script (the study's point.sh)
// can check a file against a run's Provenance with the tools' own reading
// of it; the hash printed is the one swfsim records.
func TestSHA256(t *testing.T) {
	dir := t.TempDir()
	trace := "; Version: 2.2\n; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n"
	sum := sha256.Sum256([]byte(trace))
	want := hex.EncodeToString(sum[:])
	plain, gz, zst := filepath.Join(dir, "t.swf"), filepath.Join(dir, "t.swf.gz"), filepath.Join(dir, "t.swf.zst")
	os.WriteFile(plain, []byte(trace), 0o644)
	os.WriteFile(gz, testutil.Gzip(t, trace), 0o644)
	os.WriteFile(zst, testutil.Zstd(t, trace), 0o644)

	out, errs, code := run(t, trace, "--sha256", plain, gz, zst, "-")
	wantOut := want + "  " + plain + "\n" + want + "  " + gz + "\n" + want + "  " + zst + "\n" + want + "  -\n"
	if code != 0 || errs != "" || out != wantOut {
		t.Errorf("exit %d, stderr %q, output\n%s\nwant\n%s", code, errs, out, wantOut)
	}

	var simOut strings.Builder
	if code := simcli.Run([]string{"swfsim", "-p", "fcfs", "--no-progress", zst}, nil, &simOut, os.Stderr); code != 0 {
		t.Fatalf("swfsim: exit %d", code)
	}
	if !strings.Contains(simOut.String(), " input-sha256="+want+"\n") {
		t.Errorf("swfsim recorded another hash than --sha256 prints (%s):\n%s", want, simOut.String())
	}

	// A name holding a backslash or a line break is escaped as sha256sum
	// does, so that sha256sum -c reads the line back.
	odd := filepath.Join(dir, "a\\b\nc.swf")
	os.WriteFile(odd, []byte(trace), 0o644)
	out, _, code = run(t, "", "--sha256", odd)
	if escaped := "\\" + want + "  " + strings.NewReplacer("\\", "\\\\", "\n", "\\n").Replace(odd) + "\n"; code != 0 || out != escaped {
		t.Errorf("an odd name: exit %d, %q, want %q", code, out, escaped)
	}

	// A damaged input is an error, not the hash of what could be read.
	data := testutil.Gzip(t, strings.Repeat(trace, 50))
	cut := filepath.Join(dir, "cut.swf.gz")
	os.WriteFile(cut, data[:len(data)/2], 0o644)
	if out, errs, code := run(t, "", "--sha256", cut); code != 1 || out != "" || !strings.Contains(errs, "truncated gzip data") {
		t.Errorf("a truncated input: exit %d, stderr %q, output %q", code, errs, out)
	}
	// It prints hashes, not a summary: the summary's options are usage errors.
	for _, args := range [][]string{{"--format", "csv"}, {"--replay"}, {"--label", "x"}} {
		if _, errs, code := run(t, "", append(append([]string{"--sha256"}, args...), plain)...); code != 2 || !strings.Contains(errs, "does not apply to --") {
			t.Errorf("--sha256 %v: exit %d, stderr %q", args, code, errs)
		}
	}
}
