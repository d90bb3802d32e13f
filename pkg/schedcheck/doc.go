// Package schedcheck verifies a simulated schedule against its input trace,
// independently of the simulator (it shares no code with packages sim and
// policy, only the SWF reader). It checks that:
//
//   - every input job is in the output, in input order with its other fields
//     unchanged, or is counted in the output header's skip notes
//     ("; Note: swfsim skipped N jobs: reason");
//   - no job starts before its submit time;
//   - the runtime is the input runtime, or the estimate with status 0 and
//     killed=1 when the job ran past it (unless the run was with --no-kill);
//   - processors in use never exceed the machine;
//   - fcfs: jobs start in arrival order (submit time, then file order);
//   - easy, with exact estimates: a job never starts later than the shadow
//     time it had when it became the queue head;
//   - conservative, with exact positive estimates: a job never starts later
//     than its first reservation (recomputed from the schedule of the jobs
//     that arrived before it).
//
// The schedule is read from SWF: start = submit + field 3, end = start + field 4.
// Processor counts follow the simulator's default rule: field 8 when > 0, else
// field 5; estimates are field 9 when > 0, else the runtime.
package schedcheck
