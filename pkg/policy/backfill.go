package policy

import "github.com/swfkit/swfkit/pkg/sim"

// easyPass is one pass of EASY backfilling over a queue order (Lifka 1995;
// Mu'alem & Feitelson 2001, section 2; Lee 2009, 1.3.3):
//
//  1. Start jobs from the front of order while they fit in the free processors.
//  2. The first job that does not fit is the head. Its shadow time is the
//     earliest expected end of running jobs (Sim.ExpectedEnd: start + estimate)
//     at which enough processors are free for it; the extra processors are those
//     free at the shadow time beyond what the head needs. All running jobs
//     ending exactly at the shadow time count towards them.
//  3. Every later job in order that fits now is started if it ends by the shadow
//     time (now + estimate <= shadow), or else if it needs no more than the extra
//     processors, which it then uses up.
//
// The shadow and extra processors are computed once per pass, after step 1.
// Jobs in order that are not Waiting are skipped.
func easyPass(s *sim.Sim, order []*sim.Job) {
	free := s.FreeProcs()
	i := 0
	for ; i < len(order); i++ {
		j := order[i]
		if j.State != sim.Waiting {
			continue
		}
		if int64(j.Procs) > free {
			break
		}
		s.Start(j)
		free -= int64(j.Procs)
	}
	if i >= len(order) || free < s.MinWaitingProcs() {
		return // nothing waiting fits in what is free
	}
	head := order[i]
	shadow, extra := ShadowTime(s, int64(head.Procs))
	now := s.Now()
	minProcs := s.MinWaitingProcs()
	for _, j := range order[i+1:] {
		if free < minProcs {
			return
		}
		p := int64(j.Procs)
		if p > free || j.State != sim.Waiting {
			continue
		}
		if j.Estimate <= shadow-now {
			s.Start(j)
			free -= p
		} else if p <= extra {
			s.Start(j)
			free -= p
			extra -= p
		}
	}
}

// ShadowTime returns when a job needing procs processors can start at the
// latest if no new job starts, from running jobs' expected ends
// (Sim.ExpectedEnd), and the extra processors free then beyond procs. Every
// job ending exactly at the shadow time counts. If procs are free now the
// shadow time is now.
func ShadowTime(s *sim.Sim, procs int64) (shadow, extra int64) {
	avail := s.FreeProcs()
	if avail >= procs {
		return s.Now(), avail - procs
	}
	run := s.Running()
	for k := 0; k < len(run); k++ {
		avail += int64(run[k].Procs)
		if avail < procs {
			continue
		}
		t := s.ExpectedEnd(run[k])
		for k+1 < len(run) && s.ExpectedEnd(run[k+1]) == t {
			k++
			avail += int64(run[k].Procs)
		}
		return t, avail - procs
	}
	panic("policy: job wider than the machine")
}
