package augment_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/augment"
	"github.com/swfkit/swfkit/pkg/swf"
	"github.com/swfkit/swfkit/pkg/utility"
)

// refUtilOpts are the documented parameters the model needs.
type refUtilOpts struct {
	factor      float64
	minDeadline int64
	points      int
	eps         int64
	digits      int
}

var refUtilDefaults = refUtilOpts{factor: 2, minDeadline: 10, points: 4, eps: 1, digits: 6}

// refUtilJob is what the model read from one job's u= token.
type refUtilJob struct {
	has      bool
	step     bool
	perProcM float64   // start value per processor-minute
	inner    []float64 // intermediate values / start (linear, exponential)
	stepV    float64   // step: V / start
}

// refDeadline: max(min, round(factor x wait)), min when the wait is unknown.
func refDeadline(o refUtilOpts, wait int64) int64 {
	if wait < 0 {
		return o.minDeadline
	}
	return max(o.minDeadline, refRound(o.factor*float64(wait)))
}

// refCheckUtility checks every job of a --utility output against the
// documented shape: a u= exactly for the jobs with known processors and
// requested time (the others byte-identical), first point (0, start), last
// (deadline, 0), whole-second times strictly increasing, values non-negative,
// non-increasing and of at most `digits` significant digits; either a step
// (0,S) (ts,S) (ts+eps,V) (D-eps,V) (D,0) with 1 <= ts <= D-2eps-1, or
// min(points, D-1) intermediate points in (0, D). pkg/utility's Value at
// several turnaround times must be the model's linear interpolation.
func refCheckUtility(t *testing.T, in, out []swf.Job, o refUtilOpts) []refUtilJob {
	t.Helper()
	res := make([]refUtilJob, len(in))
	bad := 0
	fail := func(i int, format string, args ...any) {
		bad++
		if bad <= 10 {
			t.Errorf("job line %d: "+format+"\n in: %s\nout: %s", append(append([]any{in[i].Line}, args...), in[i].Raw(), out[i].Raw())...)
		}
	}
	refCompare(t, in, out, func(i int) refExpect {
		j := &in[i]
		e := refExpectFrom(j)
		p, req := refProcs(j), refRequested(j)
		if p <= 0 || req < 0 {
			return e
		}
		e.changed = true
		e.set[augment.KeyUtility] = "*"
		tok, ok := out[i].ExtraValue(augment.KeyUtility)
		if !ok {
			return e
		}
		pts, err := refParseU(tok)
		if err != nil || len(pts) < 2 {
			fail(i, "u=%s: %v", tok, err)
			return e
		}
		r := refUtilJob{has: true}
		d := refDeadline(o, j.WaitTime)
		last := pts[len(pts)-1]
		if pts[0].t != 0 || last.t != float64(d) || last.v != 0 {
			fail(i, "u=%s: want (0, start) ... (%d, 0) (wait %d)", tok, d, j.WaitTime)
			return e
		}
		for k, pt := range pts {
			if pt.t != math.Trunc(pt.t) || pt.v < 0 || math.IsInf(pt.v, 0) || pt.v > 1e300 {
				fail(i, "u=%s: point %d", tok, k)
			}
			if s := strconv.FormatFloat(pt.v, 'g', o.digits, 64); s != strconv.FormatFloat(pt.v, 'g', -1, 64) {
				if back, _ := strconv.ParseFloat(s, 64); back != pt.v {
					fail(i, "u=%s: value %v has more than %d digits", tok, pt.v, o.digits)
				}
			}
			if k > 0 && (pt.t <= pts[k-1].t || pt.v > pts[k-1].v) {
				fail(i, "u=%s: point %d out of order", tok, k)
			}
		}
		start := pts[0].v
		isStep := len(pts) == 5 && pts[1].v == start && pts[2].v == pts[3].v &&
			pts[2].t == pts[1].t+float64(o.eps) && pts[3].t == float64(d-o.eps) &&
			pts[1].t >= 1 && pts[1].t <= float64(d-2*o.eps-1)
		inner := min(int64(o.points), d-1)
		isLinExp := int64(len(pts)) == inner+2
		switch {
		case isStep:
			r.step = true
			if start > 0 {
				r.stepV = pts[2].v / start
			}
		case isLinExp:
			if start > 0 {
				for _, pt := range pts[1 : len(pts)-1] {
					r.inner = append(r.inner, pt.v/start)
				}
			}
		default:
			fail(i, "u=%s: neither a step nor %d intermediate points (deadline %d)", tok, inner, d)
		}
		if m := float64(p) * float64(req) / 60; m > 0 {
			r.perProcM = start / m
		}
		// Evaluation through pkg/utility's API.
		f, err := utility.Parse(tok)
		if err != nil {
			fail(i, "utility.Parse: %v", err)
			return e
		}
		times := []float64{-5, 0, float64(d), float64(d) + 1, float64(max(j.WaitTime, 0) + max(j.RunTime, 0))}
		for k := range pts {
			times = append(times, pts[k].t)
			if k > 0 {
				times = append(times, (pts[k-1].t+pts[k].t)/2, pts[k-1].t+0.25*(pts[k].t-pts[k-1].t))
			}
		}
		for _, tt := range times {
			if got, want := f.Value(tt), refValue(pts, tt); math.Abs(got-want) > 1e-12*start {
				fail(i, "u=%s at %v: Value %v, model %v", tok, tt, got, want)
			}
		}
		if f.Deadline() != float64(d) || f.Start() != start {
			fail(i, "Deadline %v Start %v, model %d %v", f.Deadline(), f.Start(), d, start)
		}
		res[i] = r
		return e
	})
	for i := range in {
		if p, req := refProcs(&in[i]), refRequested(&in[i]); p > 0 && req >= 0 && !res[i].has && bad < 10 {
			bad++
			t.Errorf("job line %d: no u= (processors %d, requested %d)", in[i].Line, p, req)
		}
	}
	return res
}

