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
	var s workSpan
	for i := range jobs {
		s.add(&jobs[i])
	}
	return s.load(machine)
}

// workSpan sums what OfferedLoad needs, job by job in file order (the order
// of the float sum is part of the result).
type workSpan struct {
	first, last int64
	work        float64
	n           int
}

func (s *workSpan) add(j *swf.Job) {
	a := Area(j)
	if a < 0 || j.SubmitTime < 0 {
		return
	}
	if s.n == 0 || j.SubmitTime < s.first {
		s.first = j.SubmitTime
	}
	if s.n == 0 || j.SubmitTime > s.last {
		s.last = j.SubmitTime
	}
	s.work += a
	s.n++
}

func (s *workSpan) load(machine int64) (load float64, span int64, err error) {
	if machine < 1 {
		return 0, 0, errors.New("load: machine size unknown (no MaxProcs or MaxNodes in the header; give --procs)")
	}
	if s.n == 0 || s.last == s.first {
		return 0, 0, errors.New("load: the trace spans no time (fewer than two distinct submit times among the jobs with known submit time, runtime and processors)")
	}
	span = s.last - s.first
	return s.work / (float64(machine) * float64(span)), span, nil
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
// It is LoadSurvey, LoadSurvey.Scaler, LoadScaler.Apply and LoadScaler.Finish
// over the jobs.
func ScaleLoad(jobs []swf.Job, machine int64, factor, target float64) (*LoadReport, error) {
	var survey LoadSurvey
	for i := range jobs {
		survey.Observe(&jobs[i])
	}
	s, err := survey.Scaler(machine, factor, target)
	if err != nil {
		return nil, err
	}
	for i := range jobs {
		s.Apply(&jobs[i])
	}
	return s.Finish()
}

// LoadSurvey is the first pass of ScaleLoad over a trace streamed twice: it
// sees every job, in file order, before the scaler changes the first. Its
// zero value is ready to use; it keeps a few numbers, not the jobs.
type LoadSurvey struct {
	known   workSpan // the jobs with known submit time, runtime and processors
	submits struct { // the jobs with known submit time
		first, last int64
		ok          bool
	}
}

// Observe adds the next job of the trace.
func (s *LoadSurvey) Observe(j *swf.Job) {
	s.known.add(j)
	if t := j.SubmitTime; t >= 0 {
		if !s.submits.ok || t < s.submits.first {
			s.submits.first = t
		}
		if !s.submits.ok || t > s.submits.last {
			s.submits.last = t
		}
		s.submits.ok = true
	}
}

// OfferedLoad is OfferedLoad over the jobs observed.
func (s *LoadSurvey) OfferedLoad(machine int64) (load float64, span int64, err error) {
	return s.known.load(machine)
}

// Scaler chooses the factor as ScaleLoad does, over the jobs observed, and
// returns the scaler that applies it to the same jobs, in the same order.
func (s *LoadSurvey) Scaler(machine int64, factor, target float64) (*LoadScaler, error) {
	before, span, err := s.OfferedLoad(machine)
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
	first, last := s.submits.first, s.submits.last
	rep.Origin = first
	if stretched := float64(first) + math.Round(float64(last-first)/factor); stretched > swf.MaxTime {
		return nil, fmt.Errorf("load: factor %g puts the last submit time at %.4g s, beyond swfkit's time bound %d s", factor, stretched, int64(swf.MaxTime))
	}
	return &LoadScaler{rep: rep}, nil
}

// LoadScaler rewrites submit times job by job, in file order; Finish ends
// the trace.
type LoadScaler struct {
	rep   *LoadReport
	after workSpan
}

// Report returns the report so far: its factor, origin, machine and load
// before are known from the start (ScaleEndTime needs only those); After,
// SpanAfter and UnknownSubmit once Finish returned.
func (s *LoadScaler) Report() *LoadReport { return s.rep }

// Apply rewrites the job's submit time.
func (s *LoadScaler) Apply(j *swf.Job) {
	if j.SubmitTime < 0 {
		s.rep.UnknownSubmit++
		return
	}
	j.SubmitTime = s.rep.Origin + int64(math.Round(float64(j.SubmitTime-s.rep.Origin)/s.rep.Factor))
	s.after.add(j)
}

// Finish computes the offered load of the scaled trace; it is an error when
// the factor left it no span.
func (s *LoadScaler) Finish() (*LoadReport, error) {
	var err error
	s.rep.After, s.rep.SpanAfter, err = s.after.load(s.rep.Machine)
	if err != nil {
		// The machine size was checked before scaling: only the span is left.
		return nil, fmt.Errorf("load: factor %g squeezes every known submit time into the same second, so the scaled trace spans no time", s.rep.Factor)
	}
	return s.rep, nil
}
