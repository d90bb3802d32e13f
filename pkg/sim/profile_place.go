package sim

// ReserveEarliest places up to copies jobs of procs processors for dur
// seconds side by side at their earliest common start: it returns what
// EarliestFitMin(from, dur, procs) returns (the start and the fewest
// processors free over its window), and reserves placed = min(copies,
// minFree/procs) copies there, the same profile as Reserve(start, start+dur,
// placed*procs). It is one scan instead of two: the search already knows
// which steps the window covers and that they have room, so the reservation
// subtracts from them in place and edits only the window's two ends.
// Conservative backfilling's rebuilds (--no-kill) place every waiting job
// this way. dur, procs and copies must be positive; if no start exists it
// returns Never, 0, 0 and reserves nothing.
func (p *Profile) ReserveEarliest(from, dur, procs, copies int64) (start, minFree, placed int64) {
	if dur < 1 || procs < 1 || copies < 1 {
		panic("sim: ReserveEarliest needs a positive duration, width and count")
	}
	start, minFree, i, k := p.earliestFit(from, dur, procs)
	if start == Never {
		return Never, 0, 0
	}
	placed = min(copies, minFree/procs)
	p.take(start, addTime(start, dur), placed*procs, i, k)
	return start, minFree, placed
}

// earliestFit is EarliestFitMin that also returns the window's steps: i
// holds start, and k is the first step at or after start+dur (len(steps)
// if none is), so steps i..k-1 cover the window.
func (p *Profile) earliestFit(from, dur, procs int64) (start, minFree int64, i, k int) {
	if procs > p.procs {
		panic("sim: profile query wider than the machine")
	}
	if from < p.times[0] {
		from = p.times[0]
	}
	ts := p.times
	fs := p.frees[:len(ts)] // as long as ts: indices checked on ts need no check on fs
	i = p.findNear(from, p.cursor)
	s := from
	for {
		for int64(fs[i]) < procs {
			if i == len(ts)-1 {
				return Never, 0, 0, 0 // held forever by reservations ending Never
			}
			i++
			s = ts[i]
		}
		end := addTime(s, dur)
		m := fs[i]
		k = i + 1
		for k < len(ts) && ts[k] < end && int64(fs[k]) >= procs {
			m = min(m, fs[k])
			k++
		}
		if k == len(ts) || ts[k] >= end {
			p.cursor = i
			return s, int64(m), i, k
		}
		i = k
		s = ts[k]
	}
}

// take subtracts q > 0 processors over [start, end), start < end < Never,
// where steps i..k-1 are the steps that cover it (as earliestFit returns
// them) and have at least q free. The change is constant over the window,
// so the steps inside it stay distinct from one another: only its two ends
// can need a new step (an end inside a step) or lose one (a step that now
// equals its neighbour). Both edits go into one splice.
func (p *Profile) take(start, end, q int64, i, k int) {
	if q == 0 {
		return
	}
	ts := p.times
	fs := p.frees[:len(ts)] // as long as ts: indices checked on ts need no check on fs
	n := len(ts)
	q32 := int32(q) // q <= the window's free counts, which fit int32
	var edits [2]stepEdit
	nEdits := 0
	lastFree := fs[k-1] // before the change: what follows the window's end
	if ts[i] < start {
		// Step i starts before the window: the window gets a step of its own.
		edits[nEdits] = stepEdit{at: i + 1, t: start, free: fs[i] - q32}
		nEdits++
	} else {
		fs[i] -= q32
		if i > 0 && fs[i-1] == fs[i] {
			edits[nEdits] = stepEdit{at: i, del: true}
			nEdits++
		}
	}
	for x := i + 1; x < k; x++ {
		fs[x] -= q32
	}
	if k < n && ts[k] == end {
		if fs[k] == lastFree-q32 {
			edits[nEdits] = stepEdit{at: k, del: true}
			nEdits++
		}
	} else {
		edits[nEdits] = stepEdit{at: k, t: end, free: lastFree}
		nEdits++
	}
	p.invalidate(i)
	p.splice(edits[:nEdits])
}
