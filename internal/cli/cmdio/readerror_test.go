package cmdio

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/swfkit/swfkit/pkg/swf"
)

// TestReadError: without --lenient, the error of an input's first record
// line gets the hint of a lenient read that skipped every line when the
// line looks like a log swfclean converts, and every other error is
// returned as it is: a malformed SWF line, a sacct or Alea line after
// records that parsed, an error that is not a line's.
func TestReadError(t *testing.T) {
	const (
		job   = "1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n"
		alea  = "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n"
		sacct = "JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode\n1|x|p|a|2|COMPLETED|0:0\n"
	)
	for _, tc := range []struct {
		name, tool string
		in         io.Reader
		hint       string // "": the error unchanged
	}{
		{"sacct to swfsim", "swfsim", strings.NewReader(sacct),
			" (it looks like a Slurm `sacct --parsable2` dump: convert it to SWF first, swfclean --from sacct --timezone ZONE FILE -o FILE.swf)"},
		{"sacct to swfclean", "swfclean", strings.NewReader(sacct),
			" (it looks like a Slurm `sacct --parsable2` dump: read it with --from sacct --timezone ZONE)"},
		{"alea after a header to swfaugment", "swfaugment", strings.NewReader("; MaxProcs: 64\n" + alea),
			" (it looks like the Alea simulator's format, in which MetaCentrum publishes its logs: convert it to SWF first, swfclean --from alea FILE -o FILE.swf)"},
		{"alea to swfclean", "swfclean", strings.NewReader(alea),
			" (it looks like the Alea simulator's format, in which MetaCentrum publishes its logs: read it with --from alea)"},
		{"malformed SWF line", "swfsim", strings.NewReader("1 2 3\n"), ""},
		{"sacct line after a record", "swfstat", strings.NewReader(job + sacct), ""},
		{"alea line after a record", "swfclean", strings.NewReader(job + alea), ""},
		{"not a line's error", "swfsim", iotest.ErrReader(errors.New("disk on fire")), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := swf.NewReader(tc.in)
			r.Name = "t.log"
			var err error
			for err == nil {
				_, err = r.Read()
			}
			if err == io.EOF {
				t.Fatal("read to the end: want an error")
			}
			got := ReadError(r, tc.tool, err)
			if tc.hint == "" {
				if got != err {
					t.Errorf("error %q, want %q unchanged", got, err)
				}
				return
			}
			var pe *swf.ParseError
			if got.Error() != err.Error()+tc.hint || !errors.As(got, &pe) || pe.Line != r.Line() {
				t.Errorf("error %q, want %q then %q, still the line's *swf.ParseError", got, err, tc.hint)
			}
		})
	}
}
