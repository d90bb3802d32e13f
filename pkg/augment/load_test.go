package augment

import (
	"math"
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
	if _, err := ScaleLoad(jobs, 0, 2, 0); err == nil {
		t.Error("machine size 0 accepted")
	}
	_, one := parseJobs(t, "1 5 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n")
	if _, err := ScaleLoad(one, 10, 2, 0); err == nil {
		t.Error("a trace spanning no time accepted")
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
