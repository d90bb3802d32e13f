package stats

import (
	"math"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// TestValues: the per-job values of two jobs of testdata/hand.swf, worked
// out in testdata/README.md: job 3 (killed, 4000 s, u=0:100,1000:50,5000:0)
// and job 4 (runtime 0, no u=).
func TestValues(t *testing.T) {
	const text = "; MaxProcs: 32\n" +
		"3   20  30 4000  2 -1 -1  2 4000 -1 0 1 1 -1 2 -1 -1 -1 u=0:100,1000:50,5000:0 fairstart=20 killed=1\n" +
		"4   30  75    0  1 -1 -1  1   -1 -1 5 3 1 -1 2 -1 -1 -1 fairstart=40\n"
	r := swf.NewReader(strings.NewReader(text))
	c := NewCollector(Config{}, Machine{Procs: 32})
	var got []JobValues
	for {
		j, err := r.Read()
		if err != nil {
			break
		}
		v, err := c.Values(&j)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	nan := math.NaN()
	want := []JobValues{
		{Wait: 30, Response: 4030, Slowdown: 4030.0 / 4000, BoundedSlowdown: 4030.0 / 4000, Category: "LN", Utility: 50 - 50*3030.0/4000},
		{Wait: 75, Response: 75, Slowdown: nan, BoundedSlowdown: 8.5, Category: "SN", Utility: nan},
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for i := range want {
		g, w := got[i], want[i]
		if !same(g.Wait, w.Wait) || !same(g.Response, w.Response) || !same(g.Slowdown, w.Slowdown) ||
			!same(g.BoundedSlowdown, w.BoundedSlowdown) || g.Category != w.Category || !same(g.Utility, w.Utility) {
			t.Errorf("job %d: %+v, want %+v", i+3, g, w)
		}
	}
}
