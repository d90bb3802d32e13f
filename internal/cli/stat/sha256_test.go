package statcli

import (
	"crypto/sha256"
	"encoding/csv"
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

// TestOwnProvenanceHashesInputs: swfstat's own provenance names the bytes
// of each input as the other tools' lines do: input-sha256= after each
// input= in the table's Provenance line and the JSON's, a
// swfstat.input-sha256 column on each row of the CSV, JSON and --jobs
// tables, and the hash in each input's provenance in the HTML report. A
// regular file (opened again for its records), a compressed one and
// standard input (read once) each get the hash of their decompressed bytes.
func TestOwnProvenanceHashesInputs(t *testing.T) {
	dir := t.TempDir()
	traces := []string{
		"; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n",
		"; MaxProcs: 4\n1 0 5 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n2 3 1 7 2 -1 -1 2 9 -1 1 1 1 -1 1 -1 -1 -1\n",
		"; MaxProcs: 8\n1 0 2 20 4 -1 -1 4 20 -1 1 2 1 -1 1 -1 -1 -1\n",
	}
	plain, gz := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf.gz")
	os.WriteFile(plain, []byte(traces[0]), 0o644)
	os.WriteFile(gz, testutil.Gzip(t, traces[1]), 0o644)
	inputs := []string{plain, gz, "-"}
	labels := []string{"a", "b", "in"}
	sums := make([]string, len(traces))
	for i, tr := range traces {
		s := sha256.Sum256([]byte(tr))
		sums[i] = hex.EncodeToString(s[:])
	}
	csvPath, jsonPath, jobsPath, htmlPath := filepath.Join(dir, "s.csv"), filepath.Join(dir, "s.json"), filepath.Join(dir, "j.csv"), filepath.Join(dir, "r.html")
	out, errs, code := run(t, traces[2], append([]string{"--label", strings.Join(labels, ","), "--csv", csvPath, "--json", jsonPath, "--jobs", jobsPath, "--html", htmlPath}, inputs...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var wantFields []string
	for i, in := range inputs {
		wantFields = append(wantFields, "input="+in+" input-sha256="+sums[i])
	}
	want := strings.Join(wantFields, " ") + "\n"
	if !strings.Contains(out, "# Provenance: swfstat ") || !strings.HasSuffix(strings.SplitAfter(out[strings.Index(out, "# Provenance: swfstat "):], "\n")[0], " "+want) {
		t.Errorf("the table's Provenance line does not end %q:\n%s", want, out)
	}
	data, _ := os.ReadFile(jsonPath)
	if !strings.Contains(string(data), " "+strings.TrimSuffix(want, "\n")+"\",\n") {
		t.Errorf("the JSON's provenance lacks %q", want)
	}
	for i, l := range labels {
		if !strings.Contains(string(data), `"label": "`+l+`", "file": `) || strings.Count(string(data), `"swfstat.input-sha256": "`+sums[i]+`"`) < 2 {
			t.Errorf("the JSON has no swfstat.input-sha256 %s for %s (its input and its rows)", sums[i], l)
		}
	}
	for _, table := range []string{csvPath, jobsPath} {
		data, _ := os.ReadFile(table)
		got := map[string]string{}
		for _, row := range csvRows(t, readCSV(t, string(data))) {
			if prev, ok := got[row["label"]]; ok && prev != row["swfstat.input-sha256"] {
				t.Errorf("%s: two hashes for %s", table, row["label"])
			}
			got[row["label"]] = row["swfstat.input-sha256"]
		}
		for i, l := range labels {
			if got[l] != sums[i] {
				t.Errorf("%s: swfstat.input-sha256 of %s is %q, want %s", table, l, got[l], sums[i])
			}
		}
	}
	page, _ := os.ReadFile(htmlPath)
	for _, s := range sums {
		if !strings.Contains(string(page), `Read as SHA-256 <span class="file">`+s+`</span>`) {
			t.Errorf("the HTML report lacks the hash %s", s)
		}
	}
}

func readCSV(t *testing.T, text string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
