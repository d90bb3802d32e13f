package policy

import (
	"testing"

	"github.com/swfkit/swfkit/pkg/sim"
)

// j is a job for the hand-computed scenarios: submit, runtime, estimate,
// processors and queue.
type j struct {
	submit, run, est int64
	procs, queue     int32
}

type scenario struct {
	name   string
	policy string
	params Params
	procs  int64
	noKill bool
	jobs   []j
	starts []int64 // expected start of each job, worked out by hand (see the comment)
	killed []int   // jobs killed at their estimate
}

// Each scenario's comment is the hand computation. Jn(submit,run,est,procs).
var scenarios = []scenario{
	// At 0: J0 starts (free 2), J1 starts (free 0). J1 ends 5: J2 starts 5.
	{name: "fcfs/basic", policy: "fcfs", procs: 4,
		jobs:   []j{{0, 10, 10, 2, -1}, {0, 5, 5, 2, -1}, {0, 3, 3, 1, -1}},
		starts: []int64{0, 0, 5}},
	// J0 holds 3 of 4 until 10. J2 (1 proc) would fit at 2 but FCFS never
	// passes J1. At 10 both start (2+1 of 4).
	{name: "fcfs/no-backfilling", policy: "fcfs", procs: 4,
		jobs:   []j{{0, 10, 10, 3, -1}, {1, 5, 5, 2, -1}, {2, 1, 1, 1, -1}},
		starts: []int64{0, 10, 10}},
	// Arrival order is submit time, then file order: J2 (3), J0 (5), J1 (5).
	// J2 runs 3-7; at 7 J0 takes the machine; J1 follows at 11.
	{name: "fcfs/unsorted-file-equal-submits", policy: "fcfs", procs: 2,
		jobs:   []j{{5, 4, 4, 2, -1}, {5, 4, 4, 1, -1}, {3, 4, 4, 2, -1}},
		starts: []int64{7, 11, 3}},
	// J0 runs past its estimate 10 and is killed there; J1 starts at 10.
	{name: "fcfs/kill-at-estimate", policy: "fcfs", procs: 1,
		jobs:   []j{{0, 100, 10, 1, -1}, {0, 5, 5, 1, -1}},
		starts: []int64{0, 10}, killed: []int{0}},
	// The same with --no-kill: J0 runs its 100 s.
	{name: "fcfs/no-kill", policy: "fcfs", procs: 1, noKill: true,
		jobs:   []j{{0, 100, 10, 1, -1}, {0, 5, 5, 1, -1}},
		starts: []int64{0, 100}},
	// J0 has runtime 0: it starts at 0 and ends in a further round at 0, whose
	// pass starts J1 at 0 as well.
	{name: "fcfs/zero-runtime-further-round", policy: "fcfs", procs: 1,
		jobs:   []j{{0, 0, 0, 1, -1}, {0, 5, 5, 1, -1}},
		starts: []int64{0, 0}},
	// At 10 J0's end is handled before J1's arrival, so J1 starts at 10.
	{name: "fcfs/ends-before-arrivals", policy: "fcfs", procs: 2,
		jobs:   []j{{0, 10, 10, 2, -1}, {10, 5, 5, 2, -1}},
		starts: []int64{0, 10}},

	// J1 (head) needs 2, 1 free: shadow 10 (J0 ends), extra 4-2 = 2. J2 ends
	// by 2+8 = 10 <= shadow: backfills at 2.
	{name: "easy/backfill-ends-by-shadow", policy: "easy", procs: 4,
		jobs:   []j{{0, 10, 10, 3, -1}, {1, 5, 5, 2, -1}, {2, 8, 8, 1, -1}},
		starts: []int64{0, 10, 2}},
	// J1 needs all 4: shadow 10, extra 0. J2 would end at 11 > 10 and extra
	// is 0: it waits until J1 ends at 15.
	{name: "easy/no-backfill-past-shadow", policy: "easy", procs: 4,
		jobs:   []j{{0, 10, 10, 3, -1}, {1, 5, 5, 4, -1}, {2, 9, 9, 1, -1}},
		starts: []int64{0, 10, 15}},
	// J1 needs 3, 2 free: shadow 10, extra 4-3 = 1. J2 (1 proc, to 102) uses
	// the extra processor at 2. At 3 the shadow is 10 again with extra 0, so J3
	// waits; at 10 J1 starts (3 free), at 15 J3.
	{name: "easy/extra-processors", policy: "easy", procs: 4,
		jobs:   []j{{0, 10, 10, 2, -1}, {1, 5, 5, 3, -1}, {2, 100, 100, 1, -1}, {3, 100, 100, 1, -1}},
		starts: []int64{0, 10, 2, 15}},
	// J0 and J1 (2+2 of 6) both end at 10. J2 needs 4, 2 free: at 10 J0
	// alone would give 4, but J1 ends exactly then too and counts: extra =
	// 6-4 = 2. J3 (2 procs, to 52) uses them at 2. At 10, 4 free: J2 starts.
	{name: "easy/shadow-tie-counts-toward-extra", policy: "easy", procs: 6,
		jobs:   []j{{0, 10, 10, 2, -1}, {0, 10, 10, 2, -1}, {1, 5, 5, 4, -1}, {2, 50, 50, 2, -1}},
		starts: []int64{0, 0, 10, 2}},
	// J0 estimates 10 but ends at 3; J1 (head, shadow 10) starts at 3. J2
	// waits behind J1 until 8.
	{name: "easy/early-end", policy: "easy", procs: 2,
		jobs:   []j{{0, 3, 10, 2, -1}, {1, 5, 5, 2, -1}, {2, 2, 2, 1, -1}},
		starts: []int64{0, 3, 8}},
	// J1 needs 4: shadow 10, extra 0. J2 and J3 each end at 10: both
	// backfill at 2. J4 finds nothing free. At 10 J0, J2, J3 end; J1 takes
	// the machine; J4 at 20.
	{name: "easy/several-backfills", policy: "easy", procs: 4,
		jobs:   []j{{0, 10, 10, 2, -1}, {1, 10, 10, 4, -1}, {2, 8, 8, 1, -1}, {2, 8, 8, 1, -1}, {2, 1, 1, 1, -1}},
		starts: []int64{0, 10, 2, 2, 20}},
	// The EASY half of the EASY/conservative contrast: J1 (head) needs 2, 1
	// free: shadow 10, extra 2. J2 (2 procs) does not fit now. J3 (1 proc, 30
	// s) uses an extra processor at 3. At 10 J1 starts (3 free), leaving 1: J2
	// waits for J1's end at 20. (Conservative would protect J2 too.)
	{name: "easy/delays-second-in-queue", policy: "easy", procs: 4,
		jobs:   []j{{0, 10, 10, 3, -1}, {1, 10, 10, 2, -1}, {2, 5, 5, 2, -1}, {3, 30, 30, 1, -1}},
		starts: []int64{0, 10, 20, 3}},
	// J0 is killed at its estimate 10: J1 starts then.
	{name: "easy/kill", policy: "easy", procs: 2,
		jobs:   []j{{0, 100, 10, 2, -1}, {1, 5, 5, 2, -1}},
		starts: []int64{0, 10}, killed: []int{0}},
	// --no-kill: J0 (1 of 2) outlives its estimate 10. At 12 it is expected
	// to end at 13, so J1's shadow is 13 with extra 0; J2 (1 s) ends by 13
	// and backfills at 12. J1 starts when J0 really ends, at 20.
	{name: "easy/no-kill-overdue", policy: "easy", procs: 2, noKill: true,
		jobs:   []j{{0, 20, 10, 1, -1}, {1, 5, 5, 2, -1}, {12, 1, 1, 1, -1}},
		starts: []int64{0, 20, 12}},

	// J1 reserves [10,15) on all 4; J2 (1 proc) fits the hole [2,10).
	{name: "conservative/backfill-into-hole", policy: "conservative", procs: 4,
		jobs:   []j{{0, 10, 10, 3, -1}, {1, 5, 5, 4, -1}, {2, 8, 8, 1, -1}},
		starts: []int64{0, 10, 2}},
	// The conservative half of the contrast above: J1 reserves [10,20) x2,
	// J2 [10,15) x2 (4-2 free then). J3 (1 proc, 30 s) fits neither [3,10)
	// nor [10,15): it is reserved at 15. Nothing ends early, so all start at
	// their reservations.
	{name: "conservative/protects-every-job", policy: "conservative", procs: 4,
		jobs:   []j{{0, 10, 10, 3, -1}, {1, 10, 10, 2, -1}, {2, 5, 5, 2, -1}, {3, 30, 30, 1, -1}},
		starts: []int64{0, 10, 10, 15}},
	// J0 holds [0,20) but ends at 5. J1 was reserved [20,30), J2 [30,33).
	// Compression at 5: J1 -> [5,15), then J2 -> [15,18).
	{name: "conservative/compression", policy: "conservative", procs: 2,
		jobs:   []j{{0, 5, 20, 2, -1}, {1, 10, 10, 2, -1}, {2, 3, 3, 1, -1}},
		starts: []int64{0, 5, 15}},
	// At 10 J0 ends early and J2 arrives. Compression comes first: J1 moves
	// from [20,25) to [10,15); then J2 is inserted at [15,20). (Inserting J2
	// first would have given it 10.)
	{name: "conservative/compress-before-arrivals", policy: "conservative", procs: 2,
		jobs:   []j{{0, 10, 20, 2, -1}, {1, 5, 5, 2, -1}, {10, 5, 5, 2, -1}},
		starts: []int64{0, 10, 15}},
	// Lee 2009, Fig. 1.2: J0 starts; J1 (the whole machine) is reserved at
	// J0's requested end 10; J2 fits beside J0 until 10 and starts at 0. J0
	// ends at 2, but J2 holds a processor until 10, so J1 still starts at 10:
	// not later than its reservation, yet later than it could have
	// (pseudo-delay).
	{name: "conservative/lee-fig-1.2-pseudo-delay", policy: "conservative", procs: 4,
		jobs:   []j{{0, 2, 10, 3, -1}, {0, 5, 5, 4, -1}, {0, 10, 10, 1, -1}},
		starts: []int64{0, 10, 0}},
	// The same without J2: compression at 2 moves J1 to 2.
	{name: "conservative/lee-fig-1.2-without-backfill", policy: "conservative", procs: 4,
		jobs:   []j{{0, 2, 10, 3, -1}, {0, 5, 5, 4, -1}},
		starts: []int64{0, 2}},
	// J0 (estimate 0) reserves [0,1); J1 is reserved at 1. J0 ends at 0 in a
	// further round, freeing [0,1): compression moves J1 to 0.
	{name: "conservative/zero-estimate-reserves-1s", policy: "conservative", procs: 1,
		jobs:   []j{{0, 0, 0, 1, -1}, {0, 5, 5, 1, -1}},
		starts: []int64{0, 0}},
	// J0 is killed at 10, the end of its reservation; J1 starts then.
	{name: "conservative/kill", policy: "conservative", procs: 1,
		jobs:   []j{{0, 100, 10, 1, -1}, {0, 5, 5, 1, -1}},
		starts: []int64{0, 10}, killed: []int{0}},
	// --no-kill: J0 outlives its estimate 10. J1 was reserved [10,15), but
	// no event happens at 10. At 12 (J2 arrives) J0 is overdue: expected at
	// 13; rebuild: J1 [13,18), J2 [18,19). At 20 J0 ends; J1's reservation
	// has passed: rebuild: J1 [20,25), J2 [25,26).
	{name: "conservative/no-kill-rebuild", policy: "conservative", procs: 2, noKill: true,
		jobs:   []j{{0, 20, 10, 2, -1}, {1, 5, 5, 2, -1}, {12, 1, 1, 1, -1}},
		starts: []int64{0, 20, 25}},

	// Default class order is ascending queue number: at 10 J2 (queue 1)
	// goes before J1 (queue 2).
	{name: "priofifo/default-order", policy: "priofifo", procs: 2,
		jobs:   []j{{0, 10, 10, 2, 1}, {1, 5, 5, 2, 2}, {2, 5, 5, 2, 1}},
		starts: []int64{0, 15, 10}},
	// --priority-order 2,1: J1 (queue 2) first.
	{name: "priofifo/priority-order", policy: "priofifo", procs: 2, params: Params{PriorityOrder: [][]int64{{2}, {1}}},
		jobs:   []j{{0, 10, 10, 2, 1}, {1, 5, 5, 2, 2}, {2, 5, 5, 2, 1}},
		starts: []int64{0, 10, 15}},
	// --priority-order 2+1: queues 1 and 2 share a class, FIFO across
	// them: J1 (queue 2, submitted at 1) before J2 (queue 1, at 2).
	{name: "priofifo/priority-order-group", policy: "priofifo", procs: 2, params: Params{PriorityOrder: [][]int64{{2, 1}}},
		jobs:   []j{{0, 10, 10, 2, 1}, {1, 5, 5, 2, 2}, {2, 5, 5, 2, 1}},
		starts: []int64{0, 10, 15}},
	// Unknown queue (-1) comes after every known one: J2 (queue 5) first.
	{name: "priofifo/unknown-queue-last", policy: "priofifo", procs: 2,
		jobs:   []j{{0, 10, 10, 2, 1}, {1, 5, 5, 2, -1}, {2, 5, 5, 2, 5}},
		starts: []int64{0, 15, 10}},
	// Backfilling across classes: J1 (queue 1, head) needs 4: shadow 10;
	// J2 (queue 2) ends by 10 and backfills at 2.
	{name: "priofifo/backfill-across-classes", policy: "priofifo", procs: 4,
		jobs:   []j{{0, 10, 10, 3, 1}, {1, 5, 5, 4, 1}, {2, 8, 8, 1, 2}},
		starts: []int64{0, 10, 2}},

	// Order by estimate; J2 and J3 tie on 3 and go by submit time. At 10:
	// J2, 13: J3, 16: J1.
	{name: "sjf/order", policy: "sjf", procs: 2,
		jobs:   []j{{0, 10, 10, 2, -1}, {1, 8, 8, 2, -1}, {2, 3, 3, 2, -1}, {3, 3, 3, 2, -1}},
		starts: []int64{0, 16, 10, 13}},
	// Order J2 (15), J1 (20), J3 (100). J2 is the head: needs 2, 1 free,
	// shadow 10, extra 2: J3 backfills on an extra processor at 2. At 10 J2
	// starts; J1 follows when J2 ends at 25.
	{name: "sjf/backfill", policy: "sjf", procs: 4,
		jobs:   []j{{0, 10, 10, 3, -1}, {1, 20, 20, 2, -1}, {1, 15, 15, 2, -1}, {2, 100, 100, 1, -1}},
		starts: []int64{0, 25, 10, 2}},
	// At 10: XF J1 = (9+20)/20 = 1.45, XF J2 = (1+10)/10 = 1.1: J1 first
	// (sjf would take J2).
	{name: "lxf/order", policy: "lxf", procs: 1,
		jobs:   []j{{0, 10, 10, 1, -1}, {1, 20, 20, 1, -1}, {9, 10, 10, 1, -1}},
		starts: []int64{0, 10, 30}},
	// At 7200: XF J1 = (7199+72000)/72000 = 1.099986, XF J2 =
	// (3600+36000)/36000 = 1.1: lxf takes J2 first.
	{name: "lxf/xfactor", policy: "lxf", procs: 1,
		jobs:   []j{{0, 7200, 7200, 1, -1}, {1, 72000, 72000, 1, -1}, {3600, 36000, 36000, 1, -1}},
		starts: []int64{0, 43200, 7200}},
	// lxfw, w = 0.02/hour: J1 = 1.099986 + 0.02*7199/3600 = 1.13998, J2 =
	// 1.1 + 0.02*1 = 1.12: J1 first.
	{name: "lxfw/wait-weight", policy: "lxfw", procs: 1,
		jobs:   []j{{0, 7200, 7200, 1, -1}, {1, 72000, 72000, 1, -1}, {3600, 36000, 36000, 1, -1}},
		starts: []int64{0, 7200, 79200}},
	// lxfw with weight 0 is lxf.
	{name: "lxfw/weight-0-is-lxf", policy: "lxfw", procs: 1, params: Params{UseLXFWWeight: true},
		jobs:   []j{{0, 7200, 7200, 1, -1}, {1, 72000, 72000, 1, -1}, {3600, 36000, 36000, 1, -1}},
		starts: []int64{0, 43200, 7200}},
	// lxfw ties, machine of 1 (all jobs take it). At 2000, w = 0.02 = 1/50:
	// J1 = (1579+25)/25 + 1579/180000 = 11550379/180000, J2 = (379+6)/6 +
	// 379/180000 = 11550379/180000: equal, so J1 (submitted first) starts at 2000
	// and J2 at 2025, though the float sums differ in the last bit.
	{name: "lxfw/exact-tie", policy: "lxfw", procs: 1,
		jobs:   []j{{0, 2000, 2000, 1, -1}, {421, 25, 25, 1, -1}, {1621, 6, 6, 1, -1}},
		starts: []int64{0, 2000, 2025}},
	// The same with w = 0.5, exact in binary: at 400, J1 = 292/15 + 277/7200 =
	// 140437/7200, J2 = 39/2 + 37/7200 = 140437/7200: J1 at 400, J2 at 415.
	{name: "lxfw/exact-tie-binary-weight", policy: "lxfw", procs: 1, params: Params{LXFWWeight: 0.5},
		jobs:   []j{{0, 400, 400, 1, -1}, {123, 15, 15, 1, -1}, {363, 2, 2, 1, -1}},
		starts: []int64{0, 400, 415}},
}

