package augment

import (
	"strings"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/swfkit/swfkit/pkg/swf"
)

// TestScaleEndTimeOnKTH: after --load 1.7 the header's EndTime is the input's
// end mapped like a submit time, so it stays after the last scaled submit by
// the input's margin divided by F, instead of 3.5 months after it.
func TestScaleEndTimeOnKTH(t *testing.T) {
	h, jobs := loadTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	start, _, _ := h.UnixStartTime()
	stockholm, _ := time.LoadLocation("Europe/Stockholm")
	endText, _ := h.Get("EndTime")
	end, exact, err := swf.ParseDate(endText, stockholm)
	if err != nil || !exact {
		t.Fatalf("KTH's EndTime %q: %v exact %v", endText, err, exact)
	}
	_, last, _ := submitRange(jobs)
	margin := end.Unix() - start - last // input: EndTime after the last submit
	rep, err := ScaleLoad(jobs, 100, 1.7, 0)
	if err != nil {
		t.Fatal(err)
	}
	note := ScaleEndTime(h, rep)
	if !strings.Contains(note, "EndTime rewritten") || !strings.Contains(note, "(input header: Fri Aug 29 10:55:01 CEST 1997)") {
		t.Errorf("Note: %s", note)
	}
	newText, _ := h.Get("EndTime")
	newEnd, exact, err := swf.ParseDate(newText, stockholm)
	if err != nil || !exact {
		t.Fatalf("rewritten EndTime %q: %v exact %v", newText, err, exact)
	}
	_, last, _ = submitRange(jobs)
	got := newEnd.Unix() - start - last
	if want := float64(margin) / 1.7; got < int64(want)-1 || got > int64(want)+1 {
		t.Errorf("EndTime %q is %d s after the last submit, want %.0f (input: %d s)", newText, got, want, margin)
	}
	if s, _ := h.Get("StartTime"); s != "Mon Sep 23 14:00:31 CEST 1996" {
		t.Errorf("StartTime changed to %q", s)
	}
	// Waits and runtimes are not scaled: a job may end after the new
	// EndTime, by at most (1 - 1/F) x its wait plus runtime (one second more
	// for the rounding of its submit time and of EndTime); the jobs that
	// ended last in the input do, by more than a day for job 27674, which
	// waited a week (docs/swfaugment.md, Load).
	var worst, worstJob int64
	for i := range jobs {
		j := &jobs[i]
		if j.WaitTime < 0 || j.RunTime < 0 {
			continue
		}
		over := start + j.SubmitTime + j.WaitTime + j.RunTime - newEnd.Unix()
		if bound := (1 - 1/1.7) * float64(j.WaitTime+j.RunTime); float64(over) > bound+2 {
			t.Errorf("job %d ends %d s after the new EndTime, over the bound %.0f s", j.JobNumber, over, bound)
		}
		if over > worst {
			worst, worstJob = over, j.JobNumber
		}
	}
	if worstJob != 27674 || worst < 86400 {
		t.Errorf("latest end after the new EndTime: job %d by %d s; want job 27674 by more than a day", worstJob, worst)
	}
}

