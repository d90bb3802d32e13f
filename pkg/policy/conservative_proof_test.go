package policy

import "testing"

// TestProofFrom: a tight proof (its job's earliest start, every blocking
// time before it) rules out every start before until of a job it dominates
// reserved at or after until; otherwise, and for a proof that is not tight,
// only the windows that end by the job's own reservation.
func TestProofFrom(t *testing.T) {
	for _, tc := range []struct {
		pr   proof
		own  int64
		want int64
	}{
		{proof{procs: 1, dur: 100, until: 500, tight: true}, 500, 500},
		{proof{procs: 1, dur: 100, until: 500, tight: true}, 900, 500},
		{proof{procs: 1, dur: 100, until: 500, tight: true}, 450, 351},
		{proof{procs: 1, dur: 100, until: 500}, 900, 500},
		{proof{procs: 1, dur: 100, until: 500}, 550, 451},
		{proof{procs: 1, dur: 100, until: 500}, 500, 401},
	} {
		if got := tc.pr.from(tc.own); got != tc.want {
			t.Errorf("%+v.from(%d) = %d, want %d", tc.pr, tc.own, got, tc.want)
		}
	}
}

// TestWeakenTightProofs: a move's old slot starting at or after a tight
// proof's until frees nothing where its blocking times are, so the proof
// stays whole; one starting before it cuts the proof to the windows that
// end by then, which are no longer known to be blocked before until.
func TestWeakenTightProofs(t *testing.T) {
	c := NewConservative(0)
	c.proofs = []proof{
		{procs: 1, dur: 100, until: 500, tight: true},
		{procs: 2, dur: 100, until: 500},
		{procs: 3, dur: 100, until: 800, tight: true},
	}
	c.weakenProofs(500, 0)
	want := []proof{
		{procs: 1, dur: 100, until: 500, tight: true},
		{procs: 2, dur: 100, until: 401},
		{procs: 3, dur: 100, until: 401},
	}
	if len(c.proofs) != len(want) {
		t.Fatalf("proofs %+v, want %+v", c.proofs, want)
	}
	for i := range want {
		if c.proofs[i] != want[i] {
			t.Errorf("proof %d: %+v, want %+v", i, c.proofs[i], want[i])
		}
	}
	c.weakenProofs(150, 100) // cuts every proof to 51, before now: all dropped
	if len(c.proofs) != 0 {
		t.Errorf("proofs %+v, want none", c.proofs)
	}
}
