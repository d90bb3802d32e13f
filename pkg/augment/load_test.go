package augment

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestScaleLoadOnTraces(t *testing.T) {
	for _, name := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "lublin_256.swf.gz", "NASA-iPSC-1993-3.1-cln.swf.gz"} {
		for _, factor := range []float64{0.5, 1.3, 2} {
			h, jobs := loadTrace(t, name)
			machine, ok, _ := h.MaxProcs()
			if !ok {
				machine, _, _ = h.MaxNodes()
			}
			before := make([]int64, len(jobs))
			for i := range jobs {
				before[i] = jobs[i].SubmitTime
			}
			rep, err := ScaleLoad(jobs, machine, factor, 0)
			if err != nil {
				t.Fatal(err)
			}
			for i := range jobs {
				for _, k := range []int{i - 1, i + 1} {
					if k < 0 || k >= len(jobs) {
						continue
					}
					// Order preserved: s_i < s_k stays s_i <= s_k.
					if before[i] < before[k] && jobs[i].SubmitTime > jobs[k].SubmitTime {
						t.Fatalf("%s x%v: jobs %d and %d change order", name, factor, i, k)
					}
				}
			}
			if want := float64(rep.SpanBefore) / factor; math.Abs(float64(rep.SpanAfter)-want) > 1 {
				t.Errorf("%s x%v: span %d -> %d, want %.1f", name, factor, rep.SpanBefore, rep.SpanAfter, want)
			}
			if math.Abs(rep.After/rep.Before-factor) > 1e-4*factor {
				t.Errorf("%s x%v: load %v -> %v", name, factor, rep.Before, rep.After)
			}
			if jobs[0].SubmitTime != before[0] {
				t.Errorf("%s: first submit moved from %d to %d", name, before[0], jobs[0].SubmitTime)
			}
		}
	}
}

func TestTargetLoad(t *testing.T) {
	h, jobs := loadTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	machine, _, _ := h.MaxProcs()
	rep, err := ScaleLoad(jobs, machine, 0, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("KTH offered load %.4f -> %.4f with F=%.4f", rep.Before, rep.After, rep.Factor)
	if math.Abs(rep.After-0.95) > 1e-4 {
		t.Errorf("target 0.95, got %v", rep.After)
	}
	if _, err := ScaleLoad(jobs, 0, 0, 0.95); err == nil {
		t.Error("a target load on a machine of size 0 accepted")
	}
	_, one := parseJobs(t, "1 5 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n")
	if _, err := ScaleLoad(one, 10, 0, 0.95); err == nil {
		t.Error("a target load on a trace spanning no time accepted")
	}
}

// TestLoadFactorNeedsNoLoad: a factor given scales the submit times whether
// or not the offered load is known (no machine size, no span, no job of
// known runtime, no job at all); the report says why it is unknown. Only a
// target needs the load, except when there is no submit time to scale.
func TestLoadFactorNeedsNoLoad(t *testing.T) {
	const two = "1 0 0 10 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 50 0 10 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
	tests := []struct {
		name, in string
		machine  int64
		factor   float64
		target   float64
		submits  []int64 // after; nil when an error is expected
		unknown  string  // in LoadUnknown
		empty    bool
		err      string
	}{
		{"no machine size", two, 0, 2, 0, []int64{0, 25}, "no machine size", false, ""},
		{"no runtimes", strings.ReplaceAll(two, " 10 1 -1", " -1 1 -1"), 10, 2, 0, []int64{0, 25}, "spans no time", false, ""},
		{"one job", "1 7 0 10 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n", 10, 2, 0, []int64{7}, "spans no time", false, ""},
		{"no job", "", 10, 2, 0, []int64{}, "spans no time", true, ""},
		{"no job, target", "", 10, 0, 0.5, []int64{}, "spans no time", true, ""},
		{"no submit time, target", "1 -1 0 10 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n", 10, 0, 0.5, []int64{-1}, "spans no time", true, ""},
		{"target, no machine size", two, 0, 0, 0.5, nil, "", false, "no machine size"},
		{"target, no runtimes", strings.ReplaceAll(two, " 10 1 -1", " -1 1 -1"), 10, 0, 0.5, nil, "", false, "spans no time"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, jobs := parseJobs(t, "; MaxProcs: 10\n"+tc.in)
			rep, err := ScaleLoad(jobs, tc.machine, tc.factor, tc.target)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := []int64{}
			for _, j := range jobs {
				got = append(got, j.SubmitTime)
			}
			if !slices.Equal(got, tc.submits) {
				t.Errorf("submit times %v, want %v", got, tc.submits)
			}
			if !strings.Contains(rep.LoadUnknown, tc.unknown) || rep.Empty != tc.empty {
				t.Errorf("LoadUnknown %q Empty %v; want %q, %v", rep.LoadUnknown, rep.Empty, tc.unknown, tc.empty)
			}
			note := strings.Join(rep.Notes(), "\n")
			if strings.Contains(note, "NaN") || !tc.empty && (!strings.Contains(note, "offered load unknown: ") || !strings.Contains(note, tc.unknown)) || tc.empty && !strings.Contains(note, "nothing was scaled") {
				t.Errorf("Note %q", note)
			}
		})
	}
}

// TestOfferedLoadCountsSimulableJobs: the work and span are over the jobs
// with known submit time, runtime and processors, as swfsim and swfstat
// count them: a job of unknown submit time adds no work, one of unknown
// runtime stretches no span.
func TestOfferedLoadCountsSimulableJobs(t *testing.T) {
	_, jobs := parseJobs(t, "; MaxProcs: 4\n"+
		"1 0 0 30 1 -1 -1 1 5 -1 1 7 1 -1 -1 -1 -1 -1\n"+
		"2 100 0 30 1 -1 -1 1 5 -1 1 7 1 -1 -1 -1 -1 -1\n"+
		"3 -1 0 3000 4 -1 -1 4 5 -1 1 7 1 -1 -1 -1 -1 -1\n"+ // unknown submit
		"4 500 0 -1 4 -1 -1 4 5 -1 1 7 1 -1 -1 -1 -1 -1\n") // unknown runtime
	load, span, err := OfferedLoad(jobs, 4)
	if err != nil || span != 100 || load != 60.0/400 {
		t.Errorf("load %v over %d s (%v); want 0.15 over 100 s", load, span, err)
	}
}