// TestScaleEndTimeLeftWhenNotExact: an EndTime that cannot be placed in time
// exactly is left as it was, and the Note says it describes the unscaled log
// and why.
func TestScaleEndTimeLeftWhenNotExact(t *testing.T) {
	const end = "Fri Aug 29 10:55:01 CEST 1997"
	tests := []struct {
		name, header, why string
	}{
		{"no UnixStartTime", "; TimeZoneString: Europe/Stockholm\n; EndTime: " + end + "\n", "no UnixStartTime"},
		{"no TimeZoneString", "; UnixStartTime: 843480031\n; TimeZone: 3600\n; EndTime: " + end + "\n", "no TimeZoneString"},
		{"unknown zone", "; UnixStartTime: 843480031\n; TimeZoneString: Mars/Olympus\n; EndTime: " + end + "\n", `"Mars/Olympus" is no time zone`},
		{"not date(1)", "; UnixStartTime: 843480031\n; TimeZoneString: Europe/Stockholm\n; EndTime: 1997-08-29 10:55\n", "not a date as date(1) writes it"},
		{"zone of another place", "; UnixStartTime: 843480031\n; TimeZoneString: US/Mountain\n; EndTime: " + end + "\n", "not the one TimeZoneString US/Mountain uses"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, jobs := parseJobs(t, tc.header+"1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 1000 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n")
			before, _ := h.Get("EndTime")
			rep, err := ScaleLoad(jobs, 10, 2, 0)
			if err != nil {
				t.Fatal(err)
			}
			note := ScaleEndTime(h, rep)
			if after, _ := h.Get("EndTime"); after != before {
				t.Errorf("EndTime changed from %q to %q", before, after)
			}
			if !strings.Contains(note, "EndTime left as in the input ("+strings.TrimSpace(before)+"), so it describes the unscaled log") || !strings.Contains(note, tc.why) {
				t.Errorf("Note does not say it is left and why (%q):\n%s", tc.why, note)
			}
		})
	}
	h, jobs := parseJobs(t, "; UnixStartTime: 843480031\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 1000 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n")
	rep, _ := ScaleLoad(jobs, 10, 2, 0)
	if note := ScaleEndTime(h, rep); note != "" {
		t.Errorf("a header without EndTime got a Note: %s", note)
	}
}

// TestScaleEndTimeKeepsDayPadding: the rewritten EndTime pads a day below 10
// as the input's EndTime does, else as its StartTime does, else with a zero
// (the archive's layout): a log written with asctime's "Sep  3" keeps it.
func TestScaleEndTimeKeepsDayPadding(t *testing.T) {
	// UnixStartTime is Tue Sep 3 14:00:31 CEST 1996; the first submit is at
	// 0, so F=2 halves an EndTime's time since the start.
	const start = "; UnixStartTime: 841752031\n; TimeZoneString: Europe/Stockholm\n"
	tests := []struct {
		name, startTime, endTime, want string
	}{
		{"zero from StartTime", "Tue Sep 03 14:00:31 CEST 1996", "Fri Sep 13 14:00:31 CEST 1996", "Sun Sep 08 14:00:31 CEST 1996"},
		{"blank from StartTime", "Tue Sep  3 14:00:31 CEST 1996", "Fri Sep 13 14:00:31 CEST 1996", "Sun Sep  8 14:00:31 CEST 1996"},
		{"none from StartTime", "Tue Sep 3 14:00:31 CEST 1996", "Fri Sep 13 14:00:31 CEST 1996", "Sun Sep 8 14:00:31 CEST 1996"},
		{"EndTime's first", "Tue Sep 03 14:00:31 CEST 1996", "Mon Sep  9 14:00:31 CEST 1996", "Fri Sep  6 14:00:31 CEST 1996"},
		{"unpadded EndTime", "", "Mon Sep 9 14:00:31 CEST 1996", "Fri Sep 6 14:00:31 CEST 1996"},
		{"nothing shows it", "", "Fri Sep 13 14:00:31 CEST 1996", "Sun Sep 08 14:00:31 CEST 1996"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			header := start
			if tc.startTime != "" {
				header += "; StartTime: " + tc.startTime + "\n"
			}
			header += "; EndTime:   " + tc.endTime + "\n"
			h, jobs := parseJobs(t, header+"1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 1000 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n")
			rep, err := ScaleLoad(jobs, 10, 2, 0)
			if err != nil {
				t.Fatal(err)
			}
			if note := ScaleEndTime(h, rep); !strings.Contains(note, "EndTime rewritten") {
				t.Fatalf("Note: %s", note)
			}
			if got, _ := h.Get("EndTime"); got != tc.want {
				t.Errorf("EndTime %q, want %q", got, tc.want)
			}
		})
	}
}
