package sim

// OfferedLoad returns the offered load of jobs on a machine of procs
// processors, before and after a run: the processor-seconds of work
// (Procs x runtime) per processor-second of the submit span (last submit
// minus first), the definition swfaugment's --load and --target-load use.
// input counts each job's real runtime, simulated the runtime of its last
// run (End - Start, so a job killed at its estimate counts its estimate).
// ok is false when the jobs span no time; call it after Run.
func OfferedLoad(jobs []Job, procs int64) (input, simulated float64, ok bool) {
	if len(jobs) == 0 || procs < 1 {
		return 0, 0, false
	}
	first, last := jobs[0].Submit, jobs[0].Submit
	var work, done float64
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
