package clean

import (
	"bytes"
	"io"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// FuzzClean cleans arbitrary input with every rule: the accounting must
// balance, the output must read back with as many records as written, and the
// streaming and whole-trace paths must agree on the default rules.
func FuzzClean(f *testing.F) {
	f.Add([]byte(mixed))
	f.Add([]byte("; Preemption: Yes\n1 0 5 100 4 90 -1 4 500 -1 2 1 1 -1 -1 -1 -1 -1\n1 0 200 30 8 20 -1 4 500 -1 3 1 1 -1 -1 -1 -1 -1\n"))
	f.Add([]byte("; MaxProcs: 4\n; Queue: 3 q\n1 -1 -7 0 0 0.0 0 9 0 0 5 0 0 0 3 0 9 -9 k=v\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		read := func() (*swf.Header, []swf.Job, int) {
			r := swf.NewReader(bytes.NewReader(data))
			r.Lenient = true
			h, err := r.Header()
			if err != nil {
				t.Skip()
			}
			var jobs []swf.Job
			for {
				j, err := r.Read()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Skip()
				}
				jobs = append(jobs, j)
			}
			n, _ := r.Malformed()
			return h, jobs, n
		}
		hdr, jobs, malformed := read()
		all, _ := SelectRules("all", nil)
		c, err := New(hdr, Config{Rules: all, Flurry: FlurryConfig{Window: 10, MinJobs: 2, MinShare: 0.5}})
		if err != nil {
			return // a malformed MaxProcs: too_big refuses it
		}
		out := c.ApplyAll(jobs)
		rep := c.Report(malformed)
		sum := rep.Malformed
		for _, s := range rep.Steps {
			sum += s.Dropped
		}
		if rep.RecordsRead != len(jobs)+malformed || rep.RecordsRead != rep.Written+rep.Dropped ||
			rep.Dropped != sum || rep.Written != len(out) {
			t.Fatalf("accounting %+v, %d jobs in, %d out", rep, len(jobs), len(out))
		}
		var buf bytes.Buffer
		w := swf.NewWriter(&buf)
		c.Annotate(hdr, rep)
		w.WriteHeader(hdr)
		for i := range out {
			w.Write(&out[i])
		}
		w.WriteTrailer(c.Trailer())
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		r := swf.NewReader(&buf)
		n := 0
		for {
			_, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("cleaned output does not read back: %v\n%s", err, buf.String())
			}
			n++
		}
		if n != len(out) {
			t.Fatalf("read back %d records, wrote %d", n, len(out))
		}

		hdr, jobs, _ = read()
		stream, err := New(hdr, Config{Rules: DefaultRules()})
		if err != nil {
			return
		}
		var streamed []string
		for i := range jobs {
			if stream.Apply(&jobs[i]) {
				streamed = append(streamed, string(jobs[i].AppendCanonical(nil)))
			}
		}
		hdr, jobs, _ = read()
		whole, _ := New(hdr, Config{Rules: DefaultRules()})
		kept := whole.ApplyAll(jobs)
		if len(kept) != len(streamed) {
			t.Fatalf("Apply kept %d, ApplyAll %d", len(streamed), len(kept))
		}
		for i := range kept {
			if got := string(kept[i].AppendCanonical(nil)); got != streamed[i] {
				t.Fatalf("record %d: Apply %q, ApplyAll %q", i, streamed[i], got)
			}
		}
	})
}
