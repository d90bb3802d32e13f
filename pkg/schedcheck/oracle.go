package schedcheck

import "sort"

// freeTree is the oracle behind the first-reservation check: the free
// processors of a machine as a step function over a fixed set of times (every
// submit, start and end of the schedule), in a segment tree with lazy range
// adds, so that adding a job's interval and finding the earliest fit each
// cost O(log n) per step of the answer's search instead of a rebuild of the
// step function per job. It shares no code with the simulator's profile.
type freeTree struct {
	times    []int64 // sorted, distinct; leaf k covers [times[k], times[k+1])
	min, max []int64 // per node, lazy adds included
	lazy     []int64 // per node: added to the whole subtree, not yet below
}

func newFreeTree(times []int64, procs int64) *freeTree {
	sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
	n := 0
	for _, t := range times {
		if n == 0 || times[n-1] != t {
			times[n] = t
			n++
		}
	}
	f := &freeTree{times: times[:n], min: make([]int64, 4*n), max: make([]int64, 4*n), lazy: make([]int64, 4*n)}
	for i := range f.min {
		f.min[i], f.max[i] = procs, procs
	}
	return f
}

// index returns the leaf of time t, which must be one of the tree's times.
func (f *freeTree) index(t int64) int {
	k := sort.Search(len(f.times), func(i int) bool { return f.times[i] >= t })
	if k == len(f.times) || f.times[k] != t {
		panic("schedcheck: time not in the oracle's set")
	}
	return k
}

// add adds v free processors over [start, end).
func (f *freeTree) add(start, end, v int64) {
	if end > start {
		f.addRange(1, 0, len(f.times), f.index(start), f.index(end), v)
	}
}

func (f *freeTree) addRange(node, lo, hi, l, r int, v int64) {
	if r <= lo || hi <= l {
		return
	}
	if l <= lo && hi <= r {
		f.min[node] += v
		f.max[node] += v
		f.lazy[node] += v
		return
	}
	mid := (lo + hi) / 2
	f.addRange(2*node, lo, mid, l, r, v)
	f.addRange(2*node+1, mid, hi, l, r, v)
	f.min[node] = f.lazy[node] + min(f.min[2*node], f.min[2*node+1])
	f.max[node] = f.lazy[node] + max(f.max[2*node], f.max[2*node+1])
}

// first returns the first leaf k >= from whose free count is at least need
// (atLeast) or below need (!atLeast), or len(times) if there is none.
func (f *freeTree) first(from int, need int64, atLeast bool) int {
	return f.search(1, 0, len(f.times), from, need, atLeast, 0)
}

// search is first within node's subtree [lo, hi); above is the sum of the
// lazy adds of node's ancestors.
func (f *freeTree) search(node, lo, hi, from int, need int64, atLeast bool, above int64) int {
	if hi <= from {
		return len(f.times)
	}
	if atLeast && f.max[node]+above < need || !atLeast && f.min[node]+above >= need {
		return len(f.times)
	}
	if hi-lo == 1 {
		return lo
	}
	above += f.lazy[node]
	mid := (lo + hi) / 2
	if k := f.search(2*node, lo, mid, from, need, atLeast, above); k < len(f.times) {
		return k
	}
	return f.search(2*node+1, mid, hi, from, need, atLeast, above)
}

// earliestFit returns the earliest s >= t (t one of the tree's times) at
// which need processors are free during all of [s, s+d).
func (f *freeTree) earliestFit(t, d, need int64) int64 {
	k := f.index(t)
	for {
		k = f.first(k, need, true)
		if k == len(f.times) {
			panic("schedcheck: no fit")
		}
		s := f.times[k]
		blocked := f.first(k, need, false)
		if blocked == len(f.times) || f.times[blocked] >= s+d {
			return s
		}
		k = blocked
	}
}
