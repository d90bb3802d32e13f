package simcli

import (
	"slices"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

// TestJobExtraAsSetExtra: write merges the tokens into a reused slice
// (jobExtra); it must give what swf.Job.SetExtra gives, in the same order.
func TestJobExtraAsSetExtra(t *testing.T) {
	for _, tc := range []struct {
		extra, tokens []string
		killed        bool
	}{
		{nil, []string{"fairstart=5"}, false},
		{[]string{"u=0:1", "ckpt=60"}, []string{"trial=90", "fairstart=100"}, false},
		{[]string{"price=3", "x=1"}, []string{"price=4", "fairstart=1", "price=5"}, false},
		{[]string{"fair=1", "fairstart"}, []string{"fairstart=2", "fair=3"}, false},
		{nil, []string{"bare", "bare=1"}, false},
		{[]string{"killed=0", "a=1"}, []string{"trial=3"}, true},
		{nil, nil, true},
	} {
		var want swf.Job
		want.Extra = slices.Clone(tc.extra)
		if tc.killed {
			want.SetExtra("killed", "1")
		}
		for _, tok := range tc.tokens {
			key, value, _ := strings.Cut(tok, "=")
			want.SetExtra(key, value)
		}
		scratch := []string{"stale", "from", "the", "last", "record"}
		got := jobExtra(scratch[:0], tc.extra, &sim.Job{Killed: tc.killed, Tokens: tc.tokens})
		if !slices.Equal(got, want.Extra) {
			t.Errorf("extra %q, tokens %q, killed %v: jobExtra gives %q, SetExtra %q", tc.extra, tc.tokens, tc.killed, got, want.Extra)
		}
	}
}
