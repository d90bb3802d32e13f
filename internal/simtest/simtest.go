// Package simtest loads archive traces into simulation jobs for tests and
// benchmarks of pkg/sim, pkg/policy and the schedule checker.
package simtest

import (
	"io"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

// Trace is a trace read for simulation with the default semantics.
type Trace struct {
	Procs   int64
	Jobs    []sim.Job // simulable jobs, file order
	Input   []swf.Job // every record (only with keepInput)
	Skipped int
}

// Load reads path. With keepInput it also keeps every swf.Job.
func Load(tb testing.TB, path string, keepInput bool) *Trace {
	tb.Helper()
	return load(tb, path, keepInput, -1)
}

// LoadFirst reads only the first n simulable jobs of path (and the records
// before them), for tests that take a slice of a long trace.
func LoadFirst(tb testing.TB, path string, n int) *Trace {
	tb.Helper()
	return load(tb, path, false, n)
}

// load reads path up to its n-th simulable job (n < 0: all of it).
func load(tb testing.TB, path string, keepInput bool, n int) *Trace {
	tb.Helper()
	f, err := cmdio.Open(path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	r := swf.NewReader(f)
	r.Name = path
	h, err := r.Header()
	if err != nil {
		tb.Fatal(err)
	}
	procs, _, ok, err := sim.MachineSize(h)
	if err != nil || !ok {
		tb.Skipf("%s: no machine size in the header", path)
	}
	t := &Trace{Procs: procs}
	r.ReuseRecord = !keepInput
	for n < 0 || len(t.Jobs) < n {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		if keepInput {
			t.Input = append(t.Input, j)
		}
		sj, why := sim.FromSWF(&j, procs, sim.ProcsRequestedElseAllocated)
		if why != sim.NotSkipped {
			t.Skipped++
			continue
		}
		t.Jobs = append(t.Jobs, sj)
	}
	return t
}

// Clone returns a fresh copy of the jobs, for another simulation.
func (t *Trace) Clone() []sim.Job { return append([]sim.Job(nil), t.Jobs...) }
