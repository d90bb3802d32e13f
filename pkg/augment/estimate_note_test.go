package augment

import (
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
