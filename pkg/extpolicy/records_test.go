package extpolicy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Records across chunk boundaries, with records longer than a chunk's room
// and than a chunk, read back as written.
func TestRecordsChunks(t *testing.T) {
	var r Records
	var want []string
	for i := range 30000 {
		sj := swf.Job{JobNumber: int64(i + 1), SubmitTime: int64(i), AverageCPUTime: 0.5}
		switch i % 1000 {
		case 7:
			sj.Extra = []string{strings.Repeat("x", 3000)}
		case 8:
			sj.Extra = []string{strings.Repeat("y", 2*recordChunk)}
		}
		r.Add(&sj)
		extra := ""
		if len(sj.Extra) > 0 {
			extra = `"` + sj.Extra[0] + `"`
		}
		want = append(want, fmt.Sprintf(`"fields":[%d,%d,0,0,0,0.5,0,0,0,0,0,0,0,0,0,0,0,0],"extra":[%s]`, i+1, i, extra))
	}
	if r.Len() != len(want) || len(r.chunks) < 3 {
		t.Fatalf("%d records in %d chunks", r.Len(), len(r.chunks))
	}
	for i, w := range want {
		if got := string(r.record(int32(i))); got != w {
			t.Fatalf("record %d: %.80s..., want %.80s...", i, got, w)
		}
		if r.number(int32(i)) != int64(i+1) {
			t.Fatalf("record %d: number %d", i, r.number(int32(i)))
		}
	}
}
