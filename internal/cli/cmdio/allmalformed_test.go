package cmdio

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// readAll reads an input leniently to its end, as a tool does.
func readAll(t *testing.T, in string) *swf.Reader {
	t.Helper()
	r := swf.NewReader(strings.NewReader(in))
	r.Name = "t.log"
	r.Lenient = true
	for {
		if _, err := r.Read(); err == io.EOF {
			return r
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

// TestAllMalformed: a lenient read that skipped every record line is an
// error naming the file, the count and the first error, with a hint when the
// text is a log swfclean converts; one where a record parsed, or with no
// record line at all, is not.
func TestAllMalformed(t *testing.T) {
	const (
		job  = "1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n"
		alea = "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n"
		dump = "JobID|Submit|Start|End|State|AllocCPUS\n7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|COMPLETED|4\n"
	)
	for _, tc := range []struct {
		name, tool, in string
		want           []string // nil: no error
	}{
		{"some parse", "swfsim", "garbage\n" + job, nil},
		{"header only", "swfsim", "; MaxProcs: 4\n", nil},
		{"one line", "swfstat", "garbage\n", []string{"t.log: no valid SWF record: --lenient skipped its one record line as malformed; the first: t.log:1: "}},
		{"alea to swfclean", "swfclean", "; x\n" + alea + alea, []string{
			"t.log: no valid SWF record: --lenient skipped all 2 record lines as malformed; the first: t.log:2: field 19",
			"(it looks like the Alea simulator's format, in which MetaCentrum publishes its logs: read it with --from alea)"}},
		{"alea to swfsim", "swfsim", alea, []string{"convert it to SWF first, swfclean --from alea FILE -o FILE.swf)"}},
		{"sacct to swfclean", "swfclean", dump, []string{"t.log:1: field 1", "read it with --from sacct --timezone ZONE)"}},
		{"sacct to swfaugment", "swfaugment", dump, []string{"swfclean --from sacct --timezone ZONE FILE -o FILE.swf)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := AllMalformed(readAll(t, tc.in), tc.tool)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			if !errors.Is(err, ErrNoValidRecord) {
				t.Fatalf("error %v, want ErrNoValidRecord", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if tc.tool != "swfclean" && strings.Contains(err.Error(), "read it with") {
				t.Errorf("error %q offers a flag %s does not have", err, tc.tool)
			}
		})
	}
}
