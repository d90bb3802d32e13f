package swf

import (
	"bytes"
	"io"
	"testing"
)

// readJobs reads every job of data; ok is false on the first error.
func readJobs(data []byte) (jobs []Job, out []byte, ok bool) {
	r := NewReader(bytes.NewReader(data))
	var buf bytes.Buffer
	w := NewWriter(&buf)
	h, err := r.Header()
	if err != nil {
		return nil, nil, false
	}
	w.WriteHeader(h)
	for {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, false
		}
		w.Write(&j)
		jobs = append(jobs, j)
	}
	w.WriteTrailer(r.Trailer())
	w.Flush()
	return jobs, buf.Bytes(), true
}

// FuzzReadWrite: whatever parses, written back (raw or canonical) reads back to
// the same jobs, and an unchanged file is written byte-identical up to the BOM and
// the final newline.
func FuzzReadWrite(f *testing.F) {
	f.Add([]byte("; Version: 2\n;\n" + std + "\n"))
	f.Add([]byte(std + " u=0:1,5:0\r\n; c\n\n" + std))
	f.Add([]byte("1 0 10 100.0 4 552.21 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"))
	f.Add([]byte("1 0 1e2 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, out, ok := readJobs(data)
		if !ok {
			return
		}
		jobs2, _, ok := readJobs(out)
		if !ok {
			t.Fatalf("written output does not parse:\n%q", out)
		}
		if len(jobs) != len(jobs2) {
			t.Fatalf("%d jobs, then %d", len(jobs), len(jobs2))
		}
		for i := range jobs {
			if jobs[i].fields() != jobs2[i].fields() {
				t.Fatalf("job %d: %v then %v", i, jobs[i].fields(), jobs2[i].fields())
			}
			// The canonical form reads back to the same values too.
			canon := jobs[i].AppendCanonical(nil)
			back, _, ok := readJobs(append(canon, '\n'))
			if !ok || len(back) != 1 || back[0].fields() != jobs[i].fields() {
				t.Fatalf("canonical %q does not read back", canon)
			}
		}
	})
}
