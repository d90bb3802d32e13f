package statcli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordCountWarning: a file whose MaxRecords a swfkit tool set to the
// records it wrote (swfclean always, swfsim when it left records out) and
// that has fewer or more records now was cut or edited: swfstat warns; a
// count copied from an archive trace (only swfaugment and swfsim ran) is
// not the file's and is not checked.
func TestRecordCountWarning(t *testing.T) {
	const rec = "%d 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n"
	records := func(n int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, rec, i)
		}
		return b.String()
	}
	clean := "; MaxProcs: 8\n; MaxRecords: 3\n; Provenance: swfclean version=0.1.0-dev rules=default input=t.swf\n"
	simDropped := "; MaxProcs: 8\n; MaxRecords: 3\n; Note: swfsim MaxJobs 3 and MaxRecords 3 count the output, 1 records left out (input header: MaxJobs 4, MaxRecords 4)\n" +
		"; Provenance: swfsim version=0.1.0-dev policy=fcfs input=t.swf\n"
	simOnly := "; MaxProcs: 8\n; MaxRecords: 3\n; Provenance: swfsim version=0.1.0-dev policy=fcfs input=t.swf\n"
	cleanSet := "; MaxProcs: 8\n; MaxRecords: 3\n; Provenance: swfclean version=0.1.0-dev rules=default set=\"MaxRecords=3\" input=t.swf\n"
	lenientAug := clean + "; Provenance: swfaugment version=0.1.0-dev lenient=true load=2 input=-\n"
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text, want string
	}{
		{"swfclean, whole", clean + records(3), ""},
		{"swfclean, cut", clean + records(2), "2 records, fewer than its header's MaxRecords 3"},
		{"swfclean, grown", clean + records(4), "4 records, more than its header's MaxRecords 3"},
		{"swfsim that dropped, cut", simDropped + records(1), "1 records, fewer than its header's MaxRecords 3"},
		{"swfsim alone: the archive's count", simOnly + records(2), ""},
		{"swfclean --set MaxRecords", cleanSet + records(2), ""},
		{"a lenient swfaugment after", lenientAug + records(2), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".swf")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := run(t, "", path)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			warned := strings.Contains(stderr, "MaxRecords")
			if tc.want == "" && warned || tc.want != "" && !strings.Contains(stderr, "swfstat: warning: "+path+": "+tc.want) {
				t.Errorf("stderr %q, want %q", stderr, tc.want)
			}
		})
	}
}
