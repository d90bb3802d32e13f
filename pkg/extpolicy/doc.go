// Package extpolicy lets a scheduler written in any language drive swfkit's
// simulator: swfsim --policy exec --exec 'PROGRAM ARG...'. The program reads
// the engine's messages on its standard input and writes its replies on its
// standard output, one JSON object per line (protocol Version 1, specified
// with a worked transcript in docs/swfsim-external.md):
//
//	engine -> program   {"type":"hello",...}   machine, kill setting, header labels
//	program -> engine   {"protocol":1}
//	engine -> program   {"type":"round",...}   time, free processors, arrivals, ends, kills
//	program -> engine   {"start":[ids],"timer":T}
//	...
//	engine -> program   {"type":"end",...}     the last ends and the run's totals; the program exits
//
// # Conventions
//
//   - Jobs are named by their engine id: the index of the job among the
//     simulated jobs, in file order (sim.Job.ID), 0..jobs-1. Times are integer
//     seconds of simulated time.
//   - A round message is sent in every scheduling round of the engine in which
//     at least one waiting job fits in the free processors (no start is
//     possible otherwise); what happened in the other rounds comes with the
//     next message, each end with its time. A program that wants every
//     round says "every_round":true in its first reply; one that always
//     starts the queue's head while it fits says "start_head":true, and the
//     engine does that itself and lists its starts in "started".
//   - The engine trusts nothing: every start is checked (known id, waiting,
//     fits), every reply must be one strict JSON object, every wait is bounded
//     by the timeout, and a round after which no job could ever start is a
//     deadlock. A failure is an *Error naming the round, the simulated time,
//     the job, how the program ended and its last stderr lines; Policy.Err
//     returns it, and sim.Run stops on it (sim.Failer).
//
// # Parts
//
// Policy is the sim.Policy: New talks over any io.Reader and io.Writer (an
// in-process client, as the benchmarks use), NewExec starts a program at the
// first round through StartProcess (no shell; SplitCommand gives the argument
// rules). Records holds the 18 SWF fields and extension tokens that arrivals
// carry, encoded once when the trace is read. Library code prints nothing:
// the program's stderr goes to the io.Writer in Options.Stderr.
//
// # Cost
//
// The engine side of a round is one hand-written message (a copy per
// arrival), one write and one read on the pipes, and a reply parsed without
// reflection in the common case (BenchmarkRound). On Linux the pipes are
// blocking descriptors used with plain system calls, their deadlines kept by
// a watchdog goroutine that kills the program (pipe_linux.go), so that a
// round trip is two system calls on each side and nothing in Go's network
// poller. A program that asks for start_head leaves the queue's head to the
// engine and hears only of rounds where a job could backfill.
package extpolicy
