package clean_test

// The smallest cases of the faults the cross-check found, each with the hand
// computation from the docs; all three are mended and stay as tests.

import (
	"testing"

	"github.com/swfkit/swfkit/pkg/clean"
)

// TestCrossCheckRenumberSelfReference: docs/swfclean.md, renumber: "a
// reference to a job not written before becomes -1, and its think time,
// field 18, too"; the alea section spells out that "itself" is such a job
// ("as the renumber rule does"). One record, job 5, preceded by job 5:
//
//	5 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 5 7
//
// When it is written no job has been written before it, so it becomes job 1
// with fields 17 and 18 -1. The tool writes "... 1 7": job 1 preceded by
// itself 7 s after its own end, and counts the record as changed either way.
func TestCrossCheckRenumberSelfReference(t *testing.T) {
	run := xcSwfclean(t, "5 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 5 7\n", "--rules", "renumber")
	_, out := xcRead(t, run.stdout)
	if len(out) != 1 || out[0].JobNumber != 1 || out[0].PrecedingJob != -1 || out[0].ThinkTime != -1 {
		t.Fatalf("got %q, want job 1 with fields 17 and 18 -1", run.stdout)
	}
}

// TestCrossCheckEstimateNoopCounted: a rule "never changes a record it has
// nothing to say about" (pkg/clean doc) and its "changed" count is the
// records it changed. One record with run time 0 and requested time 0:
//
//	1 0 0 0 1 -1 -1 1 0 -1 1 1 1 -1 1 -1 -1 -1
//
// estimate_from_runtime sets field 9 (0, unknown) to the run time, 0: the
// record is written byte-identical, so 0 jobs changed. The tool's report and
// Note say "1 job changed".
func TestCrossCheckEstimateNoopCounted(t *testing.T) {
	run := xcSwfclean(t, "1 0 0 0 1 -1 -1 1 0 -1 1 1 1 -1 1 -1 -1 -1\n", "--rules", "estimate_from_runtime")
	if len(run.report.Rules) != 1 || run.report.Rules[0].Changed != 0 {
		t.Fatalf("report %+v, want estimate_from_runtime 0 changed", run.report)
	}
}

// TestCrossCheckFlurryEarlyWindow: docs/swfclean.md, Flurries: windows are
// "laid twice: from the earliest submit time, and half a window later"
// (FlurryConfig: "cut into consecutive windows twice: from the earliest
// submit time, and half a window later"; Flurries: "two grids, starting at
// the earliest submit time and half a window later"). Window 100 s, at least
// 2 jobs and 0.6 of the submissions; jobs (number, submit, user):
//
//	1 0 u2, 2 10 u2, 3 60 u1, 4 61 u1, 5 62 u1, 6 63 u1
//
// Grid 1: [0,100) holds all 6: u1 4/6 = 0.67 passes, u2 2/6 = 0.33 does not.
// Grid 2: [50,150) holds jobs 3-6: u1 4/4 passes. So one candidate: user 1,
// jobs 3-6, 60..63 s, 4 of 6 (merged span [0,150)). The tool also reports
// user 2, jobs 1-2, 2 of 2: from a window [-50,50) that starts half a window
// before the earliest submit time.
func TestCrossCheckFlurryEarlyWindow(t *testing.T) {
	text := "1 0 0 5 1 -1 -1 1 -1 -1 1 2 1 -1 1 -1 -1 -1\n" +
		"2 10 0 5 1 -1 -1 1 -1 -1 1 2 1 -1 1 -1 -1 -1\n" +
		"3 60 0 5 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"4 61 0 5 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"5 62 0 5 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"6 63 0 5 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"
	_, jobs := xcRead(t, text)
	got := detect(jobs, clean.FlurryConfig{Window: 100, MinJobs: 2, MinShare: 0.6})
	if len(got) != 1 || got[0].User != 1 || got[0].FirstJob != 3 || got[0].LastJob != 6 || got[0].Jobs != 4 || got[0].Total != 6 {
		t.Fatalf("got %+v, want one flurry: user 1, jobs 3-6, 4 of 6", got)
	}
}
