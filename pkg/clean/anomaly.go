package clean

import "github.com/swfkit/swfkit/pkg/swf"

// Anomaly describes one named check. Per-job checks carry the name of the
// archive converter check (convert2swf.pm v3) they mirror, or of the per-log
// script check; header checks start with "header_".
type Anomaly struct {
	Name    string
	Summary string
	// Info marks a check that reports an unknown value rather than an
	// inconsistency: it is reported but does not make --fail-on-anomaly fail.
	Info bool
}

// Anomaly indices, in report order.
const (
	aSubmitUndef = iota
	aStartUndef
	aEndUndef
	aWaitNeg
	aWaitNegBig
	aWaitNegHuge
	aRunNeg
	aRunNegBig
	aRunNegHuge
	aProcZero
	aProcZeroFail
	aProcZeroSuccess
	aProcTooMany
	aProcReqTooMany
	aCPUZero
	aCPUGtRun
	aMemZero
	aProcReqZero
	aProcGotLess
	aProcGotMore
	aRunReqZero
	aRunGotMore
	aRunGotMuchMore
	aMemReqZero
	aGotMoreMem
	aRunZeroSuccess
	aRunOverLimit
	aProcNoneCompleted
	aStatusUnknown
	aPartialNoPreemption
	aSubmitOrder
	aJobDuplicate
	aJobNumberInvalid
	aPrecedingInvalid
	aHeaderMalformed
	aHeaderMaxJobs
	aHeaderMaxRecords
	aHeaderMaxProcs
	aHeaderTimeOrder
	aHeaderTwice
	numAnomalies
)

// Anomalies lists every check in report order.
var Anomalies = [numAnomalies]Anomaly{
	aSubmitUndef:         {"submit_undef", "submit time unknown or negative (field 2 < 0)", false},
	aStartUndef:          {"start_undef", "wait time unknown (field 3 = -1), so the start time is unknown", true},
	aEndUndef:            {"end_undef", "run time unknown (field 4 = -1), so the end time is unknown", true},
	aWaitNeg:             {"wait_neg", "negative wait time other than -1 (start before submit)", false},
	aWaitNegBig:          {"wait_neg_big", "wait time below -60 s", false},
	aWaitNegHuge:         {"wait_neg_huge", "wait time below -3900 s (the converter sets it to -1)", false},
	aRunNeg:              {"run_neg", "negative run time other than -1 (end before start)", false},
	aRunNegBig:           {"run_neg_big", "run time below -60 s", false},
	aRunNegHuge:          {"run_neg_huge", "run time below -3900 s (the converter sets it to -1)", false},
	aProcZero:            {"proc_zero", "allocated processors = 0 (the archive writes -1)", false},
	aProcZeroFail:        {"proc_zero_fail", "allocated processors = 0 and status failed (0)", false},
	aProcZeroSuccess:     {"proc_zero_success", "allocated processors = 0 and status completed (1)", false},
	aProcTooMany:         {"proc_too_many", "allocated processors above the machine size (MaxProcs, else MaxNodes)", false},
	aProcReqTooMany:      {"proc_req_too_many", "requested processors above the machine size", false},
	aCPUZero:             {"cpu_zero", "average CPU time = 0 (the archive writes -1)", false},
	aCPUGtRun:            {"cpu_gt_run", "average CPU time more than 1 s above the run time", false},
	aMemZero:             {"mem_zero", "used memory = 0 (the archive writes -1)", false},
	aProcReqZero:         {"proc_req_zero", "requested processors = 0 (the archive writes -1)", false},
	aProcGotLess:         {"proc_got_less", "fewer processors allocated than requested", false},
	aProcGotMore:         {"proc_got_more", "more processors allocated than requested", false},
	aRunReqZero:          {"run_req_zero", "requested time = 0 (the archive writes -1)", false},
	aRunGotMore:          {"run_got_more", "ran longer than the requested time", false},
	aRunGotMuchMore:      {"run_got_much_more", "ran more than 60 s longer than the requested time", false},
	aMemReqZero:          {"mem_req_zero", "requested memory = 0 (the archive writes -1)", false},
	aGotMoreMem:          {"got_more_mem", "used more memory than requested", false},
	aRunZeroSuccess:      {"run_zero_success", "run time 0 with status completed (legal: under 0.5 s)", true},
	aRunOverLimit:        {"run_over_limit", "run time above the header's MaxRuntime", false},
	aProcNoneCompleted:   {"proc_none_completed", "no allocated processors (field 5 <= 0) but status completed (1 or 3)", false},
	aStatusUnknown:       {"status_unknown", "status not one of -1, 0, 1, 2, 3, 4, 5", false},
	aPartialNoPreemption: {"partial_no_preemption", "partial-execution status (2, 3, 4) while the header's Preemption is absent or No", false},
	aSubmitOrder:         {"submit_order", "submit time earlier than the previous known one", false},
	aJobDuplicate:        {"job_duplicate", "job number seen before, on a record that is not a partial execution (status 2, 3, 4)", false},
	aJobNumberInvalid:    {"job_number_invalid", "job number (field 1) below 1: the format counts jobs from 1", false},
	aPrecedingInvalid:    {"preceding_invalid", "preceding job (field 17) neither -1 nor an earlier job number (1 up to the job's own number, excluded)", false},
	aHeaderMalformed:     {"header_malformed", "a header value the format does not allow, as --set refuses it (CheckHeaderValue): MaxProcs/MaxNodes not a whole number of at least 1, MaxJobs, MaxRecords, MaxRuntime, UnixStartTime, MaxMemory, MaxQueues, MaxPartitions not one of at least 0, Version not a number, Preemption not No/Yes/Double/TS, StartTime/EndTime not date(1) text, TimeZoneString no IANA zone (\"Local\" names none), TimeZone no offset in seconds within a day", false},
	aHeaderMaxJobs:       {"header_maxjobs", "MaxJobs equals neither the number of distinct job numbers nor the largest job number", false},
	aHeaderMaxRecords:    {"header_maxrecords", "MaxRecords differs from the number of records", false},
	aHeaderMaxProcs:      {"header_maxprocs", "the largest job (allocated or requested processors) exceeds MaxProcs", false},
	aHeaderTimeOrder:     {"header_time_order", "StartTime is after EndTime", false},
	aHeaderTwice:         {"header_label_twice", "a label the format gives once (all but Note, Queue, Partition) is on another line too; tools read the first, but swfsim refuses a machine size (MaxProcs, MaxNodes) given twice with different values without --procs", false},
}

