package augment

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// TestBoundsReproduceTable4 compares the runtime bounds with Guim et al.'s
// Table 4. The upper bounds are exact; LANL's lower bound is 0.04 x 5606 =
// 224.24 where the table prints 224.27 (0.013% apart).
func TestBoundsReproduceTable4(t *testing.T) {
	tests := []struct {
		trace        string
		lower, upper float64
		tolLower     float64
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 956.88, 23922, 1e-9},
		{"LANL-CM5-1994-4.1-cln.swf.gz", 224.27, 5606, 0.05},
	}
	for _, tc := range tests {
		t.Run(tc.trace, func(t *testing.T) {
			_, jobs := loadTrace(t, tc.trace)
			b, err := ComputeBounds(jobs, BoundsConfig{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: runtime %v..%v (Table 4: %v..%v), %.1f%% short, %.1f%% large; processors %v..%v; area %v..%v",
				tc.trace, b.RuntimeLower, b.RuntimeUpper, tc.lower, tc.upper, 100*b.ShortShare, 100*b.LargeShare,
				b.ProcsLower, b.ProcsUpper, b.AreaLower, b.AreaUpper)
			if b.RuntimeUpper != tc.upper {
				t.Errorf("upper bound %v, Table 4 %v", b.RuntimeUpper, tc.upper)
			}
			if math.Abs(b.RuntimeLower-tc.lower) > tc.tolLower {
				t.Errorf("lower bound %v, Table 4 %v", b.RuntimeLower, tc.lower)
			}
		})
	}
}

