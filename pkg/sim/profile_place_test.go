package sim

import (
	"math/rand/v2"
	"testing"
)

// ReserveEarliest is EarliestFitMin followed by Reserve of the copies that fit,
// on random profiles (merged steps, starts inside and at steps, windows
// ending inside, at and past steps, and at the end of the profile).
func TestReserveEarliestMatchesSearchThenReserve(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 29))
	for round := range 3000 {
		machine := 1 + r.Int64N(8)
		origin := r.Int64N(10)
		p := NewProfile(machine, origin)
		want := NewProfile(machine, origin)
		for op := range 40 {
			from := origin + r.Int64N(100) - 5
			dur := 1 + r.Int64N(30)
			procs := 1 + r.Int64N(machine)
			copies := 1 + r.Int64N(4)
			before := steps(p)
			ws, wm := want.EarliestFitMin(from, dur, procs)
			wp := min(copies, wm/procs)
			if ws != Never {
				want.Reserve(ws, ws+dur, wp*procs)
			}
			s, m, placed := p.ReserveEarliest(from, dur, procs, copies)
			if s != ws || m != wm || placed != wp {
				t.Fatalf("round %d op %d: ReserveEarliest(%d, %d, %d, %d) on %s = %d, %d, %d, want %d, %d, %d",
					round, op, from, dur, procs, copies, before, s, m, placed, ws, wm, wp)
			}
			if got, w := steps(p), steps(want); got != w {
				t.Fatalf("round %d op %d: ReserveEarliest(%d, %d, %d, %d) on %s left\n%s, want\n%s",
					round, op, from, dur, procs, copies, before, got, w)
			}
			if r.IntN(4) == 0 { // give some back, so windows meet steps of every kind
				a := origin + r.Int64N(100)
				b := a + 1 + r.Int64N(30)
				if room := machine - maxFreeIn(want, a, b); room > 0 {
					n := 1 + r.Int64N(room)
					want.Release(a, b, n)
					p.Release(a, b, n)
				}
			}
		}
	}
}

// maxFreeIn returns the most processors free at any time in [a, b).
func maxFreeIn(p *Profile, a, b int64) int64 {
	m := int64(0)
	for x := a; x < b; x++ {
		m = max(m, p.FreeAt(x))
	}
	return m
}

func TestReserveEarliestPanics(t *testing.T) {
	for _, c := range [][4]int64{{0, 0, 1, 1}, {0, 1, 0, 1}, {0, 1, 1, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ReserveEarliest%v did not panic", c)
				}
			}()
			NewProfile(4, 0).ReserveEarliest(c[0], c[1], c[2], c[3])
		}()
	}
}
