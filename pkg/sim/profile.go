package sim

import "math"

// Profile is an availability profile: the number of free processors as a step
// function of time, from an origin time on. Reservations subtract processors
// over a half-open interval [start, end); end may be Never. Times before the
// origin are clipped away. The zero value is not usable: call NewProfile.
//
// Steps live in a slice sorted by time, and adjacent steps with equal free
// counts are merged, so its length is at most twice the number of distinct
// reservation ends. Reserve, Release and Move cost O(log S) to find where the
// change starts, a walk over the steps whose free counts change, a binary
// search across any unchanged gap (the shared part of a Move's two
// intervals), and one splice for the steps inserted or merged away: that
// moves the steps between the first and last edited step, plus the tail once
// (an O(S) memmove) only when the number of steps changes, which a Move often
// avoids. EarliestFit scans the steps from its start time once (O(S)).
//
// A step's start and free count are kept in two arrays, times and frees,
// the free counts as int32 (a machine has at most math.MaxInt32
// processors): the searches read only times, 8 bytes a step, and a splice
// moves 12 bytes a step instead of a struct's 16.
type Profile struct {
	procs int64
	// Step i starts at times[i] and has frees[i] processors free; times[0]
	// is the origin, and the last step lasts forever. The two always have
	// the same length.
	times []int64
	frees []int32
	// tbuf and fbuf hold the steps: times is tbuf[off : off+len(times)],
	// frees fbuf[off : ...], and the two bufs have the same length. Advance
	// drops steps from the front by moving off, and splice uses that room to
	// insert steps by moving the head when it is shorter than the tail.
	tbuf []int64
	fbuf []int32
	off  int
	// prefMax[i] is the largest free count of steps[0..i], valid for i <
	// prefValid; changes invalidate it from the changed step on.
	prefMax   []int64
	prefValid int
	hint      int // MaxFreeBefore's last step index: its next search starts there
	// cursor is the step index of the last fit found or change made: the
	// next search for a time starts there (findNear), since conservative's
	// walks ask about a job's new slot right after finding it.
	cursor int
	// endHint is the step index where the last overlapping move's far half
	// ended (moveOverlapping): a cascade's next move ends where it did.
	endHint int
}

// NewProfile returns a profile of procs free processors from origin on.
func NewProfile(procs, origin int64) *Profile {
	p := &Profile{}
	p.Reset(procs, origin)
	return p
}

// Reset empties the profile: procs free from origin on. It panics if procs
// exceeds math.MaxInt32, the most processors a profile holds.
func (p *Profile) Reset(procs, origin int64) {
	checkProcs(procs)
	p.procs = procs
	p.adopt(append(p.times[:0], origin), append(p.frees[:0], int32(procs)))
	p.prefValid = 0
}

// checkProcs panics unless a machine of procs processors fits the int32
// free counts (swfsim refuses larger machines).
func checkProcs(procs int64) {
	if procs > math.MaxInt32 {
		panic("sim: profile of more than math.MaxInt32 processors")
	}
}

// adopt makes ts and fs (built by appending to p.times[:0] and
// p.frees[:0], or in tests copies of another profile's) the steps, keeping
// the bufs and off in step with them (append may have moved either to a new
// array). Their arrays are only taken as far as the smaller capacity, so
// bufs that share them from further in front stay.
func (p *Profile) adopt(ts []int64, fs []int32) {
	if p.off >= len(p.tbuf) || &ts[0] != &p.tbuf[p.off] || &fs[0] != &p.fbuf[p.off] {
		c := min(cap(ts), cap(fs))
		p.tbuf, p.fbuf, p.off = ts[:c], fs[:c], 0
	}
	p.times, p.frees = ts, fs
}

// Procs returns the machine size, the most processors ever free.
func (p *Profile) Procs() int64 { return p.procs }

// Origin returns the earliest time the profile describes.
func (p *Profile) Origin() int64 { return p.times[0] }

// Len returns the number of steps.
func (p *Profile) Len() int { return len(p.times) }

// Advance moves the origin to now, dropping the steps before it.
func (p *Profile) Advance(now int64) {
	if now <= p.times[0] {
		return
	}
	i := p.find(now)
	p.times, p.frees = p.times[i:], p.frees[i:]
	p.off += i
	p.times[0] = now
	if i > 0 {
		p.prefValid = 0
	}
}

