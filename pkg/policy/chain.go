package policy

import "math"

// moveChain is a compression's moves that the profile has not seen yet: a
// chain of jobs of one shape, each moved to the start the one before it left
// (docs/swfsim.md, round 20). In a bag of serial jobs an early end makes most
// moves such a chain: the first job takes the processor that came free, the
// next the start the first left, and so on down the queue. The chain's moves
// add up to one move of one job, of dur seconds and width processors, from
// the last job's old start (from) to the first job's new start (to): the
// releases and takes between cancel. So the profile is changed once, when the
// chain ends (flushChain), and every look in between reads it through the
// pending move (extendChain).
type moveChain struct {
	on         bool
	to, from   int64 // the pending move: [from, from+dur) to [to, to+dur)
	dur, procs int64 // each job's estimate and width
	width      int64 // the processors moved: procs times the jobs a move moved
}

// flushChain applies the pending chain to the profile.
func (c *Conservative) flushChain() {
	if ch := &c.chain; ch.on {
		c.profile.Move(ch.from, ch.to, ch.dur, ch.width)
		ch.on = false
		c.Compressions.Flushes++
	}
}

// extendChain returns, when it can prove it, that the earliest start of the
// next waiting job (reserved at old, of procs p and duration d, the first of
// rest equal jobs, none of which starts before lo or at bound or later, bound
// at most old) is x, the old start of the chain's last job, and how many of
// the rest move there (0: not proven; the caller applies the chain and looks
// as usual). The profile the job sees is the applied one (A) plus the pending
// move: width more free over [x, x+d) and width less over [to, to+d); plus its
// own slot [old, old+d).
//
//   - No start in [L, x) fits, L the proofs' bound: when x-L <= d, every such
//     window holds x-1, where the job sees A(x-1), less width if x-1 is in
//     [to, to+d) (own slot starts at old > x): too few is proof enough.
//   - x fits: over [x, min(to+d, old)) the pending move adds and takes width
//     (A must hold p); after to+d it adds width (>= p), and from old on the
//     own slot gives p.
//   - The jobs that move together (settle) are those that fit side by side
//     over [x, min(x+d, old)), read the same way; the chain goes on only if
//     they are as wide as its moves, so that it stays one job's move.
func (c *Conservative) extendChain(old, d, p, lo, bound int64, rest int, ps *pass) (int64, int) {
	ch := &c.chain
	x := ch.from
	if ch.dur != d || ch.procs != p || x >= bound {
		return 0, 0
	}
	if l := max(lo, c.provenFor(p, d, old)); l > x || x-l > d {
		return 0, 0
	} else if l < x {
		k, _, free := c.profile.StepAt(x-1, ps.hint)
		ps.hint = k
		if x <= ch.to+d {
			free -= ch.width
		}
		if free >= p {
			return 0, 0
		}
	}
	e := min(ch.to+d, old) // where the pending move's take ends, or the own slot begins
	if x < e && c.profile.MinFree(x, e) < p {
		return 0, 0
	}
	m := 1
	if rest > 1 {
		end := min(x+d, old)
		mf := int64(math.MaxInt64)
		if a := min(ch.to+d, end); x < a {
			mf = c.profile.MinFree(x, a)
		}
		if a := max(x, ch.to+d); a < end {
			mf = min(mf, c.profile.MinFree(a, end)+ch.width)
		}
		m = int(min(int64(rest), mf/p))
	}
	if int64(m)*p != ch.width {
		return 0, 0
	}
	ch.from = old
	return x, m
}
