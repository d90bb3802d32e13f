package repro

import (
	"fmt"
	"testing"
)

// BenchmarkReproductions runs every published result the toolkit
// reproduces and fails when one leaves its tolerance:
//
//	go test -run '^$' -bench Reproductions -benchtime 1x ./internal/repro
//	go test -run '^$' -bench 'Reproductions/Thebe' -benchtime 1x -v ./internal/repro   # one group, with the figures
func BenchmarkReproductions(b *testing.B) {
	for _, c := range []struct {
		name  string
		check func(b *testing.B)
	}{
		{"Thebe-KTH", thebeKTH},
		{"Thebe-LANL", thebeLANL},
		{"Pyss-KTH", pyssKTH},
		{"Srinivasan-KTH-exact", func(b *testing.B) { srinivasanKTH(b, true) }},
		{"Srinivasan-KTH-user", func(b *testing.B) { srinivasanKTH(b, false) }},
		{"Guim-Table4", guimTable4},
		{"Guim-5.1-KTH", func(b *testing.B) { guimQuantitative(b, "KTH") }},
		{"Guim-5.1-LANL", func(b *testing.B) { guimQuantitative(b, "LANL") }},
		{"Guim-5.2-KTH", func(b *testing.B) { guimQualitative(b, "KTH") }},
		{"Guim-5.2-LANL", func(b *testing.B) { guimQualitative(b, "LANL") }},
		{"Lee-LANL-1.5x", leeRanking},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				c.check(b)
			}
		})
	}
}

const (
	kth           = "KTH-SP2-1996-2.1-cln.swf.gz"
	kthUnfiltered = "KTH-SP2-1996-2-unfiltered.swf.gz"
	lanl          = "LANL-CM5-1994-4.1-cln.swf.gz"
)

// thebeFigure is one row of Thebe, Bunde & Leung's Figs. 4 and 8 (90 s trial
// runs, jobs run to completion): average and maximum wait in seconds, of all
// jobs (Fig. 4) and of the short ones, runtime <= 90 s (Fig. 8).
type thebeFigure struct {
	policy                  string
	avg, max                float64 // Fig. 4
	shortAvg, shortMax      float64 // Fig. 8
	avgTol, maxTol, sAvgTol float64
}

// thebe simulates the four policies --no-kill and checks Figs. 4, 7 and 8.
func thebe(b *testing.B, trace []byte, procsFrom string, shortJobs float64, rows []thebeFigure) {
	var files []string
	for _, r := range rows {
		args := []string{"--policy", r.policy, "--no-kill", "--no-progress"}
		if procsFrom != "" {
			args = append(args, "--procs-from", procsFrom)
		}
		files = append(files, file(b, r.policy+".swf", run(b, trace, "swfsim", args...)))
	}
	args := []string{"--by", "short"}
	if procsFrom != "" {
		args = append(args, "--procs-from", procsFrom)
	}
	s := summarize(b, files, args...)
	within(b, "Fig. 7: short jobs (runtime <= 90 s)", s.get(b, "fcfs.swf", "short=short", "wait_s", "n"), shortJobs, 0.001)
	for _, r := range rows {
		label := r.policy + ".swf"
		within(b, "Fig. 4: "+r.policy+" average wait", s.get(b, label, "", "wait_s", "mean"), r.avg, r.avgTol)
		within(b, "Fig. 4: "+r.policy+" maximum wait", s.get(b, label, "", "wait_s", "p100"), r.max, r.maxTol)
		within(b, "Fig. 8: "+r.policy+" short jobs' average wait", s.get(b, label, "short=short", "wait_s", "mean"), r.shortAvg, r.sAvgTol)
		within(b, "Fig. 8: "+r.policy+" short jobs' maximum wait", s.get(b, label, "short=short", "wait_s", "p100"), r.shortMax, 0)
	}
}

// thebeKTH: KTH-SP2 (the cleaned log; the paper used the unfiltered one, 2
// short jobs more). Averages within 0.5% (Fig. 4) and 0.6% (Fig. 8) except
// timed-easy's short jobs (+5.6%); every maximum exact but timed-easy's
// overall one (0.014% below).
func thebeKTH(b *testing.B) {
	thebe(b, readTrace(b, kth), "", 9375, []thebeFigure{
		{"fcfs", 389892, 1018341, 385907, 1011593, 0.005, 0, 0.006},
		{"timed-fcfs", 42893, 535982, 1447, 332674, 0.005, 0, 0.006},
		{"easy", 6856, 262194, 4810, 196289, 0.005, 0, 0.006},
		{"timed-easy", 5607, 264395, 1877, 196212, 0.005, 0.0002, 0.06},
	})
}

