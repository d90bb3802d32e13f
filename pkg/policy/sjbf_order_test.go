package policy

import (
	"math/rand/v2"
	"testing"

	"github.com/swfkit/swfkit/pkg/predict"
	"github.com/swfkit/swfkit/pkg/sim"
)

// sjbfOrderCheck runs PredictiveEASY and checks, before every pass, that the
// jobs SJBF will try are in increasing order of prediction (ties by arrival).
type sjbfOrderCheck struct {
	*PredictiveEASY
	t        *testing.T
	unsorted int
}

func (c *sjbfOrderCheck) Schedule(s *sim.Sim) {
	if s.FreeProcs() > 0 {
		c.compactSJBF()
		for i := 1; i < len(c.byPred); i++ {
			if c.shorter(c.byPred[i-1], c.byPred[i]) > 0 {
				c.unsorted++
				break
			}
		}
	}
	c.PredictiveEASY.Schedule(s)
}

// TestSJBFOrderAfterCorrections: a job that starts and has its prediction
// corrected before the next pass stayed in the SJBF list, and jobs arriving
// meanwhile were placed by a binary search against its new, out-of-order
// prediction: on KTH-SP2 the order was wrong in 705 of easy++'s passes. Random
// jobs whose predictions are mostly too short (so that corrections are many).
func TestSJBFOrderAfterCorrections(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	jobs := make([]sim.Job, 400)
	given := make([]int64, len(jobs))
	submit := int64(0)
	for i := range jobs {
		submit += rng.Int64N(60)
		run := 1 + rng.Int64N(2000)
		jobs[i] = sim.Job{ID: int32(i), Submit: submit, Procs: int32(1 + rng.IntN(10)), Runtime: run, Estimate: 2 * run, User: int32(rng.IntN(5))}
		given[i] = 1 + rng.Int64N(run)
	}
	pr, err := predict.New("token")
	if err != nil {
		t.Fatal(err)
	}
	corr, err := predict.NewCorrector("double", nil)
	if err != nil {
		t.Fatal(err)
	}
	e := NewPredictiveEASY(pr, corr, true, len(jobs))
	e.given = given
	c := &sjbfOrderCheck{PredictiveEASY: e, t: t}
	s, err := sim.New(sim.Config{Procs: 16}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(c); err != nil {
		t.Fatal(err)
	}
	if c.unsorted > 0 {
		t.Errorf("SJBF tried jobs out of prediction order in %d passes", c.unsorted)
	}
}
