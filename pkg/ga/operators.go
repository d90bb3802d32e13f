package ga

import "math/rand"

// RandomPermutation fills order with a uniformly random permutation of
// 0..len(order)-1 (Fisher-Yates), without allocating.
func RandomPermutation(rng *rand.Rand, order []int) {
	for i := range order {
		order[i] = i
	}
	for i := len(order) - 1; i > 0; i-- {
		j := rng.Intn(i + 1)
		order[i], order[j] = order[j], order[i]
	}
}

// Mutate is the point mutation of thesis section 3.2.2: two distinct
// positions chosen uniformly at random swap their items. Orderings of fewer
// than two items are left alone.
func Mutate(rng *rand.Rand, order []int) {
	n := len(order)
	if n < 2 {
		return
	}
	i := rng.Intn(n)
	j := rng.Intn(n - 1)
	if j >= i {
		j++
	}
	order[i], order[j] = order[j], order[i]
}

// Zipper is the crossover of thesis section 3.2.3 (figure 3.3): for each
// position of the child a parent is chosen at random (a fair coin), and that
// parent's first item not yet in the child is taken; so the child is always a
// permutation. child, a and b have the same length; used is scratch of that
// length (its contents are overwritten). child must not alias a or b.
func Zipper(rng *rand.Rand, child, a, b []int, used []bool) {
	n := len(child)
	if len(a) != n || len(b) != n || len(used) < n {
		panic("ga: crossover length mismatch")
	}
	for i := 0; i < n; i++ {
		used[i] = false
	}
	var ia, ib int // cursors: every item before them is in the child
	var bits uint64
	var nbits int
	for k := 0; k < n; k++ {
		if nbits == 0 {
			bits, nbits = rng.Uint64(), 64
		}
		fromA := bits&1 == 0
		bits >>= 1
		nbits--
		var item int
		if fromA {
			for used[a[ia]] {
				ia++
			}
			item = a[ia]
			ia++
		} else {
			for used[b[ib]] {
				ib++
			}
			item = b[ib]
			ib++
		}
		used[item] = true
		child[k] = item
	}
}

// cumulate stores running sums of the selection weights of fit (negative and
// NaN count as 0) in cum and returns the total.
func cumulate(fit, cum []float64) float64 {
	var total float64
	for i, f := range fit {
		if f > 0 {
			total += f
		}
		cum[i] = total
	}
	return total
}

// selectParent draws an index with probability proportional to its weight
// (thesis equation 3.1), never returning exclude (pass -1 to allow all):
// that is the without-replacement draw of the second parent. cum and total
// come from cumulate. With no positive weight left the draw is uniform.
// len(fit) must exceed 1 when exclude >= 0.
func selectParent(rng *rand.Rand, fit, cum []float64, total float64, exclude int) int {
	n := len(fit)
	w := total
	if exclude >= 0 && fit[exclude] > 0 {
		w -= fit[exclude]
	}
	if !(w > 0) {
		if exclude < 0 {
			return rng.Intn(n)
		}
		i := rng.Intn(n - 1)
		if i >= exclude {
			i++
		}
		return i
	}
	r := rng.Float64() * w
	if exclude >= 0 && fit[exclude] > 0 {
		// Skip over exclude's interval [cum[exclude]-fit, cum[exclude]).
		if r >= cum[exclude]-fit[exclude] {
			r += fit[exclude]
		}
	}
	// first i with cum[i] > r
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cum[m] > r {
			hi = m
		} else {
			lo = m + 1
		}
	}
	if lo >= n { // rounding at the top end
		lo = n - 1
	}
	// Rounding can land on a zero-weight slot or on exclude; step back to
	// the nearest eligible one.
	for lo > 0 && (lo == exclude || !(fit[lo] > 0)) {
		lo--
	}
	for lo == exclude || !(fit[lo] > 0) {
		lo++
	}
	return lo
}
