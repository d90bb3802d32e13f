package clean

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/swfkit/swfkit/pkg/swf"
)

// traceFunc adapts a function to traceStage.
type traceFunc func(jobs []swf.Job, t *tracker) []swf.Job

func (f traceFunc) applyAll(jobs []swf.Job, t *tracker) []swf.Job { return f(jobs, t) }

func buildSortSubmit(*Cleaner) (step, error) {
	return step{trace: traceFunc(func(jobs []swf.Job, t *tracker) []swf.Job {
		// Records out of order count as changed (they move).
		for i := 1; i < len(jobs); i++ {
			if submitBefore(&jobs[i], &jobs[i-1]) {
				t.changeAt(i)
			}
		}
		t.sortStable(jobs, submitBefore)
		return jobs
	})}, nil
}

// submitBefore orders records by submit time, with unknown (negative) submit
// times after every known one: a -1 sorted first would read as the earliest
// job, and renumber would give it the first number.
func submitBefore(a, b *swf.Job) bool {
	if (a.SubmitTime < 0) != (b.SubmitTime < 0) {
		return b.SubmitTime < 0
	}
	return a.SubmitTime < b.SubmitTime && a.SubmitTime >= 0
}

func buildShiftTime(c *Cleaner) (step, error) {
	// The shift (at most swf.MaxTime) is added to UnixStartTime: a malformed
	// one would stay unshifted, one within MaxTime of int64's end would wrap.
	if v, ok, err := c.hdr.UnixStartTime(); err != nil {
		return step{}, err
	} else if ok && v > math.MaxInt64-swf.MaxTime {
		return step{}, fmt.Errorf("shift_time: header UnixStartTime %d is too large to shift (at most %d)", v, int64(math.MaxInt64-swf.MaxTime))
	}
	return step{trace: traceFunc(func(jobs []swf.Job, t *tracker) []swf.Job {
		first := int64(-1)
		for i := range jobs {
			if s := jobs[i].SubmitTime; s >= 0 && (first < 0 || s < first) {
				first = s
			}
		}
		if first <= 0 {
			return jobs
		}
		for i := range jobs {
			if jobs[i].SubmitTime >= 0 {
				jobs[i].SubmitTime -= first
				t.changeAt(i)
			}
		}
		c.notes = append(c.notes, fmt.Sprintf("rule shift_time: submit times shifted by -%d s", first))
		start, note := shiftedStartTime(c.hdr, first)
		if note != "" {
			c.notes = append(c.notes, note)
		}
		c.edits = append(c.edits, func(h *swf.Header) {
			if v, ok, err := h.UnixStartTime(); ok && err == nil {
				h.Set("UnixStartTime", strconv.FormatInt(v+first, 10))
			}
			if start != "" {
				h.Set("StartTime", start)
			}
		})
		return jobs
	})}, nil
}

// shiftedStartTime returns the header's StartTime moved with UnixStartTime
// by shift seconds, when it names UnixStartTime's instant (as the archive's
// logs do) in the log's zone, in its own layout, with a Note saying so; or
// "" and a Note saying why StartTime was left as it is (it names another
// instant, or one that cannot be read, or there is no UnixStartTime to tell);
// "", "" when there is no StartTime.
func shiftedStartTime(h *swf.Header, shift int64) (start, note string) {
	text, ok := h.Get("StartTime")
	if !ok {
		return "", ""
	}
	text = strings.TrimSpace(text)
	left := func(why string) (string, string) {
		return "", fmt.Sprintf("rule shift_time: StartTime left as in the input (%s): %s", text, why)
	}
	unix, ok, err := h.UnixStartTime()
	if !ok || err != nil {
		// The archive's StartTime is the log's time 0, which moved; without
		// UnixStartTime that cannot be checked, and a StartTime left as it
		// was without a word would read as the new time 0.
		return left(fmt.Sprintf("the header has no UnixStartTime to tell whether it names time 0 of the submit times, which moved %d s later", shift))
	}
	loc, _, err := h.Zone()
	if err != nil {
		return left(fmt.Sprintf("the log's time zone is unknown (%v)", err))
	}
	t, exact, err := swf.ParseDate(text, loc)
	switch {
	case err != nil:
		return left("it is not a date as date(1) writes it")
	case !exact:
		return left(fmt.Sprintf("its zone is not the one the log's (%s) uses at that date", loc))
	case t.Unix() != unix:
		return left(fmt.Sprintf("it is not UnixStartTime's instant (%d), which moved", unix))
	}
	layout, ok := swf.DateLayoutOf(text)
	if !ok {
		layout = swf.DateLayout
	}
	start = time.Unix(unix+shift, 0).In(loc).Format(layout)
	return start, fmt.Sprintf("rule shift_time: StartTime moved with UnixStartTime (input header: %s)", text)
}

// buildMergePartial merges the lines of partially executed jobs (status 2, 3,
// 4). When a job also has a line that is not a part (Preemption: Double's
// summary line), that line is kept and the parts are dropped. Otherwise the
// parts become one record at the first part's position: fields from the first
// part, run time summed over the parts with known values, the largest
// allocated processors and used memory, the average CPU time per processor
// (field 6) that gives the parts' total CPU time on that processor count
// (mergedCPUTime), and the status of the last part mapped 3 -> 1 (completed),
// 4 -> 0 (failed), 2 -> -1 (no final part).
func buildMergePartial(*Cleaner) (step, error) {
	return step{trace: traceFunc(mergePartial)}, nil
}