// thebeLANL: LANL-CM5 with the paper's preprocessing (field 9 raised to
// field 4, processors from field 5). timed-easy does not reproduce (Fig. 4:
// 7,090 / 192,425 against 7,489 / 180,884; docs/swfsim-research.md lists the
// readings tried): its row checks our figures, so that a change is seen.
func thebeLANL(b *testing.B) {
	thebe(b, raiseEstimates(readTrace(b, lanl)), "allocated", 36910, []thebeFigure{
		{"fcfs", 79474, 470233, 88619, 469988, 0.005, 0, 0.015},
		{"timed-fcfs", 35659, 422697, 774, 131094, 0.005, 0, 0.015},
		{"easy", 8242, 180064, 5334, 149382, 0.005, 0, 0.015},
		{"timed-easy", 7090, 192425, 925, 122894, 0.001, 0, 0.06}, // ours (paper 7,489 / 180,884 and max 122,215 in Fig. 8)
	})
}

// pyssKTH: the EASY and EASY++ average waits that pyss's documentation
// gives for KTH-SP2 (113.9 and 94.2 minutes), on the unfiltered log with
// kills at the estimate: ours 113.9 and 93.4.
func pyssKTH(b *testing.B) {
	trace := readTrace(b, kthUnfiltered)
	var files []string
	for _, p := range []string{"easy", "easy++"} {
		files = append(files, file(b, p+".swf", run(b, trace, "swfsim", "--policy", p, "--no-progress")))
	}
	s := summarize(b, files)
	within(b, "pyss: easy average wait (min)", s.get(b, "easy.swf", "", "wait_s", "mean")/60, 113.9, 0.001)
	within(b, "pyss: easy++ average wait (min)", s.get(b, "easy++.swf", "", "wait_s", "mean")/60, 94.2, 0.01)
}

// srinivasanKTH checks Srinivasan et al.'s claims on KTH-SP2 at the log's own
// load, with exact estimates (section 6, Fig. 3) or the users' (section 7,
// Fig. 5), and their Table 9 fairness share.
func srinivasanKTH(b *testing.B, exact bool) {
	trace := readTrace(b, kth)
	if exact {
		trace = run(b, trace, "swfaugment", "--estimate", "exact")
	}
	policies := []string{"conservative", "easy", "selective", "selective-d"}
	var files []string
	for _, p := range policies {
		files = append(files, file(b, p+".swf", run(b, trace, "swfsim", "--policy", p, "--fair-start", "--no-progress")))
	}
	s := summarize(b, files, "--by", "category")
	bsld := func(policy, category string) float64 {
		group := ""
		if category != "" {
			group = "category=" + category
		}
		return s.get(b, policy+".swf", group, "bsld", "mean")
	}
	change := func(policy, than string) float64 { return 100 * (bsld(policy, "")/bsld(than, "") - 1) }
	selCons, selEasy := change("selective", "conservative"), change("selective", "easy")
	if exact {
		// Section 6: "at least 45% reduction in the overall slowdown compared
		// to conservative and EASY backfilling"; ours -64.3% and -66.6%.
		holds(b, "exact: selective cuts the average bsld by >= 45% against conservative and EASY",
			selCons <= -45 && selEasy <= -45, fmt.Sprintf("%+.1f%%, %+.1f%%", selCons, selEasy))
		within(b, "exact: selective vs conservative, bsld change (%)", selCons, -64.3, 0.02)
	} else {
		// Section 7: the selective schemes "perform much better than
		// conservative and EASY"; ours -39.6% and -42.0%.
		holds(b, "user estimates: selective cuts the average bsld against conservative and EASY",
			selCons < 0 && selEasy < 0, fmt.Sprintf("%+.1f%%, %+.1f%%", selCons, selEasy))
		within(b, "user estimates: selective vs conservative, bsld change (%)", selCons, -39.6, 0.03)
	}
	for _, cat := range []string{"SN", "SW", "LN", "LW"} {
		better := func(p string) bool {
			return bsld(p, cat) < bsld("conservative", cat) && bsld(p, cat) < bsld("easy", cat)
		}
		figures := fmt.Sprintf("conservative %.3f, easy %.3f, selective %.3f, selective-d %.3f",
			bsld("conservative", cat), bsld("easy", cat), bsld("selective", cat), bsld("selective-d", cat))
		// Sections 6 and 7: Selective-D improves every category, LW included.
		holds(b, cat+": selective-d below conservative and EASY", better("selective-d"), figures)
		switch {
		case cat != "LW":
			holds(b, cat+": selective below conservative and EASY", better("selective"), figures)
		case exact:
			// Section 6: selective improves every category "except the LW category".
			holds(b, "LW: selective above conservative and EASY (the paper's exception)",
				bsld("selective", cat) > bsld("conservative", cat) && bsld("selective", cat) > bsld("easy", cat), figures)
		}
		// With user estimates the paper has no exception; ours leaves LW
		// 2.4% above conservative (docs/swfsim-research.md), not checked.
	}
	// Table 9: "93% of the jobs received fair treatment under the Selective
	// reservation schemes"; ours 93.3-94.3%.
	for _, p := range []string{"selective", "selective-d"} {
		within(b, "Table 9: "+p+" jobs at or below their fair bsld (%)", s.get(b, p+".swf", "", "fairness", "pct_le_1"), 93, 0.016)
	}
}

