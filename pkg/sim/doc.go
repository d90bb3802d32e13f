// Package sim is swfkit's discrete-event simulator of a space-shared parallel
// machine: the clock, the machine, the job lifecycle and the event queue. The
// scheduling decisions belong to a Policy (package policy holds the classic
// ones); the engine only carries them out.
//
// # Conventions
//
//   - Time is integer seconds (int64). Never is "no end in sight".
//   - A Job is the compact record of one job (about 130 bytes). Its ID is its
//     index in the slice given to New (file order); policies keep per-job data
//     in slices indexed by ID. The engine updates jobs in place and the caller
//     reads the results from the same slice afterwards.
//   - Runtime r is the real runtime, Estimate e the requested time (field 9,
//     else r; see FromSWF). A policy decides from Estimate; reading Runtime or
//     Remaining is cheating unless the policy models exact knowledge on purpose.
//   - A run is killed at Start + Estimate when it has not finished (status 0,
//     Killed), unless Config.NoKill. StartFor adds a shorter run limit (trial
//     runs) after which the job goes back to the waiting queue.
//   - Slices returned by Sim (Waiting, Running, Jobs) belong to the engine.
//   - Programmer errors (starting a job that does not fit or is not waiting,
//     timers in the past) panic with "sim: ..."; bad input is an error from New.
//
// # Rounds
//
// The engine advances from event time to event time. At each time it runs one
// round (DESIGN.md, "Simulation semantics"):
//
//  1. all run ends due now: completions, kills at the estimate, run limits, in
//     the order their events were created (cancelled ones are dropped) ->
//     Policy.Ended;
//  2. all arrivals due now, in file order -> Policy.Arrived (the job is already
//     appended to the waiting queue);
//  3. all timers due now, in the order they were set -> Policy.Timer;
//  4. one scheduling pass -> Policy.Schedule.
//
// A job started with runtime 0 (or a run limit of 0, or a timer set for now)
// ends in a further round at the same time: ends, timers, then another pass.
// Arrivals are not heap events: the jobs are sorted once by (submit, ID) and a
// cursor walks them, so the event heap (container/heap) only holds pending run
// ends and timers: O(running + timers) entries, O(log) per event.
//
// # Lifecycle
//
//	Pending --arrival--> Waiting --Start/StartFor--> Running --end--> Done
//	                        ^                           |
//	                        +---- LimitReached, Preempt-+
//
// Start and StartFor push one end event per run; Preempt cancels it (the job's
// generation number is bumped, so the stale event is dropped when popped:
// lazy deletion, O(1)). A stopped job keeps its arrival place in the queue.
// Remaining is the work still to do; Preempt(kept) and a policy's Ended (for
// LimitReached, e.g. checkpointed progress) may lower it.
//
// # What a policy sees
//
// Now, Procs, FreeProcs, NoKill; Waiting() in arrival order (submit, then file
// order); Running() ordered by PlannedEnd (start + min(estimate, run limit));
// ExpectedEnd(j) = PlannedEnd, or now+1 for a job that has outlived it (only
// possible with NoKill); Jobs() and Job(id) for everything. Profile is an
// availability profile (free processors as a step function of time) for
// policies that plan ahead, such as conservative backfilling.
//
// # Cost
//
// Per event O(log E) for the heap; Start and run ends move the sorted running
// list (O(R) memmove, R = running jobs); the waiting queue is compacted lazily
// once per pass that asks for it (O(Q)). A policy's pass is its own cost.
package sim
