package augment_test

// A second, deliberately simple model of swfaugment's deterministic transforms,
// written from docs/swfaugment.md, pkg/augment's doc.go and exported doc
// comments, README.md and the papers (Guim, Corbalan & Labarta 2007, 3.2-3.3;
// Lee 2009, 2.6 and 6.5) without reading the package's unexported code. It
// exists only to be compared with the real tool (reference_test.go), as
// pkg/policy/reference_test.go does for the schedulers. Plain loops, sorts and
// float arithmetic; no cleverness.
//
// Where the docs are silent or read two ways, the model takes the reading
// below and the tests say so where it matters; all agreed with the tool:
//   - "rounded"/"round(...)" (estimates, load, deadlines): halves away from
//     zero (math.Round); the tool agrees on the many half-way ties of --load 2.
//   - field 5 = 0 with field 8 unknown: processors unknown, like -1.
//   - bounds: the tool's are the float products rounded to 12 significant
//     digits (refSameBounds), a rounding no document mentions.
//   - the debug cut's "smallest 40%": round(0.4 n) jobs in size order, ties in
//     file order (the reading docs/swfaugment.md now states);
//   - --error-untouched user: the job is not "touched" (no est0=, byte-identical
//     unless --as-prediction removes a pred=); the docs say only that field 9
//     is kept.
//   - --checkpoint on a job of unknown size with an old ckpt=: removed ("removes
//     ckpt= from the others"), although "jobs an operation cannot handle are
//     left unchanged" could be read as keeping it.
//   - category 7's "most executed": counted over all jobs, -1 not an
//     application, ties at the cut unchecked.

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	augmentcli "github.com/swfkit/swfkit/internal/cli/augment"
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/swf"
)

// refProcs: field 8 when > 0, else field 5 (DESIGN.md, docs "Conventions").
// A field 5 of 0 or -1 leaves the processors unknown (-1): "processors 0"
// is not a size any operation can use (docs are silent on field 5 = 0; the
// exported Procs says "field 8 when > 0, else field 5, else -1").
func refProcs(j *swf.Job) int64 {
	if j.RequestedProcs > 0 {
		return j.RequestedProcs
	}
	if j.AllocatedProcs > 0 {
		return j.AllocatedProcs
	}
	return -1
}

// refRequested: field 9 when > 0, else the runtime (which may be -1).
func refRequested(j *swf.Job) int64 {
	if j.RequestedTime > 0 {
		return j.RequestedTime
	}
	return j.RunTime
}

// refRound rounds to whole seconds. The docs say "rounded" and "round(...)"
// without a rule for halves; the model reads it as math.Round (half away from
// zero, the ordinary rounding).
func refRound(x float64) int64 { return int64(math.Round(x)) }

// refEstimateValue applies "Common to all estimate transforms": rounded to
// whole seconds, at least 1 s, and (EstimateReport.Capped) at most swf.MaxTime.
func refEstimateValue(x float64) int64 {
	if x >= float64(swf.MaxTime) {
		return swf.MaxTime
	}
	return max(1, refRound(x))
}

// refQuantile is "the lowest value with at least that share of values at or
// below it" over sorted xs (docs, Bounds). The share is computed as p x n,
// the same float product an implementation comparing cumulative counts uses.
func refQuantile(p float64, sorted []float64) float64 {
	c := p * float64(len(sorted))
	for i := range sorted {
		if float64(i+1) >= c {
			return sorted[i]
		}
	}
	return sorted[len(sorted)-1]
}

// refBounds are Guim et al.'s Table 3 bounds by the docs' rule: upper = 0.5 x
// p95, lower = 0.04 x upper, "each variable's percentile is over the jobs
// where it is known" (area: runtime and processors known).
type refBounds struct {
	rtLo, rtHi, pLo, pHi, aLo, aHi float64
}

func refComputeBounds(jobs []swf.Job, pct, upFrac, loFrac float64) refBounds {
	var rts, ps, as []float64
	for i := range jobs {
		j := &jobs[i]
		if j.RunTime >= 0 {
			rts = append(rts, float64(j.RunTime))
		}
		if p := refProcs(j); p > 0 {
			ps = append(ps, float64(p))
			if j.RunTime >= 0 {
				as = append(as, float64(p)*float64(j.RunTime))
			}
		}
	}
	var b refBounds
	up := func(xs []float64) float64 {
		if len(xs) == 0 {
			return 0
		}
		sort.Float64s(xs)
		return upFrac * refQuantile(pct, xs)
	}
	b.rtHi, b.pHi, b.aHi = up(rts), up(ps), up(as)
	b.rtLo, b.pLo, b.aLo = loFrac*b.rtHi, loFrac*b.pHi, loFrac*b.aHi
	return b
}