// MaxFreeBefore returns the most processors free at any time in [origin, t),
// or 0 if t <= origin. A job needing more cannot start before t.
func (p *Profile) MaxFreeBefore(t int64) int64 {
	if t <= p.times[0] {
		return 0
	}
	k := p.findNear(t-1, p.hint) // the last step that starts before t
	p.hint = k
	if n := len(p.times); len(p.prefMax) < n {
		p.prefMax = make([]int64, n, 2*n)
		p.prefValid = 0
	}
	for i := p.prefValid; i <= k; i++ {
		m := int64(p.frees[i])
		if i > 0 && p.prefMax[i-1] > m {
			m = p.prefMax[i-1]
		}
		p.prefMax[i] = m
	}
	if k >= p.prefValid {
		p.prefValid = k + 1
	}
	return p.prefMax[k]
}

func (p *Profile) invalidate(i int) {
	if i < p.prefValid {
		p.prefValid = i
	}
}

// find returns the index of the step that holds time t (t >= origin).
//
// The search is branch-free (the compiler emits a conditional move), which
// matters because its comparisons are unpredictable and conservative
// backfilling calls it tens of millions of times.
func (p *Profile) find(t int64) int {
	ts := p.times
	base, n := 0, len(ts)
	for n > 1 {
		half := n >> 1
		if ts[base+half] <= t {
			base += half
		}
		n -= half
	}
	return base
}

// findNear is find searching outwards from step h first (galloping), which
// is cheaper than a full binary search when t lies near step h, as it does for
// the reservations of consecutive waiting jobs.
func (p *Profile) findNear(t int64, h int) int {
	ts := p.times
	n := len(ts)
	if h >= n {
		h = n - 1
	}
	if ts[h] <= t {
		return gallop(ts, t, h)
	}
	// Gallop down: the answer lies in [lo, hi), and ts[lo] <= t.
	hi, w := h, 1
	for hi-w >= 0 && ts[hi-w] > t {
		hi -= w
		w *= 2
	}
	return searchFrom(ts, t, max(hi-w, 0), hi)
}

// gallop returns the last index at or after lo whose step starts at or before
// t, given ts[lo] <= t, searching outwards from lo: O(log distance).
func gallop(ts []int64, t int64, lo int) int {
	n, w := len(ts), 1
	for lo+w < n && ts[lo+w] <= t {
		lo += w
		w *= 2
	}
	return searchFrom(ts, t, lo, min(lo+w, n))
}

// searchFrom returns the last index in [lo, hi) whose step starts at or
// before t, given ts[lo] <= t.
func searchFrom(ts []int64, t int64, lo, hi int) int {
	base, n := lo, hi-lo
	for n > 1 {
		half := n >> 1
		if ts[base+half] <= t {
			base += half
		}
		n -= half
	}
	return base
}

// FreeAt returns the free processors at time t >= origin.
func (p *Profile) FreeAt(t int64) int64 {
	if t < p.times[0] {
		panic("sim: profile time before its origin")
	}
	return int64(p.frees[p.find(t)])
}

// Reserve subtracts procs processors over [start, end). It panics if that
// would make a step negative.
func (p *Profile) Reserve(start, end, procs int64) { p.add(start, end, -procs) }

// Release gives procs processors back over [start, end). It panics if that
// would exceed the machine.
func (p *Profile) Release(start, end, procs int64) { p.add(start, end, procs) }

// Move moves a reservation of procs processors from [from, from+dur) to [to,
// to+dur): the same profile as Release then Reserve, made in one pass. Only
// the parts of the two intervals that differ are visited, so a long job moved
// a little earlier costs what its start and end change, not its length; it
// panics if the result over- or under-books a step.
func (p *Profile) Move(from, to, dur, procs int64) {
	if to < from && to >= p.times[0] && dur > 0 && dur < Never-from && procs != 0 {
		// The usual move, to an earlier start: the points come sorted and
		// distinct, but for a new end that meets the old start. A new slot
		// that overlaps the old one (a long job moved a little earlier) is
		// almost every move a compression makes, and has a walk of its own.
		var pts [4]changePoint
		switch end := to + dur; {
		case end < from:
			pts = [4]changePoint{{to, -procs}, {end, procs}, {from, procs}, {from + dur, -procs}}
		case end > from:
			p.moveOverlapping(to, from, end, from+dur, procs)
			return
		default:
			p.apply([]changePoint{{to, -procs}, {from, 2 * procs}, {from + dur, -procs}})
			return
		}
		p.apply(pts[:])
		return
	}
	pts := [4]changePoint{
		{from, procs}, {addTime(from, dur), -procs},
		{to, -procs}, {addTime(to, dur), procs},
	}
	p.change(pts[:])
}

func (p *Profile) add(start, end, delta int64) {
	if end <= start {
		return
	}
	pts := [2]changePoint{{start, delta}, {end, -delta}}
	p.change(pts[:])
}

