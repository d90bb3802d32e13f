package stats_test

// Compares stats.Collector's Report with the documentation-only model of
// crosscheck_model_test.go, value for value, on random small traces full of
// edge cases and on real archive traces.
//
// Tolerances: counts (every "n" and "count" row, jobs, machine_procs,
// makespan_s, peak_procs_in_use, large_jobs) and every row's Jobs must be
// equal exactly; a percentile is one observed value computed by one division,
// so it must agree to a relative 1e-12; means, sums, percents, utilization,
// offered load, φ and δ are sums in some order, so they must agree to a
// relative 1e-9. Undefined (NaN) matches only undefined.

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/stats"
	"github.com/swfkit/swfkit/pkg/swf"
)

// refModelled lists the metrics the model computes; the others (fairness) are
// not compared.
var refModelled = map[string]bool{
	"machine_procs": true, "makespan_s": true, "utilization_pct": true,
	"peak_procs_in_use": true, "offered_load": true, "jobs": true,
	"wait_s": true, "response_s": true, "slowdown": true, "bsld": true,
	"killed": true, "failed": true, "cancelled": true,
	"request_inaccuracy_pct": true, "under_20pct_of_request": true,
	"utility": true, "start_value_earned_pct": true, "uqos": true,
}

// refCase is one configuration under test, as the Collector and as the model
// take it.
type refCase struct {
	name string
	cfg  stats.Config
}

// refConfigOf applies the documented defaults of stats.Config's fields.
func refConfigOf(c stats.Config) refConfig {
	r := refConfig{
		threshold: c.BSLDThreshold, percentiles: c.Percentiles, procsFrom: c.ProcsFrom,
		shortRuntime: c.ShortRuntime, narrowProcs: c.NarrowProcs, trial: c.TrialRuntime,
		factor: c.UQoSFactor, lower: c.UQoSLowerBound, upper: c.UQoSUpperBound,
		skipFirst: c.SkipFirst, skipLst: c.SkipLast, by: c.By,
	}
	if r.threshold == 0 {
		r.threshold = 10
	}
	if r.percentiles == nil {
		r.percentiles = []float64{25, 50, 75, 98, 100}
	}
	if r.shortRuntime == 0 {
		r.shortRuntime = 3600
	}
	if r.narrowProcs == 0 {
		r.narrowProcs = 8
	}
	if r.trial == 0 {
		r.trial = 90
	}
	if r.factor == 0 {
		r.factor = 1
	}
	return r
}

func mustCount(s string) stats.Count {
	c, err := stats.ParseCount(s)
	if err != nil {
		panic(err)
	}
	return c
}

// refCases are the configurations every trace is checked under: the defaults
// and non-default values of every flag the model covers.
var refCases = []refCase{
	{"default", stats.Config{}},
	{"by-category", stats.Config{By: []stats.Key{stats.ByCategory}}},
	{"by-category-runtime600-procs16", stats.Config{By: []stats.Key{stats.ByCategory}, ShortRuntime: 600, NarrowProcs: 16}},
	{"by-status-user", stats.Config{By: []stats.Key{stats.ByStatus, stats.ByUser}}},
	{"by-queue", stats.Config{By: []stats.Key{stats.ByQueue}, ProcsFrom: sim.ProcsAllocated}},
	{"by-short-status-trial30", stats.Config{By: []stats.Key{stats.ByShort, stats.ByStatus}, TrialRuntime: 30}},
	{"threshold60-percentiles", stats.Config{BSLDThreshold: 60, Percentiles: []float64{0, 10, 33.3, 50, 90, 95, 99.9, 100}}},
	{"procs-requested-only", stats.Config{ProcsFrom: sim.ProcsRequested, By: []stats.Key{stats.ByUser}}},
	{"procs-max-factor2", stats.Config{ProcsFrom: sim.ProcsMax, UQoSFactor: 2}},
	{"uqos-bounds", stats.Config{UQoSLowerBound: 50, UQoSUpperBound: 2000, UQoSFactor: 0.25}},
	{"uqos-upper-only", stats.Config{UQoSUpperBound: 1500}},
	{"skip-counts", stats.Config{SkipFirst: mustCount("3"), SkipLast: mustCount("2"), By: []stats.Key{stats.ByCategory}}},
	{"skip-percent", stats.Config{SkipFirst: mustCount("29%"), SkipLast: mustCount("7%")}},
}

// refTrace is a trace read both ways.
type refTrace struct {
	procs int64
	jobs  []refJob
	text  string // for messages; empty for real traces
}