// TestReferenceUtilityShape runs --utility through the command on real and
// random traces, with the defaults and with other documented parameters.
func TestReferenceUtilityShape(t *testing.T) {
	inputs := map[string][]byte{
		"KTH-SP2[:8000]":  refSharedTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz", 8000),
		"LANL-CM5[:8000]": refSharedTrace(t, "LANL-CM5-1994-4.1-cln.swf.gz", 8000),
		"RICC[:8000]":     refSharedTrace(t, "RICC-2010-2.swf.gz", 8000),
		"random1":         refGenTrace(51, 500, true),
		"random2":         refGenTrace(52, 500, false),
	}
	variants := []struct {
		args []string
		o    refUtilOpts
	}{
		{nil, refUtilDefaults},
		{[]string{"--deadline-factor", "1.5", "--min-deadline", "4", "--points", "3", "--digits", "4"},
			refUtilOpts{factor: 1.5, minDeadline: 4, points: 3, eps: 1, digits: 4}},
		{[]string{"--decay", "step:1", "--epsilon", "3", "--min-deadline", "8"},
			refUtilOpts{factor: 2, minDeadline: 8, points: 4, eps: 3, digits: 6}},
		{[]string{"--decay", "linear:1", "--min-deadline", "1", "--points", "7", "--deadline-factor", "1"},
			refUtilOpts{factor: 1, minDeadline: 1, points: 7, eps: 1, digits: 6}},
	}
	for name, data := range inputs {
		in := refRead(t, data)
		for k, v := range variants {
			if k > 0 && !strings.HasPrefix(name, "random") && k != 1 {
				continue // time
			}
			t.Run(name+" "+strings.Join(v.args, " "), func(t *testing.T) {
				out := refRead(t, refRun(t, data, append([]string{"--utility"}, v.args...)...))
				res := refCheckUtility(t, in.jobs, out.jobs, v.o)
				for i, r := range res {
					if !r.has {
						continue
					}
					if strings.Contains(strings.Join(v.args, " "), "step:1") && !r.step {
						t.Errorf("job line %d: --decay step:1 but not a step", in.jobs[i].Line)
						break
					}
					if strings.Contains(strings.Join(v.args, " "), "linear:1") && r.step && len(r.inner) == 0 && in.jobs[i].WaitTime > 10 {
						t.Errorf("job line %d: --decay linear:1 but a step", in.jobs[i].Line)
						break
					}
				}
			})
		}
	}
}

