package augment

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestCheckpointSurveyShares: on LANL-CM5 and KTH-SP2 the marked jobs are
// within 2 points of the survey's 16% of jobs and 57% of node-hours (Lee,
// Table 6.1-6.2), the smallest 40% never checkpoint, and intervals come from
// the survey's answers.
func TestCheckpointSurveyShares(t *testing.T) {
	for _, name := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "LANL-CM5-1994-4.1-cln.swf.gz"} {
		t.Run(name, func(t *testing.T) {
			_, jobs := loadTrace(t, name)
			rep, err := Checkpoint(jobs, CheckpointConfig{}, NewRand(1, StreamCheckpoint))
			if err != nil {
				t.Fatal(err)
			}
			// Recompute the shares from the tokens, not from the report.
			var known, marked int
			var work, markedWork float64
			type sized struct {
				area   float64
				marked bool
			}
			var all []sized
			allowed := map[int64]bool{}
			for _, iv := range SurveyIntervals {
				allowed[iv.Minutes*60] = true
			}
			for i := range jobs {
				a := Area(&jobs[i])
				s, ok := jobs[i].ExtraValue(KeyCheckpoint)
				if a < 0 {
					if ok {
						t.Fatalf("job %d of unknown size checkpoints", jobs[i].JobNumber)
					}
					continue
				}
				known++
				work += a
				all = append(all, sized{a, ok})
				if ok {
					marked++
					markedWork += a
					secs, err := strconv.ParseInt(s, 10, 64)
					if err != nil || !allowed[secs] {
						t.Fatalf("job %d: ckpt=%s is not a survey interval", jobs[i].JobNumber, s)
					}
				}
			}
			jobShare, workShare := float64(marked)/float64(known), markedWork/work
			t.Logf("%s: jobs %.2f%% work %.2f%% (survey 16%%, 57%%); C=%.4g beta=%.4g; interval median %v min, under runtime/4 %.1f%%, <= runtime/50 %.1f%%; by minutes %v",
				name, 100*jobShare, 100*workShare, rep.C, rep.Beta, rep.MedianMinutes, 100*rep.UnderQuarter, 100*rep.UnderFiftieth, rep.ByMinutes)
			if math.Abs(jobShare-0.16) > 0.02 || math.Abs(workShare-0.57) > 0.02 {
				t.Errorf("job share %.4f, work share %.4f; want within 0.02 of 0.16 and 0.57", jobShare, workShare)
			}
			if math.Abs(jobShare-rep.JobsShare) > 1e-12 || math.Abs(workShare-rep.WorkShare) > 1e-12 || !rep.Solved {
				t.Errorf("report (%v, %v, solved %v) disagrees with the tokens", rep.JobsShare, rep.WorkShare, rep.Solved)
			}
			// The smallest 40% (ties in file order) never checkpoint.
			slices.SortStableFunc(all, func(a, b sized) int { return cmp.Compare(a.area, b.area) })
			nDebug := int(math.Round(0.4 * float64(len(all))))
			for k, s := range all[:nDebug] {
				if s.marked {
					t.Fatalf("job %d of the smallest 40%% (area %v) checkpoints", k, s.area)
				}
			}
			if all[nDebug-1].area != rep.DebugArea {
				t.Errorf("debug cut %v, want %v", rep.DebugArea, all[nDebug-1].area)
			}
			if rep.UnderQuarter < 0.90 {
				t.Errorf("only %.1f%% of intervals under a quarter of the runtime", 100*rep.UnderQuarter)
			}
		})
	}
}

func TestCheckpointBigJobsMoreLikely(t *testing.T) {
	_, jobs := loadTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	if _, err := Checkpoint(jobs, CheckpointConfig{}, NewRand(2, StreamCheckpoint)); err != nil {
		t.Fatal(err)
	}
	var areas []float64
	for i := range jobs {
		if a := Area(&jobs[i]); a >= 0 {
			areas = append(areas, a)
		}
	}
	slices.Sort(areas)
	median := areas[len(areas)/2]
	var small, smallMarked, big, bigMarked int
	for i := range jobs {
		a := Area(&jobs[i])
		_, ok := jobs[i].ExtraValue(KeyCheckpoint)
		switch {
		case a < 0:
		case a <= median:
			small++
			if ok {
				smallMarked++
			}
		default:
			big++
			if ok {
				bigMarked++
			}
		}
	}
	if ps, pb := float64(smallMarked)/float64(small), float64(bigMarked)/float64(big); pb < 2*ps {
		t.Errorf("big jobs checkpoint with %.3f, small with %.3f; want big >> small", pb, ps)
	}
}

