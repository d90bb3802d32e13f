package clean

import (
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// TestMachineFromSet: a MaxProcs or MaxNodes of Config.Set (swfclean --set)
// is the machine too_big checks, as the header it is written into says;
// before, the rules read the input's MaxProcs 16 and the output said 4 over
// an 8-processor job.
func TestMachineFromSet(t *testing.T) {
	const jobs = "1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n2 0 1 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n"
	for _, tc := range []struct {
		name, header string
		cfg          Config
		kept         int      // jobs too_big keeps
		want         []string // header lines after Annotate, in order
		absent       string   // a line that must not be there
	}{
		{"set MaxProcs", "; MaxProcs: 16\n", Config{Set: []Setting{{"MaxProcs", "4"}}}, 1,
			[]string{"; MaxProcs: 4", "; Note: swfclean --set MaxProcs=4: MaxProcs was 16"}, ""},
		{"set MaxProcs, any case", "; MaxProcs: 16\n", Config{Set: []Setting{{"maxprocs", "4 (one node)"}}}, 1,
			[]string{"; MaxProcs: 4 (one node)", "; Note: swfclean --set MaxProcs=4 (one node): MaxProcs was 16"}, ""},
		{"set MaxProcs, the last wins", "; MaxProcs: 16\n", Config{Set: []Setting{{"MaxProcs", "2"}, {"MaxProcs", "8"}}}, 2,
			[]string{"; MaxProcs: 8", "; Note: swfclean --set MaxProcs=8: MaxProcs was 16"}, ""},
		{"set MaxProcs over a malformed one", "; MaxProcs: lots\n", Config{Set: []Setting{{"MaxProcs", "4"}}}, 1,
			[]string{"; MaxProcs: 4", "; Note: swfclean --set MaxProcs=4: MaxProcs was lots"}, ""},
		{"set MaxProcs, absent before", "; Version: 2.2\n", Config{Set: []Setting{{"MaxProcs", "4"}}}, 1,
			[]string{"; MaxProcs: 4", "; Note: swfclean --set MaxProcs=4: MaxProcs was absent"}, ""},
		{"set MaxProcs, unchanged", "; MaxProcs: 4\n", Config{Set: []Setting{{"MaxProcs", "4"}}}, 1,
			[]string{"; MaxProcs: 4"}, "MaxProcs was"},
		{"set MaxNodes, no MaxProcs", "; MaxNodes: 16\n", Config{Set: []Setting{{"MaxNodes", "4"}}}, 1,
			[]string{"; MaxNodes: 4", "; Note: swfclean --set MaxNodes=4: MaxNodes was 16"}, "MaxProcs"},
		{"set MaxNodes under MaxProcs", "; MaxProcs: 16\n; MaxNodes: 16\n", Config{Set: []Setting{{"MaxNodes", "4"}}}, 2,
			[]string{"; MaxProcs: 16", "; MaxNodes: 4", "; Note: swfclean --set MaxNodes=4: MaxNodes was 16"}, ""},
		{"procs and set agree", "; MaxProcs: 16\n", Config{Machine: 4, Set: []Setting{{"MaxProcs", "4"}}}, 1,
			[]string{"; MaxProcs: 4", "; Note: swfclean --procs 4: MaxProcs was 16"}, "--set MaxProcs"},
		// --procs wrote MaxProcs 4 already: "MaxProcs was 4" would name
		// this run's own value as the one replaced.
		{"procs and set agree, set with words", "; MaxProcs: 16\n", Config{Machine: 4, Set: []Setting{{"MaxProcs", "4 (one node)"}}}, 1,
			[]string{"; MaxProcs: 4 (one node)", "; Note: swfclean --procs 4: MaxProcs was 16"}, "--set MaxProcs"},
		{"set MaxProcs, same size, other words", "; MaxProcs: 4\n", Config{Set: []Setting{{"MaxProcs", "4 (one node)"}}}, 1,
			[]string{"; MaxProcs: 4 (one node)"}, "MaxProcs was"},
		{"other labels", "; MaxProcs: 16\n", Config{Set: []Setting{{"Computer", "x"}, {"Note", "n"}}}, 2,
			[]string{"; MaxProcs: 16", "; Computer: x", "; Note: n"}, "was"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr, in := readAll(t, tc.header+jobs)
			tc.cfg.Rules = []string{"too_big"}
			c, err := New(hdr, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			kept := 0
			for i := range in {
				if c.Apply(&in[i]) {
					kept++
				}
			}
			if kept != tc.kept {
				t.Errorf("too_big kept %d jobs, want %d", kept, tc.kept)
			}
			c.Annotate(hdr, c.Report(0))
			var lines []string
			for _, l := range hdr.Lines {
				lines = append(lines, l.Raw)
			}
			text := strings.Join(lines, "\n")
			at := 0
			for _, w := range tc.want {
				i := strings.Index(text[at:], w+"\n")
				if i < 0 && strings.HasSuffix(text, w) {
					i = len(text) - len(w) - at
				}
				if i < 0 {
					t.Fatalf("header lacks %q (in order):\n%s", w, text)
				}
				at += i + len(w)
			}
			if tc.absent != "" && strings.Contains(text, tc.absent) {
				t.Errorf("header has %q:\n%s", tc.absent, text)
			}
			if n := strings.Count(text+"\n", "; Note: n\n") + strings.Count(text, "; Computer: x"); tc.name == "other labels" && n != 2 {
				t.Errorf("a --set line written %d times:\n%s", n, text)
			}
		})
	}
	// The size the rules read is the header as written, not the header
	// passed to New: that stays as read until Annotate.
	hdr := &swf.Header{Lines: []swf.HeaderLine{{Raw: "; MaxProcs: 16", Label: "MaxProcs", Value: "16"}}}
	if _, err := New(hdr, Config{Rules: []string{"too_big"}, Set: []Setting{{"MaxProcs", "4"}}}); err != nil || hdr.Lines[0].Value != "16" {
		t.Errorf("New changed the header: %v, %+v", err, hdr.Lines)
	}
}
