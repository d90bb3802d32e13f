package clean

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/swf"
)

// annotated cleans jobs with cfg, annotates hdr, and returns the cleaner,
// the header lines kept from the input (in order) and the text after
// "swfclean " of the Notes it added that contain what.
func annotated(t testing.TB, hdr *swf.Header, jobs []swf.Job, cfg Config, what string) (c *Cleaner, input, notes []string) {
	t.Helper()
	c, err := New(hdr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		c.Apply(&jobs[i])
	}
	c.Annotate(hdr, c.Report(0))
	for _, l := range hdr.Lines {
		if l.Line > 0 {
			input = append(input, l.Raw)
		} else if n, ok := strings.CutPrefix(l.Raw, "; Note: swfclean "); ok && strings.Contains(n, what) {
			notes = append(notes, n)
		}
	}
	return c, input, notes
}

func readAll(t testing.TB, text string) (*swf.Header, []swf.Job) {
	t.Helper()
	return testutil.ReadSWF(t, strings.NewReader(text))
}

func canonical(j *swf.Job) string { return string(j.AppendCanonical(nil)) }

func TestJobRules(t *testing.T) {
	hdr := header(t, "; MaxProcs: 64")
	tests := []struct {
		rule, in string
		want     verdict
		out      string // canonical form after the rule, when kept
	}{
		{"zero_to_unknown", "1 0 0 0 0 0 0 0 0 0 0 1 1 1 1 1 -1 -1", changed, "1 0 0 0 -1 -1 -1 -1 -1 -1 0 1 1 1 1 1 -1 -1"},
		{"zero_to_unknown", "1 0 1 1 1 1 1 1 1 1 1 1 1 1 1 1 -1 -1", kept, "1 0 1 1 1 1 1 1 1 1 1 1 1 1 1 1 -1 -1"},
		{"negative_to_unknown", "1 -5 -7 -9 1 -0.5 1 1 1 1 1 1 1 1 1 1 -3 -4", changed, "1 -1 -1 -1 1 -1 1 1 1 1 1 1 1 1 1 1 -1 -1"},
		{"unknown_submit", "1 -1 5 30 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1", dropped, ""},
		{"unknown_submit", "1 0 5 30 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1", kept, "1 0 5 30 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1"},
		{"negative_to_unknown", "1 0 -1 -1 1 -1 1 1 1 1 1 1 1 1 1 1 -1 -1", kept, "1 0 -1 -1 1 -1 1 1 1 1 1 1 1 1 1 1 -1 -1"},
		{"runtime_from_cpu", "1 0 1 -1 1 99.6 1 1 1 1 1 1 1 1 1 1 -1 -1", changed, "1 0 1 100 1 99.6 1 1 1 1 1 1 1 1 1 1 -1 -1"},
		{"runtime_from_cpu", "1 0 1 -1 1 -1 1 1 1 1 1 1 1 1 1 1 -1 -1", kept, "1 0 1 -1 1 -1 1 1 1 1 1 1 1 1 1 1 -1 -1"},
		{"runtime_from_cpu", "1 0 1 5 1 99 1 1 1 1 1 1 1 1 1 1 -1 -1", kept, "1 0 1 5 1 99 1 1 1 1 1 1 1 1 1 1 -1 -1"},
		{"estimate_from_runtime", "1 0 1 50 1 -1 1 1 -1 1 1 1 1 1 1 1 -1 -1", changed, "1 0 1 50 1 -1 1 1 50 1 1 1 1 1 1 1 -1 -1"},
		{"estimate_from_runtime", "1 0 1 50 1 -1 1 1 60 1 1 1 1 1 1 1 -1 -1", kept, "1 0 1 50 1 -1 1 1 60 1 1 1 1 1 1 1 -1 -1"},
		// A run time of 0 is not copied: a requested time of 0 is
		// run_req_zero. The record is noted, for the rule's detail.
		{"estimate_from_runtime", "1 0 1 0 1 -1 1 1 -1 1 1 1 1 1 1 1 -1 -1", noted, "1 0 1 0 1 -1 1 1 -1 1 1 1 1 1 1 1 -1 -1"},
		{"clamp_too_big", "1 0 1 50 100 -1 1 128 60 1 1 1 1 1 1 1 -1 -1", changed, "1 0 1 50 64 -1 1 64 60 1 1 1 1 1 1 1 -1 -1"},
		{"clamp_too_big", "1 0 1 50 64 -1 1 64 60 1 1 1 1 1 1 1 -1 -1", kept, "1 0 1 50 64 -1 1 64 60 1 1 1 1 1 1 1 -1 -1"},
		{"cancelled_unstarted", "1 0 -1 0 -1 -1 -1 -1 -1 -1 5 1 1 1 1 1 -1 -1", dropped, ""},
		{"cancelled_unstarted", "1 0 -1 -1 -1 -1 -1 -1 -1 -1 5 1 1 1 1 1 -1 -1", dropped, ""},
		{"cancelled_unstarted", "1 0 5 30 4 -1 -1 4 -1 -1 5 1 1 1 1 1 -1 -1", kept, "1 0 5 30 4 -1 -1 4 -1 -1 5 1 1 1 1 1 -1 -1"},
		{"no_procs", "1 0 5 30 -1 -1 -1 0 -1 -1 1 1 1 1 1 1 -1 -1", dropped, ""},
		{"no_procs", "1 0 5 30 -1 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1", kept, "1 0 5 30 -1 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1"},
		{"too_big", "1 0 5 30 65 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1", dropped, ""},
		{"too_big", "1 0 5 30 4 -1 -1 65 -1 -1 1 1 1 1 1 1 -1 -1", dropped, ""},
		{"too_big", "1 0 5 30 64 -1 -1 64 -1 -1 1 1 1 1 1 1 -1 -1", kept, "1 0 5 30 64 -1 -1 64 -1 -1 1 1 1 1 1 1 -1 -1"},
		{"unknown_runtime", "1 0 5 -1 64 -1 -1 64 -1 -1 1 1 1 1 1 1 -1 -1", dropped, ""},
		{"unknown_runtime", "1 0 5 0 64 -1 -1 64 -1 -1 1 1 1 1 1 1 -1 -1", kept, "1 0 5 0 64 -1 -1 64 -1 -1 1 1 1 1 1 1 -1 -1"},
	}
	for _, tt := range tests {
		t.Run(tt.rule+"/"+tt.in, func(t *testing.T) {
			c, err := New(hdr, Config{Rules: []string{tt.rule}})
			if err != nil {
				t.Fatal(err)
			}
			j := job(t, tt.in)
			v := c.steps[0].job(&j)
			if v != tt.want {
				t.Fatalf("verdict %d, want %d", v, tt.want)
			}
			if v != dropped && canonical(&j) != tt.out {
				t.Errorf("got  %s\nwant %s", canonical(&j), tt.out)
			}
			if (v == kept || v == noted) && j.Changed() {
				t.Errorf("verdict %d but the record changed", v)
			}
		})
	}
}

