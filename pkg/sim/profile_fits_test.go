package sim

import (
	"math/rand/v2"
	"testing"
)

// TestFreeUntilAgreesWithEarliestFit checks FreeUntil against EarliestFit on
// random profiles: FreeUntil(t, p) >= t+d exactly when EarliestFit(t, d, p)
// == t, for d > 0.
func TestFreeUntilAgreesWithEarliestFit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for range 200 {
		procs := int64(1 + r.IntN(16))
		p := NewProfile(procs, 0)
		for range r.IntN(20) {
			s := int64(r.IntN(100))
			e := s + 1 + int64(r.IntN(50))
			n := 1 + r.Int64N(procs)
			if p.EarliestFit(s, e-s, n) == s {
				p.Reserve(s, e, n)
			}
		}
		for range 50 {
			s, d, n := int64(r.IntN(160)), 1+int64(r.IntN(60)), 1+r.Int64N(procs)
			want := p.EarliestFit(s, d, n) == s
			if got := p.FreeUntil(s, n) >= s+d; got != want {
				t.Fatalf("FreeUntil(%d, %d) = %d for a %d s job; EarliestFit says fits %v", s, n, p.FreeUntil(s, n), d, want)
			}
		}
	}
}
