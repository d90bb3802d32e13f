package policy

import (
	"fmt"
	"math"
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

// moveLog records a compression's moves (TestSettleChainedMatchesApplied).
type moveLog struct{ moves []string }

func (w *moveLog) moved(procs, dur, old, t int64, m int) {
	w.moves = append(w.moves, fmt.Sprintf("%dx%d %d->%d m=%d", procs, dur, old, t, m))
}
func (w *moveLog) compressed(now int64, waiting, moves int) {}

// cloneProfile returns a profile with p's steps.
func cloneProfile(p *sim.Profile) *sim.Profile {
	q := sim.NewProfile(p.Procs(), p.Origin())
	var ts, fs []int64
	p.Steps(func(t, free int64) { ts = append(ts, t); fs = append(fs, free) })
	for i := range ts {
		end := int64(sim.Never)
		if i+1 < len(ts) {
			end = ts[i+1]
		}
		if fs[i] < p.Procs() {
			q.Reserve(ts[i], end, p.Procs()-fs[i])
		}
	}
	return q
}

// TestSettleChainedMatchesApplied runs settle on a run of equal jobs with a
// chain pending and on the same run with the chain applied, on random small
// profiles with proofs, lower bounds and gain bounds (at least the chain's
// old end, as the chain's own moves make it in a run): the moves, the
// profiles left and the run's reservations must be the same (from the
// review of round 20).
func TestSettleChainedMatchesApplied(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 99))
	cases, chained := 0, 0
	for range 150000 {
		procs := 2 + r.Int64N(11)
		p := 1 + r.Int64N(3)
		if p > procs {
			continue
		}
		d := 1 + r.Int64N(15)
		w := p * (1 + r.Int64N(4))
		rest := 1 + r.IntN(5)
		pr := sim.NewProfile(procs, 0)
		for range r.IntN(12) {
			s, q := r.Int64N(50), 1+r.Int64N(procs)
			if e := s + 1 + r.Int64N(20); pr.MinFree(s, e) >= q {
				pr.Reserve(s, e, q)
			}
		}
		from := 1 + r.Int64N(40)
		if pr.MinFree(from, from+d) < w {
			continue
		}
		pr.Reserve(from, from+d, w)
		old := from + 1 + r.Int64N(20)
		if r.IntN(4) == 0 {
			old = from + 1
		}
		if pr.MinFree(old, old+d) < int64(rest)*p {
			continue
		}
		pr.Reserve(old, old+d, int64(rest)*p)
		to := r.Int64N(from)
		if r.IntN(4) == 0 && from-d >= 0 {
			to = from - d
		}
		applied := cloneProfile(pr)
		applied.Release(from, from+d, w)
		if applied.MinFree(to, to+d) < w {
			continue
		}
		applied.Reserve(to, to+d, w)
		lo := r.Int64N(from + 4)
		gain := int64(sim.Never)
		if r.IntN(2) == 0 {
			gain = from + d + r.Int64N(10)
		}
		// Proofs, kept only when sound for this job: none says that no
		// start before its earliest fits.
		job := cloneProfile(applied)
		job.Release(old, old+d, p)
		best := job.EarliestFit(lo, d, p)
		var proofs []proof
		for range r.IntN(4) {
			proofs = append(proofs, proof{procs: 1 + r.Int64N(p), dur: 1 + r.Int64N(d), until: r.Int64N(old + 5), tight: r.IntN(2) == 0})
		}
		last := r.IntN(len(proofs) + 1)
		setup := func(prof *sim.Profile, ch moveChain) (*Conservative, *moveLog, []queued) {
			c := NewConservative(0)
			c.profile, c.chain = prof, ch
			c.proofs = append([]proof(nil), proofs...)
			c.lastProof, c.prevProof = last, len(proofs)
			c.cutFrom = math.MinInt64
			for _, q := range c.proofs {
				c.cutFrom = max(c.cutFrom, q.cutFrom())
			}
			log := &moveLog{}
			c.watch = log
			run := make([]queued, rest)
			for i := range run {
				run[i] = queued{dur: d, resv: old, procs: int32(p), id: int32(i)}
			}
			run[0].run = int32(rest)
			return c, log, run
		}
		c1, log1, run1 := setup(cloneProfile(pr), moveChain{on: true, to: to, from: from, dur: d, procs: p, width: w})
		c2, log2, run2 := setup(applied, moveChain{})
		if l := c2.provenFor(p, d, old); l > best && best < min(old, gain) {
			continue
		}
		cases++
		c1.settle(run1, &pass{now: lo, gainEnd: gain, hint: r.IntN(5)})
		c2.settle(run2, &pass{now: lo, gainEnd: gain})
		c1.flushChain()
		c2.flushChain() // its moves start a chain too
		chained += c1.Compressions.Chained
		desc := fmt.Sprintf("procs %d, jobs %dx%d (%d), chain of width %d %d->%d, job at %d, lo %d, gainEnd %d, proofs %+v (last %d), profile %s",
			procs, p, d, rest, w, from, to, old, lo, gain, proofs, last, steps(pr))
		if fmt.Sprint(log1.moves) != fmt.Sprint(log2.moves) {
			t.Fatalf("%s: moves %v with the chain pending, %v with it applied", desc, log1.moves, log2.moves)
		}
		if g, a := steps(c1.profile), steps(c2.profile); g != a {
			t.Fatalf("%s: profile %s with the chain pending, %s with it applied", desc, g, a)
		}
		for i := range run1 {
			if run1[i].resv != run2[i].resv || run1[i].run != run2[i].run {
				t.Fatalf("%s: job %d of the run %+v with the chain pending, %+v with it applied", desc, i, run1[i], run2[i])
			}
		}
	}
	if chained < cases/100 {
		t.Fatalf("%d of %d cases extended the chain", chained, cases)
	}
	t.Logf("%d cases, %d moves chained", cases, chained)
}
