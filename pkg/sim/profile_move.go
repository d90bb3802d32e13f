package sim

// moveOverlapping is apply for the Move a compression makes almost always
// (41.3 of its 41.5 million moves on whole RICC-2010-2): a reservation of
// q processors moved from [from, oldEnd) to an earlier [to, end) that
// overlaps it, to < from < end < oldEnd. Its four points and their deltas
// (-q, +q, +q, -q) are known, so the walk of apply is written out for them:
// the steps in [to, from) lose q, those in [from, end) are unchanged and
// skipped by a gallop, those in [end, oldEnd) gain q. It makes the same
// edits and splice as apply, without apply's per-point bookkeeping.
func (p *Profile) moveOverlapping(to, from, end, oldEnd, q int64) {
	ts, fs := p.times, p.frees
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
	if nk := gallop(ts, end-1, k); nk > k {
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
	p.splice(edits[:nEdits])
}