// refRead reads an SWF stream into a Collector per case and into refJobs.
// limit > 0 stops after that many jobs.
func refRead(t *testing.T, rd io.Reader, procs int64, cases []refCase, limit int) (refTrace, []*stats.Collector) {
	t.Helper()
	r := swf.NewReader(rd)
	hdr, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	if procs < 0 {
		p, _, ok, err := sim.MachineSize(hdr)
		if err != nil {
			t.Fatal(err)
		}
		procs = 0
		if ok {
			procs = p
		}
	}
	collectors := make([]*stats.Collector, len(cases))
	for i, c := range cases {
		collectors[i] = stats.NewCollector(c.cfg, stats.Machine{Procs: procs, Source: "MaxProcs"})
	}
	tr := refTrace{procs: procs}
	for limit <= 0 || len(tr.jobs) < limit {
		job, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range collectors {
			if err := c.Add(&job); err != nil {
				t.Fatal(err)
			}
		}
		j := refJob{submit: job.SubmitTime, wait: job.WaitTime, run: job.RunTime,
			alloc: job.AllocatedProcs, reqProcs: job.RequestedProcs, reqTime: job.RequestedTime,
			status: job.Status, user: job.UserID, queue: job.Queue}
		refParseTokens(&j, job.Extra)
		tr.jobs = append(tr.jobs, j)
	}
	return tr, collectors
}

// refOrder is the documented order of groups: SN SW LN LW, short long, ids
// numerically, unknown last (docs/swfstat.md "Breakdowns").
func refOrder(g string) (int, int64) {
	fixed := map[string]int{"SN": 0, "SW": 1, "LN": 2, "LW": 3, "short": 0, "long": 1}
	if i, ok := fixed[g]; ok {
		return 0, int64(i)
	}
	if g == stats.Unknown {
		return 2, 0
	}
	v, err := strconv.ParseInt(g, 10, 64)
	if err != nil {
		return 3, 0
	}
	return 1, v
}

func refGroupLess(a, b string) bool {
	ca, va := refOrder(a)
	cb, vb := refOrder(b)
	if ca != cb {
		return ca < cb
	}
	return va < vb
}

// refExactRow says which rows are counts, compared exactly.
func refExactRow(k refRowKey) bool {
	switch k.metric {
	case "jobs", "machine_procs", "makespan_s", "peak_procs_in_use":
		return true
	}
	return k.statistic == "n" || k.statistic == "count" || k.statistic == "large_jobs"
}

func refAgree(k refRowKey, got, want float64) bool {
	if math.IsNaN(got) || math.IsNaN(want) {
		return math.IsNaN(got) && math.IsNaN(want)
	}
	if refExactRow(k) {
		return got == want
	}
	tol := 1e-9
	if strings.HasPrefix(k.statistic, "p") && k.statistic != "percent" && k.statistic != "phi" {
		tol = 1e-12
	}
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// refFault names a known fault of the real code that a mismatch is an
// instance of, or "" for an unexplained mismatch. The faults are listed
// with their minimal cases in crosscheck_faults_test.go.
type refFault func(k refRowKey, got stats.Row, want refRow, found bool) string

// refCompare compares a Report with the model and returns the mismatches not
// explained by a known fault, and the known faults met.
func refCompare(rep *stats.Report, want refReport, known refFault) (problems []string, faults map[string]int) {
	faults = map[string]int{}
	add := func(fault, msg string) {
		if fault != "" {
			faults[fault]++
			return
		}
		problems = append(problems, msg)
	}
	if rep.JobsRead != want.read || rep.WarmUp != want.warm || rep.CoolDown != want.cool || rep.Measured != want.measured {
		add("", fmt.Sprintf("read %d, warm-up %d, cool-down %d, measured %d; model %d, %d, %d, %d",
			rep.JobsRead, rep.WarmUp, rep.CoolDown, rep.Measured, want.read, want.warm, want.cool, want.measured))
	}
	got := map[refRowKey]stats.Row{}
	var groupOrder [][2]string
	for _, row := range rep.Rows {
		k := refRowKey{row.By1, row.Group1, row.By2, row.Group2, row.Metric, row.Statistic}
		if !refModelled[row.Metric] {
			continue
		}
		if _, dup := got[k]; dup {
			add("", fmt.Sprintf("%v: row twice", k))
		}
		got[k] = row
		if row.Metric == "jobs" && row.By1 != "" {
			groupOrder = append(groupOrder, [2]string{row.Group1, row.Group2})
		}
		if _, ok := want.rows[k]; !ok {
			add(known(k, row, refRow{}, false), fmt.Sprintf("%v = %v over %d: not in the model", k, row.Value, row.Jobs))
		}
	}
	keys := make([]refRowKey, 0, len(want.rows))
	for k := range want.rows {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a].String() < keys[b].String() })
	for _, k := range keys {
		w := want.rows[k]
		row, ok := got[k]
		if !ok {
			add(known(k, row, w, false), fmt.Sprintf("%v: missing (model %v over %d)", k, w.value, w.jobs))
			continue
		}
		if !refAgree(k, row.Value, w.value) || row.Jobs != w.jobs {
			add(known(k, row, w, true), fmt.Sprintf("%v = %v over %d jobs, model %v over %d", k, row.Value, row.Jobs, w.value, w.jobs))
		}
	}
	for i := 1; i < len(groupOrder); i++ {
		a, b := groupOrder[i-1], groupOrder[i]
		if refGroupLess(b[0], a[0]) || (a[0] == b[0] && !refGroupLess(a[1], b[1])) {
			add("", fmt.Sprintf("groups out of order: %v before %v", a, b))
		}
	}
	return problems, faults
}

