package simtest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// RandomJobs makes n jobs for a machine of procs processors, dense in the
// cases schedulers get wrong: bursts of equal submit times, zero runtimes,
// estimates exact, over (up to 3x), under (the job is killed at it) and
// unknown (0), so that kills, runtime-0 rounds and equal planned ends are
// common.
func RandomJobs(rng *rand.Rand, n int, procs int64) []sim.Job {
	jobs := make([]sim.Job, n)
	t := int64(0)
	for i := range jobs {
		if rng.IntN(3) > 0 {
			t += rng.Int64N(50)
		}
		r := rng.Int64N(200)
		e := r
		switch rng.IntN(4) {
		case 0:
			e = r * (1 + rng.Int64N(3))
		case 1:
			e = rng.Int64N(r + 1)
		case 2:
			e = 0
		}
		jobs[i] = sim.Job{Procs: int32(1 + rng.Int64N(procs)), Submit: t, Runtime: r, Estimate: e, Queue: -1, User: -1}
	}
	return jobs
}

// WriteSWF writes jobs as an SWF trace of a machine of procs processors
// (job numbers from 1; an unknown estimate, 0, as -1) and returns its path,
// a new file in dir.
func WriteSWF(tb testing.TB, dir string, procs int64, jobs []sim.Job) string {
	tb.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "; MaxProcs: %d\n", procs)
	for i, j := range jobs {
		e := j.Estimate
		if e == 0 {
			e = -1
		}
		fmt.Fprintf(&b, "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 -1 1 -1 -1 -1\n", i+1, j.Submit, j.Runtime, j.Procs, j.Procs, e)
	}
	f, err := os.CreateTemp(dir, "random*.swf")
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return f.Name()
}
