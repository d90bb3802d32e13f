package stats

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
	"github.com/swfkit/swfkit/pkg/swf"
)

// collect reads an SWF file into a Collector.
func collect(t *testing.T, path string, cfg Config) *Collector {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return collectFrom(t, f, cfg)
}

func collectFrom(t *testing.T, rd io.Reader, cfg Config) *Collector {
	t.Helper()
	r := swf.NewReader(rd)
	hdr, err := r.Header()
	if err != nil {
		t.Fatal(err)
	}
	procs, _, _ := hdr.MaxProcs()
	c := NewCollector(cfg, Machine{Procs: procs, Source: "MaxProcs"})
	for {
		job, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Add(&job); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

type want struct {
	metric, stat string
	value        float64
	jobs         int
}

func checkRows(t *testing.T, rep *Report, wants []want) {
	t.Helper()
	for _, w := range wants {
		row, ok := rep.Find(w.metric, w.stat)
		if !ok {
			t.Errorf("%s %s: missing", w.metric, w.stat)
			continue
		}
		if !close(row.Value, w.value) || row.Jobs != w.jobs {
			t.Errorf("%s %s = %v over %d jobs, want %v over %d", w.metric, w.stat, row.Value, row.Jobs, w.value, w.jobs)
		}
	}
}

func close(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b))
}

// TestHandTrace checks every metric against testdata/README.md.
func TestHandTrace(t *testing.T) {
	rep := collect(t, "testdata/hand.swf", Config{}).Report("hand")
	checkRows(t, rep, []want{
		{"jobs", "count", 5, 5},
		{"machine_procs", "value", 32, 0},
		{"makespan_s", "value", 4050, 5},
		{"utilization_pct", "value", 100 * 24210.0 / (32 * 4050), 5},
		{"peak_procs_in_use", "value", 18, 5},
		// Work (2x100 + 2x5 + 2x4000 + 1x0 + 16x1000) per processor-second
		// of the submit span, 0 to 40.
		{"offered_load", "value", 24210.0 / (32 * 40), 5},

		{"wait_s", "n", 5, 5}, {"wait_s", "mean", 231, 5},
		{"wait_s", "p25", 30, 5}, {"wait_s", "p50", 75, 5}, {"wait_s", "p75", 90, 5},
		{"wait_s", "p98", 960, 5}, {"wait_s", "p100", 960, 5},
		{"response_s", "mean", 1252, 5}, {"response_s", "p25", 95, 5}, {"response_s", "p50", 100, 5},
		{"response_s", "p75", 1960, 5}, {"response_s", "p98", 4030, 5},
		{"slowdown", "n", 4, 4}, {"slowdown", "mean", 5.741875, 4}, {"slowdown", "p25", 1, 4},
		{"slowdown", "p50", 1.0075, 4}, {"slowdown", "p75", 1.96, 4}, {"slowdown", "p98", 19, 4},
		{"bsld", "mean", 4.4935, 5}, {"bsld", "p25", 1.0075, 5}, {"bsld", "p50", 1.96, 5},
		{"bsld", "p75", 8.5, 5}, {"bsld", "p100", 10, 5},
		{"killed", "count", 1, 5}, {"killed", "percent", 20, 5},
		{"failed", "count", 1, 5}, {"cancelled", "percent", 20, 5},

		{"request_inaccuracy_pct", "n", 4, 4}, {"request_inaccuracy_pct", "mean", (50 + 90 + 0 + 100.0/6) / 4, 4},
		{"request_inaccuracy_pct", "p25", 0, 4}, {"request_inaccuracy_pct", "p50", 100.0 / 6, 4},
		{"request_inaccuracy_pct", "p75", 50, 4}, {"request_inaccuracy_pct", "p100", 90, 4},
		{"under_20pct_of_request", "count", 1, 4}, {"under_20pct_of_request", "percent", 25, 4},

		{"utility", "n", 4, 4}, {"utility", "sum", 37.325, 4}, {"utility", "mean", 9.33125, 4},
		{"start_value_earned_pct", "mean", 47.03125, 4}, {"start_value_earned_pct", "p25", 100, 4},
		{"start_value_earned_pct", "p50", 76, 4}, {"start_value_earned_pct", "p75", 12.125, 4},
		{"start_value_earned_pct", "p98", 0, 4},

		{"uqos", "rt_upperbound_s", 2000, 0}, {"uqos", "rt_lowerbound_s", 80, 0},
		{"uqos", "phi", 0.0075, 1}, {"uqos", "delta_s", 0.6, 1},
		{"uqos", "n", 5, 5}, {"uqos", "mean", 55.5935, 5}, {"uqos", "p25", 1.0075, 5},
		{"uqos", "p50", 1.96, 5}, {"uqos", "p75", 125, 5}, {"uqos", "p100", 150, 5},

		{"fairness", "n", 5, 5}, {"fairness", "pct_le_1", 20, 5}, {"fairness", "pct_1_to_1.5", 20, 5},
		{"fairness", "pct_1.5_to_2", 20, 5}, {"fairness", "pct_2_to_4", 0, 5}, {"fairness", "pct_gt_4", 40, 5},
		{"fairness_runtime_le_3600s", "pct_le_1", 25, 4}, {"fairness_runtime_le_3600s", "pct_1_to_1.5", 0, 4},
		{"fairness_runtime_le_3600s", "pct_gt_4", 50, 4},
		{"fairness_runtime_gt_3600s", "pct_1_to_1.5", 100, 1},
	})
}

