package policy

import (
	"math/big"
	"math/rand/v2"
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

// lxfwCompare's integer comparison agrees with the priorities computed as
// rationals, (W + E)/E + w W/3600, on random jobs and weights: near-equal
// and equal priorities included (equal terms, and pairs built to tie).
func TestLXFWCompareExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 17))
	prio := func(now int64, j *sim.Job, w *big.Rat) *big.Rat {
		e := max(j.Estimate, 1)
		wait := now - j.Submit
		p := new(big.Rat).SetFrac(big.NewInt(wait+e), big.NewInt(e))
		q := new(big.Rat).SetFrac(big.NewInt(wait), big.NewInt(3600))
		return p.Add(p, q.Mul(q, w))
	}
	ties := 0
	for _, ws := range []string{"0", "0.02", "0.5", "1", "3", "0.0123456789", "1e-9", "12345.678"} {
		w, _ := new(big.Rat).SetString(ws)
		c := newLXFWCompare(w)
		for i := 0; i < 20000; i++ {
			now := int64(1e8)
			a := &sim.Job{Submit: now - rng.Int64N(1e7), Estimate: rng.Int64N(200000) - 2}
			b := &sim.Job{Submit: now - rng.Int64N(1e7), Estimate: rng.Int64N(200000) - 2}
			switch i % 4 {
			case 1: // the same terms
				b.Submit, b.Estimate = a.Submit, a.Estimate
			case 2: // w = 0 ties: W/E equal, other W and E
				k := 1 + rng.Int64N(5)
				ea := max(a.Estimate, 1)
				b.Estimate, b.Submit = ea*k, now-(now-a.Submit)*k
			case 3: // one second apart
				b.Submit, b.Estimate = a.Submit+1, a.Estimate
			}
			want := prio(now, b, w).Cmp(prio(now, a, w))
			if want == 0 {
				ties++
			}
			if got := c.compare(now, a, b); got != want {
				t.Fatalf("w=%s now=%d a=%+v b=%+v: compare %d, rationals %d", ws, now, a, b, got, want)
			}
		}
	}
	if ties < 10000 {
		t.Errorf("only %d ties compared", ties)
	}
}

// A comparison allocates nothing once its integers have grown: sorts of a
// long queue make millions of them (TestLXFWCompareExact's doc; whole RICC
// took minutes when each built its rationals).
func TestLXFWCompareAllocatesNothing(t *testing.T) {
	w, _ := new(big.Rat).SetString("0.02")
	c := newLXFWCompare(w)
	a := &sim.Job{Submit: 1000, Estimate: 3600}
	b := &sim.Job{Submit: 4600, Estimate: 7200}
	c.compare(90000, a, b)
	if n := testing.AllocsPerRun(1000, func() { c.compare(90000, a, b); c.compare(90000, b, a) }); n != 0 {
		t.Errorf("%v allocations a comparison pair, want 0", n)
	}
}