func TestCheckpointDeterminismAndSeed(t *testing.T) {
	marks := func(seed uint64) string {
		_, jobs := loadTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
		if _, err := Checkpoint(jobs, CheckpointConfig{}, NewRand(seed, StreamCheckpoint)); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i := range jobs {
			s, _ := jobs[i].ExtraValue(KeyCheckpoint)
			b.WriteString(s + ",")
		}
		return b.String()
	}
	if first, second := marks(1), marks(1); first != second {
		t.Error("same seed, different marks")
	}
	if marks(1) == marks(2) {
		t.Error("seeds 1 and 2 give the same marks")
	}
}

func TestCheckpointRemovesOldTokens(t *testing.T) {
	_, jobs := parseJobs(t, "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1 ckpt=60 x=1\n2 0 0 -1 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1 ckpt=60\n")
	if _, err := Checkpoint(jobs, CheckpointConfig{JobShare: 0.01, WorkShare: 0.01}, NewRand(1, StreamCheckpoint)); err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		if _, ok := jobs[i].ExtraValue(KeyCheckpoint); ok {
			t.Errorf("job %d keeps ckpt=: %v", i+1, jobs[i].Extra)
		}
	}
	if v, _ := jobs[0].ExtraValue("x"); v != "1" {
		t.Errorf("unknown token lost: %v", jobs[0].Extra)
	}
}

func TestDrawInterval(t *testing.T) {
	// Restricted draws stay below runtime/4; with nothing below, any interval.
	for u := 0.0; u < 1; u += 0.01 {
		if m := drawInterval(SurveyIntervals, 3600, true, u); 4*m*60 >= 3600 {
			t.Fatalf("u=%v: %d min is not below a quarter of 1 h", u, m)
		}
		if m := drawInterval(SurveyIntervals, 100, true, u); m < 1 {
			t.Fatalf("u=%v: %d min", u, m)
		}
	}
	// Unrestricted: the survey's median is 15 minutes.
	var draws []int64
	for k := 0; k < 10000; k++ {
		draws = append(draws, drawInterval(SurveyIntervals, 0, false, (float64(k)+0.5)/10000))
	}
	slices.Sort(draws)
	if med := draws[5000]; med != 15 {
		t.Errorf("median of the survey distribution %d min, want 15", med)
	}
	counts := map[int64]int{}
	for _, d := range draws {
		counts[d]++
	}
	common := counts[5] + counts[10] + counts[30]
	if common < 4800 || common > 5100 {
		t.Errorf("5, 10 and 30 min are %d of 10000 draws, want about half", common)
	}
}

func TestCheckpointFromAndExpand(t *testing.T) {
	const trace = `; MaxProcs: 8
1 0 0 10 4 -1 -1 4 10 -1 1 1 1 -1 -1 -1 -1 -1
2 0 0 10 4 -1 -1 4 10 -1 1 1 1 -1 -1 -1 -1 -1
3 0 0 10 2 -1 -1 2 10 -1 1 1 1 -1 -1 -1 -1 -1
4 0 0 10 4 -1 -1 4 10 -1 1 2 1 -1 -1 -1 -1 -1 ckpt=5
5 0 0 10 4 -1 -1 4 10 -1 1 2 1 -1 -1 -1 -1 -1
6 0 0 10 8 -1 -1 8 10 -1 1 3 1 -1 -1 -1 -1 -1
`
	answers, err := ReadAnswers(strings.NewReader("# job interval\n1 600\n4 none\n6 -1\n99 60\n"), "answers.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		expand bool
		want   []string // ckpt per job, "" for none
	}{
		{false, []string{"600", "", "", "", "", ""}},
		// Job 2 pools from job 1 (user 1, 4 procs); job 3 (2 procs) and job 5
		// (user 2, whose pool answers none) do not checkpoint.
		{true, []string{"600", "600", "", "", "", ""}},
	}
	for _, tc := range tests {
		_, jobs := parseJobs(t, trace)
		rep := CheckpointFrom(jobs, answers, tc.expand, NewRand(1, StreamCheckpoint))
		for i := range jobs {
			got, _ := jobs[i].ExtraValue(KeyCheckpoint)
			if got != tc.want[i] {
				t.Errorf("expand=%v job %d: ckpt=%q, want %q", tc.expand, i+1, got, tc.want[i])
			}
		}
		if rep.NotInTrace != 1 || rep.Answered != 3 {
			t.Errorf("expand=%v: report %+v", tc.expand, rep)
		}
	}
	for _, bad := range []string{"1\n", "x 60\n", "1 0\n", "1 soon\n", "1 60\n1 120\n", "-3 60\n", "0 none\n",
		// Beyond swfkit's time bound: swfsim refuses such a ckpt= token, so
		// it is an error here, where the file and line are known.
		"1 1099511627777\n"} {
		if _, err := ReadAnswers(strings.NewReader(bad), "a.txt"); err == nil || !strings.Contains(err.Error(), "a.txt:") {
			t.Errorf("ReadAnswers(%q) = %v, want an error naming the file and line", bad, err)
		}
	}
}

