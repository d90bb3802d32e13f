package policy

import (
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// preemptOnce wraps sjf: a timer set at arrival preempts J0 in a further round
// at time 0, after sjf started it in the first pass and before sjf's next
// pass, so J0 is back in the queue while still in sjf's kept order.
type preemptOnce struct {
	*orderedEASY
	done, dup bool
}

func (p *preemptOnce) Arrived(s *sim.Sim, j *sim.Job) {
	p.orderedEASY.Arrived(s, j)
	if j.ID == 0 {
		s.SetTimer(s.Now(), 0)
	}
}

func (p *preemptOnce) Timer(s *sim.Sim, _ sim.TimerID, _ int64) {
	if j := s.Job(0); !p.done && j.State == sim.Running {
		p.done = true
		s.Preempt(p, j, 0)
	}
}

func (p *preemptOnce) Schedule(s *sim.Sim) {
	p.orderedEASY.Schedule(s)
	seen := map[int32]bool{}
	for _, j := range p.order {
		if seen[j.ID] {
			p.dup = true
		}
		seen[j.ID] = true
	}
}

// A job put back in the queue between two passes must appear once in the
// kept order.
func TestOrderedRequeueOnce(t *testing.T) {
	jobs := []sim.Job{{Submit: 0, Runtime: 5, Estimate: 5, Procs: 1}, {Submit: 0, Runtime: 5, Estimate: 9, Procs: 1}}
	s, err := sim.New(sim.Config{Procs: 2}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	p := &preemptOnce{orderedEASY: NewSJF().(*orderedEASY)}
	if err := s.Run(p); err != nil {
		t.Fatal(err)
	}
	if p.dup {
		t.Error("a job appears twice in the kept order")
	}
	if jobs[0].Runs != 2 || jobs[0].Start != 0 || jobs[0].End != 5 || jobs[1].Start != 0 {
		t.Errorf("J0 runs %d %d-%d, J1 start %d; want 2 runs 0-5 and 0", jobs[0].Runs, jobs[0].Start, jobs[0].End, jobs[1].Start)
	}
}
