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
	if span, why := s.span(); why != "" {
		return 0, span, errors.New("load: " + why)
	}
	span = s.last - s.first
	return s.work / (float64(machine) * float64(span)), span, nil
}

// span returns the submit span of the jobs added, and why it gives no
// offered load ("" when it does).
func (s *workSpan) span() (span int64, why string) {
	if s.n == 0 || s.last == s.first {
		return s.last - s.first, "the trace spans no time (fewer than two distinct submit times among the jobs with known submit time, runtime and processors)"
	}
	return s.last - s.first, ""
}

// LoadReport is what ScaleLoad did.
type LoadReport struct {
	Factor  float64 // NaN when Empty and the factor was to be chosen
	Target  float64 // 0 unless the factor was chosen for a target load
	Machine int64   // 0 when unknown: the offered load is then unknown
	// Before and After are the offered load, when LoadUnknown is "".
	Before, After float64
	// LoadUnknown says why the offered load is unknown ("" when known):
	// a factor given scales the submit times without it.
	LoadUnknown   string
	SpanBefore    int64
	SpanAfter     int64
	Origin        int64 // the first submit time, kept
	UnknownSubmit int   // jobs with submit time -1, untouched
	// Empty is true when no job has a known submit time: nothing is
	// scaled, whatever the factor, and Origin means nothing.
	Empty bool
}

// Notes returns the header Note lines. F is written in full (the shortest
// text that reads back as the same float64): --load with the factor a
// --target-load run chose, read from its Note, scales the trace the same way.
func (r *LoadReport) Notes() []string {
	how := "factor given"
	if r.Target > 0 {
		how = "factor chosen for target load " + fmtFloat(r.Target)
	}
	if r.Empty {
		factor := fmt.Sprintf("F=%s (%s)", fmtFloat(r.Factor), how)
		if math.IsNaN(r.Factor) {
			factor = "no factor chosen for target load " + fmtFloat(r.Target)
		}
		return []string{fmt.Sprintf("swfaugment load (Srinivasan et al. 2002, 4.2): %s; no job has a known submit time, so nothing was scaled (%d jobs with unknown submit time untouched)", factor, r.UnknownSubmit)}
	}
	machine := fmt.Sprintf("machine %d processors", r.Machine)
	if r.Machine < 1 {
		machine = "machine size unknown"
	}
	load := fmt.Sprintf("offered load (processors x runtime per processor-second of the submit span) %.4f -> %.4f", r.Before, r.After)
	if r.LoadUnknown != "" {
		load = "offered load unknown: " + r.LoadUnknown
	}
	return []string{fmt.Sprintf("swfaugment load (Srinivasan et al. 2002, 4.2): submit times s -> %d + round((s - %d) / F), F=%s (%s), i.e. inter-arrival times divided by F; %s; %s, span %d s -> %d s; %d jobs with unknown submit time untouched; wait, runtime and think times unchanged",
		r.Origin, r.Origin, fmtFloat(r.Factor), how, machine, load, r.SpanBefore, r.SpanAfter, r.UnknownSubmit)}
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
//
// A factor given needs neither a machine size (machine < 1 is unknown) nor a
// span: the offered load is then unknown, and the report says why. A
// target needs both, and work in the span, except when no job has a known
// submit time: nothing is scaled, whatever the factor, and the report is
// Empty with no factor (NaN).
func (s *LoadSurvey) Scaler(machine int64, factor, target float64) (*LoadScaler, error) {
	rep := &LoadReport{Machine: machine, Target: target, Empty: !s.submits.ok}
	var why string
	rep.SpanBefore, why = s.known.span()
	switch {
	case machine < 1:
		rep.LoadUnknown = "no machine size (a MaxProcs or MaxNodes header line, or --procs, gives one)"
	case why != "":
		rep.LoadUnknown = why
	default:
		rep.Before, _, _ = s.known.load(machine)
	}
	if target > 0 {
		switch {
		case rep.Empty:
			factor = math.NaN() // no job to scale, no load to reach
		case rep.LoadUnknown != "":
			return nil, errors.New("load: no factor reaches a target load: offered load unknown: " + rep.LoadUnknown)
		case rep.Before == 0:
			return nil, errors.New("load: the trace has no work, no factor reaches a target load")
		default:
			factor = target / rep.Before
		}
	}
	if !rep.Empty && (!(factor > 0) || math.IsInf(factor, 0)) {
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

// Finish computes the offered load of the scaled trace, when the trace's
// was known; it is an error when the factor left no span to a trace that had
// one.
func (s *LoadScaler) Finish() (*LoadReport, error) {
	var why string
	s.rep.SpanAfter, why = s.after.span()
	if why != "" && s.rep.SpanBefore > 0 {
		return nil, fmt.Errorf("load: factor %g squeezes every known submit time into the same second, so the scaled trace spans no time", s.rep.Factor)
	}
	if s.rep.LoadUnknown == "" {
		s.rep.After, _, _ = s.after.load(s.rep.Machine)
	}
	return s.rep, nil
}
