package policy

import (
	"math/big"
	"strconv"

	"github.com/swfkit/swfkit/pkg/sim"
)

// expansionFactor is a waiting job's current expansion factor (XFactor):
// (wait so far + estimate) / estimate, with an estimate of 0 counted as 1 s so
// that it is defined (a choice: the papers do not say).
func expansionFactor(now int64, j *sim.Job) float64 {
	e := j.Estimate
	if e < 1 {
		e = 1
	}
	return float64(now-j.Submit+e) / float64(e)
}

// NewLXF returns largest-expansion-factor-first with EASY backfilling
// (LXF-backfill of Chiang, Arpaci-Dusseau & Vernon, JSSPP 2002). In each pass
// the waiting queue is ordered by the current expansion factor
// (wait + estimate) / estimate, largest first, ties by submit time then file
// order, and EASY backfilling (see EASY) runs over that order.
func NewLXF() sim.Policy {
	o := newOrderedEASY(false, func(now int64, j *sim.Job) float64 { return -expansionFactor(now, j) })
	o.byEst = true
	return o
}

// DefaultLXFWWeight is lxfw's default weight per hour of wait.
const DefaultLXFWWeight = 0.02

// NewLXFW returns LXF&W(w)-backfill (Chiang, Arpaci-Dusseau & Vernon, JSSPP
// 2002, the policy Guim, Corbalan & Labarta 2007 simulate as LXF&W(w)): the
// priority of a waiting job is its current expansion factor plus w times its
// wait so far in hours; highest first, ties by submit time then file order;
// EASY backfilling over that order. Choice: the wait is measured in hours and w
// defaults to 0.02, the value Chiang et al. use; --lxfw-weight changes it, and
// w = 0 is plain lxf.
//
// The order is exact: two jobs whose priorities are equal (at a weight taken as
// the shortest decimal that gives w, 0.02 = 1/50) are ordered by the tie rule,
// though their float priorities, sums of rounded terms, may differ by an ulp.
func NewLXFW(w float64) sim.Policy {
	prio := func(now int64, j *sim.Job) float64 {
		return expansionFactor(now, j) + w*float64(now-j.Submit)/3600
	}
	o := newOrderedEASY(false, func(now int64, j *sim.Job) float64 { return -prio(now, j) })
	o.byEst = true
	wr, ok := new(big.Rat).SetString(strconv.FormatFloat(w, 'g', -1, 64))
	if !ok { // w is finite (the flag's check); keep the float order otherwise
		return o
	}
	o.exact = newLXFWCompare(wr).compare
	return o
}

// lxfwCompare compares two jobs' lxfw priorities exactly, with w = n/d:
// P = (W + E)/E + (n/d) W/3600 for wait W and estimate E (as
// expansionFactor counts it), so P(a) - P(b) has the sign of
//
//	3600 d (Wa Eb - Wb Ea) + n (Wa - Wb) Ea Eb
//
// (both sides multiplied by 3600 d Ea Eb > 0). Its integers are kept from
// one comparison to the next, so a comparison allocates nothing once they
// have grown: a sort of a long queue compares near keys millions of times
// on a large trace (bags of equal jobs), which rationals built anew for
// each made 40 times slower than the whole run (RICC-2010-2: over 6
// minutes against 9 s).
type lxfwCompare struct {
	n, d3600       big.Int // n, and 3600 d
	x, y, wa, wb   big.Int // scratch
	ea, eb, lhs, r big.Int
}

func newLXFWCompare(w *big.Rat) *lxfwCompare {
	c := &lxfwCompare{}
	c.n.Set(w.Num())
	c.d3600.Mul(w.Denom(), big.NewInt(3600))
	return c
}

// compare returns -1 when a's priority at now is higher (a first), 1 when
// b's is, 0 when they are equal.
func (c *lxfwCompare) compare(now int64, a, b *sim.Job) int {
	ea, eb := max(a.Estimate, 1), max(b.Estimate, 1)
	if a.Submit == b.Submit && ea == eb {
		return 0 // the same terms
	}
	c.wa.SetInt64(now - a.Submit)
	c.wb.SetInt64(now - b.Submit)
	c.ea.SetInt64(ea)
	c.eb.SetInt64(eb)
	// lhs = 3600 d (Wa Eb - Wb Ea)
	c.x.Mul(&c.wa, &c.eb)
	c.y.Mul(&c.wb, &c.ea)
	c.x.Sub(&c.x, &c.y)
	c.lhs.Mul(&c.d3600, &c.x)
	// r = n (Wa - Wb) Ea Eb
	c.x.Sub(&c.wa, &c.wb)
	c.x.Mul(&c.x, &c.n)
	c.y.Mul(&c.ea, &c.eb)
	c.r.Mul(&c.x, &c.y)
	return -c.lhs.Add(&c.lhs, &c.r).Sign()
}