// guimTable4: the runtime bounds of Guim et al.'s Table 4, derived by
// swfstat's U-QoS as by swfaugment --bounds (LANL's lower bound prints
// 224.27 for 0.04 x 5606 = 224.24).
func guimTable4(b *testing.B) {
	for _, c := range []struct {
		trace        string
		lower, upper float64
	}{{kth, 956.88, 23922}, {lanl, 224.27, 5606}} {
		s := summarize(b, []string{file(b, "t.swf", readTrace(b, c.trace))})
		within(b, "Table 4: "+c.trace+" rt_upperbound", s.get(b, "t.swf", "", "uqos", "rt_upperbound_s"), c.upper, 0)
		within(b, "Table 4: "+c.trace+" rt_lowerbound", s.get(b, "t.swf", "", "uqos", "rt_lowerbound_s"), c.lower, 0.0002)
	}
}

var guimTraces = map[string]string{"KTH": kth, "LANL": lanl}

// guimRun injects errors as predictions (swfaugment --as-prediction ...) and
// simulates EASY with them (swfsim --policy easy-p --predictor token): Guim et
// al.'s setup. It returns the average bounded slowdown and U-QoS, with the
// bounds of the injection (swfaugment's Note).
func guimRun(b *testing.B, trace []byte, augment ...string) (bsld, uqos float64) {
	aug := run(b, trace, "swfaugment", append([]string{"--as-prediction"}, augment...)...)
	out := run(b, aug, "swfsim", "--policy", "easy-p", "--predictor", "token", "--no-progress")
	s := summarize(b, []string{file(b, "g.swf", out)})
	return s.get(b, "g.swf", "", "bsld", "mean"), s.get(b, "g.swf", "", "uqos", "mean")
}

func quant(err float64, stdev string, category int) []string {
	return []string{"--error-quant", fmt.Sprint(err), "--error-stdev", stdev, "--error-category", fmt.Sprint(category)}
}

// guimQuantitative checks section 5.1's findings in Guim's setup
// (docs/swfaugment.md, scripts/guim-errors.sh): errors on every job (pure
// equal) barely matter, 100% error improves the slowdown, and errors on the
// short jobs (category 4: large ones exact) hurt U-QoS more than errors on
// the large ones (category 3: short ones exact). Our figures are pinned too
// (0.5%), so that a change shows.
func guimQuantitative(b *testing.B, name string) {
	trace := readTrace(b, guimTraces[name])
	pin := map[string]map[string][2]float64{
		"KTH":  {"10/5": {69.53, 10.773}, "10/100": {61.12, 14.457}, "10/1000": {68.34, 11.172}, "10/10000": {70.89, 11.601}, "3/5": {67.57, 10.898}, "3/10000": {68.61, 11.119}, "4/5": {68.42, 10.735}, "4/10000": {72.61, 12.290}},
		"LANL": {"10/5": {14.22, 10.248}, "10/100": {10.34, 7.228}, "10/1000": {14.79, 10.666}, "10/10000": {16.07, 11.207}, "3/5": {14.58, 10.589}, "3/10000": {15.12, 10.341}, "4/5": {13.46, 10.003}, "4/10000": {16.15, 11.361}},
	}[name]
	stdev := map[float64]string{5: "0.5", 100: "2", 1000: "25", 10000: "25"} // the paper's first group
	got := map[string][2]float64{}
	for _, c := range []struct {
		category int
		errors   []float64
	}{{10, []float64{5, 100, 1000, 10000}}, {3, []float64{5, 10000}}, {4, []float64{5, 10000}}} {
		for _, e := range c.errors {
			key := fmt.Sprintf("%d/%g", c.category, e)
			bsld, uqos := guimRun(b, trace, quant(e, stdev[e], c.category)...)
			got[key] = [2]float64{bsld, uqos}
			within(b, "category "+key+"% bsld", bsld, pin[key][0], 0.005)
			within(b, "category "+key+"% U-QoS", uqos, pin[key][1], 0.005)
		}
	}
	base := got["10/5"][0]
	for _, e := range []string{"1000", "10000"} {
		dev := got["10/"+e][0]/base - 1
		holds(b, "pure equal: bsld at "+e+"% within 15% of bsld at 5%", dev >= -0.15 && dev <= 0.15, pct(100*dev))
	}
	holds(b, "pure equal: 100% error lowers bsld", got["10/100"][0] < base, fmt.Sprintf("%.2f < %.2f", got["10/100"][0], base))
	large := got["4/10000"][1] / got["4/5"][1]
	short := got["3/10000"][1] / got["3/5"][1]
	holds(b, "errors on short jobs (large exact) raise U-QoS more than errors on large jobs", large > 1.1 && large > short,
		fmt.Sprintf("large category x%.3f, short category x%.3f", large, short))
}

