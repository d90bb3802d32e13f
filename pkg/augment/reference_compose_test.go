package augment_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/augment"
)

// TestReferenceComposition checks what docs/swfaugment.md "Reproducibility"
// promises across runs of the command: each operation draws from its own
// stream, so adding operations changes no u= or ckpt= another run wrote;
// utility runs first, on field 9 and the wait as read (an --estimate or
// --load in the same run does not change u=); the same seed gives the same
// bytes; every job line takes one utility draw whether or not it gets a
// function, so a job made unknown changes no other job's u=.
func TestReferenceComposition(t *testing.T) {
	data := refGenTrace(111, 800, true)
	tokens := func(out []byte, key string) []string {
		tr := refRead(t, out)
		vs := make([]string, len(tr.jobs))
		for i := range tr.jobs {
			vs[i], _ = tr.jobs[i].ExtraValue(key)
		}
		return vs
	}
	same := func(label string, a, b []string, skip int) {
		t.Helper()
		for i := range a {
			if i != skip && a[i] != b[i] {
				t.Errorf("%s: job %d: %q vs %q", label, i+1, a[i], b[i])
				return
			}
		}
	}
	base := refRun(t, data, "--utility", "--seed", "9")
	all := refRun(t, data, "--utility", "--checkpoint", "--estimate", "scale:3", "--load", "2", "--seed", "9")
	same("u= with other operations", tokens(base, "u"), tokens(all, "u"), -1)
	ck := refRun(t, data, "--checkpoint", "--seed", "9")
	same("ckpt= with other operations", tokens(ck, "ckpt"), tokens(all, "ckpt"), -1)
	if again := refRun(t, data, "--utility", "--checkpoint", "--estimate", "scale:3", "--load", "2", "--seed", "9"); !bytes.Equal(all, again) {
		t.Error("same input, options and seed: different output")
	}
	// Job 3 loses its processors (both fields -1): it gets no u=, and no
	// other job's u= changes.
	in := refRead(t, data)
	lines := strings.SplitAfter(string(data), "\n")
	for k, line := range lines {
		if strings.HasPrefix(line, "3 ") {
			f := strings.Fields(line)
			f[4], f[7] = "-1", "-1"
			lines[k] = strings.Join(f, " ") + "\n"
		}
	}
	changed := refRun(t, []byte(strings.Join(lines, "")), "--utility", "--seed", "9")
	got := tokens(changed, "u")
	if old, _ := in.jobs[2].ExtraValue("u"); got[2] != old {
		t.Errorf("job 3 without processors: u=%q, want its input's %q", got[2], old)
	}
	same("u= after job 3 lost its processors", tokens(base, "u"), got, 2)
}

// TestReferenceErrorDraws: "the estimate-error operations draw the same
// numbers for a job whatever their parameters and whatever branch it takes".
// So with the same error and stdev, category 10 and category 3 write the same
// value for every job not in category 3; and with stdev 0 a job converted at
// 30% is converted at 60% (p > u with the same u and a larger p).
func TestReferenceErrorDraws(t *testing.T) {
	data := refSharedTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz", 6000)
	in := refRead(t, data)
	run := func(cfg augment.QuantConfig) []int64 {
		lib := refRead(t, data)
		b, err := augment.ComputeBounds(lib.jobs, augment.BoundsConfig{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := augment.QuantitativeErrors(lib.jobs, b, cfg, augment.NewRand(4, augment.StreamEstimate)); err != nil {
			t.Fatal(err)
		}
		v := make([]int64, len(lib.jobs))
		for i := range lib.jobs {
			v[i] = lib.jobs[i].RequestedTime
		}
		return v
	}
	all := run(augment.QuantConfig{Error: 80, Stdev: 30, Category: augment.CatPureEqual})
	short := run(augment.QuantConfig{Error: 80, Stdev: 30, Category: augment.CatShort})
	bm := refComputeBounds(in.jobs, 0.95, 0.5, 0.04)
	for i := range in.jobs {
		if !refMatches(bm, &in.jobs[i], 3, nil) && all[i] != short[i] {
			t.Errorf("job line %d (not short): category 10 wrote %d, category 3 wrote %d", in.jobs[i].Line, all[i], short[i])
			break
		}
	}
	qual := func(p float64) []int64 {
		lib := refRead(t, data)
		b, err := augment.ComputeBounds(lib.jobs, augment.BoundsConfig{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := augment.QualitativeErrors(lib.jobs, b, augment.QualConfig{Conversion: augment.BothWays, Percent: p}, augment.NewRand(4, augment.StreamEstimate)); err != nil {
			t.Fatal(err)
		}
		v := make([]int64, len(lib.jobs))
		for i := range lib.jobs {
			v[i] = lib.jobs[i].RequestedTime
		}
		return v
	}
	q30, q60 := qual(30), qual(60)
	for i := range in.jobs {
		j := &in.jobs[i]
		v, ok := refQualValue(j.RunTime, bm.rtLo, bm.rtHi, 3)
		if ok && q30[i] == refEstimateValue(v) && q60[i] != refEstimateValue(v) {
			t.Errorf("job line %d: converted at 30%% but not at 60%%", j.Line)
			break
		}
	}
}