// TestEstimateLeavesZeroRunUnknown: after the defaults (zero_to_unknown wrote
// field 9's 0 as -1), estimate_from_runtime must not write it back as the run
// time 0, the anomaly run_req_zero; the records it left are counted in its
// Note and report.
func TestEstimateLeavesZeroRunUnknown(t *testing.T) {
	hdr, jobs := readAll(t, "1 0 1 0 1 -1 -1 1 0 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"2 5 1 30 1 -1 -1 1 0 -1 1 1 1 -1 1 -1 -1 -1\n")
	c, _, notes := annotated(t, hdr, jobs, Config{Rules: []string{"zero_to_unknown", "estimate_from_runtime"}}, "estimate_from_runtime")
	if jobs[0].RequestedTime != -1 || jobs[1].RequestedTime != 30 {
		t.Errorf("requested times %d, %d, want -1, 30", jobs[0].RequestedTime, jobs[1].RequestedTime)
	}
	want := []string{"rule estimate_from_runtime: 1 job changed; 1 job with run time 0 left with requested time unknown"}
	if !reflect.DeepEqual(notes, want) {
		t.Errorf("notes %q, want %q", notes, want)
	}
	ck := NewChecker(nil)
	for i := range jobs {
		ck.Check(&jobs[i])
	}
	for _, f := range ck.Result().Fired {
		if f.Name == "run_req_zero" {
			t.Errorf("output has run_req_zero on lines %v", f.Lines)
		}
	}
	if d := c.Report(0).Steps[1].Detail; d != "1 job with run time 0 left with requested time unknown" {
		t.Errorf("report detail %q", d)
	}
}

func TestSelectRules(t *testing.T) {
	tests := []struct {
		spec string
		skip []string
		want []string
		err  string
	}{
		{"default", nil, DefaultRules(), ""},
		{"none", nil, nil, ""},
		{"default,sort_submit", []string{"too_big"}, []string{"zero_to_unknown", "negative_to_unknown",
			"cancelled_unstarted", "no_procs", "unknown_runtime", "unknown_submit", "sort_submit"}, ""},
		{"renumber,zero_to_unknown", nil, []string{"zero_to_unknown", "renumber"}, ""},
		{"all", []string{"flurries,anonymize"}, nil, ""},
		{"bogus", nil, nil, `unknown rule "bogus"`},
		{"default", []string{"bogus"}, nil, `unknown rule "bogus" in --skip`},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := SelectRules(tt.spec, tt.skip)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.spec == "all" {
				if len(got) != len(Rules)-2 {
					t.Fatalf("all minus 2 = %v", got)
				}
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDefaultSetIsDocumented(t *testing.T) {
	want := []string{"zero_to_unknown", "negative_to_unknown", "cancelled_unstarted", "no_procs", "too_big", "unknown_runtime", "unknown_submit"}
	if got := DefaultRules(); !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultRules() = %v, want %v (update docs/swfclean.md too)", got, want)
	}
}

const mixed = `; MaxJobs: 6
; MaxRecords: 6
; MaxProcs: 64
; UnixStartTime: 1000
;
1 100 0 50 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1
2 105 -1 0 -1 -1 -1 -1 -1 -1 5 2 1 -1 1 -1 -1 -1
; a comment before job 3
3 110 0 50 128 -1 -1 128 100 -1 1 1 1 -1 1 -1 -1 -1
4 120 0 -1 4 -1 -1 4 100 -1 0 3 1 -1 1 -1 -1 -1
5 130 0 50 0 -1 -1 4 100 -1 1 2 1 -1 1 -1 4 10
6 125 0 50 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1
`

func TestCleanerAccounting(t *testing.T) {
	for _, rules := range [][]string{DefaultRules(), {"zero_to_unknown", "sort_submit", "shift_time", "renumber"}} {
		for _, whole := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/whole=%v", rules, whole), func(t *testing.T) {
				hdr, jobs := readAll(t, mixed)
				f, _ := ParseFilter("user=3")
				c, err := New(hdr, Config{Rules: rules, Drop: []*Filter{f}})
				if err != nil {
					t.Fatal(err)
				}
				var out []swf.Job
				if whole || c.WholeTrace() {
					out = c.ApplyAll(jobs)
				} else {
					for i := range jobs {
						if c.Apply(&jobs[i]) {
							out = append(out, jobs[i])
						}
					}
				}
				rep := c.Report(2)
				sum := rep.Malformed
				for _, s := range rep.Steps {
					sum += s.Dropped
				}
				if rep.RecordsRead != 8 || rep.RecordsRead != rep.Written+rep.Dropped || sum != rep.Dropped || rep.Written != len(out) {
					t.Fatalf("accounting %+v with %d written records", rep, len(out))
				}
			})
		}
	}
}

