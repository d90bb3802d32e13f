package policy

import "github.com/swfkit/swfkit/pkg/sim"

// FCFS is first-come first-served without backfilling (Lee 2009, 1.3.1): jobs
// start in arrival order (submit time, then file order); when the first waiting
// job does not fit, nothing behind it starts. It reads neither estimates nor
// runtimes.
type FCFS struct{ sim.Base }

// Schedule starts waiting jobs from the front of the queue while they fit.
func (*FCFS) Schedule(s *sim.Sim) {
	free := s.FreeProcs()
	for _, j := range s.Waiting() {
		if j.State != sim.Waiting {
			continue
		}
		if int64(j.Procs) > free {
			return
		}
		s.Start(j)
		free -= int64(j.Procs)
	}
}
