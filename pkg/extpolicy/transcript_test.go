package extpolicy_test

import (
	"bufio"
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/extpolicy"
	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

var update = flag.Bool("update", false, "rewrite the golden transcript")

// TranscriptNote is what examples/policies/easy.py says in its first reply;
// the in-process client says the same so that the worked transcript is the
// one easy.py produces (internal/cli/sim checks that with Python 3).
const transcriptNote = "easy.py: EASY backfilling, the rules of swfsim --policy easy"

// tee copies what passes through it to the transcript, each line prefixed.
type tee struct {
	prefix string
	log    *bytes.Buffer
	r      io.Reader
	w      io.Writer
}

func (t *tee) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.record(p[:n])
	return n, err
}

func (t *tee) Write(p []byte) (int, error) {
	t.record(p)
	return t.w.Write(p)
}

func (t *tee) Close() error { return t.w.(io.Closer).Close() }

func (t *tee) record(p []byte) {
	// Messages are whole lines, written and read one at a time (ping-pong).
	for _, line := range bytes.SplitAfter(p, []byte("\n")) {
		if len(line) > 0 {
			t.log.WriteString(t.prefix)
			t.log.Write(line)
		}
	}
}

// loadWorked reads testdata/worked.swf for the simulation.
func loadWorked(t *testing.T) (*swf.Header, []sim.Job, *extpolicy.Records, int64) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "worked.swf"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := swf.NewReader(f)
	hdr, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	procs, _, _, _ := sim.MachineSize(hdr)
	var jobs []sim.Job
	recs := &extpolicy.Records{}
	for {
		sj, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		j, _ := sim.FromSWF(&sj, procs, sim.ProcsRequestedElseAllocated)
		jobs = append(jobs, j)
		recs.Add(&sj)
	}
	return hdr, jobs, recs, procs
}

// The worked transcript of docs/swfsim-external.md: easy over
// testdata/worked.swf, every line the engine ("engine:  ") and the program
// ("program: ") wrote. The doc must quote it verbatim.
func TestWorkedTranscript(t *testing.T) {
	hdr, jobs, recs, procs := loadWorked(t)
	var log bytes.Buffer
	toClientR, toClientW := io.Pipe()
	fromClientR, fromClientW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serve(toClientR, fromClientW, true, true, transcriptNote)
		fromClientW.Close()
	}()
	p := extpolicy.New(&tee{prefix: "program: ", log: &log, r: fromClientR}, &tee{prefix: "engine:  ", log: &log, w: toClientW},
		extpolicy.Options{Records: recs, Header: hdr, Seed: 1})
	s, err := sim.New(sim.Config{Procs: procs}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Finish(s, s.Run(p)); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "worked.transcript")
	if *update {
		if err := os.WriteFile(golden, log.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if log.String() != string(want) {
		t.Errorf("transcript:\n%s\nwant (go test -update to accept):\n%s", log.String(), want)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "swfsim-external.md"))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(want))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if !strings.Contains(string(doc), "    "+sc.Text()+"\n") {
			t.Errorf("docs/swfsim-external.md does not quote the transcript line\n%s", sc.Text())
		}
	}
}
