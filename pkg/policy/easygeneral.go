package policy

import "github.com/swfkit/swfkit/pkg/sim"

// candidacy is what a generalised EASY pass may do with a queued job.
type candidacy uint8

const (
	// candSkip: not in the queue for this pass (running, done); passed over.
	candSkip candidacy = iota
	// candBlocked: queued but unable to start now whatever the free processors
	// (a job in its trial run); it can be the head.
	candBlocked
	// candReady: may start now if it fits.
	candReady
)

// easyBase is a policy's side of easyGeneral: how it sees its queued jobs and
// how it starts one. Policies implement it with methods, so a pass allocates
// nothing.
type easyBase interface {
	// candidate classifies a job of the order.
	candidate(j *sim.Job) candidacy
	// runFor is how long j is expected to hold its processors if it starts now.
	runFor(s *sim.Sim, j *sim.Job) int64
	// notBefore is the earliest time the head j could start (now for a job
	// that only waits for processors).
	notBefore(s *sim.Sim, j *sim.Job) int64
	// begin starts j now and adds it to the policy's running view.
	begin(s *sim.Sim, j *sim.Job)
}

// easyGeneral is easyPass (backfill.go) over a policy's own view of the
// machine: free is the processors the pass may use now, view the running jobs
// by the ends the policy expects. With the engine's free processors, a view of
// sim.Sim.Running by PlannedEnd, runFor = estimate and notBefore = now it makes
// exactly easyPass's decisions; the degenerate-case tests hold it to that.
// The jobs after the head are tried in queue order (SJBF tries them in its
// own order: PredictiveEASY.backfillSJBF).
func easyGeneral(s *sim.Sim, b easyBase, order []*sim.Job, free int64, view *runView) {
	pass, ok := easyHead(s, b, order, free, view)
	if !ok {
		return
	}
	now := s.Now()
	for _, j := range pass.rest {
		if pass.free == 0 {
			return
		}
		p := int64(j.Procs)
		if p > pass.free || b.candidate(j) != candReady {
			continue
		}
		if b.runFor(s, j) <= pass.shadow-now {
			b.begin(s, j)
			pass.free -= p
		} else if p <= pass.extra {
			b.begin(s, j)
			pass.free -= p
			pass.extra -= p
		}
	}
}

// headPass is what an EASY pass knows once its head is found: the head's
// reservation at shadow, the processors free now and those free at shadow
// beyond the head's (extra), and the jobs after the head in queue order.
type headPass struct {
	head                *sim.Job
	rest                []*sim.Job
	free, shadow, extra int64
}

// easyHead starts the jobs of order that fit, in order, up to the first that
// does not (the head), and gives the head its reservation. It reports false
// when no job is left to backfill or no processor is free.
func easyHead(s *sim.Sim, b easyBase, order []*sim.Job, free int64, view *runView) (headPass, bool) {
	now := s.Now()
	i := 0
	for ; i < len(order); i++ {
		j := order[i]
		c := b.candidate(j)
		if c == candSkip {
			continue
		}
		if c == candBlocked || int64(j.Procs) > free {
			break
		}
		b.begin(s, j)
		free -= int64(j.Procs)
	}
	if i >= len(order) || free == 0 {
		return headPass{}, false
	}
	head := order[i]
	shadow, extra := view.shadow(now, b.notBefore(s, head), free, int64(head.Procs))
	return headPass{head: head, rest: order[i+1:], free: free, shadow: shadow, extra: extra}, true
}
