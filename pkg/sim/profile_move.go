package sim

// moveOverlapping is apply for the Move a compression makes almost always
// (41.3 of its 41.5 million moves on whole RICC-2010-2): a reservation of
// q processors moved from [from, oldEnd) to an earlier [to, end) that
// overlaps it, to < from < end < oldEnd. Its four points and their deltas
// (-q, +q, +q, -q) are known, so the walk of apply is written out for them:
// the steps in [to, from) lose q, those in [from, end) are unchanged and
// skipped by a gallop, those in [end, oldEnd) gain q. It makes the same
// edits as apply, without apply's per-point bookkeeping, and applies a pair
// of them that cancels in place (local) rather than through splice.
func (p *Profile) moveOverlapping(to, from, end, oldEnd, q int64) {
	ts := p.times
	fs := p.frees[:len(ts)] // as long as ts: indices checked on ts need no check on fs
	n := len(ts)
	var edits [4]stepEdit
	nEdits := 0
	// As in apply: k holds the current point's time, base is its free count
	// before the move, prev the count just before the point after it.
	k := -1
	var base, prev int64
	if to > ts[0] {
		k = p.findNear(to-1, p.cursor)
		base = int64(fs[k])
		prev = base
	}
	firstChanged := k + 1
	// to: q fewer free from here on.
	if k+1 < n && ts[k+1] == to {
		k++
		base = int64(fs[k])
		f := p.changed(base, -q)
		fs[k] = int32(f)
		if k > 0 && f == prev {
			edits[nEdits] = stepEdit{at: k, del: true}
			nEdits++
		}
		prev = f
	} else { // k >= 0: to > origin, or a step would start at it
		prev = p.changed(base, -q)
		edits[nEdits] = stepEdit{at: k + 1, t: to, free: int32(prev)}
		nEdits++
	}
	for k+1 < n && ts[k+1] < from {
		k++
		base = int64(fs[k])
		prev = p.changed(base, -q)
		fs[k] = int32(prev)
	}
	// from: unchanged from here on (k >= 0 now).
	if k+1 < n && ts[k+1] == from {
		k++
		base = int64(fs[k])
		if base == prev {
			edits[nEdits] = stepEdit{at: k, del: true}
			nEdits++
		}
	} else {
		edits[nEdits] = stepEdit{at: k + 1, t: from, free: int32(base)}
		nEdits++
	}
	prev = base
	half := nEdits // edits[:half] are at to and from, the rest at end and oldEnd
	from2 := k
	if h := p.endHint; h > k && h < n && ts[h] <= end-1 {
		from2 = h
	}
	if nk := gallop(ts, end-1, from2); nk > k {
		k = nk
		base = int64(fs[k])
		prev = base
	}
	// end: q more free from here on.
	if k+1 < n && ts[k+1] == end {
		k++
		base = int64(fs[k])
		f := p.changed(base, q)
		fs[k] = int32(f)
		if f == prev {
			edits[nEdits] = stepEdit{at: k, del: true}
			nEdits++
		}
		prev = f
	} else {
		prev = p.changed(base, q)
		edits[nEdits] = stepEdit{at: k + 1, t: end, free: int32(prev)}
		nEdits++
	}
	for k+1 < n && ts[k+1] < oldEnd {
		k++
		base = int64(fs[k])
		prev = p.changed(base, q)
		fs[k] = int32(prev)
	}
	// oldEnd: unchanged from here on.
	if k+1 < n && ts[k+1] == oldEnd {
		if int64(fs[k+1]) == prev {
			edits[nEdits] = stepEdit{at: k + 1, del: true}
			nEdits++
		}
	} else {
		edits[nEdits] = stepEdit{at: k + 1, t: oldEnd, free: int32(base)}
		nEdits++
	}
	p.invalidate(firstChanged)
	p.endHint = k - 2
	// A pair of edits whose insertion and deletion cancel (most moves: a
	// bag of equal jobs reserved back to back shifts, so the step at the
	// new start merges with the one before it and one appears at the old
	// start) shifts only the steps between them, in place; splice takes
	// the rest.
	first, second := edits[:half], edits[half:nEdits]
	switch l1, l2 := local(ts, fs, first), local(ts, fs, second); {
	case l1 && l2:
	case l1:
		p.splice(second)
	case l2:
		p.splice(first)
	default:
		p.splice(edits[:nEdits])
	}
}

// local applies two edits in place when one deletes a step and the other
// inserts one, which leaves the number of steps as it was: the steps
// between them shift by one towards the deleted step. It reports whether
// it did; splice makes any other edits.
func local(ts []int64, fs []int32, edits []stepEdit) bool {
	if len(edits) != 2 || edits[0].del == edits[1].del {
		return false
	}
	a, b := edits[0], edits[1]
	if a.del {
		// Delete at a.at, insert before b.at > a.at: the steps between
		// move down and the new one takes the place before b.at.
		if b.at-a.at > 32 {
			copy(ts[a.at:b.at-1], ts[a.at+1:b.at])
			copy(fs[a.at:b.at-1], fs[a.at+1:b.at])
		} else {
			for j := a.at; j < b.at-1; j++ {
				ts[j], fs[j] = ts[j+1], fs[j+1]
			}
		}
		ts[b.at-1], fs[b.at-1] = b.t, b.free
		return true
	}
	// Insert before a.at, delete at b.at >= a.at: the steps between move
	// up into the deleted one's place.
	if b.at-a.at > 32 {
		copy(ts[a.at+1:b.at+1], ts[a.at:b.at])
		copy(fs[a.at+1:b.at+1], fs[a.at:b.at])
	} else {
		for j := b.at; j > a.at; j-- {
			ts[j], fs[j] = ts[j-1], fs[j-1]
		}
	}
	ts[a.at], fs[a.at] = a.t, a.free
	return true
}