func TestUQoSFactor(t *testing.T) {
	rep := collect(t, "testdata/hand.swf", Config{UQoSFactor: 2}).Report("hand")
	checkRows(t, rep, []want{{"uqos", "delta_s", 1.2, 1}, {"uqos", "mean", 28.0935, 5}})
	// Explicit bounds: lower 10 makes J1 (run 100) a middle job: min(1, 0) = 0,
	// J2 (run 5) short: 90/delta; upper 500 makes J5 large too:
	// phi = (30/4000 + 960/1000)/2 = 0.48375, delta = 4.8375.
	rep = collect(t, "testdata/hand.swf", Config{UQoSLowerBound: 10, UQoSUpperBound: 500}).Report("hand")
	delta := 0.48375 * 10
	wantMean := (0 + 90/delta + 1.0075 + 75/delta + 1.96) / 5
	checkRows(t, rep, []want{{"uqos", "delta_s", delta, 2}, {"uqos", "mean", wantMean, 5}})
}

func TestSkip(t *testing.T) {
	first, _ := ParseCount("1")
	last, _ := ParseCount("20%")
	rep := collect(t, "testdata/hand.swf", Config{SkipFirst: first, SkipLast: last}).Report("hand")
	checkRows(t, rep, []want{
		{"jobs", "count", 3, 3}, {"wait_s", "mean", 65, 3},
		// Machine metrics keep every job.
		{"makespan_s", "value", 4050, 5},
	})
	if rep.Measured != 3 || rep.JobsRead != 5 || rep.WarmUp != 1 || rep.CoolDown != 1 {
		t.Errorf("measured %d of %d (warm-up %d, cool-down %d), want 3 of 5 (1, 1)", rep.Measured, rep.JobsRead, rep.WarmUp, rep.CoolDown)
	}
	var reasons []string
	for _, e := range rep.Excluded {
		reasons = append(reasons, e.Reason)
	}
	got := strings.Join(reasons, "|")
	if !strings.Contains(got, "warm-up: first 1 jobs") || !strings.Contains(got, "cool-down: last 20% jobs") {
		t.Errorf("exclusions %q do not state the warm-up and cool-down", got)
	}
}