func TestBoundsOverridesAndErrors(t *testing.T) {
	_, jobs := loadTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	b, err := ComputeBounds(jobs, BoundsConfig{RuntimeUpper: 3600, ProcsLower: 2, LowerFraction: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if b.RuntimeUpper != 3600 || b.RuntimeLower != 180 || b.ProcsLower != 2 || b.ProcsUpper != 16 {
		t.Errorf("bounds %+v", b)
	}
	// The Note names the bounds given instead of the rule.
	if n := b.Note(); !strings.HasSuffix(n, "; given instead of the rule: --rt-upper-bound 3600, --procs-lower 2") {
		t.Errorf("Note %q", n)
	}
	if _, err := ComputeBounds(jobs, BoundsConfig{RuntimeLower: 1e6}); err == nil {
		t.Error("lower above upper accepted")
	}
}

// TestBoundsOfUnknownVariables: a variable known for no job has no bounds
// (NaN, "none" in the Note, matching no job) instead of failing the trace:
// no job's category can depend on them, and swfstat's reader of "runtime
// L..U" finds no range in "runtime none".
func TestBoundsOfUnknownVariables(t *testing.T) {
	job := func(rt, procs int64) swf.Job {
		return swf.Job{JobNumber: 1, SubmitTime: 0, WaitTime: 0, RunTime: rt, AllocatedProcs: procs, RequestedProcs: -1, RequestedTime: -1, Executable: -1}
	}
	tests := []struct {
		name      string
		jobs      []swf.Job
		unbounded []string
		note      string
	}{
		{"no job", nil, []string{"runtime", "processors", "area"}, "x upper: runtime none (no job with a known runtime), processors none (no job with known processors), area none (no job with known runtime and processors), top 10 applications []"},
		{"no runtime", []swf.Job{job(-1, 4)}, []string{"runtime", "area"}, "runtime none (no job with a known runtime), processors 0.08..2 (p95=4 over 1 job)"},
		// Each percentile is over the jobs that have its variable known,
		// and says how many: two processor counts, one runtime, no area.
		{"counts apart", []swf.Job{job(-1, 4), job(100, -1)}, []string{"area"}, "runtime 2..50 s (p95=100 over 1 job; 0.00% short, 100.00% large), processors 0.08..2 (p95=4 over 1 job)"},
		{"two processors", []swf.Job{job(-1, 4), job(-1, 4)}, []string{"runtime", "area"}, "processors 0.08..2 (p95=4 over 2 jobs)"},
		{"no processors", []swf.Job{job(100, -1)}, []string{"processors", "area"}, "runtime 2..50 s (p95=100 over 1 job; 0.00% short, 100.00% large)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ComputeBounds(tc.jobs, BoundsConfig{})
			if err != nil {
				t.Fatal(err)
			}
			if got := b.Unbounded(); !slices.Equal(got, tc.unbounded) {
				t.Errorf("Unbounded() = %v, want %v", got, tc.unbounded)
			}
			if n := b.Note(); !strings.Contains(n, tc.note) {
				t.Errorf("Note %q\nwant it to hold %q", n, tc.note)
			}
			for _, j := range []swf.Job{job(0, 1), job(1e6, 1e6)} {
				for c := CatHighProcs; c <= CatNotSmall; c++ {
					known := map[Category]bool{CatHighProcs: b.KnownProcs > 0, CatLowProcs: b.KnownProcs > 0, CatShort: b.KnownRuntimes > 0, CatLarge: b.KnownRuntimes > 0, CatHighArea: b.KnownAreas > 0, CatLowArea: b.KnownAreas > 0, CatShortNarrow: b.KnownAreas > 0}
					if v, ok := known[c]; ok && !v && b.Matches(&j, c) {
						t.Errorf("a job (runtime %d, processors %d) matches category %d, whose bounds are none", j.RunTime, j.AllocatedProcs, c)
					}
				}
			}
		})
	}
	// A bound given is kept, and said to be given, without any job.
	b, err := ComputeBounds(nil, BoundsConfig{RuntimeUpper: 100})
	if err != nil {
		t.Fatal(err)
	}
	if n := b.Note(); !strings.Contains(n, "runtime 4..100 s (no job with a known runtime; 0.00% short, 0.00% large)") {
		t.Errorf("Note %q", n)
	}
}

// TestQuantitativeCategoriesTouchTheRightJobs: with error 100% and stdev 0,
// an estimated job gets 2 x rt or |rt - rt| (clamped to 1 s), so exactly the
// jobs of the category keep estimate = runtime.
func TestQuantitativeCategoriesTouchTheRightJobs(t *testing.T) {
	_, orig := loadTrace(t, "LANL-CM5-1994-4.1-cln.swf.gz")
	// The default processor lower bound (10.24) is below LANL's smallest
	// partition (32), leaving categories 2 and 8 empty and 9 full; 64 makes
	// every category non-trivial. Bounds from the whole trace; the first
	// 30,000 jobs are enough to check matching and keep -race fast.
	b, err := ComputeBounds(orig, BoundsConfig{ProcsLower: 64})
	if err != nil {
		t.Fatal(err)
	}
	orig = orig[:30000]
	for cat := CatHighProcs; cat <= CatEqual; cat++ {
		t.Run(cat.String(), func(t *testing.T) {
			jobs := make([]swf.Job, len(orig))
			copy(jobs, orig)
			for i := range jobs {
				jobs[i].Extra = nil
			}
			rep, err := QuantitativeErrors(jobs, b, QuantConfig{Error: 100, Stdev: 0, Category: cat}, NewRand(1, StreamEstimate))
			if err != nil {
				t.Fatal(err)
			}
			var matched, exact, checked int
			for i := range jobs {
				j := &jobs[i]
				if j.RunTime < 0 {
					if j.RequestedTime != orig[i].RequestedTime {
						t.Fatalf("job %d with unknown runtime was changed", j.JobNumber)
					}
					continue
				}
				if e0, _ := j.ExtraValue(KeyEstimate0); e0 != strconv.FormatInt(orig[i].RequestedTime, 10) {
					t.Fatalf("job %d: est0=%s, want the original %d", j.JobNumber, e0, orig[i].RequestedTime)
				}
				if j.RunTime <= 1 {
					continue // 2rt, rt and 1 coincide too often to tell
				}
				checked++
				isExact := j.RequestedTime == j.RunTime
				if isExact {
					exact++
				} else if j.RequestedTime != 2*j.RunTime && j.RequestedTime != 1 {
					t.Fatalf("job %d: estimate %d for runtime %d, want 2rt or 1", j.JobNumber, j.RequestedTime, j.RunTime)
				}
				if cat <= CatNotSmall {
					m := b.Matches(&orig[i], cat)
					if m {
						matched++
					}
					if m != isExact {
						t.Fatalf("job %d (rt %d, procs %d): in category %v, exact %v", j.JobNumber, j.RunTime, Procs(j), m, isExact)
					}
				}
			}
			if cat <= CatNotSmall && (matched == 0 || matched == checked) {
				t.Errorf("category %d matches %d of %d jobs: the test proves nothing", int(cat), matched, checked)
			}
			switch cat {
			case CatPureEqual:
				if exact != 0 {
					t.Errorf("pure equal left %d jobs exact", exact)
				}
			case CatEqual:
				if share := float64(exact) / float64(checked); math.Abs(share-0.5) > 0.01 {
					t.Errorf("equal: %.3f exact, want 0.5", share)
				}
			}
			t.Logf("category %d (%v): %d of %d jobs in the category, %d exact; report %d changed", int(cat), cat, matched, checked, exact, rep.Changed)
		})
	}
}

func TestQuantitativeErrorMagnitudeAndSigns(t *testing.T) {
	_, jobs := loadTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	b, _ := ComputeBounds(jobs, BoundsConfig{})
	rep, err := QuantitativeErrors(jobs, b, QuantConfig{Error: 50, Stdev: 10, Category: CatPureEqual}, NewRand(1, StreamEstimate))
	if err != nil {
		t.Fatal(err)
	}
	// |est/rt - 1| ~ N(0.5, 0.1): mean about 0.5; over and under about equal.
	var sum float64
	var n int
	for i := range jobs {
		j := &jobs[i]
		if j.RunTime < 100 {
			continue
		}
		sum += math.Abs(float64(j.RequestedTime)/float64(j.RunTime) - 1)
		n++
	}
	if mean := sum / float64(n); math.Abs(mean-0.5) > 0.01 {
		t.Errorf("mean relative error %.3f, want 0.5", mean)
	}
	if ratio := float64(rep.Over) / float64(rep.Over+rep.Under); math.Abs(ratio-0.5) > 0.02 {
		t.Errorf("over-estimates are %.3f of errors, want 0.5", ratio)
	}
}

func TestQualitativeConversions(t *testing.T) {
	_, orig := loadTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	b, _ := ComputeBounds(orig, BoundsConfig{})
	for _, tc := range []struct {
		conv      Conversion
		percent   float64
		untouched Untouched
	}{
		{ShortToLarge, 100, UntouchedExact}, {LargeToShort, 100, UntouchedUser},
		{BothWays, 100, UntouchedExact}, {BothWays, 50, UntouchedUser}, {BothWays, 0, UntouchedExact},
	} {
		t.Run(tc.conv.String()+"/"+strconv.FormatFloat(tc.percent, 'g', -1, 64)+"/"+tc.untouched.String(), func(t *testing.T) {
			jobs := make([]swf.Job, len(orig))
			copy(jobs, orig)
			for i := range jobs {
				jobs[i].Extra = nil
			}
			if _, err := QualitativeErrors(jobs, b, QualConfig{Conversion: tc.conv, Percent: tc.percent, Untouched: tc.untouched}, NewRand(1, StreamEstimate)); err != nil {
				t.Fatal(err)
			}
			var shorts, shortConv, larges, largeConv int
			for i := range jobs {
				j, o := &jobs[i], &orig[i]
				if j.RunTime < 0 {
					continue
				}
				rt := float64(j.RunTime)
				untouched, _ := roundEstimate(rt)
				if tc.untouched == UntouchedUser {
					untouched = o.RequestedTime
				}
				var conv int64 = -2 // the converted estimate, if any
				switch {
				case rt < b.RuntimeLower:
					shorts++
					conv, _ = roundEstimate(max(rt+b.RuntimeUpper, math.Floor(b.RuntimeUpper)+1))
					if float64(conv) <= b.RuntimeUpper {
						t.Fatalf("job %d: short job converted to %d, not large", j.JobNumber, conv)
					}
				case rt > b.RuntimeUpper:
					larges++
					est := rt - b.RuntimeUpper
					if est > b.RuntimeLower {
						est = b.RuntimeLower - 1
					}
					conv, _ = roundEstimate(est)
					if float64(conv) >= b.RuntimeLower {
						t.Fatalf("job %d: large job converted to %d, not short", j.JobNumber, conv)
					}
				}
				switch {
				case j.RequestedTime == conv && conv != untouched:
					if rt < b.RuntimeLower {
						shortConv++
					} else {
						largeConv++
					}
				case j.RequestedTime != untouched:
					t.Fatalf("job %d (rt %v): estimate %d, want %d (converted) or %d (%v)", j.JobNumber, rt, j.RequestedTime, conv, untouched, tc.untouched)
				}
			}
			s2l := tc.conv != LargeToShort
			l2s := tc.conv != ShortToLarge
			check := func(what string, conv, total int, on bool) {
				want := 0.0
				if on {
					want = tc.percent / 100
				}
				if got := float64(conv) / float64(total); math.Abs(got-want) > 0.02 {
					t.Errorf("%s: %d of %d converted (%.3f), want %.2f", what, conv, total, got, want)
				}
			}
			check("short", shortConv, shorts, s2l)
			check("large", largeConv, larges, l2s)
		})
	}
}

func TestEstimateModels(t *testing.T) {
	_, orig := loadTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	for _, s := range []string{"exact", "scale:2", "uniform:1,3"} {
		m, err := ParseModel(s)
		if err != nil {
			t.Fatal(err)
		}
		jobs := make([]swf.Job, len(orig))
		copy(jobs, orig)
		for i := range jobs {
			jobs[i].Extra = nil
		}
		ApplyModel(jobs, m, NewRand(1, StreamEstimate))
		var ratioSum float64
		var n int
		for i := range jobs {
			j := &jobs[i]
			if j.RunTime < 10 {
				continue
			}
			r := float64(j.RequestedTime) / float64(j.RunTime)
			ratioSum += r
			n++
			switch m.Kind {
			case "exact":
				if r != 1 {
					t.Fatalf("%s: job %d ratio %v", s, j.JobNumber, r)
				}
			case "scale":
				if j.RequestedTime != 2*j.RunTime {
					t.Fatalf("%s: job %d ratio %v", s, j.JobNumber, r)
				}
			case "uniform":
				if r < 1-0.05 || r > 3+0.05 {
					t.Fatalf("%s: job %d ratio %v outside [1, 3]", s, j.JobNumber, r)
				}
			}
		}
		if m.Kind == "uniform" && math.Abs(ratioSum/float64(n)-2) > 0.02 {
			t.Errorf("uniform:1,3 mean ratio %.3f, want 2", ratioSum/float64(n))
		}
	}
	for _, bad := range []string{"", "scale", "scale:0", "scale:-1", "uniform:2", "uniform:3,1", "uniform:0,1", "exact:1", "phi"} {
		if _, err := ParseModel(bad); err == nil {
			t.Errorf("ParseModel(%q): no error", bad)
		}
	}
}

func TestEst0KeptAcrossTransforms(t *testing.T) {
	_, jobs := parseJobs(t, "1 0 0 100 1 -1 -1 1 300 -1 1 1 1 -1 -1 -1 -1 -1\n2 0 0 0 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1 est0=50\n")
	ApplyModel(jobs, Model{Kind: "scale", R: 2}, NewRand(1, StreamEstimate))
	ApplyModel(jobs, Model{Kind: "exact"}, NewRand(1, StreamEstimate))
	if v, _ := jobs[0].ExtraValue(KeyEstimate0); v != "300" || jobs[0].RequestedTime != 100 {
		t.Errorf("job 1: est0=%s field 9 %d, want 300 and 100", v, jobs[0].RequestedTime)
	}
	if v, _ := jobs[1].ExtraValue(KeyEstimate0); v != "50" || jobs[1].RequestedTime != 1 {
		t.Errorf("job 2: est0=%s field 9 %d, want the existing 50 and 1 (runtime 0 -> 1 s)", v, jobs[1].RequestedTime)
	}
}

func TestEstimateDeterminismAndSeed(t *testing.T) {
	run := func(seed uint64) []int64 {
		_, jobs := loadTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
		b, _ := ComputeBounds(jobs, BoundsConfig{})
		if _, err := QuantitativeErrors(jobs, b, QuantConfig{Error: 400, Stdev: 60, Category: CatEqual}, NewRand(seed, StreamEstimate)); err != nil {
			t.Fatal(err)
		}
		out := make([]int64, len(jobs))
		for i := range jobs {
			out[i] = jobs[i].RequestedTime
		}
		return out
	}
	a, b, c := run(1), run(1), run(2)
	diff := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed: job %d estimates %d and %d", i, a[i], b[i])
		}
		if a[i] != c[i] {
			diff++
		}
	}
	if diff < len(a)/4 {
		t.Errorf("seeds 1 and 2 differ on only %d of %d estimates", diff, len(a))
	}
}

