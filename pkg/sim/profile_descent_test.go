package sim

import (
	"math/rand/v2"
	"testing"
)

// TestDescentAgreesWithMinFree checks Descent and LevelAt against MinFree
// on random profiles: for every window from the start that ends before the
// descent's end, the level is MinFree, or -1 (below floor) exactly when
// MinFree is below floor.
func TestDescentAgreesWithMinFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		p := NewProfile(64, 0)
		for range rng.IntN(30) {
			s := rng.Int64N(200)
			e := s + 1 + rng.Int64N(100)
			q := 1 + rng.Int64N(16)
			if p.MinFree(s, e) >= q {
				p.Reserve(s, e, q)
			}
		}
		start := rng.Int64N(150)
		end := start + 1 + rng.Int64N(200)
		floor := rng.Int64N(40)
		lv := p.Descent(start, end, floor, nil)
		for x := start + 1; x <= end; x++ {
			want := p.MinFree(start, x)
			got := LevelAt(lv, x-1)
			if want < floor {
				if got != -1 {
					t.Fatalf("trial %d: [%d,%d) floor %d: got %d, want -1 (MinFree %d)", trial, start, x, floor, got, want)
				}
				continue
			}
			if got != want {
				t.Fatalf("trial %d: [%d,%d) floor %d: got %d, want %d", trial, start, x, floor, got, want)
			}
		}
	}
}
