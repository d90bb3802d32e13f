package sim

// OfferedLoad returns the offered load of jobs on a machine of procs
// processors, before and after a run: the processor-seconds of work
// (Procs x runtime) per processor-second of the submit span (last submit
// minus first), the definition swfaugment's --load and --target-load use.
// input counts each job's real runtime, simulated the runtime of its last
// run (End - Start, so a job killed at its estimate counts its estimate).
// ok is false when the jobs span no time; call it after Run.
func OfferedLoad(jobs []Job, procs int64) (input, simulated float64, ok bool) {
	return OfferedLoadWith(jobs, procs, Unsimulated{})
}

// Unsimulated sums the jobs of known submit time, runtime and processors
// that were offered but not simulated (wider than the machine): swfaugment's
// offered load counts them, so OfferedLoadWith does. The zero value is none.
type Unsimulated struct {
	// N is the number of jobs, Work their processor-seconds.
	N    int
	Work float64
	// First and Last are their earliest and latest submit times (N > 0).
	First, Last int64
}

// Add counts one job of procs processors and the given runtime submitted
// at submit.
func (u *Unsimulated) Add(submit, procs, runtime int64) {
	if u.N == 0 || submit < u.First {
		u.First = submit
	}
	if u.N == 0 || submit > u.Last {
		u.Last = submit
	}
	u.Work += float64(procs) * float64(runtime)
	u.N++
}

// OfferedLoadWith is OfferedLoad with the unsimulated jobs' work in the
// input figure and their submit times in the span of both figures, so that
// the two figures are per the same processor-seconds and differ by the work
// the skips and the kills cut. ok is false when that span is empty.
func OfferedLoadWith(jobs []Job, procs int64, u Unsimulated) (input, simulated float64, ok bool) {
	if (len(jobs) == 0 && u.N == 0) || procs < 1 {
		return 0, 0, false
	}
	first, last, work := u.First, u.Last, u.Work
	if u.N == 0 {
		first, last = jobs[0].Submit, jobs[0].Submit
	}
	var done float64
	for i := range jobs {
		j := &jobs[i]
		first, last = min(first, j.Submit), max(last, j.Submit)
		work += float64(j.Procs) * float64(j.Runtime)
		done += float64(j.Procs) * float64(j.End-j.Start)
	}
	if last == first {
		return 0, 0, false
	}
	capacity := float64(procs) * float64(last-first)
	return work / capacity, done / capacity, true
}
