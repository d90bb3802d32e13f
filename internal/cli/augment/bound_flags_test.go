package augmentcli

import (
	"strings"
	"testing"
)

// TestBoundFlagsOnlyWhereACategoryReadsThem: the processor and area bounds
// decide categories 1, 2, 8, 9 and 5, 6 only. With --error-qual (which reads
// the runtime bounds alone) or another category they changed nothing but the
// bounds Note, which swfstat reads for the runtime bounds alone: a flag parsed
// and ignored, as --top-apps outside category 7 is refused. --bounds, which
// asks for the Note, takes them all.
func TestBoundFlagsOnlyWhereACategoryReadsThem(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--error-qual", "both", "--error-percent", "50", "--procs-lower", "4"}, 2, "--procs-lower sets the processor lower bound, which only --error-category 2, 8 and 9 read; --error-qual reads only the runtime bounds"},
		{[]string{"--error-qual", "s2l", "--error-percent", "50", "--area-upper", "5000"}, 2, "--area-upper sets the area upper bound, which only --error-category 5 (and 6 without --area-lower) read; --error-qual reads only the runtime bounds"},
		{[]string{"--error-quant", "50", "--error-category", "3", "--procs-upper", "4"}, 2, "--procs-upper sets the processor upper bound, which only --error-category 1 (and 2, 8 and 9 without --procs-lower) read; --error-category 3 does not"},
		{[]string{"--error-quant", "50", "--error-category", "1", "--area-lower", "50"}, 2, "--area-lower sets the area lower bound, which only --error-category 6 read; --error-category 1 does not"},
		{[]string{"--error-quant", "50", "--error-category", "11", "--procs-lower", "2"}, 2, "--error-category 11 does not"},
		{[]string{"--error-quant", "50", "--error-category", "1", "--procs-lower", "2"}, 2, "--procs-lower sets the processor lower bound, which only --error-category 2, 8 and 9 read; --error-category 1 does not"},
		{[]string{"--error-quant", "50", "--error-category", "5", "--area-lower", "50"}, 2, "--error-category 5 does not"},
		{[]string{"--error-quant", "50", "--error-category", "2", "--procs-lower", "2", "--procs-upper", "8"}, 2, "--procs-upper sets the processor upper bound, which only --error-category 1 (and 2, 8 and 9 without --procs-lower) read; --error-category 2 does not when --procs-lower is given"},
		{[]string{"--error-quant", "50", "--error-category", "1", "--procs-upper", "4"}, 0, ""},
		{[]string{"--error-quant", "50", "--error-category", "9", "--procs-upper", "4"}, 0, ""},
		{[]string{"--error-quant", "50", "--error-category", "6", "--area-upper", "5000"}, 0, ""},
		{[]string{"--error-quant", "50", "--error-category", "2", "--procs-lower", "2"}, 0, ""},
		{[]string{"--error-quant", "50", "--error-category", "8", "--procs-upper", "8"}, 0, ""},
		{[]string{"--error-quant", "50", "--error-category", "9", "--procs-lower", "2"}, 0, ""},
		{[]string{"--error-quant", "50", "--error-category", "5", "--area-upper", "5000"}, 0, ""},
		{[]string{"--error-quant", "50", "--error-category", "6", "--area-lower", "50"}, 0, ""},
		{[]string{"--error-qual", "both", "--error-percent", "50", "--bounds", "--procs-lower", "2", "--area-upper", "5000"}, 0, ""},
		{[]string{"--bounds", "--procs-lower", "2", "--area-upper", "5000"}, 0, ""},
		// The runtime bounds are read by every estimate-error run (and by
		// swfstat's U-QoS from the Note): accepted with any category.
		{[]string{"--error-quant", "50", "--error-category", "1", "--rt-upper-bound", "600"}, 0, ""},
	} {
		_, errOut, code := runCmd(t, "", append(tc.args, "testdata/small.swf")...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}