// refMatches is Table 2, categories 1-9; unknown processors or runtime match
// no bound on that variable (docs).
func refMatches(b refBounds, j *swf.Job, cat int, topApps map[int64]bool) bool {
	rt, p := j.RunTime, refProcs(j)
	rtKnown, pKnown := rt >= 0, p > 0
	r, pf := float64(rt), float64(p)
	switch cat {
	case 1:
		return pKnown && pf > b.pHi
	case 2:
		return pKnown && pf < b.pLo
	case 3:
		return rtKnown && r < b.rtLo
	case 4:
		return rtKnown && r > b.rtHi
	case 5:
		return rtKnown && pKnown && r*pf > b.aHi
	case 6:
		return rtKnown && pKnown && r*pf < b.aLo
	case 7:
		return topApps[j.Executable]
	case 8:
		return rtKnown && r < b.rtLo && pKnown && pf < b.pLo
	case 9:
		return (rtKnown && r > b.rtLo) || (pKnown && pf > b.pLo)
	}
	return false
}

// refQualValue is Guim et al. 3.3.1's pseudo-code for a job that is converted
// (p > u): short (rt < lower) -> rt + upper; large (rt > upper) -> rt - upper,
// or lower - 1 when that is still above the lower bound. ok is false for a
// job that is neither short nor large or whose kind the conversion leaves.
func refQualValue(rt int64, lo, hi float64, conv int) (float64, bool) {
	r := float64(rt)
	switch {
	case r < lo && (conv == 1 || conv == 3):
		// Large means above hi once written in whole seconds.
		if v := r + hi; math.Round(v) > hi {
			return v, true
		}
		return math.Floor(hi) + 1, true
	case r > hi && (conv == 2 || conv == 3):
		e := r - hi
		if e > lo {
			e = lo - 1
		}
		return e, true
	}
	return 0, false
}

// refOfferedLoad: sum of processors x runtime / (machine x submit span), both
// over the jobs whose submit time, runtime and processors are known.
func refOfferedLoad(jobs []swf.Job, machine int64) (float64, int64) {
	var work float64
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for i := range jobs {
		j := &jobs[i]
		p := refProcs(j)
		if j.SubmitTime < 0 || j.RunTime < 0 || p <= 0 {
			continue
		}
		work += float64(p) * float64(j.RunTime)
		first, last = min(first, j.SubmitTime), max(last, j.SubmitTime)
	}
	if first > last {
		return 0, 0
	}
	span := last - first
	return work / (float64(machine) * float64(span)), span
}

// refScaledSubmits: each known submit time s -> first + round((s-first)/F),
// first the earliest known submit time.
func refScaledSubmits(jobs []swf.Job, f float64) []int64 {
	first := int64(math.MaxInt64)
	for i := range jobs {
		if s := jobs[i].SubmitTime; s >= 0 {
			first = min(first, s)
		}
	}
	out := make([]int64, len(jobs))
	for i := range jobs {
		s := jobs[i].SubmitTime
		if s < 0 {
			out[i] = s
			continue
		}
		out[i] = first + refRound(float64(s-first)/f)
	}
	return out
}

// refFunc is a utility function parsed from the token text by hand.
type refPoint struct{ t, v float64 }

func refParseU(s string) ([]refPoint, error) {
	var pts []refPoint
	for _, part := range strings.Split(s, ",") {
		ts, vs, ok := strings.Cut(part, ":")
		if !ok {
			return nil, fmt.Errorf("point %q has no colon", part)
		}
		t, err1 := strconv.ParseFloat(ts, 64)
		v, err2 := strconv.ParseFloat(vs, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("point %q not numbers", part)
		}
		pts = append(pts, refPoint{t, v})
	}
	return pts, nil
}

// refValue evaluates a function at t: the first value before 0, linear
// between points, 0 after the last (pkg/utility doc, DESIGN.md u= row).
func refValue(pts []refPoint, t float64) float64 {
	if t <= pts[0].t {
		return pts[0].v
	}
	for k := 1; k < len(pts); k++ {
		a, b := pts[k-1], pts[k]
		if t <= b.t {
			return a.v + (b.v-a.v)*(t-a.t)/(b.t-a.t)
		}
	}
	return 0
}

// refTruncNormalMean is the mean of Normal(mu, sd) truncated to [0, inf): the
// documented start value per processor-minute ("negative draws are redrawn").
func refTruncNormalMean(mu, sd float64) float64 {
	a := -mu / sd
	phi := math.Exp(-a*a/2) / math.Sqrt(2*math.Pi)
	tail := 0.5 * math.Erfc(a/math.Sqrt2) // 1 - Phi(a)
	return mu + sd*phi/tail
}

