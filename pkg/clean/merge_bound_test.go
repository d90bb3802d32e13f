package clean

import (
	"math"
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

// anonymize maps ids exactly: ids beyond 2^53 that float64 would merge stay
// distinct, and int64's limits are ids like any other.
func TestAnonymizeExactIDs(t *testing.T) {
	c, err := New(&swf.Header{}, Config{Rules: []string{"anonymize"}})
	if err != nil {
		t.Fatal(err)
	}
	users := []int64{9007199254740992, 9007199254740993, math.MaxInt64, 9007199254740992}
	want := []int64{1, 2, 3, 1}
	for i, u := range users {
		j := swf.Job{UserID: u, GroupID: -1, Executable: -1, Queue: -1, Partition: -1}
		c.Apply(&j)
		if j.UserID != want[i] {
			t.Errorf("user %d anonymized to %d, want %d", u, j.UserID, want[i])
		}
	}
}
