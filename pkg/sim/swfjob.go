package sim

import (
	"fmt"

	"github.com/swfkit/swfkit/pkg/swf"
)

// ProcsFrom says which SWF field gives a job's processor count.
type ProcsFrom uint8

const (
	// ProcsRequestedElseAllocated: field 8 when > 0, else field 5 (the default).
	ProcsRequestedElseAllocated ProcsFrom = iota
	// ProcsRequested: field 8 only.
	ProcsRequested
	// ProcsAllocated: field 5 only.
	ProcsAllocated
	// ProcsMax: the larger of fields 5 and 8.
	ProcsMax
)

// ParseProcsFrom parses the --procs-from values "requested" (field 8, else 5),
// "requested-only", "allocated" and "max".
func ParseProcsFrom(s string) (ProcsFrom, error) {
	switch s {
	case "", "requested":
		return ProcsRequestedElseAllocated, nil
	case "requested-only":
		return ProcsRequested, nil
	case "allocated":
		return ProcsAllocated, nil
	case "max":
		return ProcsMax, nil
	}
	return 0, fmt.Errorf("--procs-from %q: want requested, requested-only, allocated or max", s)
}

func (f ProcsFrom) String() string {
	switch f {
	case ProcsRequestedElseAllocated:
		return "requested"
	case ProcsRequested:
		return "requested-only"
	case ProcsAllocated:
		return "allocated"
	case ProcsMax:
		return "max"
	}
	return "invalid"
}

// Procs returns the processor count of sj in the fields f names; below 1
// means unknown. swfstat uses it too, so one --procs-from value means the
// same processors in the simulation and in its summary.
func (f ProcsFrom) Procs(sj *swf.Job) int64 {
	switch f {
	case ProcsRequestedElseAllocated:
		if sj.RequestedProcs > 0 {
			return sj.RequestedProcs
		}
		return sj.AllocatedProcs
	case ProcsRequested:
		return sj.RequestedProcs
	case ProcsAllocated:
		return sj.AllocatedProcs
	case ProcsMax:
		return max(sj.RequestedProcs, sj.AllocatedProcs)
	}
	return -1
}

// SkipReason says why a job cannot be simulated.
type SkipReason uint8

const (
	// NotSkipped: the job can be simulated.
	NotSkipped SkipReason = iota
	// SkipSubmitUnknown: field 2 is negative (unknown).
	SkipSubmitUnknown
	// SkipRuntimeUnknown: field 4 is negative (unknown).
	SkipRuntimeUnknown
	// SkipProcsUnknown: no processor count >= 1 in the fields ProcsFrom names.
	SkipProcsUnknown
	// SkipTooWide: the job needs more processors than the machine has.
	SkipTooWide
	// NumSkipReasons bounds the reasons, for counting arrays.
	NumSkipReasons
)

func (r SkipReason) String() string {
	switch r {
	case NotSkipped:
		return "not skipped"
	case SkipSubmitUnknown:
		return "unknown submit time"
	case SkipRuntimeUnknown:
		return "unknown runtime"
	case SkipProcsUnknown:
		return "no processor count"
	case SkipTooWide:
		return "wider than the machine"
	}
	return "invalid"
}

// FromSWF converts an SWF record into a simulation job for a machine of procs
// processors, following DESIGN.md "Simulation semantics": runtime r = field 4,
// processors from the fields from names, estimate e = field 9 when > 0, else r.
// It returns the reason when the job cannot be simulated. ID is left 0.
func FromSWF(sj *swf.Job, procs int64, from ProcsFrom) (Job, SkipReason) {
	p := from.Procs(sj)
	switch {
	case sj.SubmitTime < 0:
		return Job{}, SkipSubmitUnknown
	case sj.RunTime < 0:
		return Job{}, SkipRuntimeUnknown
	case p < 1:
		return Job{}, SkipProcsUnknown
	case p > procs:
		return Job{}, SkipTooWide
	}
	e := sj.RequestedTime
	if e <= 0 {
		e = sj.RunTime
	}
	q := sj.Queue
	if q < -1 || q > 1<<30 {
		q = -1
	}
	u := sj.UserID
	if u < -1 || u > 1<<30 {
		u = -1
	}
	return Job{
		Procs:    int32(p),
		Queue:    int32(q),
		User:     int32(u),
		Submit:   sj.SubmitTime,
		Runtime:  sj.RunTime,
		Estimate: e,
	}, NotSkipped
}

// MachineSize returns the machine size a header gives: MaxProcs, else MaxNodes.
// ok is false when the header has neither; err reports a malformed value.
func MachineSize(h *swf.Header) (procs int64, label string, ok bool, err error) {
	if v, ok, err := h.MaxProcs(); err != nil || (ok && v > 0) {
		return v, "MaxProcs", err == nil, err
	}
	if v, ok, err := h.MaxNodes(); err != nil || (ok && v > 0) {
		return v, "MaxNodes", err == nil, err
	}
	return 0, "", false, nil
}