// refTruncNormalSD is the standard deviation of that truncated normal.
func refTruncNormalSD(mu, sd float64) float64 {
	a := -mu / sd
	phi := math.Exp(-a*a/2) / math.Sqrt(2*math.Pi)
	tail := 0.5 * math.Erfc(a/math.Sqrt2)
	lam := phi / tail
	return sd * math.Sqrt(1+a*lam-lam*lam)
}

// refConvertShare is P(p > u) for p ~ Normal(P, SD), u ~ U(0, 100):
// E[clamp(p, 0, 100)]/100, integrated numerically (Simpson over +-8 sd).
func refConvertShare(P, SD float64) float64 {
	if SD == 0 {
		return math.Min(1, math.Max(0, P/100))
	}
	const n = 20000
	lo, hi := P-8*SD, P+8*SD
	h := (hi - lo) / n
	f := func(x float64) float64 {
		d := math.Exp(-(x-P)*(x-P)/(2*SD*SD)) / (SD * math.Sqrt(2*math.Pi))
		return d * math.Min(100, math.Max(0, x)) / 100
	}
	s := f(lo) + f(hi)
	for k := 1; k < n; k++ {
		w := 2.0
		if k%2 == 1 {
			w = 4
		}
		s += w * f(lo+float64(k)*h)
	}
	return s * h / 3
}

// ---- traces -----------------------------------------------------------------

type refTrace struct {
	hdr  *swf.Header
	jobs []swf.Job
}

func refRead(t testing.TB, data []byte) refTrace {
	t.Helper()
	h, jobs := testutil.ReadSWF(t, bytes.NewReader(data))
	return refTrace{h, jobs}
}

// refSharedTrace returns a shared trace's decompressed bytes, the first
// maxJobs job lines when maxJobs > 0 (a slice of RICC keeps tests fast).
func refSharedTrace(t testing.TB, name string, maxJobs int) []byte {
	t.Helper()
	path := testutil.SharedData(t) + "/" + name
	in, err := cmdio.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(in); err != nil {
		t.Fatal(err)
	}
	if maxJobs <= 0 {
		return buf.Bytes()
	}
	var out bytes.Buffer
	n := 0
	for _, line := range bytes.SplitAfter(buf.Bytes(), []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 && line[0] != ';' {
			if n == maxJobs {
				break
			}
			n++
		}
		out.Write(line)
	}
	return out.Bytes()
}

// refRun runs swfaugment in-process and returns its output; any exit status
// but 0 fails the test.
func refRun(t testing.TB, in []byte, args ...string) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	code := augmentcli.Run(append([]string{"swfaugment"}, args...), bytes.NewReader(in), &out, &errb)
	if code != 0 {
		t.Fatalf("swfaugment %v: exit %d: %s", args, code, errb.String())
	}
	return out.Bytes()
}

