package clean

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/swfkit/swfkit/pkg/swf"
)

// traceFunc adapts a function to traceStage.
type traceFunc func(jobs []swf.Job, t *tracker) []swf.Job

func (f traceFunc) applyAll(jobs []swf.Job, t *tracker) []swf.Job { return f(jobs, t) }

func buildSortSubmit(*Cleaner) (step, error) {
	return step{trace: traceFunc(func(jobs []swf.Job, t *tracker) []swf.Job {
		// Records out of order count as changed (they move).
		for i := 1; i < len(jobs); i++ {
			if jobs[i].SubmitTime < jobs[i-1].SubmitTime {
				t.change()
			}
		}
		sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].SubmitTime < jobs[b].SubmitTime })
		return jobs
	})}, nil
}

func buildShiftTime(c *Cleaner) (step, error) {
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
				t.change()
			}
		}
		c.notes = append(c.notes, fmt.Sprintf("rule shift_time: submit times shifted by -%d s", first))
		c.edits = append(c.edits, func(h *swf.Header) {
			if v, ok, err := h.UnixStartTime(); ok && err == nil {
				h.Set("UnixStartTime", strconv.FormatInt(v+first, 10))
			}
		})
		return jobs
	})}, nil
}

// buildMergePartial merges the lines of partially executed jobs (status 2, 3,
// 4). When a job also has a line that is not a part (Preemption: Double's
// summary line), that line is kept and the parts are dropped. Otherwise the
// parts become one record at the first part's position: fields from the first
// part, run time and CPU time summed over the parts with known values, the
// largest allocated processors and used memory, and the status of the last
// part mapped 3 -> 1 (completed), 4 -> 0 (failed), 2 -> -1 (no final part).
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
			t.change()
			continue
		}
		var rest []swf.Job
		for _, i := range idx[1:] {
			rest = append(rest, jobs[i])
			drop[i] = true
		}
		mergeInto(&jobs[idx[0]], rest)
		t.change()
	}
	i := -1
	return t.keep(jobs, func(*swf.Job) bool {
		i++
		return !drop[i]
	})
}

// mergeInto folds the later parts of a job into its first part. Runtimes
// and CPU times add up, capped at swf.MaxTime so that the merged record can
// be read back (each part is within it; only an absurd number of parts could
// pass it).
func mergeInto(first *swf.Job, rest []swf.Job) {
	last := first.Status
	for k := range rest {
		p := &rest[k]
		switch {
		case first.RunTime < 0:
			first.RunTime = p.RunTime
		case p.RunTime > 0:
			first.RunTime = min(first.RunTime+p.RunTime, swf.MaxTime) // both <= MaxTime: no overflow
		}
		switch {
		case first.AverageCPUTime < 0:
			first.AverageCPUTime = p.AverageCPUTime
		case p.AverageCPUTime > 0:
			first.AverageCPUTime = min(first.AverageCPUTime+p.AverageCPUTime, swf.MaxTime)
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
