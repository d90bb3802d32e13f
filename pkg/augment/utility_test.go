package augment

import (
	"math"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/swfkit/swfkit/pkg/swf"
	"github.com/swfkit/swfkit/pkg/utility"
)

func utilityOf(t testing.TB, j *swf.Job) (utility.Func, bool) {
	t.Helper()
	s, ok := j.ExtraValue(KeyUtility)
	if !ok {
		return utility.Func{}, false
	}
	f, err := utility.Parse(s)
	if err != nil {
		t.Fatalf("job %d: u=%s: %v", j.JobNumber, s, err)
	}
	return f, true
}

// isStep recognises the step shape: (0,S),(ts,S),(ts+eps,V),(D-eps,V),(D,0).
func isStep(f utility.Func, eps float64) bool {
	p := f.Points
	return len(p) == 5 && p[1].Value == p[0].Value && p[2].Time == p[1].Time+eps &&
		p[3].Value == p[2].Value && p[4].Time == p[3].Time+eps && p[4].Value == 0
}

func TestUtilityPropertiesOnTraces(t *testing.T) {
	for _, name := range smallTraces {
		t.Run(name, func(t *testing.T) {
			h, jobs := loadTrace(t, name)
			rep, err := GenerateUtility(jobs, h, UtilityConfig{}, NewRand(7, StreamUtility))
			if err != nil {
				t.Fatal(err)
			}
			var written, steps, skipped int
			for i := range jobs {
				j := &jobs[i]
				f, ok := utilityOf(t, j)
				if !ok {
					if Procs(j) >= 0 && RequestedTime(j) >= 0 {
						t.Fatalf("job %d has known size but no u=", j.JobNumber)
					}
					skipped++
					continue
				}
				written++
				p := f.Points
				if err := f.Validate(); err != nil {
					t.Fatalf("job %d: %v", j.JobNumber, err)
				}
				if p[len(p)-1].Value != 0 {
					t.Fatalf("job %d: last value %v, want 0", j.JobNumber, p[len(p)-1].Value)
				}
				wait := max(j.WaitTime, 0)
				if want := max(10, float64(2*wait)); f.Deadline() != want {
					t.Fatalf("job %d: deadline %v, want max(10, 2 x %d)", j.JobNumber, f.Deadline(), j.WaitTime)
				}
				for _, pt := range p {
					if pt.Time != math.Trunc(pt.Time) {
						t.Fatalf("job %d: non-integral time %v", j.JobNumber, pt.Time)
					}
				}
				if isStep(f, 1) {
					steps++
				} else if want := 2 + min(4, int(f.Deadline())-1); len(p) != want {
					t.Fatalf("job %d: %d points, want %d for linear/exponential", j.JobNumber, len(p), want)
				}
			}
			if written != rep.Jobs || skipped != rep.Skipped || steps != rep.ByDecay[DecayStep] {
				t.Errorf("report says %d written, %d skipped, %d steps; trace has %d, %d, %d",
					rep.Jobs, rep.Skipped, rep.ByDecay[DecayStep], written, skipped, steps)
			}
			// Each model's share within 4 standard deviations of 1/3.
			sd := math.Sqrt(float64(written) * (1.0 / 3) * (2.0 / 3))
			for d, n := range rep.ByDecay {
				if math.Abs(float64(n)-float64(written)/3) > 4*sd {
					t.Errorf("%s: %d of %d functions, want about a third", Decay(d), n, written)
				}
			}
		})
	}
}