// guimQualitative checks section 5.2: converting short and large jobs
// (both) hurts more the more jobs are converted. In Guim's setup this holds
// on KTH-SP2 (U-QoS at 90% at least 1.5 times U-QoS at 5%; ours x1.97) but
// not on LANL-CM5, where the users' requests, still the kill time, cap most
// converted predictions and kill 32.9% of jobs (ours x0.90, pinned;
// docs/swfaugment.md).
func guimQualitative(b *testing.B, name string) {
	trace := readTrace(b, guimTraces[name])
	qual := func(p int) []string {
		return []string{"--error-qual", "both", "--error-percent", fmt.Sprint(p), "--error-stdev", "0"}
	}
	lowBsld, low := guimRun(b, trace, qual(5)...)
	highBsld, high := guimRun(b, trace, qual(90)...)
	pin := map[string][4]float64{"KTH": {71.37, 12.327, 79.58, 24.302}, "LANL": {14.07, 10.986, 12.12, 9.898}}[name]
	within(b, "both 5% bsld", lowBsld, pin[0], 0.005)
	within(b, "both 5% U-QoS", low, pin[1], 0.005)
	within(b, "both 90% bsld", highBsld, pin[2], 0.005)
	within(b, "both 90% U-QoS", high, pin[3], 0.005)
	if name == "KTH" {
		holds(b, "both: U-QoS at 90% converted >= 1.5 x U-QoS at 5%", high >= 1.5*low, fmt.Sprintf("%.3f vs %.3f: x%.2f", high, low, high/low))
	}
}

// leeRanking checks the order of Lee's Table 4.1 (aggregate utility: GA,
// then priority-FIFO, then EASY, then conservative) on a LANL-CM5 window
// (jobs 5000-9999) augmented with utility functions (seed 1) at 1.5 times
// its load: `swfaugment --utility --load 1.5`. At the log's own load
// priority-FIFO falls below EASY (docs/swfsim-ga.md). The GA run takes about
// 7 minutes on a loaded 2-core machine.
func leeRanking(b *testing.B) {
	trace := run(b, window(readTrace(b, lanl), 5000, 5000), "swfaugment", "--utility", "--load", "1.5", "--seed", "1")
	policies := []string{"ga", "priofifo", "easy", "conservative"}
	var files []string
	for _, p := range policies {
		files = append(files, file(b, p+".swf", run(b, trace, "swfsim", "--policy", p, "--no-progress")))
	}
	s := summarize(b, files)
	au := map[string]float64{}
	for _, p := range policies {
		au[p] = s.get(b, p+".swf", "", "utility", "sum")
	}
	ratio := func(p string) float64 { return au[p] / au["easy"] }
	figures := fmt.Sprintf("ratios to easy: ga %.3f, priofifo %.3f, conservative %.3f", ratio("ga"), ratio("priofifo"), ratio("conservative"))
	holds(b, "Table 4.1 order: ga > priofifo > easy > conservative",
		au["ga"] > au["priofifo"] && au["priofifo"] > au["easy"] && au["easy"] > au["conservative"], figures)
	for p, want := range leePinned {
		within(b, "aggregate utility of "+p+" / easy", ratio(p), want, 0.01)
	}
}

// leePinned are our ratios to EASY at 1.5x load, seed 1 (the review of issue
// #15 found 2.94, 1.39 and 0.94 on its own window; before swfaugment's
// per-job utility streams they were 2.818, 1.354 and 0.936).
var leePinned = map[string]float64{"ga": 3.143, "priofifo": 1.372, "conservative": 0.907}
