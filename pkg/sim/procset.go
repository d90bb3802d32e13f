package sim

import (
	"math/bits"
	"slices"
)

// procSet is a multiset of processor counts (of the waiting jobs) that answers
// "smallest count" fast: a count per value plus a bitset of the non-zero ones.
//
// On a machine of directProcSet processors or more the values are the ranks
// of the jobs' distinct widths instead (widths), so that memory and min follow
// the number of distinct widths, not the machine's size (--procs 2147483647
// would otherwise ask for 8 GB).
type procSet struct {
	count  []int32
	nz     []uint64
	widths []int32 // ascending distinct widths, or nil: values are widths
}

// directProcSet is the machine size from which procSet counts ranks.
const directProcSet = 1 << 16

func newProcSet(procs int64, jobs []Job) procSet {
	if procs < directProcSet {
		return procSet{count: make([]int32, procs+1), nz: make([]uint64, procs/64+1)}
	}
	widths := make([]int32, 0, 16)
	for i := range jobs {
		widths = append(widths, jobs[i].Procs)
	}
	slices.Sort(widths)
	widths = slices.Compact(widths)
	n := len(widths)
	return procSet{count: make([]int32, n), nz: make([]uint64, n/64+1), widths: widths}
}

// index returns the value that stands for p.
func (ps *procSet) index(p int32) int32 {
	if ps.widths == nil {
		return p
	}
	i, _ := slices.BinarySearch(ps.widths, p)
	return int32(i)
}

func (ps *procSet) add(p int32) {
	p = ps.index(p)
	if ps.count[p] == 0 {
		ps.nz[p>>6] |= 1 << (uint(p) & 63)
	}
	ps.count[p]++
}

func (ps *procSet) remove(p int32) {
	p = ps.index(p)
	ps.count[p]--
	if ps.count[p] == 0 {
		ps.nz[p>>6] &^= 1 << (uint(p) & 63)
	}
}

// min returns the smallest count in the set, or 0 when it is empty.
func (ps *procSet) min() int64 {
	for i, w := range ps.nz {
		if w != 0 {
			k := i*64 + bits.TrailingZeros64(w)
			if ps.widths != nil {
				return int64(ps.widths[k])
			}
			return int64(k)
		}
	}
	return 0
}