func mergePartial(jobs []swf.Job, t *tracker) []swf.Job {
	hasSummary := map[int64]bool{}
	parts := map[int64][]int{}
	for i := range jobs {
		if isPartial(&jobs[i]) {
			parts[jobs[i].JobNumber] = append(parts[jobs[i].JobNumber], i)
		} else {
			hasSummary[jobs[i].JobNumber] = true
		}
	}
	drop := make([]bool, len(jobs))
	for number, idx := range parts {
		if hasSummary[number] {
			for _, i := range idx {
				drop[i] = true
			}
			continue
		}
		if len(idx) == 1 && jobs[idx[0]].Status != swf.StatusPartial {
			// A lone final part: already one record, only its status is partial.
			mergeInto(&jobs[idx[0]], jobs[idx[0]:idx[0]])
			t.changeAt(idx[0])
			continue
		}
		var rest []swf.Job
		for _, i := range idx[1:] {
			rest = append(rest, jobs[i])
			drop[i] = true
		}
		mergeInto(&jobs[idx[0]], rest)
		t.changeAt(idx[0])
	}
	return t.keep(jobs, func(i int, _ *swf.Job) bool { return !drop[i] })
}

// mergeInto folds the later parts of a job into its first part. Runtimes
// add up, capped at swf.MaxTime so that the merged record can be read back
// (each part is within it; only an absurd number of parts could pass it).
func mergeInto(first *swf.Job, rest []swf.Job) {
	last := first.Status
	first.AverageCPUTime = mergedCPUTime(first, rest)
	for k := range rest {
		p := &rest[k]
		switch {
		case first.RunTime < 0:
			first.RunTime = p.RunTime
		case p.RunTime > 0:
			first.RunTime = min(first.RunTime+p.RunTime, swf.MaxTime) // both <= MaxTime: no overflow
		}
		first.AllocatedProcs = max(first.AllocatedProcs, p.AllocatedProcs)
		first.UsedMemory = max(first.UsedMemory, p.UsedMemory)
		last = p.Status
	}
	switch last {
	case swf.StatusLastOK:
		first.Status = swf.StatusCompleted
	case swf.StatusLastFail:
		first.Status = swf.StatusFailed
	default:
		first.Status = -1
	}
}

// mergedCPUTime is field 6 of the merged job: field 6 is CPU time per
// processor, so the parts' CPU times (each part's field 6 times its field 5)
// add up, and the sum is divided by the merged job's processor count, the
// largest field 5 (4 processors x 50 s and 8 x 60 s are 680 s of CPU, 85 s
// on each of 8). As for run times, a part whose value is unknown (field 6 or
// field 5 below 0) adds nothing, and -1 is left when no part is known. When
// no part knows its processors, the parts cannot be weighed: they count as
// running on one count, and their field 6 values add up.
func mergedCPUTime(first *swf.Job, rest []swf.Job) float64 {
	procs := first.AllocatedProcs
	for k := range rest {
		procs = max(procs, rest[k].AllocatedProcs)
	}
	// Parts on the merged count add their field 6 as it is: x*n/n is not
	// always x in floating point, and a lone part must keep its value.
	sum, cpu, known, weighed := 0.0, 0.0, false, false
	add := func(p *swf.Job) {
		switch {
		case p.AverageCPUTime < 0:
		case procs <= 0 || p.AllocatedProcs == procs:
			sum, known = sum+p.AverageCPUTime, true
		case p.AllocatedProcs > 0:
			cpu, known, weighed = cpu+p.AverageCPUTime*float64(p.AllocatedProcs), true, true
		}
	}
	add(first)
	places := decimalPlaces(first.AverageCPUTime)
	for k := range rest {
		add(&rest[k])
		places = max(places, decimalPlaces(rest[k].AverageCPUTime))
	}
	switch {
	case !known:
		return -1
	case weighed:
		// A weighed mean can need more places than its parts (100 s on 3
		// processors) or a fixed number of them (1 s on 1 processor and 0 s
		// on 4096 are 0.000244140625 s each): nine significant digits.
		sum = (sum*float64(procs) + cpu) / float64(procs)
		return min(roundSignificant(sum, 9), swf.MaxTime)
	}
	return min(roundPlaces(sum, places), swf.MaxTime)
}

// roundSignificant rounds v to digits significant digits.
func roundSignificant(v float64, digits int) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', digits, 64), 64)
	if err != nil {
		return v
	}
	return r
}

// decimalPlaces is how many places after the point v is written with (0.004:
// 3, 12: 0), -1 and other unknowns counting 0.
func decimalPlaces(v float64) int {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// roundPlaces rounds v to places decimal places, so that a sum of parts
// written with that many reads as they do (0.004 + 0.005 is
// 0.009000000000000001 in binary floating point; the merged record says 0.009).
func roundPlaces(v float64, places int) float64 {
	if places > 15 {
		return v
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'f', places, 64), 64)
	if err != nil {
		return v
	}
	return r
}
