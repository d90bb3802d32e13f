package sim

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
)

func steps(p *Profile) string {
	var b strings.Builder
	p.Steps(func(t, free int64) { fmt.Fprintf(&b, "%d:%d ", t, free) })
	return strings.TrimSpace(b.String())
}

func TestProfile(t *testing.T) {
	p := NewProfile(4, 0)
	p.Reserve(0, 10, 3)
	p.Reserve(10, 15, 4)
	if got, want := steps(p), "0:1 10:0 15:4"; got != want {
		t.Fatalf("steps %q, want %q", got, want)
	}
	for _, tc := range []struct{ from, dur, procs, want int64 }{
		{0, 10, 1, 0},  // the hole beside the 3
		{0, 11, 1, 15}, // too long for the hole
		{2, 5, 2, 15},
		{0, 0, 4, 15},
		{20, 5, 4, 20},
	} {
		if got := p.EarliestFit(tc.from, tc.dur, tc.procs); got != tc.want {
			t.Errorf("EarliestFit(%d, %d, %d) = %d, want %d", tc.from, tc.dur, tc.procs, got, tc.want)
		}
	}
	p.Release(10, 15, 4)
	if got, want := steps(p), "0:1 10:4"; got != want {
		t.Errorf("after release %q, want %q", got, want)
	}
	p.Advance(5)
	if got, want := steps(p), "5:1 10:4"; got != want {
		t.Errorf("after advance %q, want %q", got, want)
	}
	if p.MaxFreeBefore(10) != 1 || p.MaxFreeBefore(11) != 4 || p.MaxFreeBefore(5) != 0 {
		t.Errorf("MaxFreeBefore: %d %d %d", p.MaxFreeBefore(10), p.MaxFreeBefore(11), p.MaxFreeBefore(5))
	}
}

func TestProfileOverbookPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	p := NewProfile(2, 0)
	p.Reserve(0, 10, 2)
	p.Reserve(5, 6, 1)
}

// The profile against a plain array of free counts per second.
func TestProfileRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const horizon, procs = 200, 8
	for round := 0; round < 200; round++ {
		p := NewProfile(procs, 0)
		var free [horizon + 100]int64
		for i := range free {
			free[i] = procs
		}
		type iv struct{ a, b, n int64 }
		var held []iv
		for op := 0; op < 30; op++ {
			if len(held) > 0 && rng.Intn(3) == 0 {
				k := rng.Intn(len(held))
				h := held[k]
				held = append(held[:k], held[k+1:]...)
				p.Release(h.a, h.b, h.n)
				for x := h.a; x < h.b; x++ {
					free[x] += h.n
				}
				continue
			}
			n := 1 + rng.Int63n(procs)
			d := 1 + rng.Int63n(40)
			from := rng.Int63n(horizon - 60)
			s := p.EarliestFit(from, d, n)
			want := int64(-1)
			for c := from; c < horizon; c++ {
				ok := true
				for x := c; x < c+d; x++ {
					if free[x] < n {
						ok = false
						break
					}
				}
				if ok {
					want = c
					break
				}
			}
			if want >= 0 && s != want {
				t.Fatalf("round %d: EarliestFit(%d,%d,%d) = %d, want %d; %s", round, from, d, n, s, want, steps(p))
			}
			if s+d >= horizon {
				continue
			}
			p.Reserve(s, s+d, n)
			held = append(held, iv{s, s + d, n})
			for x := s; x < s+d; x++ {
				free[x] -= n
			}
			cut := rng.Int63n(horizon)
			m := int64(0)
			for x := int64(0); x < cut; x++ {
				m = max(m, free[x])
			}
			if got := p.MaxFreeBefore(cut); got != m {
				t.Fatalf("MaxFreeBefore(%d) = %d, want %d", cut, got, m)
			}
		}
	}
}