// refGenTrace writes a small random trace full of edge cases: unknown (-1)
// fields, zero runtimes, requests below the runtime, every status, aligned
// columns with runs of blanks (so that byte-identity means something),
// unknown tokens and tokens the tool owns (u=, ckpt=, est0=, pred=).
func refGenTrace(seed uint64, n int, queueLines bool) []byte {
	rng := rand.New(rand.NewPCG(seed, 99))
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; Computer: reference model\n; MaxProcs: 64\n; MaxNodes: 32\n")
	if queueLines {
		b.WriteString("; Queue: 0 interactive\n; Queue: 1 batch\n; Queue: 2 long\n")
	}
	b.WriteString(";\n")
	pick := func(vals ...int64) int64 { return vals[rng.IntN(len(vals))] }
	submit := int64(1000 + rng.IntN(100))
	for i := 1; i <= n; i++ {
		if rng.IntN(5) > 0 {
			submit += int64(rng.IntN(400))
		}
		sub := submit
		if rng.IntN(25) == 0 {
			sub = -1
		}
		wait := int64(rng.IntN(5000))
		switch rng.IntN(8) {
		case 0:
			wait = -1
		case 1:
			wait = 0
		case 2:
			wait = int64(rng.IntN(7)) // tiny: deadlines near the minimum
		}
		run := int64(math.Exp(rng.Float64() * 12))
		switch rng.IntN(10) {
		case 0:
			run = -1
		case 1:
			run = 0
		case 2:
			run = int64(rng.IntN(3))
		}
		alloc := pick(-1, 0, 1, 2, 4, 8, 16, 32, 64, int64(1+rng.IntN(64)))
		req := pick(-1, -1, 1, 4, 16, int64(1+rng.IntN(64)))
		var reqt int64
		switch rng.IntN(6) {
		case 0:
			reqt = -1
		case 1:
			reqt = 0
		case 2:
			reqt = max(1, run/2) // below the runtime
		default:
			reqt = max(1, run) + int64(rng.IntN(3600))
		}
		cpu := "-1"
		if rng.IntN(3) == 0 {
			cpu = strconv.FormatFloat(float64(rng.IntN(1000))/4, 'f', -1, 64)
		}
		f := []string{
			strconv.Itoa(i), strconv.FormatInt(sub, 10), strconv.FormatInt(wait, 10),
			strconv.FormatInt(run, 10), strconv.FormatInt(alloc, 10), cpu, "-1",
			strconv.FormatInt(req, 10), strconv.FormatInt(reqt, 10), "-1",
			strconv.FormatInt(pick(-1, 0, 1, 1, 1, 2, 3, 4, 5), 10),
			strconv.FormatInt(pick(-1, 1, 2, 3, 4, 5), 10), strconv.FormatInt(pick(-1, 1, 2), 10),
			strconv.FormatInt(pick(-1, 1, 2, 3, 4, 5, 6, 7), 10), strconv.FormatInt(pick(-1, 0, 1, 2, 3), 10),
			"1", "-1", "-1",
		}
		switch rng.IntN(12) {
		case 0:
			f = append(f, "foo=bar")
		case 1:
			f = append(f, "est0=77", "zz=1")
		case 2:
			f = append(f, "pred=5")
		case 3:
			f = append(f, "u=0:3,10:0", "ckpt=600")
		case 4:
			f = append(f, "ckpt=60", "x=y")
		}
		for k, s := range f {
			if k > 0 {
				b.WriteString(strings.Repeat(" ", 1+rng.IntN(3)))
			}
			b.WriteString(s)
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// ---- field-by-field comparison ---------------------------------------------

// refExpect is what the model says one output record must be.
type refExpect struct {
	fields  [swf.NumFields]float64
	set     map[string]string // tokens the operation sets (value)
	removed map[string]bool   // tokens the operation removes
	changed bool              // false: the output line is the input line, byte for byte
}

func refExpectFrom(j *swf.Job) refExpect {
	var e refExpect
	for n := 1; n <= swf.NumFields; n++ {
		e.fields[n-1] = j.Field(n)
	}
	e.set, e.removed = map[string]string{}, map[string]bool{}
	return e
}

// refCompare checks every output record against the model: byte-identical
// when unchanged; else every field as expected and the tokens: unknown ones
// kept in order with their values, set ones present with the model's value,
// removed ones absent. check gets a chance to examine each pair further.
func refCompare(t *testing.T, in, out []swf.Job, want func(i int) refExpect) {
	t.Helper()
	if len(in) != len(out) {
		t.Fatalf("%d jobs in, %d out", len(in), len(out))
	}
	bad := 0
	fail := func(format string, args ...any) {
		bad++
		if bad <= 10 {
			t.Errorf(format, args...)
		}
	}
	for i := range in {
		e := want(i)
		o := &out[i]
		if !e.changed {
			if !bytes.Equal(in[i].Raw(), o.Raw()) {
				fail("job line %d: want byte-identical\n in: %s\nout: %s", in[i].Line, in[i].Raw(), o.Raw())
			}
			continue
		}
		for n := 1; n <= swf.NumFields; n++ {
			if got := o.Field(n); got != e.fields[n-1] {
				fail("job line %d field %d: got %v, model %v\n in: %s\nout: %s", in[i].Line, n, got, e.fields[n-1], in[i].Raw(), o.Raw())
			}
		}
		var keptIn, keptOut []string
		for _, tok := range in[i].Extra {
			k, _, _ := strings.Cut(tok, "=")
			if _, s := e.set[k]; !s && !e.removed[k] {
				keptIn = append(keptIn, tok)
			}
		}
		for _, tok := range o.Extra {
			k, v, _ := strings.Cut(tok, "=")
			if wv, s := e.set[k]; s {
				if wv != "*" && v != wv {
					fail("job line %d token %s: got %q, model %q", in[i].Line, k, v, wv)
				}
				continue
			}
			if e.removed[k] {
				fail("job line %d: token %s should be gone: %s", in[i].Line, k, o.Raw())
				continue
			}
			keptOut = append(keptOut, tok)
		}
		for k := range e.set {
			if _, ok := o.ExtraValue(k); !ok {
				fail("job line %d: token %s= missing: %s", in[i].Line, k, o.Raw())
			}
		}
		if strings.Join(keptIn, " ") != strings.Join(keptOut, " ") {
			fail("job line %d: other tokens %q became %q", in[i].Line, keptIn, keptOut)
		}
	}
	if bad > 10 {
		t.Errorf("... %d mismatches in all", bad)
	}
}
