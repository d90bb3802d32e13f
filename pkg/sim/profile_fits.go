package sim

// FreeUntil returns the earliest time t >= start (start >= origin) at which
// fewer than procs processors are free, or Never if there is none: a job of
// procs processors fits from start for dur > 0 seconds exactly when
// FreeUntil(start, procs) >= start+dur, the question EarliestFit(start, dur,
// procs) == start answers, but the scan stops at the first step that is too
// full instead of searching on for a later start, and one answer serves every
// duration. Policies that only start jobs now (selective reservation's
// no-guarantee queue) need no more.
func (p *Profile) FreeUntil(start, procs int64) int64 {
	if start < p.times[0] {
		panic("sim: profile time before its origin")
	}
	ts, fs := p.times, p.frees
	i := p.find(start)
	if int64(fs[i]) < procs {
		return start
	}
	for k := i + 1; k < len(ts); k++ {
		if int64(fs[k]) < procs {
			return ts[k]
		}
	}
	return Never
}
