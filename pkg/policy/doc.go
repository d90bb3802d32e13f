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
// Building blocks here: easyPass (EASY backfilling over any queue order: the
// first job that does not fit gets the only reservation), ShadowTime, the
// orderedEASY helper (sort the queue by a key each pass, ties by submit time
// then file order), and sim.Profile (availability profile with EarliestFit,
// Reserve, Release) as used by Conservative.
//
// Then add one line to the table in registry.go, and, if the policy has
// parameters, a field in Params plus a flag in internal/cli/sim.
//
// Each policy's doc comment cites the paper section it follows and states
// every choice where the paper leaves one open; the README section of swfsim
// (docs/swfsim.md) repeats them.
package policy
