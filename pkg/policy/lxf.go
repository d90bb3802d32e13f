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
	return newOrderedEASY(false, func(now int64, j *sim.Job) float64 { return -expansionFactor(now, j) })
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
	wr, ok := new(big.Rat).SetString(strconv.FormatFloat(w, 'g', -1, 64))
	if !ok { // w is finite (the flag's check); keep the float order otherwise
		return o
	}
	o.exact = func(now int64, a, b *sim.Job) int {
		return lxfwPriority(now, b, wr).Cmp(lxfwPriority(now, a, wr)) // highest first
	}
	return o
}

// lxfwPriority is lxfw's priority of j at now, exactly: (wait + e) / e + w x
// wait / 3600, with e as expansionFactor counts it.
func lxfwPriority(now int64, j *sim.Job, w *big.Rat) *big.Rat {
	e := max(j.Estimate, 1)
	wait := now - j.Submit
	p := new(big.Rat).SetFrac(big.NewInt(wait+e), big.NewInt(e))
	t := new(big.Rat).SetFrac(big.NewInt(wait), big.NewInt(3600))
	return p.Add(p, t.Mul(t, w))
}