// refCheck runs every case on one trace and reports in t.
func refCheck(t *testing.T, tr refTrace, collectors []*stats.Collector, cases []refCase, known refFault) map[string]int {
	t.Helper()
	allFaults := map[string]int{}
	for i, c := range cases {
		rep := collectors[i].Report(c.name)
		want := refModel(tr.jobs, tr.procs, refConfigOf(c.cfg))
		problems, faults := refCompare(rep, want, known)
		for f, n := range faults {
			allFaults[f] += n
		}
		if len(problems) > 0 {
			if len(problems) > 12 {
				problems = append(problems[:12], fmt.Sprintf("... %d more", len(problems)-12))
			}
			t.Errorf("case %s: %d rows disagree with the model:\n  %s", c.name, len(problems), strings.Join(problems, "\n  "))
		}
	}
	if t.Failed() && tr.text != "" {
		t.Logf("trace:\n%s", tr.text)
	}
	return allFaults
}

// refRandomTrace writes a small trace full of edge cases: unknown (-1) and
// small negative fields, zero runtimes, equal times, statuses 0-5 (2-4 are
// the records of a partially executed job), processors 0, killed jobs,
// bumped jobs (runtotal=), utility functions.
func refRandomTrace(rng *rand.Rand) string {
	var b strings.Builder
	procs := []int64{0, 16, 64, 128}[rng.Intn(4)]
	if procs > 0 {
		fmt.Fprintf(&b, "; MaxProcs: %d\n", procs)
	}
	n := rng.Intn(40)
	if rng.Intn(10) == 0 {
		n = rng.Intn(3)
	}
	pick := func(xs ...int64) int64 { return xs[rng.Intn(len(xs))] }
	submit := int64(rng.Intn(100))
	for i := 1; i <= n; i++ {
		if rng.Intn(3) > 0 {
			submit += int64(rng.Intn(400))
		}
		sub := submit
		if rng.Intn(20) == 0 {
			sub = -1
		}
		wait := int64(rng.Intn(3000))
		switch rng.Intn(12) {
		case 0:
			wait = -1
		case 1:
			wait = -3 // a small negative recorded wait: unknown
		case 2, 3:
			wait = 0
		case 4:
			wait = pick(10, 60, 600)
		}
		run := int64(rng.Intn(20000))
		switch rng.Intn(10) {
		case 0:
			run = -1
		case 1, 2:
			run = 0
		case 3:
			run = pick(1, 5, 10, 30, 60, 90, 600, 3600, 3601, 4000)
		case 4:
			run = int64(rng.Intn(100))
		}
		procsField := func() int64 {
			switch rng.Intn(10) {
			case 0:
				return -1
			case 1:
				return 0
			case 2:
				return pick(8, 9, 16, 17)
			}
			return 1 + int64(rng.Intn(40))
		}
		alloc, req := procsField(), procsField()
		reqTime := int64(-1)
		switch rng.Intn(5) {
		case 0:
			reqTime = 0
		case 1, 2:
			if run > 0 {
				reqTime = run + int64(rng.Intn(int(run)*6+1))
			} else {
				reqTime = int64(1 + rng.Intn(1000))
			}
		case 3:
			reqTime = int64(1 + rng.Intn(20000))
		}
		status := pick(-1, 0, 1, 1, 1, 1, 5, 2, 3, 4)
		user := pick(-1, 1, 2, 3, 10)
		queue := pick(-1, 0, 1, 2, 11)
		fmt.Fprintf(&b, "%d %d %d %d %d -1 -1 %d %d -1 %d %d 1 -1 %d -1 -1 -1", i, sub, wait, run, alloc, req, reqTime, status, user, queue)
		if rng.Intn(8) == 0 {
			b.WriteString(" killed=1")
		}
		if wait >= 0 && run >= 0 && rng.Intn(12) == 0 {
			// Every run lies between submission and end: run <= S <= wait+run.
			fmt.Fprintf(&b, " runtotal=%d", run+int64(rng.Intn(int(wait)+1)))
		}
		if rng.Intn(3) == 0 {
			t, v := int64(0), int64(1+rng.Intn(100))
			if rng.Intn(6) == 0 {
				v = 0 // start value 0: no start_value_earned_pct
			}
			fmt.Fprintf(&b, " u=%d:%d", t, v)
			for k := 1 + rng.Intn(3); k > 0; k-- {
				t += int64(1 + rng.Intn(5000))
				v -= int64(rng.Intn(int(v) + 1))
				fmt.Fprintf(&b, ",%d:%d", t, v)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// refNoKnownFault explains no mismatch.
func refNoKnownFault(refRowKey, stats.Row, refRow, bool) string { return "" }

func TestCrossCheckRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(20240611))
	faults := map[string]int{}
	for trial := 0; trial < 200; trial++ {
		text := refRandomTrace(rng)
		tr, collectors := refRead(t, strings.NewReader(text), -1, refCases, 0)
		tr.text = text
		for f, n := range refCheck(t, tr, collectors, refCases, refKnownFault) {
			faults[f] += n
		}
		if t.Failed() {
			t.Fatalf("trial %d", trial)
		}
	}
	refSkipFaults(t, faults)
}

// refSkipFaults skips a test whose only mismatches are known faults, naming
// them.
func refSkipFaults(t *testing.T, faults map[string]int) {
	t.Helper()
	if len(faults) == 0 {
		return
	}
	var names []string
	for f, n := range faults {
		names = append(names, fmt.Sprintf("%s (%d rows)", f, n))
	}
	sort.Strings(names)
	t.Skipf("everything else agrees with the model; skipped for known faults: %s", strings.Join(names, "; "))
}

// refOpenTrace opens a gzip trace of ../shared/data, skipping when absent.
func refOpenTrace(t *testing.T, name string) io.Reader {
	t.Helper()
	f, err := os.Open("../../../shared/data/" + name)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s not found: the real traces are expected in ../shared/data beside the repository", name)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	z, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	return z
}

// refRealCases are fewer than refCases, to keep the real traces fast.
var refRealCases = []refCase{
	refCases[0],
	{"by-category-procs64", stats.Config{By: []stats.Key{stats.ByCategory}, NarrowProcs: 64}},
	{"by-status-queue-allocated", stats.Config{By: []stats.Key{stats.ByStatus, stats.ByQueue}, ProcsFrom: sim.ProcsAllocated}},
	{"by-user-skip-factor2", stats.Config{By: []stats.Key{stats.ByUser}, SkipFirst: mustCount("10%"), SkipLast: mustCount("500"), UQoSFactor: 2, BSLDThreshold: 60, Percentiles: []float64{0, 50, 90, 99.9, 100}}},
}

// refCheckReal compares the whole trace (or its first limit jobs) under
// refRealCases. One test per trace keeps each under 15 s with -race.
func refCheckReal(t *testing.T, name string, limit int) {
	tr, collectors := refRead(t, refOpenTrace(t, name), -1, refRealCases, limit)
	refSkipFaults(t, refCheck(t, tr, collectors, refRealCases, refKnownFault))
}

func TestCrossCheckKTH(t *testing.T) { refCheckReal(t, "KTH-SP2-1996-2.1-cln.swf.gz", 0) }

func TestCrossCheckLANL(t *testing.T) { refCheckReal(t, "LANL-CM5-1994-4.1-cln.swf.gz", 0) }

// TestCrossCheckRICCSlice takes RICC's first 40,000 of 447,794 jobs.
func TestCrossCheckRICCSlice(t *testing.T) { refCheckReal(t, "RICC-2010-2.swf.gz", 40000) }
