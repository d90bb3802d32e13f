package sim

import "testing"

func TestOfferedLoad(t *testing.T) {
	// Machine 2, submits 0 and 10: capacity 20 processor-seconds. Job 0 runs
	// 10 s on 1 processor; job 1 needs 20 s on 1 but was killed after 5.
	jobs := []Job{
		{Procs: 1, Submit: 0, Runtime: 10, Start: 0, End: 10},
		{Procs: 1, Submit: 10, Runtime: 20, Start: 10, End: 15, Killed: true},
	}
	in, out, ok := OfferedLoad(jobs, 2)
	if !ok || in != 1.5 || out != 0.75 {
		t.Errorf("OfferedLoad = %v, %v, %v; want 1.5, 0.75, true", in, out, ok)
	}
	if _, _, ok := OfferedLoad(jobs[:1], 2); ok {
		t.Error("a single submit time spans no time, want ok false")
	}
}
