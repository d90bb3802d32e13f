package sim

import "math/bits"

// procSet is a multiset of processor counts (of the waiting jobs) that answers
// "smallest count" fast: a count per value plus a bitset of the non-zero ones.
type procSet struct {
	count []int32
	nz    []uint64
}

func newProcSet(procs int64) procSet {
	return procSet{count: make([]int32, procs+1), nz: make([]uint64, procs/64+1)}
}

func (ps *procSet) add(p int32) {
	if ps.count[p] == 0 {
		ps.nz[p>>6] |= 1 << (uint(p) & 63)
	}
	ps.count[p]++
}

func (ps *procSet) remove(p int32) {
	ps.count[p]--
	if ps.count[p] == 0 {
		ps.nz[p>>6] &^= 1 << (uint(p) & 63)
	}
}

// min returns the smallest count in the set, or 0 when it is empty.
func (ps *procSet) min() int64 {
	for i, w := range ps.nz {
		if w != 0 {
			return int64(i*64 + bits.TrailingZeros64(w))
		}
	}
	return 0
}
