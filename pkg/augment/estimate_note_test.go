package augment

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// writtenCounts counts the written values (field 9, or pred= with
// TargetPrediction) equal to, above and below the runtime: what the report's
// Note must say.
func writtenCounts(t *testing.T, jobs []swf.Job, target Target) (exact, over, under int) {
	t.Helper()
	for i := range jobs {
		j := &jobs[i]
		if j.RunTime < 0 {
			continue
		}
		written := j.RequestedTime
		if target == TargetPrediction {
			v, ok := j.ExtraValue(KeyPrediction)
			if !ok {
				t.Fatalf("job %d: no pred=", j.JobNumber)
			}
			written, _ = strconv.ParseInt(v, 10, 64)
		}
		switch {
		case written == j.RunTime:
			exact++
		case written > j.RunTime:
			over++
		default:
			under++
		}
	}
	return exact, over, under
}

// TestQuantitativeNoteSaysWhatIsWritten: the Note's exact/over/under counts
// are those of the output, runtime-0 jobs written as 1 s (the floor) being
// over, and its wording says which jobs each category exempts (10: none;
// 11: a random share, not "the jobs in the category").
func TestQuantitativeNoteSaysWhatIsWritten(t *testing.T) {
	_, orig := loadTrace(t, "LANL-CM5-1994-4.1-cln.swf.gz")
	orig = orig[:20000]
	zeros := 0
	for i := range orig {
		if orig[i].RunTime == 0 {
			zeros++
		}
	}
	if zeros == 0 {
		t.Fatal("no runtime-0 job in the sample: the test proves nothing about the floor")
	}
	b, err := ComputeBounds(orig, BoundsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cat      Category
		wording  string
		notWords string
	}{
		{CatShort, "jobs in the category estimated exactly", ""},
		{CatPureEqual, "no job exempt: every job gets the error", "jobs in the category estimated exactly"},
		{CatEqual, "perfect-share=50.00%; each job estimated exactly with that probability (chosen at random", "jobs in the category estimated exactly"},
	}
	for _, tc := range tests {
		for _, target := range []Target{TargetEstimate, TargetPrediction} {
			t.Run(tc.cat.String()+"/"+target.String(), func(t *testing.T) {
				jobs := make([]swf.Job, len(orig))
				copy(jobs, orig)
				for i := range jobs {
					jobs[i].Extra = nil
				}
				rep, err := QuantitativeErrors(jobs, b, QuantConfig{Error: 400, Stdev: 50, Category: tc.cat, Target: target}, NewRand(3, StreamEstimate))
				if err != nil {
					t.Fatal(err)
				}
				exact, over, under := writtenCounts(t, jobs, target)
				if rep.Perfect != exact || rep.Over != over || rep.Under != under {
					t.Errorf("report %d exact, %d over, %d under; output %d, %d, %d", rep.Perfect, rep.Over, rep.Under, exact, over, under)
				}
				notes := strings.Join(rep.Notes(), "\n")
				want := strconv.Itoa(exact) + " exact, " + strconv.Itoa(over) + " over and " + strconv.Itoa(under) + " under"
				if !strings.Contains(notes, want) {
					t.Errorf("Note does not say %q:\n%s", want, notes)
				}
				if !strings.Contains(notes, "of runtime 0 at the 1 s floor") {
					t.Errorf("Note does not count the runtime-0 jobs raised to 1 s:\n%s", notes)
				}
				if !strings.Contains(notes, tc.wording) || (tc.notWords != "" && strings.Contains(notes, tc.notWords)) {
					t.Errorf("category %d: Note should say %q and not %q:\n%s", int(tc.cat), tc.wording, tc.notWords, notes)
				}
				if tc.cat == CatPureEqual && exact > len(jobs)/100 {
					t.Errorf("pure equal: %d of %d jobs exact", exact, len(jobs))
				}
			})
		}
	}
}

