package swf

import "testing"

// TestSetKeepsSpelling: a replaced line keeps the input's label case and
// the blanks before its value (the archive aligns values with them); an
// added line, or one whose value was empty, is written plainly.
func TestSetKeepsSpelling(t *testing.T) {
	h := &Header{Lines: []HeaderLine{
		{Raw: "; StartTime: Mon Sep 23 14:00:31 CEST 1996", Label: "StartTime", Value: "Mon Sep 23 14:00:31 CEST 1996"},
		{Raw: "; EndTime:   Fri Aug 29 10:55:01 CEST 1997  ", Label: "EndTime", Value: "Fri Aug 29 10:55:01 CEST 1997"},
		{Raw: ";maxprocs:8", Label: "maxprocs", Value: "8"},
		{Raw: "; Queue:", Label: "Queue", Value: ""},
	}}
	h.Set("EndTime", "Sat Jan  4 10:00:00 CET 1997")
	h.Set("MaxProcs", "16")
	h.Set("Queue", "1 batch")
	h.Set("MaxJobs", "3")
	want := []string{
		"; StartTime: Mon Sep 23 14:00:31 CEST 1996",
		"; EndTime:   Sat Jan  4 10:00:00 CET 1997",
		";maxprocs:16",
		"; Queue: 1 batch",
		"; MaxJobs: 3",
	}
	if len(h.Lines) != len(want) {
		t.Fatalf("%d lines, want %d: %+v", len(h.Lines), len(want), h.Lines)
	}
	for i, w := range want {
		if h.Lines[i].Raw != w {
			t.Errorf("line %d: %q, want %q", i, h.Lines[i].Raw, w)
		}
	}
	if v, _ := h.Get("MaxProcs"); v != "16" {
		t.Errorf("MaxProcs reads %q", v)
	}
}

// TestCommentLabel: a comment after the records is read as a header line
// would be, in the spellings the header accepts.
func TestCommentLabel(t *testing.T) {
	for raw, want := range map[string][2]string{
		"; MaxProcs: 8":        {"MaxProcs", "8"},
		";maxprocs :16 (x)":    {"maxprocs", "16 (x)"},
		"  ;  MAXPROCS:4":      {"MAXPROCS", "4"},
		"; see http://x.org/a": {"", ""},
		";":                    {"", ""},
	} {
		label, value, ok := CommentLabel(raw)
		if label != want[0] || value != want[1] || ok != (want[0] != "") {
			t.Errorf("%q: got %q %q %v, want %q", raw, label, value, ok, want)
		}
	}
}