func TestCleanerDefaultOnMixed(t *testing.T) {
	hdr, jobs := readAll(t, mixed)
	c, err := New(hdr, Config{Rules: DefaultRules()})
	if err != nil {
		t.Fatal(err)
	}
	out := c.ApplyAll(jobs)
	var numbers []int64
	for _, j := range out {
		numbers = append(numbers, j.JobNumber)
	}
	if !reflect.DeepEqual(numbers, []int64{1, 5, 6}) {
		t.Fatalf("kept %v, want [1 5 6]", numbers)
	}
	// Job 3's comment line survives its record.
	if !reflect.DeepEqual(out[1].Comments, []string{"; a comment before job 3"}) {
		t.Errorf("comments moved to job 5: %q", out[1].Comments)
	}
	want := map[string]Tally{"zero_to_unknown": {Changed: 1}, "cancelled_unstarted": {Dropped: 1},
		"too_big": {Dropped: 1}, "unknown_runtime": {Dropped: 1}}
	for _, s := range c.Report(0).Steps {
		if s.Tally != want[s.Name] {
			t.Errorf("%s: %+v, want %+v", s.Name, s.Tally, want[s.Name])
		}
	}
	c.Annotate(hdr, c.Report(0))
	var buf bytes.Buffer
	w := swf.NewWriter(&buf)
	w.WriteHeader(hdr)
	w.Flush()
	for _, line := range []string{"; MaxJobs: 3", "; MaxRecords: 3", "; Note: swfclean rule too_big: 1 job removed",
		"; Note: cleaned by swfclean: 6 records read, 3 written, 3 dropped (0 malformed)"} {
		if !strings.Contains(buf.String(), line+"\n") {
			t.Errorf("header lacks %q:\n%s", line, buf.String())
		}
	}
}

