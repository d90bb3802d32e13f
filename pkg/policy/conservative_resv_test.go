package policy

import (
	"testing"

	"github.com/swfkit/swfkit/internal/simtest"
	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/sim"
)

// Conservative keeps no reservations by job ID (resv) unless selective
// reservation asks for them (trackResv): a run of the registry's
// conservative, with and without kills, leaves resv nil, and selective and
// selective-d keep it for every job and see their waiting jobs' reservations
// in it during the run.
func TestConservativeResvOnlyForSelective(t *testing.T) {
	tr := simtest.Load(t, testutil.Trace(t, "KTH-SP2-1996-2.1-cln.swf.gz"), false)
	tr.Jobs = tr.Jobs[:3000]
	run := func(name string, params Params, noKill bool, wrap func(sim.Policy) sim.Policy) sim.Policy {
		t.Helper()
		jobs := tr.Clone()
		s, err := sim.New(sim.Config{Procs: tr.Procs, NoKill: noKill}, jobs)
		if err != nil {
			t.Fatal(err)
		}
		in, _ := Lookup(name)
		p, err := in.New(params, len(jobs))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Run(wrap(p)); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, noKill := range []bool{false, true} {
		p := run("conservative", Params{}, noKill, func(p sim.Policy) sim.Policy { return p })
		if c := p.(*Conservative); c.resv != nil {
			t.Errorf("no-kill %v: conservative kept resv (%d entries)", noKill, len(c.resv))
		}
		for _, name := range []string{"selective", "selective-d"} {
			var w *resvWatch
			p := run(name, Params{Research: ResearchParams{Threshold: "1"}}, noKill, func(p sim.Policy) sim.Policy {
				w = &resvWatch{Selective: p.(*Selective)}
				return w
			})
			sel := p.(*Selective)
			if len(sel.cons.resv) != len(tr.Jobs) || w.seen == 0 || sel.Promotions == 0 {
				t.Errorf("%s no-kill %v: resv of %d for %d jobs, %d waiting jobs seen with a reservation, %d promotions",
					name, noKill, len(sel.cons.resv), len(tr.Jobs), w.seen, sel.Promotions)
			}
		}
	}
}

// resvWatch counts, after each pass of selective reservation, the waiting
// jobs its resv says hold a reservation.
type resvWatch struct {
	*Selective
	seen int
}

func (w *resvWatch) Schedule(s *sim.Sim) {
	w.Selective.Schedule(s)
	for _, j := range s.Waiting() {
		if j.State == sim.Waiting && w.cons.resv[j.ID] >= 0 {
			w.seen++
		}
	}
}

// addProof keeps one proof per job shape, the one added last for its shape
// at lastProof, whatever lastProof and prevProof pointed at before (also
// after weakenProofs compacts the proofs), with shapes in turn.
func TestAddProofOnePerShape(t *testing.T) {
	c := NewConservative(0)
	shapes := [][2]int64{{1, 10}, {2, 10}, {1, 10}, {2, 10}, {3, 5}, {1, 10}, {3, 5}, {2, 10}}
	for k := range 200 {
		sh := shapes[k%len(shapes)]
		if k%7 == 3 {
			c.weakenProofs(int64(1000+k), 0)
		}
		c.addProof(sh[0], sh[1], int64(2000+k), 0)
		if pr := c.proofs[c.lastProof]; pr.procs != sh[0] || pr.dur != sh[1] || pr.until != int64(2000+k) {
			t.Fatalf("step %d: lastProof %d is %+v", k, c.lastProof, pr)
		}
		seen := map[[2]int64]bool{}
		for _, pr := range c.proofs {
			if seen[[2]int64{pr.procs, pr.dur}] {
				t.Fatalf("step %d: two proofs of shape (%d, %d): %+v", k, pr.procs, pr.dur, c.proofs)
			}
			seen[[2]int64{pr.procs, pr.dur}] = true
		}
	}
}
