package stats

import (
	"cmp"
	"math"
	"slices"
)

// Timeline is the schedule's state over time, averaged over equal bins, for
// the utilization and queue-length plots.
type Timeline struct {
	Start, End int64     // first submit and last end of the scheduled jobs
	Times      []float64 // bin centres, seconds since Start
	InUse      []float64 // time-averaged processors in use per bin
	Queued     []float64 // time-averaged jobs waiting (submitted, not started) per bin
	Machine    int64     // machine size, 0 when unknown
}

// Timeline bins the schedule into at most bins equal intervals. Jobs whose
// submit, wait, runtime or processors are unknown are left out, as in the machine
// metrics.
func (c *Collector) Timeline(bins int) Timeline {
	tl := Timeline{Machine: c.machine.Procs, Start: math.MaxInt64, End: math.MinInt64}
	var queue []event
	for i := range c.records {
		r := &c.records[i]
		if !r.placed() {
			continue
		}
		tl.Start = min(tl.Start, r.submit)
		tl.End = max(tl.End, r.end())
		if r.wait > 0 {
			queue = append(queue, event{r.submit, 1, i}, event{r.start(), -1, i})
		}
	}
	if tl.Start >= tl.End || bins < 1 {
		return Timeline{Machine: c.machine.Procs}
	}
	slices.SortFunc(queue, func(a, b event) int { return cmp.Compare(a.time, b.time) })
	tl.Times = make([]float64, bins)
	width := float64(tl.End-tl.Start) / float64(bins)
	for k := range tl.Times {
		tl.Times[k] = (float64(k) + 0.5) * width
	}
	tl.InUse = integrate(c.events(), tl.Start, width, bins)
	tl.Queued = integrate(queue, tl.Start, width, bins)
	return tl
}

// integrate averages the step function given by sorted events over bins of
// the given width starting at start. The bin index advances on every step, so
// floating-point rounding at bin edges cannot stall the loop.
func integrate(ev []event, start int64, width float64, bins int) []float64 {
	out := make([]float64, bins)
	var level float64
	for i := 0; i+1 < len(ev); i++ {
		level += float64(ev[i].delta)
		from, to := float64(ev[i].time-start), float64(ev[i+1].time-start)
		if level == 0 || from >= to {
			continue
		}
		for k := max(0, min(int(from/width), bins-1)); k < bins && from < to; k++ {
			edge := to
			if k < bins-1 {
				edge = math.Min(to, float64(k+1)*width)
			}
			if edge > from {
				out[k] += level * (edge - from)
				from = edge
			}
		}
	}
	for k := range out {
		out[k] /= width
	}
	return out
}
