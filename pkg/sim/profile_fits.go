package sim

// FitsAt reports whether at least procs processors are free during all of
// [start, start+dur) (the instant start for dur 0), start >= origin: the
// question EarliestFit(start, dur, procs) == start answers, but it stops at the
// first step that is too full instead of searching on for a later start.
// Policies that only start jobs now (selective reservation's no-guarantee
// queue) need no more.
func (p *Profile) FitsAt(start, dur, procs int64) bool {
	if start < p.steps[0].t {
		panic("sim: profile time before its origin")
	}
	st := p.steps
	i := p.find(start)
	if st[i].free < procs {
		return false
	}
	end := addTime(start, dur)
	for k := i + 1; k < len(st) && st[k].t < end; k++ {
		if st[k].free < procs {
			return false
		}
	}
	return true
}
