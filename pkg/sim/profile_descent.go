package sim

// Level is one step of a profile's descent (Profile.Descent): from T on,
// Free is the fewest processors free at any time since the descent's start.
type Level struct{ T, Free int64 }

// Descent appends to buf the levels of the fewest processors free from start
// (>= origin) on: (start, free at start), then every later step with fewer
// free than all before it, up to but not including end. When the fewest fall
// below floor the walk stops with a last level of Free -1 at that step, so a
// caller that asks only about jobs at least floor wide learns no more by
// walking further. A job of procs processors fits from start for dur seconds
// (start+dur <= end) exactly when LevelAt(levels, start+dur-1) >= procs.
func (p *Profile) Descent(start, end, floor int64, buf []Level) []Level {
	ts, fs := p.times, p.frees
	i := p.find(start)
	m := int64(fs[i])
	if m < floor {
		return append(buf, Level{start, -1})
	}
	buf = append(buf, Level{start, m})
	for i++; i < len(ts) && ts[i] < end; i++ {
		if f := int64(fs[i]); f < m {
			m = f
			if m < floor {
				return append(buf, Level{ts[i], -1})
			}
			buf = append(buf, Level{ts[i], m})
		}
	}
	return buf
}

// LevelAt returns the fewest processors free from a descent's start to t
// (t at or after its start and before the end it was made with): the Free
// of the last level at or before t.
func LevelAt(levels []Level, t int64) int64 {
	f := levels[0].Free
	for _, l := range levels[1:] {
		if l.T > t {
			break
		}
		f = l.Free
	}
	return f
}
