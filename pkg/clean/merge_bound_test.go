package clean

import (
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Merged partial executions add their runtimes and CPU times, capped at
// swf.MaxTime: the merged record must still be readable by every tool.
func TestMergeIntoCapsAtMaxTime(t *testing.T) {
	first := swf.Job{RunTime: swf.MaxTime - 10, AverageCPUTime: swf.MaxTime - 1, Status: swf.StatusPartial}
	rest := []swf.Job{
		{RunTime: 4, AverageCPUTime: 1, Status: swf.StatusPartial},
		{RunTime: swf.MaxTime, AverageCPUTime: swf.MaxTime, Status: swf.StatusLastOK},
	}
	mergeInto(&first, rest)
	if first.RunTime != swf.MaxTime || first.AverageCPUTime != swf.MaxTime || first.Status != swf.StatusCompleted {
		t.Errorf("merged: runtime %d, cpu %v, status %d", first.RunTime, first.AverageCPUTime, first.Status)
	}
	small := swf.Job{RunTime: 10, AverageCPUTime: 2.5, Status: swf.StatusPartial}
	mergeInto(&small, []swf.Job{{RunTime: 5, AverageCPUTime: 1, Status: swf.StatusLastFail}})
	if small.RunTime != 15 || small.AverageCPUTime != 3.5 || small.Status != swf.StatusFailed {
		t.Errorf("merged: runtime %d, cpu %v, status %d", small.RunTime, small.AverageCPUTime, small.Status)
	}
}
