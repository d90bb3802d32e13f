package convert

import (
	"errors"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// TestFinishOutOfBounds: a job that would not read back as SWF is an error at
// its log line and column, or with Lenient a malformed line, dropped and
// counted, however the readers let it through.
func TestFinishOutOfBounds(t *testing.T) {
	job := func(id string, line int, cpu float64) pending {
		return pending{id: id, line: line, order: int64(line), submit: 100, start: 110, end: 120, nodes: -1,
			job: swf.Job{AllocatedProcs: 1, AverageCPUTime: cpu, UsedMemory: -1, RequestedProcs: 1, RequestedTime: -1,
				RequestedMemory: -1, Status: 1, UserID: -1, GroupID: -1, Executable: -1, Queue: -1, Partition: -1,
				PrecedingJob: -1, ThinkTime: -1}}
	}
	jobs := func() []pending {
		// line 3 stood for two jobs (an array line), line 5 for one
		return []pending{job("1", 2, 5), job("2_1", 3, 1e300), job("2_2", 3, 1e300), job("3", 5, 5)}
	}
	acct := Accounting{Lines: 5, HeaderLines: 1, JobLines: 3, StepLines: 1, ExpandedLines: 1}
	_, err := finish("sacct", Config{Name: "d.txt"}, jobs(), acct, nil, &sacctFieldColumns)
	const want = "d.txt:3: column TotalCPU: gives field 6 (Average CPU Time Used) = 1e+300, beyond the SWF bound"
	if !errors.Is(err, ErrRange) || err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	if !errors.Is(err, swf.ErrRange) {
		t.Errorf("error %v does not wrap swf.ErrRange", err)
	}
	res, err := finish("sacct", Config{Name: "d.txt", Lenient: true}, jobs(), acct, nil, &sacctFieldColumns)
	if err != nil {
		t.Fatal(err)
	}
	a := res.Accounting
	if len(res.Jobs) != 2 || a.Jobs != 2 || a.JobLines != 2 || a.Malformed != 1 || a.ExpandedLines != 0 || !a.Balanced() ||
		len(a.FirstErrors) != 1 || !strings.Contains(a.FirstErrors[0], want) {
		t.Errorf("lenient: %d jobs, accounting %+v", len(res.Jobs), a)
	}
	readsBack(t, res)
}
