package sim

// StepAt returns the step that holds time t (t >= origin): its index, start
// time and free processors. The search gallops outwards from index hint, so
// a caller that asks about nearby times in turn (conservative's compression
// walks the queue, whose reservations mostly ascend) passes the index it got
// last and pays O(log distance) instead of a full binary search. Any hint is
// correct; an index from before a change to the profile is only slower.
func (p *Profile) StepAt(t int64, hint int) (i int, start, free int64) {
	if t < p.times[0] {
		panic("sim: profile time before its origin")
	}
	ts := p.times
	// Conservative's compression asks most often about the step it was
	// told of last: checked first, without a search.
	if uint(hint) < uint(len(ts)) && ts[hint] <= t && (hint+1 == len(ts) || ts[hint+1] > t) {
		return hint, ts[hint], int64(p.frees[hint])
	}
	if hint < 0 {
		hint = 0
	}
	i = p.findNear(t, hint)
	return i, ts[i], int64(p.frees[i])
}

// MinFree returns the fewest processors free at any time in [start, end),
// origin <= start < end: how many copies of a job of that many processors
// fit side by side over the interval is MinFree / procs.
func (p *Profile) MinFree(start, end int64) int64 {
	if start < p.times[0] || end <= start {
		panic("sim: profile interval outside the profile or empty")
	}
	ts := p.times
	fs := p.frees[:len(ts)] // as long as ts: indices checked on ts need no check on fs
	i := p.findNear(start, p.cursor)
	m := fs[i]
	for i++; i < len(ts) && ts[i] < end; i++ {
		m = min(m, fs[i])
	}
	return int64(m)
}
