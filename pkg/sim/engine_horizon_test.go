package sim

import (
	"strings"
	"testing"
)

// A trace whose runtimes add up beyond MaxHorizon is refused before it runs,
// rather than overflowing int64 during the run; one just within runs.
func TestNewRefusesTracesBeyondTheHorizon(t *testing.T) {
	const step = 1 << 40
	jobs := func(n int) []Job {
		js := make([]Job, n)
		for i := range js {
			js[i] = Job{Procs: 1, Submit: step, Runtime: step, Estimate: 1}
		}
		return js
	}
	// Submit 2^40 plus 2^20 - 1 runtimes of 2^40 is 2^60 exactly.
	if _, err := New(Config{Procs: 1}, jobs(1<<20-1)); err != nil {
		t.Errorf("at the bound: %v", err)
	}
	_, err := New(Config{Procs: 1}, jobs(1<<20))
	if err == nil || !strings.Contains(err.Error(), "first passed at job 1048575") {
		t.Errorf("beyond the bound: %v", err)
	}
}
