package clean

import (
	"reflect"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// precedingTrace: job 2 has an unknown run time (unknown_runtime drops it);
// job 3 names it as its preceding job, job 4 names job 1, which is written,
// and job 5 names job 2 as well.
const precedingTrace = "; MaxProcs: 8\n" +
	"1 0 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1\n" +
	"2 5 0 -1 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1\n" +
	"3 9 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 2 4\n" +
	"4 9 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 1 4\n" +
	"5 12 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 2 7\n"

// TestPrecedingJobRemoved: a record whose preceding job (field 17) a rule
// removed is kept as read without renumber, but not in silence: a warning and
// a Note count such records, in the streaming and the whole-trace paths. With
// renumber the references become -1 (think time too), and its Note counts
// them.
func TestPrecedingJobRemoved(t *testing.T) {
	const dangling = "2 records written name as preceding job (field 17) a job this run removed: kept as read, with its think time (field 18); rule renumber writes such a reference -1"
	for _, rules := range [][]string{DefaultRules(), append(DefaultRules(), "sort_submit")} {
		hdr, jobs := readAll(t, precedingTrace)
		c, err := New(hdr, Config{Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		if c.WholeTrace() {
			for _, j := range c.ApplyAll(jobs) {
				out = append(out, canonical(&j))
			}
		} else {
			for i := range jobs {
				if c.Apply(&jobs[i]) {
					out = append(out, canonical(&jobs[i]))
				}
			}
		}
		if len(out) != 4 || !strings.HasSuffix(out[1], " 2 4") || !strings.HasSuffix(out[3], " 2 7") {
			t.Errorf("%v: records %q: field 17 and 18 must be kept as read", rules, out)
		}
		rep := c.Report(0)
		if !reflect.DeepEqual(rep.Warnings, []string{dangling}) {
			t.Errorf("%v: warnings %q, want %q", rules, rep.Warnings, dangling)
		}
		c.Annotate(hdr, rep)
		if !strings.Contains(headerText(hdr), "; Note: swfclean "+dangling+"\n") {
			t.Errorf("%v: header\n%s\nwants the Note %q", rules, headerText(hdr), dangling)
		}
	}

	hdr, jobs := readAll(t, precedingTrace)
	rules := append(DefaultRules(), "renumber")
	c, _, notes := annotated(t, hdr, jobs, Config{Rules: rules}, "renumber")
	want := []string{"rule renumber: 3 jobs changed; 2 references to a preceding job (field 17) not written before them set to -1, with their think times (field 18)"}
	if !reflect.DeepEqual(notes, want) {
		t.Errorf("renumber notes %q, want %q", notes, want)
	}
	if w := c.Report(0).Warnings; len(w) != 0 {
		t.Errorf("with renumber, warnings %q", w)
	}
	var out []string
	for i := range jobs {
		if jobs[i].RunTime >= 0 {
			out = append(out, canonical(&jobs[i]))
		}
	}
	wantOut := []string{
		"1 0 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1",
		"2 9 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1",
		"3 9 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 1 4",
		"4 12 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1",
	}
	if !reflect.DeepEqual(out, wantOut) {
		t.Errorf("renumbered\n%s\nwant\n%s", strings.Join(out, "\n"), strings.Join(wantOut, "\n"))
	}
}

func headerText(h *swf.Header) string {
	var b strings.Builder
	for _, l := range h.Lines {
		b.WriteString(l.Raw + "\n")
	}
	return b.String()
}

// TestPrecedingJobRemovedSamePathsAlike: the count does not depend on
// whether the trace streams (Apply) or is held (ApplyAll, sort_submit here,
// which leaves this file's order). Job 1 names job 3, which comes after it
// and unknown_runtime drops: streamed, job 3 was not yet removed when job 1
// was written, and the count said 0 where held it said 1. Job 4 names job 6,
// whose first line (a part, status 2) is dropped and whose second is written
// after job 4: the file holds job 6, so job 4 does not count (held, it did).
// Job 5 names job 2, on a line dropped and on one written before it: not
// counted either.
func TestPrecedingJobRemovedSamePathsAlike(t *testing.T) {
	const text = "; MaxProcs: 8\n" +
		"1 0 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 3 5\n" +
		"2 1 0 -1 1 -1 -1 1 100 -1 2 1 1 -1 -1 -1 -1 -1\n" +
		"2 1 0 10 1 -1 -1 1 100 -1 3 1 1 -1 -1 -1 -1 -1\n" +
		"3 2 0 -1 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"4 3 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 6 5\n" +
		"5 4 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 2 5\n" +
		"6 5 0 -1 1 -1 -1 1 100 -1 2 1 1 -1 -1 -1 -1 -1\n" +
		"6 5 0 10 1 -1 -1 1 100 -1 3 1 1 -1 -1 -1 -1 -1\n"
	const want = "1 record written names as preceding job (field 17) a job this run removed: kept as read, with its think time (field 18); rule renumber writes such a reference -1"
	for _, rules := range [][]string{DefaultRules(), append(DefaultRules(), "sort_submit")} {
		hdr, jobs := readAll(t, text)
		c, err := New(hdr, Config{Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		var written []int64
		if c.WholeTrace() {
			for _, j := range c.ApplyAll(jobs) {
				written = append(written, j.JobNumber)
			}
		} else {
			for i := range jobs {
				if c.Apply(&jobs[i]) {
					written = append(written, jobs[i].JobNumber)
				}
			}
		}
		if !reflect.DeepEqual(written, []int64{1, 2, 4, 5, 6}) {
			t.Fatalf("%v: wrote jobs %v", rules, written)
		}
		if w := c.Report(0).Warnings; !reflect.DeepEqual(w, []string{want}) {
			t.Errorf("whole trace %v: warnings %q, want %q", c.WholeTrace(), w, want)
		}
	}
}