func TestBreakdowns(t *testing.T) {
	tests := []struct {
		by   []Key
		cell [2]string
		jobs int
	}{
		{[]Key{ByCategory}, [2]string{"SN"}, 3},
		{[]Key{ByCategory}, [2]string{"LN"}, 1},
		{[]Key{ByCategory}, [2]string{"SW"}, 1},
		{[]Key{ByShort}, [2]string{"short"}, 2},
		{[]Key{ByShort}, [2]string{"long"}, 3},
		{[]Key{ByStatus}, [2]string{"1"}, 3},
		{[]Key{ByUser}, [2]string{"2"}, 2},
		{[]Key{ByQueue}, [2]string{"2"}, 2},
		{[]Key{ByShort, ByStatus}, [2]string{"short", "1"}, 1},
		{[]Key{ByShort, ByStatus}, [2]string{"long", "0"}, 1},
	}
	for _, tt := range tests {
		rep := collect(t, "testdata/hand.swf", Config{By: tt.by}).Report("hand")
		found := false
		for _, row := range rep.Rows {
			if row.Metric == "jobs" && row.Group1 == tt.cell[0] && row.Group2 == tt.cell[1] && row.By1 == tt.by[0].String() {
				found = true
				if row.Jobs != tt.jobs {
					t.Errorf("by %v %v: %d jobs, want %d", tt.by, tt.cell, row.Jobs, tt.jobs)
				}
			}
		}
		if !found {
			t.Errorf("by %v: no group %v", tt.by, tt.cell)
		}
	}
	// Group order is fixed: SN SW LN LW unknown.
	rep := collect(t, "testdata/hand.swf", Config{By: []Key{ByCategory}}).Report("hand")
	var order []string
	for _, row := range rep.Rows {
		if row.Metric == "jobs" && row.By1 != "" {
			order = append(order, row.Group1)
		}
	}
	if got := strings.Join(order, " "); got != "SN SW LN" {
		t.Errorf("category order %q, want SN SW LN", got)
	}
}

func TestCapacity(t *testing.T) {
	c := collect(t, "testdata/hand.swf", Config{})
	got := c.CheckCapacity()
	if got.Violation != nil || got.Peak != 18 || got.PeakTime != 1000 {
		t.Errorf("requested processors: %+v, want peak 18 at 1000 and no violation", got)
	}
	c = collect(t, "testdata/hand.swf", Config{ProcsFrom: sim.ProcsAllocated})
	got = c.CheckCapacity()
	if got.Violation != nil || got.Peak != 4 || got.PeakTime != 50 {
		t.Errorf("allocated processors: %+v, want peak 4 at 50 and no violation", got)
	}
	c = collect(t, "testdata/oversubscribed.swf", Config{})
	got = c.CheckCapacity()
	v := got.Violation
	if v == nil || v.Reason != "oversubscribed" || v.Time != 60 || v.InUse != 5 || len(v.Jobs) != 3 || v.Jobs[0] != 1 || v.Jobs[2] != 3 {
		t.Fatalf("oversubscribed.swf: %+v (violation %+v), want oversubscription at 60 by jobs 1, 2, 3", got, v)
	}
	if msg := v.Error(); !strings.Contains(msg, "oversubscribed at time 60") || !strings.Contains(msg, "3 (line 5)") {
		t.Errorf("violation message %q does not name time, jobs and lines", msg)
	}

	early := "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n2 100 -5 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
	got = collectFrom(t, strings.NewReader(early), Config{}).CheckCapacity()
	if got.Violation == nil || got.Violation.Reason != "start before submit" || got.Violation.Time != 95 {
		t.Errorf("early start: %+v, want start before submit at 95", got.Violation)
	}
	// Ends free processors for starts at the same time; runtime 0 holds none.
	back := "; MaxProcs: 2\n1 0 0 10 2 -1 -1 2 -1 -1 1 1 1 -1 -1 -1 -1 -1\n2 0 10 10 2 -1 -1 2 -1 -1 1 1 1 -1 -1 -1 -1 -1\n3 0 10 0 2 -1 -1 2 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
	got = collectFrom(t, strings.NewReader(back), Config{}).CheckCapacity()
	if got.Violation != nil || got.Peak != 2 {
		t.Errorf("back-to-back jobs: %+v, want peak 2 and no violation", got)
	}
}

func TestTimeline(t *testing.T) {
	// Two bins over [0, 4050): 2025 s each; processors from field 5.
	tl := collect(t, "testdata/hand.swf", Config{ProcsFrom: sim.ProcsAllocated}).Timeline(2)
	// Bin 1: J1 2*100 + J2 2*5 + J3 2*(2025-50) + J5 2*1000 = 6160 proc-s.
	// Bin 2: J3 2*2025 = 4050 proc-s.
	wantUse := []float64{6160.0 / 2025, 4050.0 / 2025}
	// Queue: J2 waits 90, J3 30, J4 75, J5 960, all in bin 1.
	wantQueue := []float64{1155.0 / 2025, 0}
	for k := range 2 {
		if !close(tl.InUse[k], wantUse[k]) || !close(tl.Queued[k], wantQueue[k]) {
			t.Errorf("bin %d: in use %v queued %v, want %v and %v", k, tl.InUse[k], tl.Queued[k], wantUse[k], wantQueue[k])
		}
	}
}

