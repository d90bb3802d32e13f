package policy

import "github.com/swfkit/swfkit/pkg/sim"

// runView is a policy's own view of the running jobs, ordered by the end it
// expects of each (end, then job ID, as sim.Sim.Running orders by PlannedEnd):
// predicted ends for the EASY++ family, trial ends for timed runs. A view may
// leave out running jobs the policy counts as free (expired trial runs).
type runView struct {
	entries []viewEntry
}

type viewEntry struct {
	end   int64
	id    int32
	procs int32
}

func (v *runView) index(end int64, id int32) int {
	e := v.entries
	lo, hi := 0, len(e)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if e[m].end < end || (e[m].end == end && e[m].id < id) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// add inserts a job expected to end at end.
func (v *runView) add(j *sim.Job, end int64) {
	i := v.index(end, j.ID)
	v.entries = append(v.entries, viewEntry{})
	copy(v.entries[i+1:], v.entries[i:])
	v.entries[i] = viewEntry{end: end, id: j.ID, procs: j.Procs}
}

// remove deletes the entry of job j added with end; it panics if absent.
func (v *runView) remove(j *sim.Job, end int64) {
	i := v.index(end, j.ID)
	if i >= len(v.entries) || v.entries[i].id != j.ID {
		panic("policy: job missing from its running view")
	}
	copy(v.entries[i:], v.entries[i+1:])
	v.entries = v.entries[:len(v.entries)-1]
}

// shadow generalises ShadowTime to a view: the earliest expected end t >= from
// (and > now: an end at or before now means "at any moment", now+1, as
// sim.Sim.ExpectedEnd has it) at which free plus the processors of the jobs
// ended by t reach procs, and the extra processors then beyond procs. Every job
// ending exactly at t counts. With from <= now and procs free now, the shadow
// time is now.
func (v *runView) shadow(now, from, free, procs int64) (shadow, extra int64) {
	avail := free
	if avail >= procs && from <= now {
		return now, avail - procs
	}
	e := v.entries
	for k := 0; k < len(e); k++ {
		avail += int64(e[k].procs)
		t := max(e[k].end, now+1)
		if avail < procs || t < from {
			continue
		}
		for k+1 < len(e) && max(e[k+1].end, now+1) == t {
			k++
			avail += int64(e[k].procs)
		}
		return t, avail - procs
	}
	if avail >= procs {
		return from, avail - procs // the view empties before from
	}
	panic("policy: job wider than the machine")
}