func TestUtilityDecayMix(t *testing.T) {
	_, jobs := loadTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	w, err := ParseDecayWeights("linear:0.2,step:0.8")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := GenerateUtility(jobs, nil, UtilityConfig{Weights: w}, NewRand(1, StreamUtility))
	if err != nil {
		t.Fatal(err)
	}
	n := float64(rep.Jobs)
	if rep.ByDecay[DecayExponential] != 0 {
		t.Errorf("exponential share 0 requested, got %d", rep.ByDecay[DecayExponential])
	}
	if got := float64(rep.ByDecay[DecayStep]) / n; math.Abs(got-0.8) > 0.02 {
		t.Errorf("step share %.3f, want 0.8", got)
	}
	// Linear values are uniform in [0, start]: their mean share of the start
	// value is about 1/2; exponential ones would be far lower.
	var sum float64
	var k int
	for i := range jobs {
		f, _ := utilityOf(t, &jobs[i])
		if isStep(f, 1) || f.Start() == 0 {
			continue
		}
		for _, pt := range f.Points[1 : len(f.Points)-1] {
			sum += pt.Value / f.Start()
			k++
		}
	}
	if mean := sum / float64(k); math.Abs(mean-0.5) > 0.02 {
		t.Errorf("linear intermediate values average %.3f of the start value, want 0.5", mean)
	}
}

const threeQueues = `; MaxProcs: 64
; Queue: 0 interactive
; Queue: 1 batch
; Queue: 2 low
`

// jobsInQueues builds n jobs per queue of 1 processor x 60 s requested.
func jobsInQueues(t *testing.T, queues []int64, n int) []swf.Job {
	text := threeQueues
	id := 1
	for k := 0; k < n; k++ {
		for _, q := range queues {
			text += strconv.Itoa(id) + " " + strconv.Itoa(id) + " 100 30 1 -1 -1 1 60 -1 1 1 1 -1 " + strconv.FormatInt(q, 10) + " -1 -1 -1\n"
			id++
		}
	}
	_, jobs := parseJobs(t, text)
	return jobs
}

func TestUtilityPriorityOrder(t *testing.T) {
	tests := []struct {
		name   string
		order  string // "" = default from the header
		queues []int64
		// want: queue -> expected bin (0 = lowest values) for N bins
		wantN   int
		wantBin map[int64]int
	}{
		{"header default, lowest number highest", "", []int64{0, 1, 2}, 3, map[int64]int{0: 2, 1: 1, 2: 0}},
		{"flag reverses", "2,1,0", []int64{0, 1, 2}, 3, map[int64]int{0: 0, 1: 1, 2: 2}},
		{"flag groups", "1+2,0", []int64{0, 1, 2}, 2, map[int64]int{1: 1, 2: 1, 0: 0}},
		{"unlisted queue is lowest", "0,1", []int64{0, 1, -1}, 2, map[int64]int{0: 1, 1: 0, -1: 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			jobs := jobsInQueues(t, tc.queues, 400)
			h, _ := parseJobs(t, threeQueues)
			cfg := UtilityConfig{}
			if tc.order != "" {
				p, err := ParsePriorities(tc.order)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Priorities = p
			}
			rep, err := GenerateUtility(jobs, h, cfg, NewRand(3, StreamUtility))
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.ByRank) != tc.wantN {
				t.Fatalf("%d ranks, want %d", len(rep.ByRank), tc.wantN)
			}
			sums := map[int64]float64{}
			counts := map[int64]int{}
			for i := range jobs {
				f, _ := utilityOf(t, &jobs[i])
				sums[jobs[i].Queue] += f.Start() // per processor-minute: 1 proc x 1 min
				counts[jobs[i].Queue]++
			}
			width := 1 / float64(tc.wantN)
			for q, bin := range tc.wantBin {
				mean := sums[q] / float64(counts[q])
				want := truncatedMean((float64(bin)+0.5)*width, 0.5*width)
				if tol := 4 * 0.5 * width / math.Sqrt(float64(counts[q])); math.Abs(mean-want) > tol {
					t.Errorf("queue %d: mean start value %.4f, want %.4f (bin %d of %d) within %.4f", q, mean, want, bin, tc.wantN, tol)
				}
			}
		})
	}
}