func TestPercentile(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	for _, tt := range []struct{ p, want float64 }{{0, 1}, {25, 1}, {26, 2}, {50, 2}, {51, 3}, {75, 3}, {98, 4}, {100, 4}} {
		if got := Percentile(x, tt.p); got != tt.want {
			t.Errorf("Percentile(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if !math.IsNaN(Percentile(nil, 50)) {
		t.Error("empty: want NaN")
	}
}

func TestBadTokens(t *testing.T) {
	for _, line := range []string{
		"1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1 u=0:5,10:6",
		"1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1 u=0:5,",
		"1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1 fairstart=soon",
	} {
		r := swf.NewReader(strings.NewReader(line + "\n"))
		job, err := r.Read()
		if err != nil {
			t.Fatal(err)
		}
		err = NewCollector(Config{}, Machine{}).Add(&job)
		if err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("%q: error %v, want one naming line 1", line, err)
		}
	}
}

func TestProcsFrom(t *testing.T) {
	// J5 requests 16 processors and was allocated 2 (hand.swf).
	for _, tt := range []struct {
		from sim.ProcsFrom
		util float64
	}{
		{sim.ProcsRequestedElseAllocated, 100 * 24210.0 / (32 * 4050)},
		{sim.ProcsRequested, 100 * 24210.0 / (32 * 4050)},
		{sim.ProcsAllocated, 100 * 10210.0 / (32 * 4050)},
		{sim.ProcsMax, 100 * 24210.0 / (32 * 4050)},
	} {
		rep := collect(t, "testdata/hand.swf", Config{ProcsFrom: tt.from}).Report("hand")
		checkRows(t, rep, []want{{"utilization_pct", "value", tt.util, 5}})
	}
}

// TestProcsFromAsSwfsim: every --procs-from value gives a job the processors
// swfsim gives it (sim.FromSWF), including "allocated" with field 5 unknown:
// then the job has no processor count in both tools.
func TestProcsFromAsSwfsim(t *testing.T) {
	for _, from := range []sim.ProcsFrom{sim.ProcsRequestedElseAllocated, sim.ProcsRequested, sim.ProcsAllocated, sim.ProcsMax} {
		for _, fields := range [][2]int64{{2, 16}, {16, 2}, {-1, 4}, {4, -1}, {-1, -1}, {0, 3}} {
			job := swf.Job{JobNumber: 1, SubmitTime: 0, WaitTime: 0, RunTime: 10, AllocatedProcs: fields[0], RequestedProcs: fields[1]}
			r, err := Config{ProcsFrom: from}.newRecord(&job, TokenUtility)
			if err != nil {
				t.Fatal(err)
			}
			want := int64(-1)
			if sj, why := sim.FromSWF(&job, 1<<20, from); why == sim.NotSkipped {
				want = int64(sj.Procs)
			}
			if r.procs != want {
				t.Errorf("--procs-from %v, fields 5,8 = %v: swfstat %d processors, swfsim %d", from, fields, r.procs, want)
			}
		}
	}
}

// TestCustomUtility: Config.Utility replaces the u= token.
func TestCustomUtility(t *testing.T) {
	flat := func(job *swf.Job, at float64) (float64, float64, bool, error) { return 10, 5, true, nil }
	rep := collect(t, "testdata/hand.swf", Config{Utility: flat}).Report("hand")
	checkRows(t, rep, []want{{"utility", "sum", 25, 5}, {"start_value_earned_pct", "mean", 50, 5}})
}

func BenchmarkCollectorAdd(b *testing.B) {
	r := swf.NewReader(strings.NewReader("1 0 30 100 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1 u=0:10,100:10,300:0 fairstart=0\n"))
	job, err := r.Read()
	if err != nil {
		b.Fatal(err)
	}
	c := NewCollector(Config{}, Machine{Procs: 4})
	c.Grow(b.N)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Add(&job); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRunTotal: ga-ckpt's schedule of TestGACkptBumpsForTheUrgentJob
// (pkg/policy): L ran 0..550, was bumped, and ran again 600..10110, so field
// 4 holds 9510 and runtotal=10060; U ran 550..600. The machine was busy all
// the time: utilization (10060 + 50) x 10 / (10 x 10110) = 100%, where the
// last runs alone give 95600/101100. L's time off the processors is
// 600 + 9510 - 10060 = 50 s: slowdown and bounded slowdown 10110/10060.
func TestRunTotal(t *testing.T) {
	const trace = "; MaxProcs: 10\n" +
		"1 0 600 9510 10 -1 -1 10 10000 -1 1 1 1 -1 -1 -1 -1 -1 bumps=1 runtotal=10060\n" +
		"2 550 0 50 10 -1 -1 10 50 -1 1 2 1 -1 -1 -1 -1 -1\n"
	rep := collectFrom(t, strings.NewReader(trace), Config{}).Report("ckpt")
	l := 10110.0 / 10060
	checkRows(t, rep, []want{
		{"utilization_pct", "value", 100, 2},
		{"slowdown", "mean", (l + 1) / 2, 2},
		{"bsld", "mean", (l + 1) / 2, 2},
		{"response_s", "mean", (10110 + 50) / 2.0, 2},
		{"wait_s", "mean", 300, 2},
	})
	bad := strings.Replace(trace, "runtotal=10060", "runtotal=9000", 1)
	c := NewCollector(Config{}, Machine{Procs: 10})
	r := swf.NewReader(strings.NewReader(bad))
	if _, err := r.Header(); err != nil {
		t.Fatal(err)
	}
	job, _ := r.Read()
	if err := c.Add(&job); err == nil || !strings.Contains(err.Error(), "runtotal=9000") {
		t.Errorf("runtotal below the runtime: error %v, want one naming runtotal=9000", err)
	}
	// Above the response (10110 s) the job would have run before its submission
	// or after its end: utilization over 100% without a word.
	bad = strings.Replace(trace, "runtotal=10060", "runtotal=10111", 1)
	r = swf.NewReader(strings.NewReader(bad))
	if _, err := r.Header(); err != nil {
		t.Fatal(err)
	}
	job, _ = r.Read()
	if err := c.Add(&job); err == nil || !strings.Contains(err.Error(), "at most its response time (fields 3 + 4) 10110") {
		t.Errorf("runtotal above the response: error %v, want one naming the response", err)
	}
}

// TestRunTotalLength: a bumped job's length for the category, --by short
// and the fairness split is all its runs, as in its slowdowns: job 1 ran
// 900 s last but 4500 s in all (its fields say 4000 s off the processors and
// 900 s on: 400 s of idle time), so it is long (LW), not SW; and its fair
// bounded slowdown uses 4500 s too, (fairstart 300 + 4500)/4500, so that its
// ratio (4900/4500)/(4800/4500) = 49/48 falls in (1, 1.5], where the last
// run's (4900/4500)/(1200/900) would be <= 1.
func TestRunTotalLength(t *testing.T) {
	const trace = "; MaxProcs: 10\n" +
		"1 0 4000 900 10 -1 -1 10 10000 -1 1 1 1 -1 -1 -1 -1 -1 bumps=1 runtotal=4500 fairstart=300\n" +
		"2 550 0 50 10 -1 -1 10 50 -1 1 2 1 -1 -1 -1 -1 -1 fairstart=550\n"
	groups := func(k Key) map[string]int {
		got := map[string]int{}
		for _, row := range collectFrom(t, strings.NewReader(trace), Config{By: []Key{k}, TrialRuntime: 1000}).Report("ckpt").Rows {
			if row.Metric == "jobs" && row.By1 == k.String() {
				got[row.Group1] = row.Jobs
			}
		}
		return got
	}
	if got := groups(ByCategory); got["LW"] != 1 || got["SW"] != 1 {
		t.Errorf("categories %v, want the bumped job in LW (4500 s of runs) and the other in SW", got)
	}
	if got := groups(ByShort); got["long"] != 1 || got["short"] != 1 {
		t.Errorf("--by short --trial 1000: %v, want the bumped job long (4500 s of runs)", got)
	}
	rep := collectFrom(t, strings.NewReader(trace), Config{}).Report("ckpt")
	checkRows(t, rep, []want{
		{"fairness_runtime_gt_3600s", "n", 1, 1},
		{"fairness_runtime_le_3600s", "n", 1, 1},
		{"fairness_runtime_gt_3600s", "pct_1_to_1.5", 100, 1},
		{"fairness", "pct_le_1", 50, 2},
		{"fairness", "pct_1_to_1.5", 50, 2},
	})
}

// TestRunTotalUQoS: U-QoS takes a bumped job as its slowdowns and category
// do, run = all its runs (runtotal=), wait = response - runs. Job 1 ran 900 s
// last and 4500 s in all, response 4900 s: with bounds 1000..3000 it is large
// (4500 > 3000), its value its slowdown 4900/4500, and its wait/run in phi
// 400/4500; by its fields it was short (900 < 1000), its value
// wait/delta = 4000/200 = 20, the 3600 s of its earlier runs counted as
// waiting. Job 2 (one run, 5000 s, wait 1000): large, 6000/5000. Then phi =
// (400/4500 + 1000/5000)/2, delta = phi x 1000, the mean (4900/4500 + 1.2)/2.
// The derived bounds take all runs too: job 1 alone gives upper 4500/2.
func TestRunTotalUQoS(t *testing.T) {
	const trace = "; MaxProcs: 10\n" +
		"1 0 4000 900 10 -1 -1 10 10000 -1 1 1 1 -1 -1 -1 -1 -1 bumps=1 runtotal=4500\n" +
		"2 550 1000 5000 10 -1 -1 10 5000 -1 1 2 1 -1 -1 -1 -1 -1\n"
	phi := (400.0/4500 + 1000.0/5000) / 2
	rep := collectFrom(t, strings.NewReader(trace), Config{UQoSLowerBound: 1000, UQoSUpperBound: 3000}).Report("ckpt")
	checkRows(t, rep, []want{
		{"uqos", "large_jobs", 2, 2},
		{"uqos", "phi", phi, 2},
		{"uqos", "delta_s", phi * 1000, 2},
		{"uqos", "n", 2, 2},
		{"uqos", "mean", (4900.0/4500 + 1.2) / 2, 2},
		{"uqos", "p50", 4900.0 / 4500, 2},
	})
	one := strings.SplitAfter(trace, "\n")
	rep = collectFrom(t, strings.NewReader(one[0]+one[1]), Config{}).Report("ckpt")
	checkRows(t, rep, []want{
		{"uqos", "rt_upperbound_s", 2250, 0},
		{"uqos", "rt_lowerbound_s", 90, 0},
	})
}

// TestRunTotalUnknownRuntime: a runtotal= beside an unknown runtime (field 4
// = -1) gives the job no length: its category and --by short group are
// unknown, as the exclusions say (runtime unknown), not LW or long from the
// token.
func TestRunTotalUnknownRuntime(t *testing.T) {
	const trace = "; MaxProcs: 10\n" +
		"1 0 100 -1 10 -1 -1 10 10000 -1 1 1 1 -1 -1 -1 -1 -1 bumps=1 runtotal=5000\n" +
		"2 5 0 50 2 -1 -1 2 50 -1 1 2 1 -1 -1 -1 -1 -1\n"
	for _, c := range []struct {
		by   Key
		want map[string]int
	}{
		{ByCategory, map[string]int{"SN": 1, Unknown: 1}},
		{ByShort, map[string]int{"short": 1, Unknown: 1}},
	} {
		got := map[string]int{}
		for _, row := range collectFrom(t, strings.NewReader(trace), Config{By: []Key{c.by}}).Report("t").Rows {
			if row.Metric == "jobs" && row.By1 == c.by.String() {
				got[row.Group1] = row.Jobs
			}
		}
		if !maps.Equal(got, c.want) {
			t.Errorf("--by %s: groups %v, want %v", c.by, got, c.want)
		}
	}
}

// When no large job waited, delta is 0 and U-QoS is undefined for every job:
// the exclusions say so, for the jobs it would otherwise cover.
func TestUQoSUndefinedIsAnExclusion(t *testing.T) {
	in := "; MaxProcs: 10\n" +
		"1 0 50 20 2 -1 -1 2 100 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 0 0 100 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n"
	rep := collectFrom(t, strings.NewReader(in), Config{}).Report("t")
	found := false
	for _, ex := range rep.Excluded {
		if ex.Affects == "U-QoS" && ex.Jobs == 2 && strings.Contains(ex.Reason, "delta is 0") {
			found = true
		}
	}
	if row, _ := rep.Find("uqos", "mean"); row.Jobs != 0 || !found {
		t.Errorf("U-QoS over %d jobs, exclusions %+v: want none and the reason for 2", row.Jobs, rep.Excluded)
	}
	in = "; MaxProcs: 10\n1 0 50 200 2 -1 -1 2 300 -1 1 1 1 -1 1 -1 -1 -1\n2 0 0 1 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n"
	for _, ex := range collectFrom(t, strings.NewReader(in), Config{}).Report("t").Excluded {
		if ex.Affects == "U-QoS" {
			t.Errorf("a large job waited, yet %+v", ex)
		}
	}
}

// TestUQoSDeltaTooSmallIsUndefined: a delta too small for wait/delta to be
// finite (a tiny rt_lowerbound given) leaves U-QoS undefined with the
// reason, as delta 0 does, rather than +Inf; no row is infinite.
func TestUQoSDeltaTooSmallIsUndefined(t *testing.T) {
	in := "; MaxProcs: 10\n1 0 10000000000 0 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1\n2 0 5 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1\n"
	for _, cfg := range []Config{{UQoSLowerBound: 1e-300}, {UQoSFactor: 1e-320}, {UQoSFactor: 5e-324}, {UQoSFactor: 1e308, UQoSLowerBound: 1e10}} {
		rep := collectFrom(t, strings.NewReader(in), cfg).Report("t")
		for _, row := range rep.Rows {
			if math.IsInf(row.Value, 0) {
				t.Errorf("%+v: %s %s is %v", cfg, row.Metric, row.Statistic, row.Value)
			}
		}
		if row, _ := rep.Find("uqos", "mean"); row.Jobs != 0 || !math.IsNaN(row.Value) {
			t.Errorf("%+v: U-QoS %v over %d jobs, want undefined", cfg, row.Value, row.Jobs)
		}
		if !slices.ContainsFunc(rep.Excluded, func(ex Exclusion) bool {
			return ex.Affects == "U-QoS" && strings.Contains(ex.Reason, "wait/delta would not be finite")
		}) {
			t.Errorf("%+v: no reason among %+v", cfg, rep.Excluded)
		}
	}
}

// TestUnknownSubmitOffTheTimeline: a job of unknown submit time (-1) with a
// wait and a runtime has no place in time; counted at t = -1 it stretched the
// makespan from 10 s to 1011 s and cut the utilization from 50% to 0.99%.
// It stays in the per-job metrics, which need no submit time.
func TestUnknownSubmitOffTheTimeline(t *testing.T) {
	const trace = "; MaxProcs: 4\n" +
		"1 -1 0 10 2 -1 -1 2 15 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 1000 0 10 2 -1 -1 2 15 -1 1 1 1 -1 1 -1 -1 -1\n"
	c := collectFrom(t, strings.NewReader(trace), Config{})
	checkRows(t, c.Report("submit"), []want{
		{"makespan_s", "value", 10, 1},
		{"utilization_pct", "value", 50, 1},
		{"peak_procs_in_use", "value", 2, 1},
		{"wait_s", "mean", 0, 2},
		{"bsld", "mean", 1, 2},
	})
	if capa := c.CheckCapacity(); capa.Unverifiable != 1 || capa.PeakTime != 1000 {
		t.Errorf("capacity: %d unverifiable, peak at %d; want 1 and 1000", capa.Unverifiable, capa.PeakTime)
	}
	if tl := c.Timeline(10); tl.Start != 1000 || tl.End != 1010 {
		t.Errorf("timeline from %d to %d, want 1000 to 1010", tl.Start, tl.End)
	}
	if sp := c.Spans(); len(sp) != 1 || sp[0].Number != 2 {
		t.Errorf("spans %+v, want job 2 only", sp)
	}
}

// TestNearestRankExact: the rank of a decimal percentile is ceil(p/100*n)
// computed on the decimal itself (big.Rat), for percentiles with up to 7
// decimals and samples up to 10 million: the floating-point noise of a
// decimal such as 99.9 is not a fraction of a rank, and a real fraction,
// however small (7.0000001% of 100), is.
func TestNearestRankExact(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 1))
	check := func(text string, n int) {
		t.Helper()
		exact, ok := new(big.Rat).SetString(text)
		if !ok {
			t.Fatalf("%q", text)
		}
		exact.Mul(exact, big.NewRat(int64(n), 100))
		want := new(big.Int).Quo(exact.Num(), exact.Denom()) // floor, both positive
		if !exact.IsInt() {
			want.Add(want, big.NewInt(1))
		}
		p, _ := strconv.ParseFloat(text, 64)
		if got := nearestRank(p, n); int64(got) != want.Int64() {
			t.Errorf("nearestRank(%s, %d) = %d, want %s", text, n, got, want)
		}
	}
	for _, c := range []struct {
		p string
		n int
	}{{"7.0000001", 100}, {"7", 100}, {"99.9", 1000}, {"25", 4}, {"0.1", 1000}, {"33.3333333", 3}, {"99.99999", 10000000}} {
		check(c.p, c.n)
	}
	for range 200000 {
		decimals := r.IntN(8)
		scale := int64(1)
		for range decimals {
			scale *= 10
		}
		v := r.Int64N(100*scale + 1)
		text := strconv.FormatInt(v/scale, 10)
		if decimals > 0 {
			text += fmt.Sprintf(".%0*d", decimals, v%scale)
		}
		n := 1 + r.IntN(10)
		switch r.IntN(3) {
		case 1:
			n = 1 + r.IntN(100000)
		case 2:
			n = 1 + r.IntN(10000000)
		}
		if r.IntN(4) == 0 { // a whole rank, the case noise would push up
			n = int(100 * scale / gcd(100*scale, max(v, 1)))
			if n > 10000000 {
				n = 100
			}
		}
		check(text, n)
	}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// TestZeroSpanIsAnExclusion: a ratio over a span of 0 s is undefined though
// jobs were read, and the exclusions say why, so that its "-" does not read
// as "no jobs": one job (submit span 0, offered load undefined); a batch
// submitted at once whose jobs all ran 0 s (makespan 0, utilization too).
func TestZeroSpanIsAnExclusion(t *testing.T) {
	reasons := func(in string) map[string]int {
		got := map[string]int{}
		for _, ex := range collectFrom(t, strings.NewReader(in), Config{}).Report("t").Excluded {
			got[ex.Affects] = ex.Jobs
		}
		return got
	}
	one := "; MaxProcs: 10\n1 0 5 100 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1\n"
	if got := reasons(one); got["offered load"] != 1 || got["utilization"] != 0 {
		t.Errorf("one job: exclusions %v, want the submit span of 0 s for offered load over 1 job, and utilization defined", got)
	}
	rep := collectFrom(t, strings.NewReader(one), Config{}).Report("t")
	checkRows(t, rep, []want{{"offered_load", "value", math.NaN(), 0}, {"utilization_pct", "value", 2.0 / 10 * 100 * 100 / 105, 1}})
	batch := "; MaxProcs: 10\n1 0 0 0 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1\n2 0 0 0 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1\n"
	if got := reasons(batch); got["offered load"] != 2 || got["utilization"] != 2 {
		t.Errorf("a batch of 0 s jobs at one time: exclusions %v, want offered load and utilization over 2 jobs each", got)
	}
	two := "; MaxProcs: 10\n1 0 0 10 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1\n2 5 0 10 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1\n"
	if got := reasons(two); got["offered load"] != 0 || got["utilization"] != 0 {
		t.Errorf("two jobs 5 s apart: exclusions %v, want none for a span", got)
	}
}
