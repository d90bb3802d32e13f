package sim

// A change to a profile is a step function of its own: delta is added to the
// free count from t on, on top of the deltas of the earlier points. Reserve
// and Release are two points, Move four, and the deltas of a change sum to 0
// unless it lasts forever.
type changePoint struct {
	t, delta int64
}

// A stepEdit inserts a step (start t, free count free) before the step at
// index at, or deletes the step at index at, of the steps as they were
// before the change.
type stepEdit struct {
	at   int
	del  bool
	t    int64
	free int32
}

// apply adds the change pts (sorted by time, distinct, nonzero deltas, times
// at or after the origin and before Never) to the profile.
//
// Between two points the change is constant, so steps there keep their order
// and stay distinct from their neighbours: only a point can need a new step
// (it falls inside one) or lose one (the step starting there now equals the
// one before it). The free counts are updated in place in one walk over the
// changed intervals (the unchanged gaps between them are binary-searched), and
// the at most one edit per point is applied in a single splice at the end, so
// memory moves only between the first and last edit, plus the tail once when
// the number of steps changes.
func (p *Profile) apply(pts []changePoint) {
	var edits [4]stepEdit
	nEdits := 0
	ts := p.times
	fs := p.frees[:len(ts)] // as long as ts: indices checked on ts need no check on fs
	n := len(ts)
	// k is the step holding the current point's time; base its free count
	// before the change, and prev the changed free count just before the
	// current point (valid when k >= 0).
	k := -1
	var base, prev int64
	if x := pts[0].t; x > ts[0] {
		k = p.findNear(x-1, p.cursor)
		base = int64(fs[k])
		prev = base
	}
	firstChanged := k + 1
	var d int64 // the change in force before the current point
	for j, c := range pts {
		x := c.t
		if j > 0 {
			if d == 0 {
				if nk := gallop(ts, x-1, k); nk > k {
					k = nk
					base = int64(fs[k])
					prev = base
				}
			} else {
				for k+1 < n && ts[k+1] < x {
					k++
					base = int64(fs[k])
					prev = p.changed(base, d)
					fs[k] = int32(prev)
				}
			}
		}
		d += c.delta
		if k+1 < n && ts[k+1] == x {
			k++
			base = int64(fs[k])
			f := p.changed(base, d)
			fs[k] = int32(f)
			if k > 0 && f == prev {
				edits[nEdits] = stepEdit{at: k, del: true}
				nEdits++
			}
			prev = f
		} else {
			prev = p.changed(base, d)
			edits[nEdits] = stepEdit{at: k + 1, t: x, free: int32(prev)}
			nEdits++
		}
	}
	for ; d != 0 && k+1 < n; k++ { // a change that lasts forever
		fs[k+1] = int32(p.changed(int64(fs[k+1]), d))
	}
	p.invalidate(firstChanged)
	p.splice(edits[:nEdits])
}

// changed returns free+delta, panicking if that over- or under-books the
// machine.
func (p *Profile) changed(free, delta int64) int64 {
	f := free + delta
	if f < 0 || f > p.procs {
		panic("sim: profile reservation exceeds the machine")
	}
	return f
}

// splice applies edits (sorted by index) to the steps. The runs of steps
// between edits each shift by the net number of steps inserted before them.
// Runs shifting left are moved first, left to right, then runs shifting right,
// right to left: a run's destination can overlap only runs shifting the same
// way, which that order has already moved out of the way.
//
// When the number of steps changes, either the steps after the last edit
// move (the tail) or those before the first (the head, into the room that
// Advance leaves in front of the steps, see Profile.tbuf): whichever is
// shorter. The steps keep their indices either way; only where they sit in
// the bufs differs.
func (p *Profile) splice(edits []stepEdit) {
	if len(edits) == 0 {
		return
	}
	n := len(p.times)
	// runs[0] is the head (the steps before the first edit, shift 0); then
	// the runs between edits, each shifted by the net insertions before it;
	// the last is the tail, shifted by the net of all (net).
	var runs [6]spliceRun
	first := edits[0].at
	runs[0] = spliceRun{0, first, 0}
	nRuns := 1
	lo, shift := first, 0
	for _, e := range edits {
		runs[nRuns] = spliceRun{lo, e.at, shift}
		nRuns++
		if e.del {
			shift--
			lo = e.at + 1
		} else {
			shift++
			lo = e.at
		}
	}
	runs[nRuns] = spliceRun{lo, n, shift}
	nRuns++
	net := shift
	// base is the head's shift in the bufs: 0 moves the tail by net, -net the
	// head; the runs between edits move either way unless their shift
	// cancels base's. The cheaper one is taken when there is room for it.
	base := 0
	if net != 0 && headCheaper(runs[:nRuns], net) {
		if net < 0 || p.off >= net {
			base = -net
		} else if p.off+n+net > len(p.tbuf) {
			p.recentre(n + net)
			if p.off >= net {
				base = -net
			}
		}
	}
	if base == 0 && p.off+n+net > len(p.tbuf) {
		p.recentre(n + net)
	}
	tbuf, fbuf, off := p.tbuf, p.fbuf, p.off
	for _, r := range runs[:nRuns] {
		if sh := r.shift + base; sh < 0 && r.lo < r.hi {
			copy(tbuf[off+r.lo+sh:], tbuf[off+r.lo:off+r.hi])
			copy(fbuf[off+r.lo+sh:], fbuf[off+r.lo:off+r.hi])
		}
	}
	for i := nRuns - 1; i >= 0; i-- {
		if r := runs[i]; r.shift+base > 0 && r.lo < r.hi {
			copy(tbuf[off+r.lo+r.shift+base:], tbuf[off+r.lo:off+r.hi])
			copy(fbuf[off+r.lo+r.shift+base:], fbuf[off+r.lo:off+r.hi])
		}
	}
	p.off = off + base
	ts := tbuf[p.off : p.off+n+net]
	fs := fbuf[p.off : p.off+n+net]
	shift = 0
	for _, e := range edits {
		if e.del {
			shift--
		} else {
			ts[e.at+shift], fs[e.at+shift] = e.t, e.free
			shift++
		}
	}
	p.times, p.frees = ts, fs
}

// spliceRun is a run of steps [lo, hi) that a splice shifts by shift.
type spliceRun struct{ lo, hi, shift int }

// headCheaper reports whether a splice of these runs (head first, tail
// last) moves fewer steps by moving the head, which shifts every run by
// -net, than by moving the tail: a run moves unless its shift is cancelled.
func headCheaper(runs []spliceRun, net int) bool {
	head, tail := 0, 0
	for _, r := range runs {
		if r.shift != net {
			head += r.hi - r.lo
		}
		if r.shift != 0 {
			tail += r.hi - r.lo
		}
	}
	return head < tail
}

// recentre makes room for n steps in the bufs, with room in front of them
// and behind: the steps move to the middle of the bufs, or of new bufs twice
// as large when they are more than half full.
func (p *Profile) recentre(n int) {
	oldT, oldF := p.times, p.frees
	if 2*n+16 > len(p.tbuf) {
		p.tbuf, p.fbuf = make([]int64, 4*n+64), make([]int32, 4*n+64)
	}
	p.off = (len(p.tbuf) - n) / 2
	copy(p.tbuf[p.off:], oldT) // copy handles the overlap within one buf
	copy(p.fbuf[p.off:], oldF)
	p.times = p.tbuf[p.off : p.off+len(oldT)]
	p.frees = p.fbuf[p.off : p.off+len(oldF)]
}
