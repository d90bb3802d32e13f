package policy

import (
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

// traceSlice is a stretch of a real trace that the cross-checks against a
// second implementation (reference_*_test.go) run on: the jobs from index
// from on, their submit times divided by compress.
type traceSlice struct {
	name       string
	from, jobs int
	compress   int64
}

// waitingSlices returns slices of eight real traces where jobs wait (the
// first jobs of NASA-iPSC, LLNL-Atlas and most of CEA-Curie and LCG never
// do, so NASA-iPSC and LLNL-Atlas run with their submit times divided by
// 4): LANL-CM5 has 17 queues, HPC2N and RICC two; RICC comes in bags of
// equal jobs. Their lengths are divided by div; -long makes them four times
// longer, -short keeps the first two.
func waitingSlices(div int) []traceSlice {
	s := []traceSlice{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 3000, 3000, 1},
		{"HPC2N-2002-2-first3170.swf.gz", 0, 3000, 1},
		{"LANL-CM5-1994-4.1-cln.swf.gz", 21000, 3000, 1},
		{"lublin_256.swf.gz", 3000, 2000, 1},
		{"RICC-2010-2.swf.gz", 6000, 1000, 1},
		{"CEA-Curie-2011-sample.swf.gz", 0, 1000, 1},
		{"NASA-iPSC-1993-3.1-cln.swf.gz", 0, 1200, 4},
		{"LLNL-Atlas-2006-2.1-cln.swf.gz", 0, 1200, 4},
	}
	for i := range s {
		s[i].jobs /= div
		if *long {
			s[i].jobs *= 4
		}
	}
	if testing.Short() {
		s = s[:2]
	}
	return s
}

// load reads the slice: the machine's processors and the slice's jobs.
func (ts traceSlice) load(t *testing.T) (int64, []sim.Job) {
	t.Helper()
	tr := simtest.LoadFirst(t, testutil.Trace(t, ts.name), ts.from+ts.jobs)
	jobs := tr.Jobs[min(ts.from, len(tr.Jobs)):]
	for i := range jobs {
		jobs[i].Submit /= ts.compress
	}
	return tr.Procs, jobs
}

// referenceRounds is how many random workloads a cross-check compares: n,
// short with -short, 400 with -long.
func referenceRounds(n, short int) int {
	switch {
	case *long:
		return 400
	case testing.Short():
		return short
	}
	return n
}
