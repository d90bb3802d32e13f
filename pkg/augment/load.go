package augment

import (
	"errors"
	"fmt"
	"math"

	"github.com/swfkit/swfkit/pkg/swf"
)

// OfferedLoad returns the processor-seconds of work (processors x runtime)
// per processor-second of the trace's span (last submit time minus first),
// both over the jobs whose submit time, runtime and processors are known, as
// swfsim's offered-load Note and swfstat's offered_load count them, on a
// machine of the given size; and the span.
func OfferedLoad(jobs []swf.Job, machine int64) (load float64, span int64, err error) {
	if machine < 1 {
		return 0, 0, errors.New("load: machine size unknown (no MaxProcs or MaxNodes in the header; give --procs)")
	}
	var first, last int64
	var work float64
	n := 0
	for i := range jobs {
		j := &jobs[i]
		a := Area(j)
		if a < 0 || j.SubmitTime < 0 {
			continue
		}
		if n == 0 || j.SubmitTime < first {
			first = j.SubmitTime
		}
		if n == 0 || j.SubmitTime > last {
			last = j.SubmitTime
		}
		work += a
		n++
	}
	if n == 0 || last == first {
		return 0, 0, errors.New("load: the trace spans no time (fewer than two distinct submit times among the jobs with known submit time, runtime and processors)")
	}
	span = last - first
	return work / (float64(machine) * float64(span)), span, nil
}

func submitRange(jobs []swf.Job) (first, last int64, ok bool) {
	for i := range jobs {
		s := jobs[i].SubmitTime
		if s < 0 {
			continue
		}
		if !ok || s < first {
			first = s
		}
		if !ok || s > last {
			last = s
		}
		ok = true
	}
	return first, last, ok
}

// LoadReport is what ScaleLoad did.
type LoadReport struct {
	Factor        float64
	Target        float64 // 0 unless the factor was chosen for a target load
	Machine       int64
	Before, After float64 // offered load
	SpanBefore    int64
	SpanAfter     int64
	Origin        int64 // the first submit time, kept
	UnknownSubmit int   // jobs with submit time -1, untouched
}

// Notes returns the header Note lines.
func (r *LoadReport) Notes() []string {
	how := "factor given"
	if r.Target > 0 {
		how = "factor chosen for target load " + fmtFloat(r.Target)
	}
	return []string{fmt.Sprintf("swfaugment load (Srinivasan et al. 2002, 4.2): submit times s -> %d + round((s - %d) / F), F=%.6g (%s), i.e. inter-arrival times divided by F; machine %d processors; offered load (processors x runtime per processor-second of the submit span) %.4f -> %.4f, span %d s -> %d s; %d jobs with unknown submit time untouched; wait, runtime and think times unchanged",
		r.Origin, r.Origin, r.Factor, how, r.Machine, r.Before, r.After, r.SpanBefore, r.SpanAfter, r.UnknownSubmit)}
}

// ScaleLoad divides inter-arrival times by factor: each known submit time s
// becomes first + round((s - first)/factor), where first is the earliest submit
// time. The map is monotone, so the order of jobs by submit time is kept (jobs
// may come to share a second), and the span is divided by factor up to rounding.
// With target > 0, factor is ignored and chosen as target / offered load.
func ScaleLoad(jobs []swf.Job, machine int64, factor, target float64) (*LoadReport, error) {
	before, span, err := OfferedLoad(jobs, machine)
	if err != nil {
		return nil, err
	}
	rep := &LoadReport{Machine: machine, Before: before, SpanBefore: span, Target: target}
	if target > 0 {
		if before == 0 {
			return nil, errors.New("load: the trace has no work, no factor reaches a target load")
		}
		factor = target / before
	}
	if !(factor > 0) || math.IsInf(factor, 0) {
		return nil, fmt.Errorf("load: factor %g must be positive and finite", factor)
	}
	rep.Factor = factor
	first, last, _ := submitRange(jobs)
	rep.Origin = first
	if stretched := float64(first) + math.Round(float64(last-first)/factor); stretched > swf.MaxTime {
		return nil, fmt.Errorf("load: factor %g puts the last submit time at %.4g s, beyond swfkit's time bound %d s", factor, stretched, int64(swf.MaxTime))
	}
	for i := range jobs {
		j := &jobs[i]
		if j.SubmitTime < 0 {
			rep.UnknownSubmit++
			continue
		}
		j.SubmitTime = first + int64(math.Round(float64(j.SubmitTime-first)/factor))
	}
	rep.After, rep.SpanAfter, err = OfferedLoad(jobs, machine)
	if err != nil {
		// The machine size was checked before scaling: only the span is left.
		return nil, fmt.Errorf("load: factor %g squeezes every known submit time into the same second, so the scaled trace spans no time", factor)
	}
	return rep, nil
}