func TestCheckpointFromExpandDrawsFromPool(t *testing.T) {
	// Job 3 pools two answers, 60 and none: over seeds both are drawn.
	const trace = `1 0 0 10 4 -1 -1 4 10 -1 1 1 1 -1 -1 -1 -1 -1
2 0 0 10 4 -1 -1 4 10 -1 1 1 1 -1 -1 -1 -1 -1
3 0 0 10 4 -1 -1 4 10 -1 1 1 1 -1 -1 -1 -1 -1
`
	seen := map[string]int{}
	for seed := uint64(0); seed < 200; seed++ {
		_, jobs := parseJobs(t, trace)
		CheckpointFrom(jobs, map[int64]int64{1: 60, 2: NoCheckpoint}, true, NewRand(seed, StreamCheckpoint))
		v, _ := jobs[2].ExtraValue(KeyCheckpoint)
		seen[v]++
	}
	if seen["60"] < 60 || seen[""] < 60 {
		t.Errorf("pool draws over 200 seeds: %v, want both answers often", seen)
	}
}

// TestCheckpointFromUnknownUser: jobs of unknown user (-1) are no one's pool:
// an unanswered one does not checkpoint under --expand, though an answered
// job of unknown user and the same width checkpoints.
func TestCheckpointFromUnknownUser(t *testing.T) {
	const trace = "1 0 0 100 4 -1 -1 4 200 -1 1 -1 1 -1 -1 -1 -1 -1\n" +
		"2 10 0 100 4 -1 -1 4 200 -1 1 -1 1 -1 -1 -1 -1 -1\n"
	_, jobs := parseJobs(t, trace)
	rep := CheckpointFrom(jobs, map[int64]int64{1: 600}, true, NewRand(1, StreamCheckpoint))
	if got, ok := jobs[1].ExtraValue(KeyCheckpoint); ok || rep.Expanded != 0 || rep.NoPool != 1 {
		t.Errorf("job 2 of unknown user: ckpt=%q, report %+v; want no checkpoint and no pool", got, rep)
	}
	if got, _ := jobs[0].ExtraValue(KeyCheckpoint); got != "600" {
		t.Errorf("job 1: ckpt=%q, want its answer 600", got)
	}
}

// An answers file with no line at all is what a failed producer leaves in
// `producer | swfaugment --checkpoint-from - trace.swf`: an error naming the
// file, not zero answers (it was read as zero answers, every job without
// checkpointing, exit 0). Comment or blank lines only are a valid, empty set.
func TestReadAnswersEmptyInput(t *testing.T) {
	if a, err := ReadAnswers(strings.NewReader(""), "answers.txt"); err == nil || !strings.Contains(err.Error(), "answers.txt: empty input") {
		t.Errorf("empty input: %v, %v; want an error naming the file", a, err)
	}
	for _, text := range []string{"\n", "# job interval\n", "; none yet"} {
		if a, err := ReadAnswers(strings.NewReader(text), "answers.txt"); err != nil || len(a) != 0 {
			t.Errorf("%q: %v, %v; want no answers and no error", text, a, err)
		}
	}
}

// TestReadAnswersCut: the last answer without a newline after it is read and
// named (a file cut inside its last interval, 600 to 60, still parses); a
// file that ends in a newline, or in a comment or blank line, is not cut.
func TestReadAnswersCut(t *testing.T) {
	for _, tc := range []struct {
		in   string
		cut  int
		last int64 // job 2's interval
	}{
		{"1 600\n2 60", 2, 60},
		{"1 600\r\n2 60\r", 2, 60}, // CRLF, cut after the '\r'
		{"1 600\n2 600\n", 0, 600},
		{"1 600\r\n2 600\r\n", 0, 600},
		{"1 600\n2 600\n# end", 0, 600},
		{"1 600\n2 600\n  ", 0, 600},
		{"2 none", 1, NoCheckpoint},
	} {
		a, cut, err := ReadAnswersCut(strings.NewReader(tc.in), "a.txt")
		if err != nil || cut != tc.cut || a[2] != tc.last {
			t.Errorf("%q: cut %d, job 2 %d, %v; want cut %d, job 2 %d", tc.in, cut, a[2], err, tc.cut, tc.last)
		}
	}
}
