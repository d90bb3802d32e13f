package stats

import (
	"fmt"
	"strings"
)

// Capacity is the result of checking a schedule against its machine.
type Capacity struct {
	Peak     int64 // most processors in use at once
	PeakTime int64 // first time the peak was reached
	// Unverifiable counts jobs whose submit, wait, runtime or processors are unknown
	// (-1): they are not part of the check.
	Unverifiable int
	// Violation is the first problem found, nil when none.
	Violation *Violation
}

// Violation is the first time a schedule breaks the machine's limits.
type Violation struct {
	Time   int64
	Reason string  // "start before submit" or "oversubscribed"
	InUse  int64   // processors in use at Time (oversubscribed only)
	Jobs   []int64 // job numbers involved: the early starter, or every job running at Time
	Lines  []int   // their input lines
}

func (v *Violation) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "capacity check: %s at time %d", v.Reason, v.Time)
	if v.Reason == "oversubscribed" {
		fmt.Fprintf(&b, " (%d processors in use)", v.InUse)
	}
	b.WriteString(": jobs")
	const shown = 20
	for i, j := range v.Jobs[:min(len(v.Jobs), shown)] {
		fmt.Fprintf(&b, " %d (line %d)", j, v.Lines[i])
	}
	if len(v.Jobs) > shown {
		fmt.Fprintf(&b, " and %d more", len(v.Jobs)-shown)
	}
	return b.String()
}

// CheckCapacity verifies the schedule: no job starts before its submission
// (a wait below 0 other than the unknown -1) and at no time do the running
// jobs use more processors than the machine has (when its size is known).
// A job occupies its processors over [start, start+runtime): one ending at t
// frees them for one starting at t, and a job with runtime 0 occupies none.
// The first violation in time is reported.
func (c *Collector) CheckCapacity() Capacity {
	var res Capacity
	early := -1
	for i := range c.records {
		r := &c.records[i]
		if r.wait < -1 && (early < 0 || r.start() < c.records[early].start()) {
			early = i
		}
		if !r.placed() {
			if r.wait >= -1 {
				res.Unverifiable++
			}
		}
	}
	var inUse int64
	for _, e := range c.events() {
		inUse += e.delta
		if inUse > res.Peak {
			res.Peak, res.PeakTime = inUse, e.time
		}
		if res.Violation == nil && c.machine.Procs > 0 && inUse > c.machine.Procs {
			res.Violation = c.oversubscription(e.time, inUse)
		}
	}
	if early >= 0 {
		r := &c.records[early]
		if res.Violation == nil || r.start() < res.Violation.Time {
			res.Violation = &Violation{Time: r.start(), Reason: "start before submit", Jobs: []int64{r.number}, Lines: []int{r.line}}
		}
	}
	return res
}

func (c *Collector) oversubscription(t, inUse int64) *Violation {
	v := &Violation{Time: t, Reason: "oversubscribed", InUse: inUse}
	for i := range c.records {
		r := &c.records[i]
		if r.placed() && r.start() <= t && t < r.end() {
			v.Jobs = append(v.Jobs, r.number)
			v.Lines = append(v.Lines, r.line)
		}
	}
	return v
}