// TestSortUnknownSubmitLast: sort_submit puts unknown submit times after the
// known ones, in file order, so renumber does not give them the first numbers.
func TestSortUnknownSubmitLast(t *testing.T) {
	_, jobs := readAll(t, "1 50 1 1 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"2 -1 1 1 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"3 10 1 1 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"4 -1 1 1 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"5 20 1 1 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n")
	c, err := New(nil, Config{Rules: []string{"sort_submit", "renumber"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range c.ApplyAll(jobs) {
		got = append(got, fmt.Sprintf("%d@%d", j.JobNumber, j.SubmitTime))
	}
	want := []string{"1@10", "2@20", "3@50", "4@-1", "5@-1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	// Out of order: 10 after 50 only; an unknown after a known is in place.
	if n := c.Report(0).Steps[0].Changed; n != 2 {
		t.Errorf("sort_submit changed %d, want 2 (job 3 after -1... job 5 after -1)", n)
	}
}

// TestDefaultsDropUnknownSubmit: a submit time of -7 becomes -1
// (negative_to_unknown covers field 2) and the defaults drop the record, as
// swfsim would skip it.
func TestDefaultsDropUnknownSubmit(t *testing.T) {
	hdr, jobs := readAll(t, "1 -7 1 1 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"2 5 1 1 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n")
	_, _, notes := annotated(t, hdr, jobs, Config{Rules: DefaultRules()}, "rule ")
	if jobs[0].SubmitTime != -1 {
		t.Errorf("submit time %d, want -1", jobs[0].SubmitTime)
	}
	want := "rule unknown_submit: 1 job removed"
	if !slicesContains(notes, want) {
		t.Errorf("notes %q lack %q", notes, want)
	}
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestSortShiftRenumber(t *testing.T) {
	hdr, jobs := readAll(t, mixed)
	c, err := New(hdr, Config{Rules: []string{"sort_submit", "shift_time", "renumber"}})
	if err != nil {
		t.Fatal(err)
	}
	out := c.ApplyAll(jobs)
	var got []string
	for _, j := range out {
		got = append(got, fmt.Sprintf("%d@%d prev=%d", j.JobNumber, j.SubmitTime, j.PrecedingJob))
	}
	want := []string{"1@0 prev=-1", "2@5 prev=-1", "3@10 prev=-1", "4@20 prev=-1", "5@25 prev=-1", "6@30 prev=4"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	c.Annotate(hdr, c.Report(0))
	if v, _, _ := hdr.UnixStartTime(); v != 1100 {
		t.Errorf("UnixStartTime = %d, want 1100", v)
	}
}

// shift_time adds the shift to UnixStartTime: one near int64's end used to
// wrap to a large negative time, and a malformed one stayed unshifted, both
// silently; New now refuses them.
func TestShiftTimeUnixStartTimeBounds(t *testing.T) {
	for _, tt := range []struct{ label, err string }{
		{"; UnixStartTime: 9223372036854775807", "too large to shift"},
		{"; UnixStartTime: 12abc", "UnixStartTime"},
	} {
		hdr, _ := readAll(t, tt.label+"\n1 50 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n")
		if _, err := New(hdr, Config{Rules: []string{"shift_time"}}); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: New error %v, want one saying %q", tt.label, err, tt.err)
		}
	}
	hdr, _ := readAll(t, "; UnixStartTime: 9223372036854775807\n1 50 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n")
	if _, err := New(hdr, Config{Rules: DefaultRules()}); err != nil {
		t.Errorf("without shift_time the header's UnixStartTime is not read: %v", err)
	}
}

func TestMergePartial(t *testing.T) {
	const text = `; Preemption: Yes
1 0 5 100 4 90 -1 4 500 -1 2 1 1 -1 -1 -1 -1 -1
2 10 0 50 4 -1 -1 4 500 -1 1 1 1 -1 -1 -1 -1 -1
1 0 200 30 8 20 -1 4 500 -1 3 1 1 -1 -1 -1 -1 -1
3 20 0 10 4 -1 -1 4 500 -1 1 1 1 -1 -1 -1 -1 -1
3 20 0 6 4 -1 -1 4 500 -1 2 1 1 -1 -1 -1 -1 -1
3 20 9 4 4 -1 -1 4 500 -1 4 1 1 -1 -1 -1 -1 -1
4 30 0 10 4 -1 -1 4 500 -1 2 1 1 -1 -1 -1 -1 -1
`
	hdr, jobs := readAll(t, text)
	c, err := New(hdr, Config{Rules: []string{"merge_partial"}})
	if err != nil {
		t.Fatal(err)
	}
	out := c.ApplyAll(jobs)
	var got []string
	for i := range out {
		got = append(got, canonical(&out[i]))
	}
	want := []string{
		"1 0 5 130 8 65 -1 4 500 -1 1 1 1 -1 -1 -1 -1 -1", // run times summed, CPU (4x90 + 8x20)/8, status 3 -> 1
		"2 10 0 50 4 -1 -1 4 500 -1 1 1 1 -1 -1 -1 -1 -1",
		"3 20 0 10 4 -1 -1 4 500 -1 1 1 1 -1 -1 -1 -1 -1",  // summary line kept, parts dropped
		"4 30 0 10 4 -1 -1 4 500 -1 -1 1 1 -1 -1 -1 -1 -1", // no final part: status unknown
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := c.Report(0).Steps[0]; s.Dropped != 3 || s.Changed != 2 {
		t.Errorf("tally %+v, want 3 dropped, 2 changed", s.Tally)
	}
}

// TestMergePartialCPUTime: field 6 of a merged job is its total CPU time
// (each part's average times its processors) over the merged processor count
// (the largest field 5); a part whose CPU time or processors are unknown adds
// nothing, and no known part leaves -1. Values worked out by hand.
func TestMergePartialCPUTime(t *testing.T) {
	part := func(procs, cpu string, status int) string {
		return fmt.Sprintf("1 0 0 100 %s %s -1 8 500 -1 %d 1 1 -1 -1 -1 -1 -1\n", procs, cpu, status)
	}
	tests := []struct {
		name  string
		parts string
		want  string // fields 5 and 6 of the merged job
	}{
		{"4x50 then 8x60", part("4", "50", 2) + part("8", "60", 3), "8 85"},                          // (200 + 480) / 8
		{"8x60 then 4x50", part("8", "60", 2) + part("4", "50", 3), "8 85"},                          // order does not matter
		{"same processors", part("4", "50", 2) + part("4", "60", 3), "4 110"},                        // (200 + 240) / 4: the old sum
		{"unknown CPU time", part("4", "50", 2) + part("8", "-1", 2) + part("2", "30", 3), "8 32.5"}, // (200 + 60) / 8
		{"unknown CPU time first", part("8", "-1", 2) + part("4", "50", 3), "8 25"},                  // 200 / 8
		{"unknown processors", part("4", "50", 2) + part("-1", "70", 2) + part("8", "60", 3), "8 85"},
		{"no CPU time", part("4", "-1", 2) + part("8", "-1", 3), "8 -1"},
		{"no processors", part("-1", "50", 2) + part("-1", "60", 3), "-1 110"},            // no count to weigh by: one machine, summed
		{"fraction", part("4", "10.5", 2) + part("8", "1", 3), "8 6.25"},                  // (42 + 8) / 8
		{"lone final part", part("3", "0.1", 3), "3 0.1"},                                 // not 0.1 x 3 / 3 = 0.10000000000000002
		{"decimal sum", part("4", "0.004", 2) + part("4", "0.005", 3), "4 0.009"},         // not 0.009000000000000001
		{"decimal weighed", part("3", "100", 2) + part("1", "0.1", 3), "3 100.033333"},    // (300 + 0.1) / 3, to nine significant digits
		{"tiny weighed", part("1", "1", 2) + part("4096", "0", 3), "4096 0.000244140625"}, // 1 / 4096: not rounded to 0
		{"many places", part("2", "0.123456789", 2) + part("2", "1", 3), "2 1.123456789"}, // the parts' places kept
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hdr, jobs := readAll(t, "; Preemption: Yes\n"+tt.parts)
			c, err := New(hdr, Config{Rules: []string{"merge_partial"}})
			if err != nil {
				t.Fatal(err)
			}
			out := c.ApplyAll(jobs)
			if len(out) != 1 {
				t.Fatalf("%d records, want 1", len(out))
			}
			f := strings.Fields(canonical(&out[0]))
			if got := f[4] + " " + f[5]; got != tt.want {
				t.Errorf("fields 5, 6 = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestAnonymize(t *testing.T) {
	const text = `; MaxQueues: 3
; Queue: 0 interactive
; Queue: 7 batch
; Queue: 9 unused
;
1 0 5 100 4 -1 -1 4 500 -1 1 374 20 55 7 3 -1 -1
2 1 5 100 4 -1 -1 4 500 -1 1 12 21 -1 0 3 -1 -1
3 2 5 100 4 -1 -1 4 500 -1 1 374 21 55 7 8 -1 -1
`
	hdr, jobs := readAll(t, text)
	c, err := New(hdr, Config{Rules: []string{"anonymize"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range jobs {
		c.Apply(&jobs[i])
		got = append(got, canonical(&jobs[i]))
	}
	want := []string{
		"1 0 5 100 4 -1 -1 4 500 -1 1 1 1 1 1 1 -1 -1",
		"2 1 5 100 4 -1 -1 4 500 -1 1 2 2 -1 0 1 -1 -1",
		"3 2 5 100 4 -1 -1 4 500 -1 1 1 2 1 1 2 -1 -1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	c.Annotate(hdr, c.Report(0))
	if q := hdr.Queues(); len(q) != 3 || q[0].Number != 0 || q[1].Number != 1 || q[1].Name != "batch" || q[2].Number != 2 {
		t.Errorf("queues after anonymize: %+v", q)
	}
	m := c.AnonymizeMapping()
	if m[0] != (Mapping{"user", 374, 1}) || m[1] != (Mapping{"user", 12, 2}) {
		t.Errorf("mapping starts %v", m[:2])
	}
}

// TestAnonymizeFreeTextHeader: the header lines that describe queues or
// partitions in free text (Queues, Partitions, and Queue or Partition lines
// without a leading number, with their continuation lines) are dropped, with
// a Note, when anonymize renumbered a queue (partition): left, they gave the
// input's numbers next to records that no longer have them. When every
// number of the kind stays, they still agree with the records and are kept.
func TestAnonymizeFreeTextHeader(t *testing.T) {
	const (
		head = `; Version: 2.2
; MaxQueues: 3
; Queues: 0 is interactive, 5 is "prod_long" (jobs up to 24 h),
;         9 is "debug"
; Queue: 5 prod_long
; Queue: 9 debug
; Queue: express jobs under 1 h
; MaxPartitions: 1
; Partitions: 2 = bigmem
; Partition: 2 bigmem
; Note: kept
;
`
		queuesNote = "rule anonymize: dropped 3 header lines describing queues in free text (Queues, or Queue without a leading number): " +
			"the queue numbers in them are the input's, not those of the renumbered field 15; --set 'Queues=TEXT' describes the queues again"
		partitionsNote = "rule anonymize: dropped 1 header line describing partitions in free text (Partitions, or Partition without a leading number): " +
			"the partition numbers in them are the input's, not those of the renumbered field 16; --set 'Partitions=TEXT' describes the partitions again"
	)
	for _, tc := range []struct {
		name, text string
		input      []string // the input's header lines after Annotate
		notes      []string
	}{
		{"renumbered", head + "1 0 5 100 4 -1 -1 4 500 -1 1 3 3 3 9 2 -1 -1\n2 1 5 100 4 -1 -1 4 500 -1 1 3 3 3 5 2 -1 -1\n",
			[]string{"; Version: 2.2", "; MaxQueues: 3", "; Queue: 2 prod_long", "; Queue: 1 debug",
				"; MaxPartitions: 1", "; Partition: 1 bigmem", "; Note: kept", ";"},
			[]string{queuesNote, partitionsNote}},
		// Queues 5 -> 1 and 9 -> 2 (a Queue line no record used takes the
		// next number); partition 1 stays 1, and the Partition line's 2 is
		// not a number a record has: it is renumbered 2 -> 2.
		{"partitions unchanged", head + "1 0 5 100 4 -1 -1 4 500 -1 1 3 3 3 5 1 -1 -1\n",
			[]string{"; Version: 2.2", "; MaxQueues: 3", "; Queue: 1 prod_long", "; Queue: 2 debug",
				"; MaxPartitions: 1", "; Partitions: 2 = bigmem", "; Partition: 2 bigmem", "; Note: kept", ";"},
			[]string{queuesNote}},
		// A Queue line without a value that lists the queues in its
		// continuation lines does not start with a number either.
		{"empty Queue line", "; MaxQueues: 2\n; Queue:\n;    5 = prod_long (up to 48 h)\n;    7 = debug\n;\n" +
			"1 0 5 100 4 -1 -1 4 500 -1 1 3 3 3 7 -1 -1 -1\n2 1 5 100 4 -1 -1 4 500 -1 1 3 3 3 5 -1 -1 -1\n",
			[]string{"; MaxQueues: 2", ";"},
			[]string{queuesNote}},
		{"numbers unchanged", "; Queues: 1 = short,\n;         2 = long\n; Queue: 1 short\n; Queue: 2 long\n; Partitions: one\n" +
			"1 0 5 100 4 -1 -1 4 500 -1 1 3 3 3 1 1 -1 -1\n2 0 5 100 4 -1 -1 4 500 -1 1 3 3 3 2 1 -1 -1\n",
			[]string{"; Queues: 1 = short,", ";         2 = long", "; Queue: 1 short", "; Queue: 2 long", "; Partitions: one"},
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr, jobs := readAll(t, tc.text)
			_, input, notes := annotated(t, hdr, jobs, Config{Rules: []string{"anonymize"}}, "free text")
			if !reflect.DeepEqual(input, tc.input) || !reflect.DeepEqual(notes, tc.notes) {
				t.Errorf("input lines\n%s\nwant\n%s\nnotes\n%s\nwant\n%s", strings.Join(input, "\n"), strings.Join(tc.input, "\n"),
					strings.Join(notes, "\n"), strings.Join(tc.notes, "\n"))
			}
		})
	}
}

// flurryTrace has steady background work by users 1..5 and a burst by user 9.
func flurryTrace(background, burst int) string {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	n := 0
	for i := 0; i < background; i++ {
		n++
		fmt.Fprintf(&b, "%d %d 0 10 1 -1 -1 1 -1 -1 1 %d 1 -1 -1 -1 -1 -1\n", n, i*600, 1+i%5)
		if i == background/2 {
			for k := 0; k < burst; k++ {
				n++
				fmt.Fprintf(&b, "%d %d 0 10 1 -1 -1 1 -1 -1 1 9 1 -1 -1 -1 -1 -1\n", n, i*600+k)
			}
		}
	}
	return b.String()
}

func TestFlurries(t *testing.T) {
	hdr, jobs := readAll(t, flurryTrace(1000, 300))
	d := NewFlurryDetector(FlurryConfig{})
	for i := range jobs {
		d.Add(&jobs[i])
	}
	fl := d.Flurries()
	if len(fl) != 1 {
		t.Fatalf("found %d flurries, want 1: %+v", len(fl), fl)
	}
	f := fl[0]
	if f.User != 9 || f.Jobs != 300 || f.FirstJob != 502 || f.LastJob != 801 || f.Filter() != "user=9 and job>=502 and job<=801" {
		t.Errorf("flurry %+v (%s)", f, f.Filter())
	}
	c, err := New(hdr, Config{Rules: []string{"flurries"}})
	if err != nil {
		t.Fatal(err)
	}
	out := c.ApplyAll(jobs)
	if len(out) != 1000 {
		t.Errorf("kept %d records, want 1000", len(out))
	}
	// With the flurries of a first pass, the rule streams and removes the same jobs.
	hdr, jobs = readAll(t, flurryTrace(1000, 300))
	c, err = New(hdr, Config{Rules: []string{"flurries"}, Flurries: &fl})
	if err != nil || c.WholeTrace() {
		t.Fatalf("precomputed flurries: err %v, whole trace %v", err, c.WholeTrace())
	}
	kept := 0
	for i := range jobs {
		if c.Apply(&jobs[i]) {
			kept++
		}
	}
	if kept != 1000 {
		t.Errorf("streaming kept %d records, want 1000", kept)
	}
	// A burst below the thresholds is not a flurry.
	_, jobs = readAll(t, flurryTrace(1000, 100))
	d = NewFlurryDetector(FlurryConfig{})
	for i := range jobs {
		d.Add(&jobs[i])
	}
	if fl := d.Flurries(); len(fl) != 0 {
		t.Errorf("100-job burst flagged: %+v", fl)
	}
}

func TestMachineRuleWithoutSize(t *testing.T) {
	hdr, jobs := readAll(t, "1 0 5 100 400 -1 -1 4 500 -1 1 1 1 -1 -1 -1 -1 -1\n")
	c, err := New(hdr, Config{Rules: []string{"too_big"}})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Apply(&jobs[0]) {
		t.Error("too_big dropped a job without a machine size")
	}
	if rep := c.Report(0); len(rep.Warnings) != 1 {
		t.Errorf("warnings %v, want one", rep.Warnings)
	}
	c, _ = New(hdr, Config{Rules: []string{"too_big"}, Machine: 100})
	if c.Apply(&jobs[0]) {
		t.Error("too_big with --procs 100 kept a 400-processor job")
	}
	_, err = New(header(t, "; MaxProcs: lots"), Config{Rules: []string{"too_big"}})
	if err == nil {
		t.Error("malformed MaxProcs accepted by too_big")
	}
}

// TestMachineRuleNotAppliedNote: too_big and clamp_too_big without a machine
// size look at no record; the output's Note and the report's step say they
// were not applied and why, not "no jobs affected", which reads as a rule that
// checked every job against the machine and found none too big.
func TestMachineRuleNotAppliedNote(t *testing.T) {
	for _, tc := range []struct{ header, why string }{
		{"; Version: 2.2\n", "not applied: the header has no MaxProcs or MaxNodes (give --procs)"},
		{"; MaxProcs: -5\n", "not applied: the header's MaxProcs -5 is not a machine size (give --procs)"},
	} {
		hdr, jobs := readAll(t, tc.header+"1 0 5 100 400 -1 -1 4 500 -1 1 1 1 -1 -1 -1 -1 -1\n")
		_, _, notes := annotated(t, hdr, jobs, Config{Rules: []string{"clamp_too_big", "too_big"}}, "too_big")
		want := []string{"rule clamp_too_big: " + tc.why, "rule too_big: " + tc.why}
		if !reflect.DeepEqual(notes, want) {
			t.Errorf("%q: notes %q, want %q", tc.header, notes, want)
		}
		c, _ := New(hdr, Config{Rules: []string{"too_big"}})
		for _, s := range c.Report(0).Steps {
			if s.Name == "too_big" && "not applied: "+s.NotApplied != tc.why {
				t.Errorf("%q: report step %+v, want not_applied %q", tc.header, s, tc.why)
			}
		}
	}
	// With a machine size the rule ran: its Note gives its counts.
	hdr, jobs := readAll(t, "; MaxProcs: 500\n1 0 5 100 400 -1 -1 4 500 -1 1 1 1 -1 -1 -1 -1 -1\n")
	if _, _, notes := annotated(t, hdr, jobs, Config{Rules: []string{"too_big"}}, "too_big"); !reflect.DeepEqual(notes, []string{"rule too_big: no jobs affected"}) {
		t.Errorf("with MaxProcs 500: notes %q", notes)
	}
}

// TestFlurryAcrossWindowBoundary: a burst cut in two by a window boundary of
// the first grid, each half below MinJobs, is found by the shifted grid.
func TestFlurryAcrossWindowBoundary(t *testing.T) {
	var b strings.Builder
	n := 0
	add := func(submit, user int) {
		n++
		fmt.Fprintf(&b, "%d %d 0 10 1 -1 -1 1 -1 -1 1 %d 1 -1 -1 -1 -1 -1\n", n, submit, user)
	}
	for i := 0; i < 3*144; i++ { // three days of background, one job per 10 minutes
		add(i*600, 1+i%5)
		if i == 143 { // just before the end of the first day
			for k := -150; k < 150; k++ {
				add(86400+k, 9)
			}
		}
	}
	_, jobs := readAll(t, b.String())
	d := NewFlurryDetector(FlurryConfig{})
	for i := range jobs {
		d.Add(&jobs[i])
	}
	fl := d.Flurries()
	if len(fl) != 1 || fl[0].User != 9 || fl[0].Jobs != 300 {
		t.Fatalf("flurries %+v, want user 9 with 300 jobs", fl)
	}
	if fl[0].Share() < 0.5 {
		t.Errorf("share %.2f over the merged windows", fl[0].Share())
	}
}

// A window so long that a window's end passes int64 (--flurry-window
// 9223372036854775807) holds the whole trace: the end used to wrap to a
// negative time, and the flurry came out with 0 jobs, a NaN share and the job
// range max..min.
func TestFlurryHugeWindow(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		user := 9
		if i%3 == 0 {
			user = 1
		}
		fmt.Fprintf(&b, "%d %d 0 10 1 -1 -1 1 -1 -1 1 %d 1 -1 -1 -1 -1 -1\n", i, 1000+i, user)
	}
	_, jobs := readAll(t, b.String())
	for _, w := range []int64{1<<63 - 1, 1<<63 - 2, 1 << 62, 1 << 40} {
		d := NewFlurryDetector(FlurryConfig{Window: w, MinJobs: 100})
		for i := range jobs {
			d.Add(&jobs[i])
		}
		fl := d.Flurries()
		if len(fl) != 1 || fl[0].User != 9 || fl[0].Jobs != 200 || fl[0].Total != 300 || fl[0].FirstJob != 1 || fl[0].LastJob != 299 {
			t.Errorf("window %d: flurries %+v, want user 9 with 200 of 300 jobs, jobs 1..299", w, fl)
		}
	}
}

// renumber drops a reference to a job not written before, and with it the
// think time measured from that job's end; a kept reference keeps its think
// time.
func TestRenumberDropsThinkTimeWithItsJob(t *testing.T) {
	hdr, jobs := readAll(t, `1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1
2 5 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 9 30
3 9 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 1 40
`)
	c, err := New(hdr, Config{Rules: []string{"renumber"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range c.ApplyAll(jobs) {
		got = append(got, fmt.Sprintf("%d prev=%d think=%d", j.JobNumber, j.PrecedingJob, j.ThinkTime))
	}
	want := []string{"1 prev=-1 think=-1", "2 prev=-1 think=-1", "3 prev=1 think=40"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

// TestShiftTimeStartTime: shift_time moves StartTime with UnixStartTime when
// it names that instant in the log's zone (as the archive's logs do), in its
// own layout, and otherwise leaves it with a Note saying why.
func TestShiftTimeStartTime(t *testing.T) {
	const job = "1 7200 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
	for _, tc := range []struct {
		header, start, note string
	}{
		// HPC2N's header; 7200 s later is 11:04:05 CEST.
		{"; UnixStartTime: 1027839845\n; TimeZoneString: Europe/Stockholm\n; StartTime: Sun Jul 28 09:04:05 CEST 2002\n",
			"Sun Jul 28 11:04:05 CEST 2002", "StartTime moved with UnixStartTime (input header: Sun Jul 28 09:04:05 CEST 2002)"},
		// LANL's zero-padded day, across midnight.
		{"; UnixStartTime: 781333272\n; TimeZone: -25200\n; TimeZoneString: US/Mountain\n; StartTime: Tue Oct 04 23:01:12 MDT 1994\n",
			"Wed Oct 05 01:01:12 MDT 1994", "StartTime moved"},
		// The deprecated offset alone is a zone without the abbreviations
		// date(1) writes: the instant cannot be told.
		{"; UnixStartTime: 781333272\n; TimeZone: -21600\n; StartTime: Tue Oct 04 23:01:12 MDT 1994\n",
			"Tue Oct 04 23:01:12 MDT 1994", "its zone is not the one the log's (UTC-6) uses at that date"},
		// A blank-padded day stays blank-padded; no zone label: UTC.
		{"; UnixStartTime: 1000000000\n; StartTime: Sun Sep  9 01:46:40 UTC 2001\n",
			"Sun Sep  9 03:46:40 UTC 2001", "StartTime moved"},
		{"; UnixStartTime: 1000000000\n; StartTime: Sun Sep  9 01:00:00 UTC 2001\n",
			"Sun Sep  9 01:00:00 UTC 2001", "StartTime left as in the input (Sun Sep  9 01:00:00 UTC 2001): it is not UnixStartTime's instant (1000000000)"},
		{"; UnixStartTime: 1000000000\n; TimeZoneString: Europe/Stockholm\n; StartTime: Sun Sep  9 01:46:40 UTC 2001\n",
			"Sun Sep  9 01:46:40 UTC 2001", "its zone is not the one the log's (Europe/Stockholm) uses at that date"},
		{"; UnixStartTime: 1000000000\n; StartTime: the ninth of September\n",
			"the ninth of September", "it is not a date as date(1) writes it"},
		{"; UnixStartTime: 1000000000\n; TimeZone: abc\n; StartTime: Sun Sep  9 01:46:40 UTC 2001\n",
			"Sun Sep  9 01:46:40 UTC 2001", "the log's time zone is unknown"},
		// Without UnixStartTime nothing says StartTime is time 0 of the
		// submit times, which moved: left, but not in silence.
		{"; TimeZoneString: UTC\n; StartTime: Sun Sep  9 01:46:40 UTC 2001\n",
			"Sun Sep  9 01:46:40 UTC 2001", "StartTime left as in the input (Sun Sep  9 01:46:40 UTC 2001): the header has no UnixStartTime to tell whether it names time 0 of the submit times, which moved 7200 s later"},
	} {
		hdr, jobs := readAll(t, tc.header+job)
		c, err := New(hdr, Config{Rules: []string{"shift_time"}})
		if err != nil {
			t.Fatal(err)
		}
		c.ApplyAll(jobs)
		c.Annotate(hdr, c.Report(0))
		if v, _ := hdr.Get("StartTime"); v != tc.start {
			t.Errorf("%q: StartTime %q, want %q", tc.header, v, tc.start)
		}
		var notes string
		for _, l := range hdr.Lines {
			notes += l.Raw + "\n"
		}
		if !strings.Contains(notes, tc.note) {
			t.Errorf("%q: Notes\n%s\nwant one with %q", tc.header, notes, tc.note)
		}
	}
}

// TestNoDropAfterRenumber: renumber's detail counts the references it cut
// on every record it sees, taking them all for written; a rule after it
// in the registry that drops records would make that count include
// records not written. The rules after it are listed here, each one that
// never drops a record: adding one means checking that.
func TestNoDropAfterRenumber(t *testing.T) {
	var after []string
	for i, r := range Rules {
		if r.Name == "renumber" {
			for _, later := range Rules[i+1:] {
				after = append(after, later.Name)
			}
		}
	}
	if !reflect.DeepEqual(after, []string{"anonymize"}) {
		t.Errorf("rules after renumber %q: check that none drops a record (renumber's detail), then list them here", after)
	}
}
