package policy

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// chainCase is a profile with a pending chain and the next job of a
// compression (TestExtendChainRandom).
type chainCase struct {
	procs             int64
	resv              [][3]int64 // start, end, processors, reserved in turn
	p, d, w, to, from int64      // the chain: jobs of p and d, width w, moved from to to
	old, lo           int64      // the next job's reservation and lower bound
	rest              int
}

// applied builds the profile as the compression holds it: the reservations,
// the chain's last job at from (width w) and the rest jobs at old.
func (k *chainCase) applied() *sim.Profile {
	pr := sim.NewProfile(k.procs, 0)
	for _, r := range k.resv {
		pr.Reserve(r[0], r[1], r[2])
	}
	pr.Reserve(k.from, k.from+k.d, k.w)
	pr.Reserve(k.old, k.old+k.d, int64(k.rest)*k.p)
	return pr
}

// randomChainCase returns a random case whose chain and job are consistent,
// or false.
func randomChainCase(r *rand.Rand) (chainCase, bool) {
	k := chainCase{procs: 2 + r.Int64N(5), p: 1 + r.Int64N(2), d: 1 + r.Int64N(12), rest: 1 + r.IntN(3)}
	k.w = k.p * (1 + r.Int64N(2))
	pr := sim.NewProfile(k.procs, 0)
	for range r.IntN(10) {
		s, q := r.Int64N(40), 1+r.Int64N(k.procs)
		e := s + 1 + r.Int64N(15)
		if pr.MinFree(s, e) >= q {
			pr.Reserve(s, e, q)
			k.resv = append(k.resv, [3]int64{s, e, q})
		}
	}
	k.from = 1 + r.Int64N(40)
	if pr.MinFree(k.from, k.from+k.d) < k.w {
		return k, false
	}
	pr.Reserve(k.from, k.from+k.d, k.w)
	k.old = k.from + 1 + r.Int64N(20)
	if pr.MinFree(k.old, k.old+k.d) < int64(k.rest)*k.p {
		return k, false
	}
	k.to = r.Int64N(k.from)
	// The chain's move must be one the profile allows.
	pr.Release(k.from, k.from+k.d, k.w)
	if pr.MinFree(k.to, k.to+k.d) < k.w {
		return k, false
	}
	k.lo = r.Int64N(k.from + 3)
	return k, true
}

// steps prints a profile's steps.
func steps(p *sim.Profile) string {
	var b strings.Builder
	p.Steps(func(t, free int64) { fmt.Fprintf(&b, "%d:%d ", t, free) })
	return b.String()
}

// TestExtendChainRandom checks extendChain against the profile with the chain
// applied, on random small profiles: every start it proves is the job's
// earliest start from lo (its own slot free), and the jobs it moves there are
// those settle would move. It also checks that it proves some (a proof that
// never fires passes the first checks).
func TestExtendChainRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 12))
	proved, eligible := 0, 0
	for range 200000 {
		k, ok := randomChainCase(r)
		if !ok {
			continue
		}
		c := NewConservative(0)
		c.profile = k.applied()
		c.chain = moveChain{on: true, to: k.to, from: k.from, dur: k.d, procs: k.p, width: k.w}
		ps := &pass{gainEnd: sim.Never}
		x, m := c.extendChain(k.old, k.d, k.p, k.lo, k.old, k.rest, ps)

		// What settle would find with the chain applied.
		logical := k.applied()
		logical.Move(k.from, k.to, k.d, k.w)
		logical.Release(k.old, k.old+k.d, k.p)
		best := logical.EarliestFit(k.lo, k.d, k.p)
		logical.Reserve(k.old, k.old+k.d, k.p)
		want := 0
		if best < k.old {
			want = int(min(int64(k.rest), logical.MinFree(best, min(best+k.d, k.old))/k.p))
		}
		if best == k.from && int64(want)*k.p == k.w {
			eligible++
		}
		if m == 0 {
			if c.chain.from != k.from {
				t.Fatalf("%+v: a chain not extended moved on to %d", k, c.chain.from)
			}
			continue
		}
		proved++
		if x != k.from || best != x || m != want {
			t.Fatalf("%+v: extendChain moved %d jobs to %d; the earliest start is %d, for %d jobs", k, m, x, best, want)
		}
		// The extended chain is the compression's profile so far: the
		// old chain and this move.
		got, wantP := k.applied(), k.applied()
		got.Move(c.chain.from, c.chain.to, c.chain.dur, c.chain.width)
		wantP.Move(k.from, k.to, k.d, k.w)
		wantP.Move(k.old, x, k.d, int64(m)*k.p)
		if g, w := steps(got), steps(wantP); g != w {
			t.Fatalf("%+v: the extended chain %+v leaves the profile %s, not %s", k, c.chain, g, w)
		}
	}
	if proved < 1584 { // this seed's count: a check stricter than need be proves fewer
		t.Fatalf("extendChain proved %d of %d chains it could have", proved, eligible)
	}
	t.Logf("proved %d of %d", proved, eligible)
}