// EarliestFitMoving agrees with release, EarliestFit, reserve, whether it
// is told the step before the job's slot (as settle does), a wrong step or
// none.
func TestEarliestFitMoving(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for round := 0; round < 2000; round++ {
		p := NewProfile(6, 0)
		type iv struct{ a, d, n int64 }
		var ivs []iv
		for k := 0; k < 8; k++ {
			n := 1 + rng.Int63n(6)
			d := 1 + rng.Int63n(30)
			s := p.EarliestFit(rng.Int63n(50), d, n)
			p.Reserve(s, s+d, n)
			ivs = append(ivs, iv{s, d, n})
		}
		own := ivs[rng.Intn(len(ivs))]
		from := rng.Int63n(own.a + 1)
		limit := from + rng.Int63n(100)
		ownSteps := []int{-1, rng.Intn(p.Len() + 1)}
		if own.a > 0 {
			k, _, _ := p.StepAt(own.a-1, 0)
			ownSteps = append(ownSteps, k)
		}
		var got []int64
		for _, k := range ownSteps {
			got = append(got, p.EarliestFitMoving(from, own.d, own.n, own.a, limit, k))
		}
		p.Release(own.a, own.a+own.d, own.n)
		want := p.EarliestFit(from, own.d, own.n)
		if want >= min(limit, own.a) {
			want = own.a
		}
		for x, g := range got {
			if g != want {
				t.Fatalf("round %d: EarliestFitMoving(%d, %d, %d, own %d, limit %d, ownStep %d) = %d, want %d; %s",
					round, from, own.d, own.n, own.a, limit, ownSteps[x], g, want, steps(p))
			}
		}
	}
}

// Move leaves the same steps as Release then Reserve, overlapping or not.
func TestProfileMove(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 3000; round++ {
		origin := rng.Int63n(5)
		a, b := NewProfile(6, origin), NewProfile(6, origin)
		type iv struct{ s, d, n int64 }
		var ivs []iv
		for k := 0; k < 8; k++ {
			n := 1 + rng.Int63n(6)
			d := 1 + rng.Int63n(30)
			s := a.EarliestFit(rng.Int63n(50), d, n)
			a.Reserve(s, s+d, n)
			b.Reserve(s, s+d, n)
			ivs = append(ivs, iv{s, d, n})
		}
		own := ivs[rng.Intn(len(ivs))]
		b.Release(own.s, own.s+own.d, own.n)
		to := b.EarliestFit(rng.Int63n(own.s+10), own.d, own.n)
		b.Reserve(to, to+own.d, own.n)
		a.MaxFreeBefore(60) // a valid prefix maximum that Move must invalidate
		a.Move(own.s, to, own.d, own.n)
		if steps(a) != steps(b) {
			t.Fatalf("round %d: Move(%d, %d, %d, %d) left %s, want %s", round, own.s, to, own.d, own.n, steps(a), steps(b))
		}
		for _, cut := range []int64{origin + 1, 20, 45, 90} {
			if x, y := a.MaxFreeBefore(cut), b.MaxFreeBefore(cut); x != y {
				t.Fatalf("round %d: MaxFreeBefore(%d) = %d after Move, want %d", round, cut, x, y)
			}
		}
	}
}

// The free counts are int32: a profile takes a machine of math.MaxInt32
// processors (swfsim's largest) and refuses a larger one instead of
// wrapping its counts.
func TestProfileMachineBound(t *testing.T) {
	p := NewProfile(math.MaxInt32, 0)
	p.Reserve(5, 10, math.MaxInt32-1)
	if got, want := steps(p), "0:2147483647 5:1 10:2147483647"; got != want {
		t.Fatalf("steps %q, want %q", got, want)
	}
	p.ResetRunning(math.MaxInt32, 0, []Hold{{End: 7, Procs: math.MaxInt32}})
	if got, want := steps(p), "0:0 7:2147483647"; got != want {
		t.Fatalf("after ResetRunning: steps %q, want %q", got, want)
	}
	for name, f := range map[string]func(){
		"NewProfile":   func() { NewProfile(math.MaxInt32+1, 0) },
		"ResetRunning": func() { p.ResetRunning(math.MaxInt32+1, 0, nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s of math.MaxInt32+1 processors did not panic", name)
				}
			}()
			f()
		}()
	}
}