// refRanks is the model's priority rank of each job, N ranks: default = one
// rank per header Queue line, else per distinct queue >= 0, increasing, the
// lowest number the highest; unlisted queues (and -1) get the lowest rank.
func refRanks(h *swf.Header, jobs []swf.Job, order [][]int64) (ranks []int, n int, unlisted []bool) {
	rank := map[int64]int{}
	if order != nil {
		for r, g := range order {
			for _, q := range g {
				rank[q] = r
			}
		}
		n = len(order)
	} else {
		var qs []int64
		if ql := h.Queues(); len(ql) > 0 {
			used := map[int64]bool{}
			for i := range jobs {
				used[jobs[i].Queue] = true
			}
			anyUsed := false
			for _, q := range ql {
				qs = append(qs, q.Number)
				anyUsed = anyUsed || used[q.Number]
			}
			if !anyUsed { // no job in a listed queue: one rank
				qs = nil
			}
		} else {
			for i := range jobs {
				qs = append(qs, jobs[i].Queue)
			}
		}
		seen := map[int64]bool{}
		var uniq []int64
		for _, q := range qs {
			if q >= 0 && !seen[q] {
				seen[q] = true
				uniq = append(uniq, q)
			}
		}
		sortInt64(uniq)
		for r, q := range uniq {
			rank[q] = r
		}
		n = len(uniq)
	}
	n = max(n, 1)
	ranks = make([]int, len(jobs))
	unlisted = make([]bool, len(jobs))
	for i := range jobs {
		r, ok := rank[jobs[i].Queue]
		if !ok {
			r, unlisted[i] = n-1, true
		}
		ranks[i] = r
	}
	return ranks, n, unlisted
}

func sortInt64(xs []int64) {
	for a := 1; a < len(xs); a++ {
		for b := a; b > 0 && xs[b] < xs[b-1]; b-- {
			xs[b], xs[b-1] = xs[b-1], xs[b]
		}
	}
}

