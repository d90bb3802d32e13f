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
