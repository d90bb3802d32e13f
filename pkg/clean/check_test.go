package clean

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// header parses header lines.
func header(t testing.TB, lines ...string) *swf.Header {
	t.Helper()
	r := swf.NewReader(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	h, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func firedNames(res *CheckResult) []string {
	var names []string
	for _, f := range res.Fired {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return names
}

func TestCheckOneRecord(t *testing.T) {
	hdr := header(t, "; MaxProcs: 64", "; MaxRuntime: 10000", "; Preemption: No")
	tests := []struct {
		name, line string
		want       []string
	}{
		//                 job sub wait run procs cpu mem rproc rtime rmem st user grp app q part prev think
		{"clean", "1 0 10 100 4 50 1000 4 200 2000 1 1 1 1 1 1 -1 -1", nil},
		{"unknowns", "1 0 -1 -1 4 -1 -1 4 -1 -1 -1 1 1 1 1 1 -1 -1", []string{"end_undef", "start_undef"}},
		{"submit", "1 -1 10 100 4 50 -1 4 200 -1 1 1 1 1 1 1 -1 -1", []string{"submit_undef"}},
		{"zeros", "1 0 10 100 0 0 0 0 0 0 0 1 1 1 1 1 -1 -1",
			[]string{"cpu_zero", "mem_req_zero", "mem_zero", "proc_req_zero", "proc_zero", "proc_zero_fail", "run_req_zero"}},
		{"zero procs completed", "1 0 10 100 0 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1",
			[]string{"proc_zero", "proc_zero_success", "proc_none_completed"}},
		{"wait small", "1 0 -30 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1", []string{"wait_neg"}},
		{"wait big", "1 0 -61 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1", []string{"wait_neg", "wait_neg_big"}},
		{"wait huge", "1 0 -3901 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1", []string{"wait_neg", "wait_neg_big", "wait_neg_huge"}},
		{"run huge", "1 0 1 -5000 4 -1 -1 4 200 -1 0 1 1 1 1 1 -1 -1", []string{"run_neg", "run_neg_big", "run_neg_huge"}},
		{"too many", "1 0 1 10 65 -1 -1 100 200 -1 1 1 1 1 1 1 -1 -1", []string{"header_maxprocs", "proc_got_less", "proc_req_too_many", "proc_too_many"}},
		{"got more", "1 0 1 10 8 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1", []string{"proc_got_more"}},
		{"cpu within 1 s", "1 0 1 10 4 11.0 -1 4 200 -1 1 1 1 1 1 1 -1 -1", nil},
		{"cpu above run", "1 0 1 10 4 11.5 -1 4 200 -1 1 1 1 1 1 1 -1 -1", []string{"cpu_gt_run"}},
		{"ran over", "1 0 1 230 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1", []string{"run_got_more"}},
		{"ran far over", "1 0 1 261 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1", []string{"run_got_much_more", "run_got_more"}},
		{"memory", "1 0 1 10 4 -1 2000 4 200 1000 1 1 1 1 1 1 -1 -1", []string{"got_more_mem"}},
		{"zero run success", "1 0 1 0 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1", []string{"run_zero_success"}},
		{"over limit", "1 0 1 10001 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1", []string{"run_over_limit"}},
		{"no procs completed", "1 0 1 10 -1 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1", []string{"proc_none_completed"}},
		{"no procs cancelled", "1 0 -1 0 -1 -1 -1 -1 -1 -1 5 1 1 1 1 1 -1 -1", []string{"start_undef"}},
		{"status", "1 0 1 10 4 -1 -1 4 200 -1 7 1 1 1 1 1 -1 -1", []string{"status_unknown"}},
		{"partial", "1 0 1 10 4 -1 -1 4 200 -1 2 1 1 1 1 1 -1 -1", []string{"partial_no_preemption"}},
		{"job 0", "0 0 10 100 4 50 1000 4 200 2000 1 1 1 1 1 1 -1 -1", []string{"job_number_invalid"}},
		{"job negative", "-3 0 10 100 4 50 1000 4 200 2000 1 1 1 1 1 1 -1 -1", []string{"job_number_invalid"}},
		{"preceding earlier", "5 0 10 100 4 50 1000 4 200 2000 1 1 1 1 1 1 4 10", nil},
		{"preceding itself", "5 0 10 100 4 50 1000 4 200 2000 1 1 1 1 1 1 5 10", []string{"preceding_invalid"}},
		{"preceding later", "5 0 10 100 4 50 1000 4 200 2000 1 1 1 1 1 1 6 10", []string{"preceding_invalid"}},
		{"preceding 0", "5 0 10 100 4 50 1000 4 200 2000 1 1 1 1 1 1 0 10", []string{"preceding_invalid"}},
		{"preceding -2", "5 0 10 100 4 50 1000 4 200 2000 1 1 1 1 1 1 -2 10", []string{"preceding_invalid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewChecker(hdr)
			j := job(t, tt.line)
			c.Check(&j)
			got := firedNames(c.Result())
			want := append([]string(nil), tt.want...)
			sort.Strings(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("fired %v, want %v", got, want)
			}
		})
	}
}

// TestCheckEveryAnomalyReachable makes sure each check in the table can fire,
// so a check that silently never fires is noticed.
func TestCheckEveryAnomalyReachable(t *testing.T) {
	hdr := header(t,
		"; MaxJobs: 99", "; MaxRecords: 99", "; MaxProcs: 64", "; MaxNodes: x",
		"; MaxRuntime: 10000", "; StartTime: Fri Aug 29 10:55:01 CEST 1997",
		"; EndTime: Mon Sep 23 14:00:31 CEST 1996", "; MaxProcs: 32", "; Note: a", "; Note: b")
	lines := []string{
		"1 10 -1 -1 0 0 0 0 0 0 1 1 1 1 1 1 -1 -1",
		"1 5 -4000 -5000 65 -1 2000 100 200 1000 7 1 1 1 1 1 -1 -1",
		"2 -1 1 20000 8 30000 -1 4 100 -1 2 1 1 1 1 1 -1 -1",
		"3 20 1 0 1 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1",
		"4 30 1 5 0 -1 -1 4 -1 -1 0 1 1 1 1 1 -1 -1",
		"0 40 1 5 1 -1 -1 1 -1 -1 1 1 1 1 1 1 7 -1",
	}
	c := NewChecker(hdr)
	for i, l := range lines {
		j := job(t, l)
		j.Line = i + 1
		c.Check(&j)
	}
	got := map[string]bool{}
	for _, f := range c.Result().Fired {
		got[f.Name] = true
	}
	for _, a := range Anomalies {
		if !got[a.Name] {
			t.Errorf("anomaly %s did not fire", a.Name)
		}
	}
}

// A label the format gives once, on a second line, fires header_label_twice
// at that line; Note, Queue and Partition may repeat, and other labels are
// not the format's to judge.
func TestCheckLabelTwice(t *testing.T) {
	hdr := header(t, "; MaxProcs: 8", "; Note: a", "; maxprocs: 2", "; Note: b", "; Copyright: x", "; Copyright: y", "; Queue: 1 a", "; Queue: 2 b")
	c := NewChecker(hdr)
	var fired *Fired
	for _, f := range c.Result().Fired {
		if f.Name == "header_label_twice" {
			fired = &f
		}
	}
	if fired == nil || fired.Count != 1 || len(fired.Lines) != 1 || fired.Lines[0] != 3 {
		t.Errorf("header_label_twice: %+v, want once, at line 3", fired)
	}
}

func TestCheckHeader(t *testing.T) {
	tests := []struct {
		name   string
		header []string
		lines  []string
		want   []string
	}{
		{"consistent", []string{"; MaxJobs: 2", "; MaxRecords: 2", "; MaxProcs: 8"},
			[]string{"1 0 1 1 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1", "2 1 1 1 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1"}, nil},
		{"cleaned log keeps the original MaxJobs", []string{"; MaxJobs: 9", "; MaxRecords: 2"},
			[]string{"5 0 1 1 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1", "9 1 1 1 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1"}, nil},
		{"truncated", []string{"; MaxJobs: 10", "; MaxRecords: 10"},
			[]string{"1 0 1 1 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1", "2 1 1 1 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1"},
			[]string{"header_maxjobs", "header_maxrecords"}},
		{"unsorted and duplicate", nil,
			[]string{"2 5 1 1 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1", "2 1 1 1 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1"},
			[]string{"job_duplicate", "submit_order"}},
		{"an unknown submit is not out of order", nil,
			[]string{"1 10 1 1 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1", "2 -1 1 1 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1",
				"3 20 1 1 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1"},
			[]string{"submit_undef"}},
		{"partial executions share a number", []string{"; Preemption: Yes"},
			[]string{"2 5 1 1 8 -1 -1 8 -1 -1 2 1 1 1 1 1 -1 -1", "2 5 9 1 8 -1 -1 8 -1 -1 3 1 1 1 1 1 -1 -1"}, nil},
		{"maxprocs", []string{"; MaxProcs: 4"},
			[]string{"1 0 1 1 2 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1"},
			[]string{"header_maxprocs", "proc_got_less", "proc_req_too_many"}},
		{"malformed", []string{"; MaxProcs: many", "; MaxJobs: 1"},
			[]string{"1 0 1 1 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1"}, []string{"header_malformed"}},
		// A malformed MaxProcs is no machine size: the largest job is not
		// compared with it (header_maxprocs).
		{"no machine size", []string{"; MaxProcs: 0"},
			[]string{"1 0 1 1 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1"}, []string{"header_malformed"}},
		{"a negative machine size", []string{"; MaxProcs: -8"},
			[]string{"1 0 1 1 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1"}, []string{"header_malformed"}},
		{"digit groups", []string{"; MaxProcs: 4 096"},
			[]string{"1 0 1 1 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1"}, []string{"header_malformed"}},
		{"a zone the database knows", []string{"; TimeZoneString: UTC"},
			[]string{"1 0 1 1 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1"}, nil},
		{"the reader's zone is none", []string{"; TimeZoneString: Local"},
			[]string{"1 0 1 1 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1"}, []string{"header_malformed"}},
		{"an offset", []string{"; TimeZone: -25200"},
			[]string{"1 0 1 1 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1"}, nil},
		{"an offset that is no integer", []string{"; TimeZone: abc"},
			[]string{"1 0 1 1 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1"}, []string{"header_malformed"}},
		{"an offset beyond a day", []string{"; TimeZone: 90000"},
			[]string{"1 0 1 1 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1"}, []string{"header_malformed"}},
		{"an unknown zone", []string{"; TimeZoneString: Mars/Olympus"},
			[]string{"1 0 1 1 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1 -1"}, []string{"header_malformed"}},
		{"dates in order", []string{"; StartTime: Sun Jul 28 09:04:05 CEST 2002", "; EndTime:   Mon Jan 16 20:31:24 CET 2006"}, nil, nil},
		{"dates reversed", []string{"; StartTime: Mon Jan 16 20:31:24 CET 2006", "; EndTime: Sun Jul 28 09:04:05 CEST 2002"}, nil,
			[]string{"header_time_order"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewChecker(header(t, tt.header...))
			for _, l := range tt.lines {
				j := job(t, l)
				c.Check(&j)
			}
			got := firedNames(c.Result())
			want := append([]string(nil), tt.want...)
			sort.Strings(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("fired %v, want %v", got, want)
			}
		})
	}
}

func TestCheckExampleLinesAndMissingLabels(t *testing.T) {
	c := NewChecker(header(t, "; Version: 2.2", "; Computer: x"))
	for i := 1; i <= 8; i++ {
		j := job(t, "1 0 -1 1 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1")
		j.Line = 10 * i
		c.Check(&j)
	}
	res := c.Result()
	var start *Fired
	for i := range res.Fired {
		if res.Fired[i].Name == "start_undef" {
			start = &res.Fired[i]
		}
	}
	if start == nil || start.Count != 8 || !reflect.DeepEqual(start.Lines, []int{10, 20, 30, 40, 50}) {
		t.Fatalf("start_undef = %+v, want count 8 and lines 10..50", start)
	}
	if res.Failing() != 1 { // job_duplicate; start_undef is info
		t.Errorf("Failing() = %d, want 1 (fired: %v)", res.Failing(), firedNames(res))
	}
	if len(res.MissingLabels) != len(CommonLabels)-2 || res.MissingLabels[0] != "Installation" {
		t.Errorf("MissingLabels = %v", res.MissingLabels)
	}
}

func TestJobSet(t *testing.T) {
	var s jobSet
	for _, n := range []int64{1, 63, 64, 1 << 20, -1, 1 << 40} {
		if !s.add(n) {
			t.Errorf("add(%d) first time = false", n)
		}
		if s.add(n) {
			t.Errorf("add(%d) second time = true", n)
		}
	}
}

// TestCheckHeaderValues: every header value --set refuses (CheckHeaderValue)
// is header_malformed at its line, and --submission counts a malformed
// required label as not ready; the archive's own values pass.
func TestCheckHeaderValues(t *testing.T) {
	hdr := header(t, "; Version: banana", "; Preemption: maybe", "; UnixStartTime: -99",
		"; TimeZoneString: Local", "; StartTime: garbage", "; EndTime: also garbage",
		"; MaxNodes: 0", "; MaxProcs: abc", "; MaxJobs: 1")
	res := NewChecker(hdr).Result()
	var got []string
	for _, m := range res.Malformed {
		got = append(got, fmt.Sprintf("%d %s", m.Line, m.Label))
	}
	want := []string{"1 Version", "2 Preemption", "3 UnixStartTime", "4 TimeZoneString", "5 StartTime", "6 EndTime", "7 MaxNodes", "8 MaxProcs"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("malformed %v\nwant      %v", got, want)
	}
	if len(res.Fired) == 0 || res.Fired[0].Name != "header_malformed" || res.Fired[0].Count != 8 {
		t.Errorf("fired %+v, want header_malformed 8 times", res.Fired)
	}
	sub := NewSubmissionChecker(hdr).Result()
	if sub.Ready() {
		t.Error("submission ready with malformed labels")
	}
	for _, label := range []string{"Version", "Preemption", "UnixStartTime", "TimeZoneString", "StartTime", "EndTime", "MaxNodes", "MaxProcs"} {
		if !slicesContains(sub.MissingLabels, label+" (malformed)") {
			t.Errorf("not ready list %q lacks %s", sub.MissingLabels, label)
		}
	}

	good := header(t, "; Version: 2.2", "; Preemption: Double", "; UnixStartTime: 843480031",
		"; TimeZoneString: Europe/Stockholm", "; StartTime: Mon Sep 23 14:00:31 CEST 1996",
		"; EndTime:   Fri Aug 29 10:55:01 CEST 1997", "; MaxNodes: 100", "; MaxProcs: 9216 (8 partitions)")
	if res := NewChecker(good).Result(); len(res.Malformed) != 0 {
		t.Errorf("good header flagged: %+v", res.Malformed)
	}
}

func TestCheckHeaderValueMessages(t *testing.T) {
	for _, tt := range []struct{ label, value, want string }{
		{"MaxProcs", "-5", "MaxProcs is the machine size, a whole number of at least 1, got -5"},
		{"MaxProcs", "0", "MaxProcs is the machine size, a whole number of at least 1, got 0"},
		{"maxjobs", "-1", "MaxJobs takes a whole number of at least 0, got -1"},
		{"Preemption", "maybe", `Preemption takes one of No, Yes, Double, TS, got "maybe"`},
		{"Preemption", "yes", ""},
		{"Version", "2", ""},
		{"Version", "banana", `Version takes the SWF version, a number such as 2.2 (2, 2.1, 2.2), got "banana"`},
		{"Computer", "anything", ""},
	} {
		err := CheckHeaderValue(tt.label, tt.value)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s=%s: %q, want %q", tt.label, tt.value, got, tt.want)
		}
	}
}