// TestAsPrediction: every transform with TargetPrediction writes the same
// values it would write into field 9 as pred= tokens, leaves field 9 alone
// and writes no est0=.
func TestAsPrediction(t *testing.T) {
	_, orig := loadTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	orig = orig[:5000]
	b, err := ComputeBounds(orig, BoundsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	transforms := map[string]func(jobs []swf.Job, target Target) (*EstimateReport, error){
		"quant": func(jobs []swf.Job, target Target) (*EstimateReport, error) {
			return QuantitativeErrors(jobs, b, QuantConfig{Error: 100, Stdev: 20, Category: CatPureEqual, Target: target}, NewRand(3, StreamEstimate))
		},
		"qual": func(jobs []swf.Job, target Target) (*EstimateReport, error) {
			return QualitativeErrors(jobs, b, QualConfig{Conversion: BothWays, Percent: 50, Target: target}, NewRand(3, StreamEstimate))
		},
		"model": func(jobs []swf.Job, target Target) (*EstimateReport, error) {
			return ApplyModel(jobs, Model{Kind: "uniform", A: 1, B: 3, Target: target}, NewRand(3, StreamEstimate)), nil
		},
	}
	for name, transform := range transforms {
		t.Run(name, func(t *testing.T) {
			asEstimate, asPrediction := slices.Clone(orig), slices.Clone(orig)
			for i := range orig {
				asEstimate[i].Extra, asPrediction[i].Extra = nil, nil
			}
			if _, err := transform(asEstimate, TargetEstimate); err != nil {
				t.Fatal(err)
			}
			rep, err := transform(asPrediction, TargetPrediction)
			if err != nil {
				t.Fatal(err)
			}
			written := 0
			for i := range orig {
				p := &asPrediction[i]
				if p.RequestedTime != orig[i].RequestedTime {
					t.Fatalf("job %d: field 9 %d changed from %d", p.JobNumber, p.RequestedTime, orig[i].RequestedTime)
				}
				if _, ok := p.ExtraValue(KeyEstimate0); ok {
					t.Fatalf("job %d: est0= written although field 9 was kept", p.JobNumber)
				}
				v, ok := p.ExtraValue(KeyPrediction)
				_, changed := asEstimate[i].ExtraValue(KeyEstimate0)
				if ok != changed {
					t.Fatalf("job %d: pred= written %v, field 9 rewritten as an estimate %v", p.JobNumber, ok, changed)
				}
				if ok {
					written++
					if v != strconv.FormatInt(asEstimate[i].RequestedTime, 10) {
						t.Fatalf("job %d: pred=%s, the estimate transform wrote %d", p.JobNumber, v, asEstimate[i].RequestedTime)
					}
				}
			}
			if written == 0 || written != rep.Changed {
				t.Errorf("%d pred= tokens, report says %d changed", written, rep.Changed)
			}
			if notes := rep.Notes(); !strings.Contains(notes[len(notes)-1], "wrote pred= on") {
				t.Errorf("Note %q does not say pred= was written", notes[len(notes)-1])
			}
		})
	}
}

// With --error-untouched user and --as-prediction a job the estimator does not
// convert is predicted the user's request, which swfsim reads from a job
// without pred=: a pred= an earlier transform wrote (a pipeline of two) must
// not survive as this run's prediction.
func TestQualitativeUserPredictionDropsStalePrediction(t *testing.T) {
	b := &Bounds{RuntimeLower: 40, RuntimeUpper: 1000}
	jobs := []swf.Job{
		{JobNumber: 1, RunTime: 500, RequestedTime: 900, Extra: []string{"pred=1500"}},    // medium: never converted
		{JobNumber: 2, RunTime: 10, RequestedTime: 900, Extra: []string{"pred=30"}},       // short
		{JobNumber: 3, RunTime: 5000, RequestedTime: 9000, Extra: []string{"pred=15000"}}, // large
	}
	rep, err := QualitativeErrors(jobs, b, QualConfig{Conversion: BothWays, Percent: 100, Untouched: UntouchedUser, Target: TargetPrediction}, NewRand(1, StreamEstimate))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := jobs[0].ExtraValue(KeyPrediction); ok {
		t.Errorf("unconverted job keeps pred=%s from before; want none (predicted its request)", v)
	}
	tokens := 0
	for i := range jobs {
		if _, ok := jobs[i].ExtraValue(KeyPrediction); ok {
			tokens++
		}
	}
	if tokens != rep.Changed || rep.Converted != 2 {
		t.Errorf("%d pred= tokens in the output, report: %d written, %d converted", tokens, rep.Changed, rep.Converted)
	}
}

// A large job made short gets an estimate below the lower bound once it is
// rounded to whole seconds: with bounds 40.5..1012.5 a runtime of 1053 would
// give 40.5, written as 41, over the bound.
func TestLargeToShortRoundsBelowTheLowerBound(t *testing.T) {
	b := &Bounds{RuntimeLower: 40.5, RuntimeUpper: 1012.5}
	for _, rt := range []int64{1053, 1052, 1054, 2000, 1013} {
		jobs := []swf.Job{{JobNumber: 1, RunTime: rt, RequestedTime: 5000}}
		if _, err := QualitativeErrors(jobs, b, QualConfig{Conversion: LargeToShort, Percent: 100}, NewRand(1, StreamEstimate)); err != nil {
			t.Fatal(err)
		}
		if est := float64(jobs[0].RequestedTime); est >= b.RuntimeLower {
			t.Errorf("runtime %d: converted to %v s, not below the lower bound %v", rt, est, b.RuntimeLower)
		}
	}
}

// A lower bound at or below 1 s leaves no estimate that makes a large job
// short (the smallest written is 1 s): the jobs drawn for conversion are
// left as they are and counted apart, not counted converted. Just above
// 1 s, 1 s is short.
func TestLargeToShortUnderASecond(t *testing.T) {
	for _, tc := range []struct {
		lower                  float64
		converted, unshortened int
		est                    int64
	}{
		{0.38, 0, 2, 50}, // left exact (UntouchedExact)
		{1, 0, 2, 50},    // 1 s is not below 1 s
		{1.5, 2, 0, 1},   // lower-1 = 0.5, written 1 < 1.5
		{5, 2, 0, 4},     // rt-upper = 40 is not short: lower-1
	} {
		b := &Bounds{RuntimeLower: tc.lower, RuntimeUpper: 10}
		jobs := []swf.Job{{JobNumber: 1, RunTime: 50, RequestedTime: 5000}, {JobNumber: 2, RunTime: 50, RequestedTime: 5000}}
		rep, err := QualitativeErrors(jobs, b, QualConfig{Conversion: LargeToShort, Percent: 100}, NewRand(1, StreamEstimate))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Converted != tc.converted || rep.Unshortened != tc.unshortened {
			t.Errorf("lower %v: %d converted, %d unshortened; want %d and %d", tc.lower, rep.Converted, rep.Unshortened, tc.converted, tc.unshortened)
		}
		for _, j := range jobs {
			if j.RequestedTime != tc.est {
				t.Errorf("lower %v: job %d written %d s, want %d", tc.lower, j.JobNumber, j.RequestedTime, tc.est)
			}
		}
		if n := rep.Notes(); tc.unshortened > 0 && !strings.Contains(strings.Join(n, "\n"), "2 large jobs drawn for conversion left as they are") {
			t.Errorf("lower %v: Notes %q do not say that 2 jobs were left", tc.lower, n)
		}
	}
}

// A short job made large gets an estimate above the upper bound, once written
// in whole seconds: rt + upper, but a runtime of 0 would land on the bound
// (not large) and a fractional bound round down onto it.
func TestShortToLargeAboveTheUpperBound(t *testing.T) {
	for _, tc := range []struct {
		upper float64
		rt    []int64
		want  []int64
	}{
		{10, []int64{0, 3}, []int64{11, 13}},
		{10.4, []int64{0, 3}, []int64{11, 13}},
		{10.6, []int64{0, 1}, []int64{11, 12}},
	} {
		b := &Bounds{RuntimeLower: 5, RuntimeUpper: tc.upper}
		var jobs []swf.Job
		for i, rt := range tc.rt {
			jobs = append(jobs, swf.Job{JobNumber: int64(i + 1), RunTime: rt, RequestedTime: 5000})
		}
		rep, err := QualitativeErrors(jobs, b, QualConfig{Conversion: ShortToLarge, Percent: 100}, NewRand(1, StreamEstimate))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Converted != len(jobs) {
			t.Errorf("upper %v: %d converted, want %d", tc.upper, rep.Converted, len(jobs))
		}
		for i, j := range jobs {
			if j.RequestedTime != tc.want[i] || float64(j.RequestedTime) <= tc.upper {
				t.Errorf("upper %v: runtime %d written %d s, want %d (above the bound)", tc.upper, j.RunTime, j.RequestedTime, tc.want[i])
			}
		}
	}
}
