package stats

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/swfkit/swfkit/pkg/swf"
	"github.com/swfkit/swfkit/pkg/utility"
)

// record is what a Collector keeps of one job.
type record struct {
	number         int64
	submit, wait   int64
	run            int64
	busy           int64 // seconds on processors over all runs: runtotal= when present, else run
	procs          int64 // per Config.ProcsFrom; -1 unknown
	width          int64 // requested processors (field 8, else 5); -1 unknown
	requested      int64 // field 9; -1 unknown
	status         int64
	user, queue    int64
	fairStart      int64
	utilityStart   float64 // u(0)
	utilityEarned  float64 // u(wait+run)
	line           int
	killed         bool
	hasFair        bool
	hasUtility     bool
	utilityUnknown bool // has u= but the response time is unknown
}

func (r *record) waitKnown() bool     { return r.wait >= 0 }
func (r *record) runKnown() bool      { return r.run >= 0 }
func (r *record) scheduleKnown() bool { return r.wait >= 0 && r.run >= 0 }

// placed reports whether the job can be put on the machine's timeline: its
// submit time, wait, runtime and processors are known. A job of unknown
// submit time (-1) has a wait and a runtime but no place in time: counted
// at t = -1 it stretched the makespan back to the trace's epoch.
func (r *record) placed() bool { return r.submit >= 0 && r.scheduleKnown() && r.procs >= 1 }
func (r *record) start() int64 { return r.submit + r.wait }
func (r *record) end() int64   { return r.submit + r.wait + r.run }

// offProcessors is the time the job spent off the processors: its wait when
// it ran once; for a job bumped and restarted (runtotal=), its response
// minus all its runs. With busy it is the wait and run the slowdowns and
// U-QoS use. Meaningful when scheduleKnown.
func (r *record) offProcessors() int64 { return r.wait + r.run - r.busy }

// KeyRunTotal is the token swfsim's ga-ckpt writes on a bumped job: the
// seconds of all its runs, the bumped ones (lost work and restart overhead
// included) and the last one (field 4).
const KeyRunTotal = "runtotal"

func firstPositive(a, b int64) int64 {
	if a > 0 {
		return a
	}
	if b > 0 {
		return b
	}
	return -1
}

// newRecord extracts what the metrics need from job. utilityOf evaluates its
// utility function.
func (c Config) newRecord(job *swf.Job, utilityOf UtilityFunc) (record, error) {
	var t float64
	r := record{
		number: job.JobNumber, line: job.Line,
		submit: job.SubmitTime, wait: job.WaitTime, run: job.RunTime,
		width:     firstPositive(job.RequestedProcs, job.AllocatedProcs),
		requested: job.RequestedTime, status: job.Status,
		user: job.UserID, queue: job.Queue,
	}
	r.procs = firstPositive(c.ProcsFrom.Procs(job), -1)
	r.busy = r.run
	if v, ok := job.ExtraValue(KeyRunTotal); ok {
		t, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return r, job.TokenError("", KeyRunTotal, fmt.Sprintf("%s=%s: not a number; want the seconds of all the job's runs, at least its runtime (field 4) %d", KeyRunTotal, v, r.run))
		}
		if t < r.run {
			return r, job.TokenError("", KeyRunTotal, fmt.Sprintf("%s=%s: want the seconds of all the job's runs, at least its runtime (field 4) %d", KeyRunTotal, v, r.run))
		}
		if r.scheduleKnown() && t > r.wait+r.run {
			// Every run lies between the submission and the end of the last one.
			return r, job.TokenError("", KeyRunTotal, fmt.Sprintf("%s=%s: want the seconds of all the job's runs, at most its response time (fields 3 + 4) %d", KeyRunTotal, v, r.wait+r.run))
		}
		r.busy = t
	}
	if v, ok := job.ExtraValue("killed"); ok {
		if v != "0" && v != "1" {
			return r, job.TokenError("", "killed", fmt.Sprintf("killed=%s: want 1 (swfsim killed the job at its estimate) or 0", v))
		}
		r.killed = v == "1"
	}
	if v, ok := job.ExtraValue("fairstart"); ok {
		t, err := strconv.ParseInt(v, 10, 64)
		if err != nil || t < 0 || t > swf.MaxTime {
			return r, job.TokenError("", "fairstart", fmt.Sprintf("fairstart=%s: want a time in seconds, 0 to %d", v, int64(swf.MaxTime)))
		}
		r.hasFair, r.fairStart = true, t
	}
	if r.scheduleKnown() {
		t = float64(r.wait + r.run)
	}
	start, earned, ok, err := utilityOf(job, t)
	if err != nil {
		var pe *swf.ParseError
		if errors.As(err, &pe) {
			return r, err
		}
		return r, job.TokenError("", utility.Key, err.Error())
	}
	if ok {
		r.hasUtility, r.utilityStart, r.utilityEarned = true, start, earned
		r.utilityUnknown = !r.scheduleKnown()
	}
	return r, nil
}
