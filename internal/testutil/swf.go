package testutil

import (
	"io"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// ReadSWF reads a whole trace (header and every job) from r, failing the
// test on any error: a test's input given as text or bytes.
func ReadSWF(tb testing.TB, r io.Reader) (*swf.Header, []swf.Job) {
	tb.Helper()
	return ReadSWFNamed(tb, r, "")
}

// ReadSWFNamed is ReadSWF with the name its errors give the input (a
// trace's file, in a test that sweeps several).
func ReadSWFNamed(tb testing.TB, r io.Reader, name string) (*swf.Header, []swf.Job) {
	tb.Helper()
	rd := swf.NewReader(r)
	rd.Name = name
	h, err := rd.Header()
	if err != nil {
		tb.Fatal(err)
	}
	var jobs []swf.Job
	for {
		j, err := rd.Read()
		if err == io.EOF {
			return h, jobs
		}
		if err != nil {
			tb.Fatal(err)
		}
		jobs = append(jobs, j)
	}
}