// jobChecks runs the per-record checks that need only the job and the header
// facts; fire is called for each check that fires.
func (c *Checker) jobChecks(j *swf.Job) {
	fire := c.fire
	if j.SubmitTime < 0 {
		fire(aSubmitUndef)
	}
	if j.WaitTime == -1 {
		fire(aStartUndef)
	}
	if j.RunTime == -1 {
		fire(aEndUndef)
	}
	if j.WaitTime < -1 {
		fire(aWaitNeg)
		if j.WaitTime < -60 {
			fire(aWaitNegBig)
		}
		if j.WaitTime < -3900 {
			fire(aWaitNegHuge)
		}
	}
	if j.RunTime < -1 {
		fire(aRunNeg)
		if j.RunTime < -60 {
			fire(aRunNegBig)
		}
		if j.RunTime < -3900 {
			fire(aRunNegHuge)
		}
	}
	if j.AllocatedProcs == 0 {
		fire(aProcZero)
		switch j.Status {
		case swf.StatusFailed:
			fire(aProcZeroFail)
		case swf.StatusCompleted:
			fire(aProcZeroSuccess)
		}
	}
	if c.machine > 0 && j.AllocatedProcs > c.machine {
		fire(aProcTooMany)
	}
	if c.machine > 0 && j.RequestedProcs > c.machine {
		fire(aProcReqTooMany)
	}
	if j.AverageCPUTime == 0 {
		fire(aCPUZero)
	}
	// Run times are whole seconds while CPU times have two decimals: allow 1 s.
	if j.RunTime >= 0 && j.AverageCPUTime > float64(j.RunTime)+1 {
		fire(aCPUGtRun)
	}
	if j.UsedMemory == 0 {
		fire(aMemZero)
	}
	if j.RequestedProcs == 0 {
		fire(aProcReqZero)
	}
	if j.AllocatedProcs > 0 && j.RequestedProcs > 0 {
		if j.AllocatedProcs < j.RequestedProcs {
			fire(aProcGotLess)
		} else if j.AllocatedProcs > j.RequestedProcs {
			fire(aProcGotMore)
		}
	}
	if j.RequestedTime == 0 {
		fire(aRunReqZero)
	}
	if j.RequestedTime > 0 && j.RunTime > j.RequestedTime {
		fire(aRunGotMore)
		if j.RunTime > j.RequestedTime+60 {
			fire(aRunGotMuchMore)
		}
	}
	if j.RequestedMemory == 0 {
		fire(aMemReqZero)
	}
	if j.UsedMemory > 0 && j.RequestedMemory > 0 && j.UsedMemory > j.RequestedMemory {
		fire(aGotMoreMem)
	}
	completed := j.Status == swf.StatusCompleted || j.Status == swf.StatusLastOK
	if j.RunTime == 0 && j.Status == swf.StatusCompleted {
		fire(aRunZeroSuccess)
	}
	if c.maxRuntime > 0 && j.RunTime > c.maxRuntime {
		fire(aRunOverLimit)
	}
	if j.AllocatedProcs <= 0 && completed {
		fire(aProcNoneCompleted)
	}
	if j.Status < -1 || j.Status > swf.StatusCancelled {
		fire(aStatusUnknown)
	}
	partial := isPartial(j)
	if partial && !c.preemption {
		fire(aPartialNoPreemption)
	}
	if j.JobNumber < 1 {
		fire(aJobNumberInvalid)
	}
	if p := j.PrecedingJob; p != -1 && (p < 1 || p >= j.JobNumber) {
		fire(aPrecedingInvalid)
	}
}

// isPartial reports whether the record is one part of a partially executed job.
func isPartial(j *swf.Job) bool {
	return j.Status == swf.StatusPartial || j.Status == swf.StatusLastOK || j.Status == swf.StatusLastFail
}