func TestUtilityOneQueueOrNone(t *testing.T) {
	// All queues -1 and no header Queue lines: one bin, centred on globmax/2.
	jobs := jobsInQueues(t, []int64{-1}, 2000)
	rep, err := GenerateUtility(jobs, &swf.Header{}, UtilityConfig{GlobMax: 10}, NewRand(1, StreamUtility))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.ByRank) != 1 || rep.Unlisted != 0 {
		t.Fatalf("ranks %v, unlisted %d; want one rank, none unlisted", rep.ByRank, rep.Unlisted)
	}
	var sum float64
	for i := range jobs {
		f, _ := utilityOf(t, &jobs[i])
		sum += f.Start()
	}
	want := truncatedMean(5, 5) // sd = spread 0.5 x bin width 10
	if mean := sum / float64(len(jobs)); math.Abs(mean-want) > 4*5/math.Sqrt(2000) {
		t.Errorf("mean start value %.3f, want %.3f (one bin centred on globmax/2)", mean, want)
	}
}

// truncatedMean is the mean of Normal(mu, sd) truncated to [0, inf): the
// generator redraws negative values.
func truncatedMean(mu, sd float64) float64 {
	alpha := -mu / sd
	return mu + sd*distuv.UnitNormal.Prob(alpha)/(1-distuv.UnitNormal.CDF(alpha))
}

func TestUtilityDeadlineFactorAndScaling(t *testing.T) {
	_, jobs := parseJobs(t, `; MaxProcs: 64
1 0 0 10 4 -1 -1 4 600 -1 1 1 1 -1 -1 -1 -1 -1
2 0 3 10 4 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1
3 0 1000 10 -1 -1 -1 8 120 -1 1 1 1 -1 -1 -1 -1 -1
4 0 -1 10 2 -1 -1 2 60 -1 1 1 1 -1 -1 -1 -1 -1
5 0 50 -1 -1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1
`)
	rep, err := GenerateUtility(jobs, nil, UtilityConfig{DeadlineFactor: 3, Spread: 1e-9}, NewRand(1, StreamUtility))
	if err != nil {
		t.Fatal(err)
	}
	// deadline = max(10, 3 x wait); unknown wait -> 10. Start value = 0.5 per
	// processor-minute x processors x requested minutes (field 9, else runtime).
	want := []struct {
		deadline, start float64
		ok              bool
	}{{10, 0.5 * 4 * 10, true}, {10, 0.5 * 4 * 10 / 60, true}, {3000, 0.5 * 8 * 2, true}, {10, 0.5 * 2 * 1, true}, {0, 0, false}}
	for i, w := range want {
		f, ok := utilityOf(t, &jobs[i])
		if ok != w.ok {
			t.Fatalf("job %d: has u= %v, want %v", i+1, ok, w.ok)
		}
		if !ok {
			continue
		}
		if f.Deadline() != w.deadline || math.Abs(f.Start()-w.start) > 1e-4 {
			t.Errorf("job %d: deadline %v start %v, want %v, %v", i+1, f.Deadline(), f.Start(), w.deadline, w.start)
		}
	}
	if rep.Skipped != 1 || rep.UnknownWait != 1 {
		t.Errorf("skipped %d, unknown wait %d; want 1, 1", rep.Skipped, rep.UnknownWait)
	}
}

func TestUtilityDeterminismAndSeed(t *testing.T) {
	tokens := func(seed uint64) []string {
		h, jobs := loadTrace(t, "HPC2N-2002-2-first3170.swf.gz")
		if _, err := GenerateUtility(jobs, h, UtilityConfig{}, NewRand(seed, StreamUtility)); err != nil {
			t.Fatal(err)
		}
		var out []string
		for i := range jobs {
			s, _ := jobs[i].ExtraValue(KeyUtility)
			out = append(out, s)
		}
		return out
	}
	a, b, c := tokens(5), tokens(5), tokens(6)
	if !slices.Equal(a, b) {
		t.Error("same seed, different functions")
	}
	same := 0
	for i := range a {
		if a[i] == c[i] {
			same++
		}
	}
	if same > len(a)/100 {
		t.Errorf("seeds 5 and 6 agree on %d of %d functions", same, len(a))
	}
}

