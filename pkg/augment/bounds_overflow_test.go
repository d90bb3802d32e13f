package augment

import (
	"errors"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

func overflowJobs() []swf.Job {
	mk := func(n, submit, wait, run int64) swf.Job {
		return swf.Job{JobNumber: n, SubmitTime: submit, WaitTime: wait, RunTime: run, AllocatedProcs: 1,
			RequestedProcs: 1, RequestedTime: run, Line: int(n), Status: 1, Queue: 1}
	}
	return []swf.Job{mk(1, 0, 10, 100), mk(2, 100, swf.MaxTime/2+1, 100), mk(3, swf.MaxTime/2, 0, swf.MaxTime)}
}

// Lee's deadline is 2 x wait: a wait that makes it pass swf.MaxTime is an
// error naming the line and field, never a wrapped (10 s) deadline.
func TestUtilityDeadlineBeyondMaxTime(t *testing.T) {
	_, err := GenerateUtility(overflowJobs(), &swf.Header{}, UtilityConfig{}, NewRand(1, StreamUtility))
	var pe *swf.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Field != swf.FieldWaitTime || !errors.Is(err, swf.ErrRange) {
		t.Fatalf("got %v, want a range error at line 2, field 3", err)
	}
	jobs := overflowJobs()[:1]
	jobs[0].WaitTime = swf.MaxTime / 2 // 2 x wait is exactly the bound: fine
	if _, err := GenerateUtility(jobs, &swf.Header{}, UtilityConfig{}, NewRand(1, StreamUtility)); err != nil {
		t.Errorf("deadline at the bound: %v", err)
	}
}

// Scaling the load down stretches submit times; past swf.MaxTime it is an
// error, before any job is changed.
func TestScaleLoadBeyondMaxTime(t *testing.T) {
	jobs := overflowJobs()
	_, err := ScaleLoad(jobs, 4, 0.25, 0)
	if err == nil || !strings.Contains(err.Error(), "beyond swfkit's time bound") {
		t.Fatalf("got %v", err)
	}
	if jobs[2].SubmitTime != swf.MaxTime/2 {
		t.Errorf("a job was changed before the error: submit %d", jobs[2].SubmitTime)
	}
	if _, err := ScaleLoad(jobs, 4, 0.5, 0); err != nil {
		t.Errorf("stretch to the bound: %v", err)
	}
}

// A factor so large that every submit time rounds to the first is refused
// with one message that says so (not the span error of OfferedLoad, whose
// "load:" would come twice), and no job is changed.
func TestScaleLoadSqueezesToOneSecond(t *testing.T) {
	jobs := []swf.Job{{SubmitTime: 0, RunTime: 10, AllocatedProcs: 1}, {SubmitTime: 1000, RunTime: 10, AllocatedProcs: 1}}
	_, err := ScaleLoad(jobs, 4, 1e300, 0)
	if err == nil || err.Error() != "load: factor 1e+300 squeezes every known submit time into the same second, so the scaled trace spans no time" {
		t.Fatalf("got %v", err)
	}
}

// An estimate model that would write a field 9 beyond swf.MaxTime caps it
// there, counted in the Note.
func TestEstimateCappedAtMaxTime(t *testing.T) {
	jobs := overflowJobs()
	m, err := ParseModel("scale:3")
	if err != nil {
		t.Fatal(err)
	}
	rep := ApplyModel(jobs, m, NewRand(1, StreamEstimate))
	if jobs[2].RequestedTime != swf.MaxTime || jobs[0].RequestedTime != 300 {
		t.Errorf("estimates %d, %d", jobs[0].RequestedTime, jobs[2].RequestedTime)
	}
	if rep.Capped != 1 || !strings.Contains(strings.Join(rep.Notes(), "\n"), "1 capped at swfkit's time bound 1099511627776 s") {
		t.Errorf("capped %d, notes %q", rep.Capped, rep.Notes())
	}
}
