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
	if from < p.steps[0].t {
		from = p.steps[0].t
	}
	st := p.steps
	i = p.findNear(from, p.cursor)
	s := from
	for {
		for st[i].free < procs {
			if i == len(st)-1 {
				return Never, 0, 0, 0 // held forever by reservations ending Never
			}
			i++
			s = st[i].t
		}
		end := addTime(s, dur)
		m := st[i].free
		k = i + 1
		for k < len(st) && st[k].t < end && st[k].free >= procs {
			m = min(m, st[k].free)
			k++
		}
		if k == len(st) || st[k].t >= end {
			p.cursor = i
			return s, m, i, k
		}
		i = k
		s = st[k].t
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
	st := p.steps
	n := len(st)
	var edits [2]stepEdit
	nEdits := 0
	lastFree := st[k-1].free // before the change: what follows the window's end
	if st[i].t < start {
		// Step i starts before the window: the window gets a step of its own.
		edits[nEdits] = stepEdit{at: i + 1, s: step{t: start, free: st[i].free - q}}
		nEdits++
	} else {
		st[i].free -= q
		if i > 0 && st[i-1].free == st[i].free {
			edits[nEdits] = stepEdit{at: i, del: true}
			nEdits++
		}
	}
	for x := i + 1; x < k; x++ {
		st[x].free -= q
	}
	if k < n && st[k].t == end {
		if st[k].free == lastFree-q {
			edits[nEdits] = stepEdit{at: k, del: true}
			nEdits++
		}
	} else {
		edits[nEdits] = stepEdit{at: k, s: step{t: end, free: lastFree}}
		nEdits++
	}
	p.invalidate(i)
	p.splice(edits[:nEdits])
}