func TestScenarios(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			info, ok := Lookup(sc.policy)
			if !ok {
				t.Fatalf("no policy %q", sc.policy)
			}
			jobs := make([]sim.Job, len(sc.jobs))
			for i, x := range sc.jobs {
				jobs[i] = sim.Job{Submit: x.submit, Runtime: x.run, Estimate: x.est, Procs: x.procs, Queue: x.queue}
			}
			s, err := sim.New(sim.Config{Procs: sc.procs, NoKill: sc.noKill}, jobs)
			if err != nil {
				t.Fatal(err)
			}
			p, err := info.New(sc.params, len(jobs))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Run(p); err != nil {
				t.Fatal(err)
			}
			killed := map[int]bool{}
			for _, k := range sc.killed {
				killed[k] = true
			}
			for i := range jobs {
				if jobs[i].Start != sc.starts[i] {
					t.Errorf("job %d starts at %d, want %d", i, jobs[i].Start, sc.starts[i])
				}
				if jobs[i].Killed != killed[i] {
					t.Errorf("job %d killed = %v, want %v", i, jobs[i].Killed, killed[i])
				}
				want := sc.jobs[i].run
				if killed[i] {
					want = sc.jobs[i].est
				}
				if got := jobs[i].End - jobs[i].Start; got != want {
					t.Errorf("job %d ran %d s, want %d", i, got, want)
				}
			}
			// Whatever the policy, the reference agrees on easy and conservative.
			if sc.policy == "easy" || sc.policy == "conservative" {
				ref := make([]refJob, len(sc.jobs))
				for i, x := range sc.jobs {
					ref[i] = refJob{x.submit, x.run, x.est, int64(x.procs)}
				}
				for i, st := range refRun(ref, sc.procs, sc.noKill, sc.policy) {
					if st != sc.starts[i] {
						t.Errorf("reference: job %d starts at %d, want %d", i, st, sc.starts[i])
					}
				}
			}
		})
	}
}
