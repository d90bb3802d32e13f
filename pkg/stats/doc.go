// Package stats computes the scheduling metrics that the papers behind swfkit
// report, for one SWF trace at a time: a recorded archive log or a schedule
// written by swfsim. Several traces side by side are several Reports.
//
// Conventions:
//
//   - Times are integer seconds as in SWF; derived times (response, makespan)
//     are seconds, ratios (slowdown, utilization) are plain numbers, and values
//     named "percent" are 0..100.
//   - A job's wait is field 3, its runtime field 4, its start submit+wait and
//     its end start+runtime. -1 (unknown) never enters a number: every metric
//     carries the count of jobs it is over, and every reason a job was left out
//     of a metric is counted in Report.Excluded.
//   - Percentiles use the nearest-rank definition: the p-th percentile of n
//     sorted values x[1..n] is x[ceil(p/100*n)], and x[1] for p = 0. It is
//     always an observed value; p=50 of an even count is the lower middle
//     value, p=100 is the maximum. See Percentile.
//   - Slowdown (expansion factor, Lee sec. 1.4) is (wait+run)/run, undefined
//     for run 0. Bounded slowdown follows Srinivasan et al. sec. 2 and Lee
//     sec. 1.4: (wait+max(run,T))/max(run,T) with T = Config.BSLDThreshold.
//   - A job that ran several times (swfsim ga-ckpt bumps it) carries
//     runtotal=S, the seconds of all its runs; field 4 is its last run. Then
//     "run" above is S and "wait" is the response (field 3 + field 4) minus S,
//     the time it spent off the processors; utilization counts S x processors,
//     so lost work is counted; its length for the category, --by short,
//     fairness and U-QoS is S as well (and U-QoS's wait the response minus
//     S). Response, wait_s, the timeline, offered load and the estimate
//     accuracy use the fields (the last run).
//   - Processors of a job for machine metrics (utilization, queue, capacity)
//     are chosen by Config.ProcsFrom, by default field 8, else field 5, as
//     swfsim allocates them (swfsim leaves field 5 as it was read, so for a
//     schedule it wrote, field 5 is not what the simulated machine gave).
//     For a recorded log, sim.ProcsAllocated uses what its machine gave. The
//     values mean what swfsim's --procs-from means (sim.ProcsFrom.Procs).
//     The width of the short/long x narrow/wide category is always the
//     requested count (field 8, else 5): Srinivasan et al. classify by
//     "processors requested".
//   - Warm-up and cool-down exclusion (Config.SkipFirst, SkipLast) counts jobs
//     in file order and removes them from the per-job metrics only; machine
//     metrics (makespan, utilization, capacity) always use every job, because
//     the machine was busy with those jobs too.
//
// A Collector owns the compact per-job records it keeps; Add copies what it
// needs, so it works with swf.Reader.ReuseRecord.
package stats