// TestReferenceUtilityValues checks the documented distributions over many
// jobs with a fixed seed (library, the command's stream): per priority rank,
// the start value per processor-minute is Normal((N-1-rank+0.5)/N x globmax,
// spread x globmax/N) truncated at 0, its mean within 5 standard errors and
// its sd within 10%; ByRank and Unlisted are the model's counts; linear
// intermediate values/start are sorted uniforms, the k-th of n has mean
// (n+1-k)/(n+1); exponential ones have mean 2^-k; a step's V/start has mean
// 1/2; the step share is 1/3 under the default mix (jobs with deadline >= 6,
// where a step's 5 points cannot be mistaken for 4 intermediate points).
// Tolerances: 5 standard errors of the sample (false alarm < 1e-6 each);
// the 6-digit rounding moves a ratio by < 1e-5, far inside them.
func TestReferenceUtilityValues(t *testing.T) {
	data := refGenTrace(61, 6000, true)
	inRT := refRead(t, data)
	for _, c := range []struct {
		name    string
		order   string
		globmax float64
		spread  float64
		decay   string
	}{
		{name: "header queues", globmax: 1, spread: 0.5},
		{name: "flag order", order: "2,0+1", globmax: 7, spread: 0.3, decay: "linear:1"},
		{name: "exponential", globmax: 1, spread: 0.5, decay: "exponential:1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			lib := refRead(t, data)
			cfg := augment.UtilityConfig{GlobMax: c.globmax, Spread: c.spread}
			var order [][]int64
			if c.order != "" {
				pr, err := augment.ParsePriorities(c.order)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Priorities, order = pr, pr.Groups
			}
			if c.decay != "" {
				w, err := augment.ParseDecayWeights(c.decay)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Weights = w
			}
			rep, err := augment.GenerateUtility(lib.jobs, lib.hdr, cfg, augment.NewRand(1, augment.StreamUtility))
			if err != nil {
				t.Fatal(err)
			}
			out := refWriteRead(t, lib.hdr, lib.jobs)
			res := refCheckUtility(t, inRT.jobs, out, refUtilDefaults)
			ranks, n, unl := refRanks(inRT.hdr, inRT.jobs, order)
			byRank := make([][]float64, n)
			unlisted, steps, stepJobs := 0, 0, 0
			var inner [][]float64
			var stepV []float64
			for i, r := range res {
				if !r.has {
					continue
				}
				if m := float64(refProcs(&inRT.jobs[i])) * float64(refRequested(&inRT.jobs[i])) / 60; m > 0 {
					byRank[ranks[i]] = append(byRank[ranks[i]], r.perProcM)
				}
				if unl[i] {
					unlisted++
				}
				if d := refDeadline(refUtilDefaults, inRT.jobs[i].WaitTime); d >= 6 {
					stepJobs++
					if r.step {
						steps++
					}
				}
				if r.step && r.perProcM > 0 {
					stepV = append(stepV, r.stepV)
				}
				if len(r.inner) == refUtilDefaults.points {
					for k, v := range r.inner {
						if len(inner) <= k {
							inner = append(inner, nil)
						}
						inner[k] = append(inner[k], v)
					}
				}
			}
			t.Logf("ranks %d, jobs per rank %v, unlisted %d, step jobs %d/%d, points sampled %d", n, rep.ByRank, unlisted, steps, stepJobs, len(inner))
			if rep.Unlisted != unlisted || len(rep.ByRank) != n {
				t.Errorf("report unlisted %d ranks %d, model %d %d", rep.Unlisted, len(rep.ByRank), unlisted, n)
			}
			for r := range byRank {
				if r < len(rep.ByRank) && rep.ByRank[r] < len(byRank[r]) {
					t.Errorf("rank %d: report %d jobs, model at least %d", r, rep.ByRank[r], len(byRank[r]))
				}
				mu := (float64(n-1-r) + 0.5) / float64(n) * c.globmax
				sd := c.spread * c.globmax / float64(n)
				wantMean, wantSD := refTruncNormalMean(mu, sd), refTruncNormalSD(mu, sd)
				mean, gotSD := refMeanSD(byRank[r])
				for _, x := range byRank[r] {
					if x < 0 {
						t.Errorf("rank %d: negative start value %v", r, x)
						break
					}
				}
				k := float64(len(byRank[r]))
				if math.Abs(mean-wantMean) > 5*wantSD/math.Sqrt(k)+1e-5*wantMean {
					t.Errorf("rank %d: mean start/proc-minute %v over %v jobs, model %v (sd %v)", r, mean, k, wantMean, wantSD)
				}
				if math.Abs(gotSD-wantSD) > 0.1*wantSD {
					t.Errorf("rank %d: sd %v, model %v", r, gotSD, wantSD)
				}
			}
			for k, vs := range inner {
				want := float64(len(inner)-k) / float64(len(inner)+1) // linear: sorted uniforms
				if c.decay == "exponential:1" {
					want = math.Pow(2, -float64(k+1))
				}
				mean, sd := refMeanSD(vs)
				if c.decay != "" && math.Abs(mean-want) > 5*sd/math.Sqrt(float64(len(vs)))+1e-5 {
					t.Errorf("%s intermediate point %d: mean value/start %v over %d, model %v", c.decay, k+1, mean, len(vs), want)
				}
			}
			if c.decay == "" {
				share := float64(steps) / float64(stepJobs)
				if tol := 5 * math.Sqrt(2.0/9/float64(stepJobs)); math.Abs(share-1.0/3) > tol {
					t.Errorf("step share %v of %d, model 1/3 +- %v", share, stepJobs, tol)
				}
				mean, sd := refMeanSD(stepV)
				if math.Abs(mean-0.5) > 5*sd/math.Sqrt(float64(len(stepV))) {
					t.Errorf("step V/start mean %v over %d, model 1/2", mean, len(stepV))
				}
			}
		})
	}
}

// TestReferencePriorities: DefaultPriorities is one rank per header Queue
// line (one rank for all when no job is in any), else per distinct queue >= 0
// in the trace, increasing, lowest first.
func TestReferencePriorities(t *testing.T) {
	for name, data := range map[string][]byte{
		"LANL-CM5[:3000]": refSharedTrace(t, "LANL-CM5-1994-4.1-cln.swf.gz", 3000),
		"KTH-SP2[:3000]":  refSharedTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz", 3000),
		// Header queues 0 and 1, every job in queue -1: one rank.
		"NASA-iPSC[:3000]": refSharedTrace(t, "NASA-iPSC-1993-3.1-cln.swf.gz", 3000),
		"random queues":    refGenTrace(71, 300, true),
		"random trace":     refGenTrace(72, 300, false),
	} {
		in := refRead(t, data)
		p := augment.DefaultPriorities(in.hdr, in.jobs)
		ranks, n, unl := refRanks(in.hdr, in.jobs, nil)
		if p.N() != n {
			t.Errorf("%s: %d ranks, model %d (%v)", name, p.N(), n, p.Groups)
		}
		for i := range in.jobs {
			r, listed := p.Rank(in.jobs[i].Queue)
			if r != ranks[i] || listed == unl[i] {
				t.Errorf("%s: queue %d rank %d listed %v, model %d %v", name, in.jobs[i].Queue, r, listed, ranks[i], !unl[i])
				break
			}
		}
	}
}