// TestModelExactCountsFlooredJobsOver: --estimate exact writes 1 s for a
// runtime-0 job, which is over its runtime, not exact.
func TestModelExactCountsFlooredJobsOver(t *testing.T) {
	_, jobs := parseJobs(t, "1 0 0 0 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 5 0 30 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n")
	rep := ApplyModel(jobs, Model{Kind: "exact"}, NewRand(1, StreamEstimate))
	if rep.Perfect != 1 || rep.Over != 1 || rep.Floored != 1 || jobs[0].RequestedTime != 1 {
		t.Errorf("report %+v, estimates %d %d; want 1 exact, 1 over (runtime 0 at 1 s)", rep, jobs[0].RequestedTime, jobs[1].RequestedTime)
	}
}

// TestQuantitativeNoteCountsExempt: the Note counts the jobs the category
// exempts and those given the error, and a category that exempts none of
// the jobs of known runtime (category 7 without application numbers, a
// processor bound below every job) or every one of them is warned about,
// with the reason, since the run is then category 10's or one without
// errors.
func TestQuantitativeNoteCountsExempt(t *testing.T) {
	// Runtimes 10, 100, 1000, 10000 s on 1, 2, 4, 8 processors; no
	// application numbers (field 14 is -1); one job of unknown runtime.
	const trace = "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"2 1 0 100 2 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"3 2 0 1000 4 -1 -1 4 2000 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"4 3 0 10000 8 -1 -1 8 20000 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"5 4 0 -1 8 -1 -1 8 20000 -1 1 1 1 -1 -1 -1 -1 -1\n"
	given := BoundsConfig{RuntimeLower: 50, RuntimeUpper: 5000, ProcsLower: 1.5, ProcsUpper: 6}
	below := BoundsConfig{RuntimeLower: 5, RuntimeUpper: 5000, ProcsLower: 0.5, ProcsUpper: 6}
	tests := []struct {
		cat          Category
		cfg          BoundsConfig
		exempt, errs int
		warning      string // "" : none
	}{
		{CatTopApps, given, 0, 4, "--error-category 7 (most executed applications: field 14 among the 10 most executed applications []) exempts none of the 4 jobs of known runtime: every job gets the error, as with category 10 (pure equal) (no job has an application number: field 14 is -1 in every job)"},
		{CatNotSmall, given, 3, 1, ""},
		{CatNotSmall, below, 4, 0, "--error-category 9 (not small: runtime > 5 s or processors > 0.5) exempts all 4 jobs of known runtime: every job is estimated exactly and none gets the error"},
		{CatLowProcs, below, 0, 4, "--error-category 2 (low processors: processors < 0.5) exempts none of the 4 jobs of known runtime: every job gets the error, as with category 10"},
		{CatShortNarrow, given, 1, 3, ""},
		{CatPureEqual, given, 0, 4, ""},
	}
	for _, tc := range tests {
		_, jobs := parseJobs(t, trace)
		b, err := ComputeBounds(jobs, tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := QuantitativeErrors(jobs, b, QuantConfig{Error: 400, Category: tc.cat}, NewRand(1, StreamEstimate))
		if err != nil {
			t.Fatal(err)
		}
		notes := strings.Join(rep.Notes(), "\n")
		want := fmt.Sprintf("%d exempt by category %d (estimated exactly) and %d given the error", tc.exempt, int(tc.cat), tc.errs)
		if rep.Exempt != tc.exempt || !strings.Contains(notes, want) {
			t.Errorf("category %d: %d exempt; Note does not say %q:\n%s", int(tc.cat), rep.Exempt, want, notes)
		}
		if got := rep.CategoryWarning(); (tc.warning == "") != (got == "") || !strings.Contains(got, tc.warning) {
			t.Errorf("category %d: warning %q, want %q", int(tc.cat), got, tc.warning)
		} else if got != "" && !strings.Contains(notes, "swfaugment estimate: "+got) {
			t.Errorf("category %d: the warning is not in the Notes:\n%s", int(tc.cat), notes)
		}
	}
}
