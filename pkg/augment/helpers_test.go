package augment

import (
	"strings"
	"sync"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/swf"
)

type trace struct {
	hdr  *swf.Header
	jobs []swf.Job
}

var (
	traceMu    sync.Mutex
	traceCache = map[string]trace{}
)

// loadTrace reads a shared trace (skipping when absent). Each call returns a
// fresh copy of the jobs, so tests may modify them.
func loadTrace(t testing.TB, name string) (*swf.Header, []swf.Job) {
	t.Helper()
	path := testutil.Trace(t, name)
	traceMu.Lock()
	defer traceMu.Unlock()
	tr, ok := traceCache[name]
	if !ok {
		in, err := cmdio.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		h, jobs := testutil.ReadSWFNamed(t, in, name)
		tr = trace{h, jobs}
		traceCache[name] = tr
	}
	jobs := make([]swf.Job, len(tr.jobs))
	copy(jobs, tr.jobs)
	for i := range jobs {
		jobs[i].Extra = append([]string(nil), jobs[i].Extra...)
	}
	h := *tr.hdr
	return &h, jobs
}

// parseJobs reads jobs from SWF text.
func parseJobs(t testing.TB, text string) (*swf.Header, []swf.Job) {
	t.Helper()
	return testutil.ReadSWFNamed(t, strings.NewReader(text), "test")
}

// smallTraces are the traces default tests may sweep (see notes on test time).
var smallTraces = []string{
	"KTH-SP2-1996-2.1-cln.swf.gz",
	"NASA-iPSC-1993-3.1-cln.swf.gz",
	"lublin_256.swf.gz",
	"HPC2N-2002-2-first3170.swf.gz",
	"CEA-Curie-2011-sample.swf.gz",
}

// submitRange returns the first and last known submit times of the jobs.
func submitRange(jobs []swf.Job) (first, last int64, ok bool) {
	for i := range jobs {
		s := jobs[i].SubmitTime
		if s < 0 {
			continue
		}
		if !ok || s < first {
			first = s
		}
		if !ok || s > last {
			last = s
		}
		ok = true
	}
	return first, last, ok
}