func TestUtilityConfigErrors(t *testing.T) {
	for _, cfg := range []UtilityConfig{
		{Epsilon: 5},                    // min deadline 10 < 2*5+2
		{Weights: [3]float64{-1, 1, 1}}, // negative share
		{GlobMax: -1},                   // negative globmax
		{DeadlineFactor: math.Inf(1)},   // infinite factor
		{Digits: 30},                    // too many digits
	} {
		if _, err := GenerateUtility(nil, nil, cfg, NewRand(1, StreamUtility)); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	for _, s := range []string{"linear", "linear:x", "cubic:1", "step:-1"} {
		if _, err := ParseDecayWeights(s); err == nil {
			t.Errorf("ParseDecayWeights(%q): no error", s)
		}
	}
	for _, s := range []string{"", "a", "1,1", "1+x"} {
		if _, err := ParsePriorities(s); err == nil {
			t.Errorf("ParsePriorities(%q): no error", s)
		}
	}
}

// TestUtilityOptionsChangeOnlyTheirDraws: each job draws its start value,
// decay model and shape from streams of its own, so an option changes only
// what it is about (GenerateUtility). Before per-job streams, changing the
// decay mix redrew the later jobs' start values (1 of 28,476 equal on KTH).
func TestUtilityOptionsChangeOnlyTheirDraws(t *testing.T) {
	h, base := loadTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	funcs := func(cfg UtilityConfig) []utility.Func {
		jobs := slices.Clone(base)
		for i := range jobs {
			jobs[i].Extra = slices.Clone(jobs[i].Extra)
		}
		if _, err := GenerateUtility(jobs, h, cfg, NewRand(5, StreamUtility)); err != nil {
			t.Fatal(err)
		}
		out := make([]utility.Func, len(jobs))
		for i := range jobs {
			out[i], _ = utilityOf(t, &jobs[i])
		}
		return out
	}
	var linear, step, exp [numDecays]float64
	linear[DecayLinear], step[DecayStep], exp[DecayExponential] = 1, 1, 1
	def := funcs(UtilityConfig{})
	lin := funcs(UtilityConfig{Weights: linear})
	stp := funcs(UtilityConfig{Weights: step})
	ex := funcs(UtilityConfig{Weights: exp})
	lin3 := funcs(UtilityConfig{Weights: linear, Points: 3})
	stp3 := funcs(UtilityConfig{Weights: step, Points: 3})
	far := funcs(UtilityConfig{DeadlineFactor: 3})
	wide := funcs(UtilityConfig{Spread: 0.25})
	start := func(f utility.Func) float64 { return f.Points[0].Value }
	times := func(f utility.Func) []float64 {
		var ts []float64
		for _, p := range f.Points {
			ts = append(ts, p.Time)
		}
		return ts
	}
	n, modelKept, shapeKept := 0, 0, 0
	for i := range def {
		if len(def[i].Points) == 0 {
			continue
		}
		n++
		for _, o := range []struct {
			name string
			f    utility.Func
		}{{"linear only", lin[i]}, {"step only", stp[i]}, {"exponential only", ex[i]},
			{"linear, 3 points", lin3[i]}, {"deadline factor 3", far[i]}} {
			if start(o.f) != start(def[i]) {
				t.Fatalf("job %d: start value %v with %s, %v by default", i+1, start(o.f), o.name, start(def[i]))
			}
		}
		// --points does not touch the step shape; the deadline factor
		// leaves the model.
		if !slices.Equal(stp[i].Points, stp3[i].Points) {
			t.Fatalf("job %d: step function %v with 3 points, %v with 4", i+1, stp3[i], stp[i])
		}
		if isStep(far[i], 1) == isStep(def[i], 1) {
			modelKept++
		}
		// --spread changes start values, not where the shape's points are.
		if slices.Equal(times(wide[i]), times(def[i])) {
			shapeKept++
		}
		if start(wide[i]) == start(def[i]) {
			t.Fatalf("job %d: start value %v with spread 0.25 as with the default (0.5)", i+1, start(def[i]))
		}
	}
	if n < 28000 || modelKept != n || shapeKept != n {
		t.Errorf("%d functions: model kept by the deadline factor %d, shape times kept by the spread %d", n, modelKept, shapeKept)
	}
}
