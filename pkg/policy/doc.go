// Package policy holds swfkit's scheduling policies and their one explicit
// registration table (see List and Lookup): name, one-line summary, the
// parameters it reads, and a constructor. No init() side effects.
//
// # Writing a policy
//
// A policy implements sim.Policy:
//
//	type Policy interface {
//		Arrived(s *sim.Sim, j *sim.Job)                   // j joined the waiting queue
//		Ended(s *sim.Sim, j *sim.Job, why sim.EndReason)  // a run of j stopped
//		Timer(s *sim.Sim, id sim.TimerID, tag int64)      // a timer it set fired
//		Schedule(s *sim.Sim)                              // the round's pass
//	}
//
// Embed sim.Base for no-op Arrived, Ended and Timer. In any callback it may
// call s.Start(j) (j must be Waiting and fit in s.FreeProcs()), s.StartFor(j,
// limit) (a trial run: back to the queue after limit seconds, reason
// LimitReached), s.Preempt(p, j, kept) (stop a running job now, keeping kept
// seconds of progress; Ended is called with Preempted), s.SetTimer(at, tag) and
// s.CancelTimer(id). It reads s.Now(), s.Procs(), s.FreeProcs(), s.Waiting()
// (arrival order), s.Running() (by planned end), s.ExpectedEnd(j), and keeps
// per-job state in slices indexed by j.ID (s.NumJobs() long). Jobs carry
// Estimate (what the scheduler may use), Queue (SWF field 15), Submit, Procs,
// and Tokens (extension tokens written on the job's output line, e.g.
// "bumps=2"). See package sim for the round order at equal times.
//
// Building blocks here: easyPass(s, order) (EASY backfilling over any queue
// order: jobs start from the front while they fit, the first that does not
// gets the only reservation, later ones backfill), ShadowTime(s, procs),
// newOrderedEASY(static, key) (EASY over the queue sorted by a key, smallest
// first, ties by submit time then file order; static keys are fixed at
// arrival, dynamic ones are recomputed each pass; lxf and lxfw keep theirs
// by estimate classes, estOrder), and sim.Profile
// (availability profile: EarliestFit, EarliestFitMin, EarliestFitMoving,
// StepAt, MinFree, Reserve, Release, Move, ResetRunning) as used by
// Conservative, whose reservation queue (resvQueue, runs of equal jobs) and
// --no-kill rebuilds (rebuild.go) selective reservation shares.
//
// Rules the engine relies on: start only Waiting jobs that fit; skip entries of
// s.Waiting() whose State is not Waiting (compaction is lazy); a pass may stop
// early once s.FreeProcs() < s.MinWaitingProcs(); never read Runtime or
// Remaining to decide unless the policy models exact knowledge on purpose;
// keep the pass deterministic (no map iteration order, no global randomness:
// take a *rand.Rand built from --seed).
//
// Then add one line to the table in registry.go, and, if the policy has
// parameters, a field in Params plus a flag in internal/cli/sim.
//
// Each policy's doc comment cites the paper section it follows and states
// every choice where the paper leaves one open; the README section of swfsim
// (docs/swfsim.md) repeats them.
package policy