// change normalizes pts (any order, times possibly equal, before the origin
// or Never) for apply: times before the origin count from the origin, equal
// times are summed, and zero deltas and points at Never are dropped.
func (p *Profile) change(pts []changePoint) {
	origin := p.times[0]
	for i := range pts {
		pts[i].t = max(pts[i].t, origin)
		for j := i; j > 0 && pts[j].t < pts[j-1].t; j-- {
			pts[j], pts[j-1] = pts[j-1], pts[j]
		}
	}
	// Both passes write at or before the index they read.
	merged := pts[:0]
	for _, c := range pts {
		if len(merged) > 0 && merged[len(merged)-1].t == c.t {
			merged[len(merged)-1].delta += c.delta
		} else {
			merged = append(merged, c)
		}
	}
	out := pts[:0]
	for _, c := range merged {
		if c.delta != 0 {
			out = append(out, c)
		}
	}
	for len(out) > 0 && out[len(out)-1].t == Never {
		out = out[:len(out)-1]
	}
	if len(out) > 0 {
		p.apply(out)
	}
}

// EarliestFit returns the earliest time s >= from (and >= origin) such that at
// least procs processors are free during all of [s, s+dur), or Never if there
// is none. procs must not exceed the machine size; dur 0 asks for the instant s
// only.
func (p *Profile) EarliestFit(from, dur, procs int64) int64 {
	s, _ := p.EarliestFitMin(from, dur, procs)
	return s
}

// EarliestFitMin is EarliestFit that also returns the fewest processors free
// during [s, s+dur) (at s for dur 0), as MinFree would, from the same scan;
// it returns Never, 0 if there is no start.
func (p *Profile) EarliestFitMin(from, dur, procs int64) (start, minFree int64) {
	start, minFree, _, _ = p.earliestFit(from, dur, procs)
	return start, minFree
}

// Steps calls f for each step (time, free processors) in time order; for tests
// and debugging.
func (p *Profile) Steps(f func(t, free int64)) {
	for i, t := range p.times {
		f(t, int64(p.frees[i]))
	}
}

// EarliestFitMoving is EarliestFit for a job that already holds a reservation
// [own, own+dur) of procs in the profile: it returns the earliest start s >=
// from with s < limit (and s < own) at which the job fits once its own
// reservation is taken out, or own if there is none. The profile is not
// changed: a window starting before own gets the job's processors back only
// on the steps that start at or after own.
//
// Since s < own, every step of a window from own on lies inside the job's own
// slot and so has room for it: only the part before own is checked. Each
// window is checked backwards from its end, so a failing window yields its
// last blocking step at once and the next candidate start is just after it;
// the steps between the blocker and the window's end are remembered as good,
// so every step is looked at about once per call.
//
// ownStep, when the caller knows it, is the index StepAt returned for own-1
// (the step holding the last second before the job's slot): every window
// ends by own, so the search for a window's end stays below the step after
// it. -1 (unknown) or a wrong index is only slower.
func (p *Profile) EarliestFitMoving(from, dur, procs, own, limit int64, ownStep int) int64 {
	if from < p.times[0] {
		from = p.times[0]
	}
	limit = min(limit, own)
	ts := p.times
	fs := p.frees[:len(ts)] // as long as ts: indices checked on ts need no check on fs
	n := len(ts)
	// hi: no window ends after ts[hi] (hi == n: none is known to).
	hi := n
	if ownStep >= 0 && ownStep+1 < n && ts[ownStep+1] >= own {
		hi = ownStep + 1
	}
	i := 0
	if from > ts[0] {
		i = p.findNear(from, p.cursor)
	}
	s := from
	good := 0 // steps [i+1, good) are known to have procs free
	for s < limit {
		for int64(fs[i]) < procs {
			i++
			if i == n {
				return own
			}
			s = ts[i]
			if s >= limit {
				return own
			}
		}
		// The window [s, e) needs procs free on every step that starts in it.
		e := min(addTime(s, dur), own)
		lo := max(i+1, good)
		// endIdx: the first step at or after e.
		// Branch-free, as in find: base ends as the last step before e, or
		// lo-1 when none is.
		base, w := lo-1, max(hi, lo)-lo+1
		for w > 1 {
			half := w >> 1
			if ts[base+half] < e {
				base += half
			}
			w -= half
		}
		endIdx := base + 1
		k := endIdx - 1
		for k >= lo && int64(fs[k]) >= procs {
			k--
		}
		if k < lo {
			p.cursor = i
			return s
		}
		// Step k blocks every start up to its end.
		good = endIdx
		i = k + 1
		if i == n {
			return own
		}
		s = ts[i]
	}
	return own
}
