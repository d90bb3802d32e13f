package clean

import (
	"reflect"
	"testing"
)

// TestChangedCountsOnlyRecordsWritten: a record a rule changes (or notes,
// for its detail) and a later rule drops counts only as that drop, so that
// the Notes and the report describe the output. LLNL-Atlas with
// estimate_from_runtime said "2881 jobs with run time 0 left with requested
// time unknown" where 1958 of them were then dropped by
// cancelled_unstarted. Streamed (Apply) and held whole (ApplyAll, here for
// sort_submit, which moves the records and their marks) alike.
func TestChangedCountsOnlyRecordsWritten(t *testing.T) {
	const text = "; MaxProcs: 64\n" +
		// changed by estimate_from_runtime (and zero_to_unknown), kept
		"1 20 1 50 4 -1 -1 4 0 -1 1 1 1 -1 1 -1 -1 -1\n" +
		// noted by estimate_from_runtime (run time 0), kept
		"2 10 1 0 4 -1 -1 4 -1 -1 1 1 1 -1 1 -1 -1 -1\n" +
		// noted (run time 0), changed by zero_to_unknown, then dropped by
		// cancelled_unstarted
		"3 30 1 0 4 -1 -1 4 0 -1 5 1 1 -1 1 -1 -1 -1\n" +
		// changed by estimate_from_runtime and clamp_too_big, then dropped
		// by unknown_submit
		"4 -1 1 50 128 -1 -1 128 -1 -1 1 1 1 -1 1 -1 -1 -1\n" +
		// changed by clamp_too_big, kept
		"5 5 1 50 128 -1 -1 128 100 -1 1 1 1 -1 1 -1 -1 -1\n"
	type counts struct{ Dropped, Changed int }
	base := []string{"zero_to_unknown", "estimate_from_runtime", "clamp_too_big", "cancelled_unstarted", "unknown_submit"}
	want := map[string]counts{
		"zero_to_unknown":       {0, 1},
		"estimate_from_runtime": {0, 1},
		"clamp_too_big":         {0, 1},
		"cancelled_unstarted":   {1, 0},
		"unknown_submit":        {1, 0},
	}
	for _, whole := range []bool{false, true} {
		rules := base
		if whole {
			rules = append(rules, "sort_submit")
		}
		hdr, jobs := readAll(t, text)
		c, err := New(hdr, Config{Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		if c.WholeTrace() != whole {
			t.Fatalf("WholeTrace %v", c.WholeTrace())
		}
		var written []int64
		if whole {
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
		wantWritten := []int64{1, 2, 5}
		if whole {
			wantWritten = []int64{5, 2, 1}
		}
		if !reflect.DeepEqual(written, wantWritten) {
			t.Fatalf("whole %v: wrote jobs %v, want %v", whole, written, wantWritten)
		}
		got := map[string]counts{}
		detail := ""
		for _, s := range c.Report(0).Steps {
			got[s.Name] = counts{s.Dropped, s.Changed}
			if s.Name == "estimate_from_runtime" {
				detail = s.Detail
			}
		}
		w := want
		if whole {
			w = map[string]counts{"sort_submit": {0, 2}}
			for k, v := range want {
				w[k] = v
			}
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("whole %v: counts %v, want %v", whole, got, w)
		}
		if want := "1 job with run time 0 left with requested time unknown"; detail != want {
			t.Errorf("whole %v: detail %q, want %q", whole, detail, want)
		}
	}
}
