package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// freeArray is the plain model of a profile: the free processors of each
// second from the origin on, the last entry lasting forever.
type freeArray struct {
	origin int64
	free   []int64
}

func newFreeArray(procs, origin, horizon int64) *freeArray {
	a := &freeArray{origin: origin, free: make([]int64, horizon-origin+1)}
	for i := range a.free {
		a.free[i] = procs
	}
	return a
}

// add adds delta over [start, end) clipped to the origin; end may be Never.
func (a *freeArray) add(start, end, delta int64) {
	last := a.origin + int64(len(a.free)) - 1
	for x := max(start, a.origin); x < end && x <= last; x++ {
		a.free[x-a.origin] += delta
	}
}

func (a *freeArray) advance(now int64) {
	if now > a.origin {
		a.free = a.free[now-a.origin:]
		a.origin = now
	}
}

// moveInModel moves a reservation of procs from [start, start+dur) to [to,
// to+dur) in the model if it fits there, and returns the profile that Release
// then Reserve make of a copy of p; ok is false, with the model unchanged,
// when the move does not fit.
func moveInModel(model *freeArray, p *Profile, start, to, dur, procs, machine int64) (b *Profile, ok bool) {
	model.add(start, start+dur, procs)
	if !model.fits(to, to+dur, -procs, machine) {
		model.add(start, start+dur, -procs)
		return nil, false
	}
	model.add(to, to+dur, -procs)
	b = &Profile{procs: p.procs}
	b.adopt(append([]int64(nil), p.times...), append([]int32(nil), p.frees...))
	b.Release(start, start+dur, procs)
	b.Reserve(to, to+dur, procs)
	return b, true
}

// steps formats the array as Profile's merged steps.
func (a *freeArray) steps() string {
	p := &Profile{times: []int64{a.origin}, frees: []int32{int32(a.free[0])}}
	for i, f := range a.free[1:] {
		if int32(f) != p.frees[len(p.frees)-1] {
			p.times = append(p.times, a.origin+int64(i)+1)
			p.frees = append(p.frees, int32(f))
		}
	}
	return steps(p)
}

func (a *freeArray) maxBefore(t int64) int64 {
	m := int64(0)
	for x := a.origin; x < t; x++ {
		m = max(m, a.free[x-a.origin])
	}
	return m
}

func (a *freeArray) fits(start, end, procs, machine int64) bool {
	for x := max(start, a.origin); x < end && x-a.origin < int64(len(a.free)); x++ {
		if f := a.free[x-a.origin] + procs; f < 0 || f > machine {
			return false
		}
	}
	return true
}

// Move agrees step for step with Release then Reserve on a copy, and both with
// a per-second array, over random moves on a coarse time grid (so boundaries
// often coincide with existing steps and neighbours merge): earlier, later,
// overlapping or not, onto the same slot, with the old slot partly or wholly
// before the origin, and after long-lasting (Never) reservations. MaxFreeBefore
// is checked after each move, with its prefix maxima left valid before it.
// heldResv is a reservation a random test made: where it starts, how long
// it lasts, how many processors it holds.
type heldResv struct{ start, dur, procs int64 }

// reserveRandom tries count random reservations on a grid of grid seconds
// (each minSlots to minSlots+11 grid steps long, from a random start on, at
// its earliest fit) in a and in its per-second model, keeping those that
// end before limit, and returns them.
func reserveRandom(r *rand.Rand, a *Profile, model *freeArray, count int, grid, minSlots, limit int64) []heldResv {
	var jobs []heldResv
	for range count {
		n := 1 + r.Int64N(a.Procs())
		d := grid * (minSlots + r.Int64N(12))
		s := a.EarliestFit(grid*r.Int64N(30), d, n)
		if s == Never || s+d > limit {
			continue
		}
		a.Reserve(s, s+d, n)
		model.add(s, s+d, -n)
		jobs = append(jobs, heldResv{s, d, n})
	}
	return jobs
}

func TestProfileMoveMatchesReleaseReserve(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	const horizon = 400
	var moves, overlapping, clipped int
	for round := range 3000 {
		machine := 1 + r.Int64N(8)
		origin := r.Int64N(4)
		a := NewProfile(machine, origin)
		model := newFreeArray(machine, origin, horizon)
		grid := 1 + r.Int64N(5)
		jobs := reserveRandom(r, a, model, r.IntN(25), grid, 1, horizon-100)
		if r.IntN(8) == 0 { // a reservation that never ends
			n := 1 + r.Int64N(machine)
			if s := a.EarliestFit(grid*r.Int64N(40), Never, n); s != Never {
				a.Reserve(s, Never, n)
				model.add(s, Never, -n)
			}
		}
		now := origin
		for op := range 20 {
			if len(jobs) == 0 {
				break
			}
			if r.IntN(6) == 0 {
				now += r.Int64N(3 * grid)
				a.Advance(now)
				model.advance(now)
			}
			k := r.IntN(len(jobs))
			j := jobs[k]
			var to int64
			switch r.IntN(4) {
			case 0: // overlapping its old slot
				to = j.start + r.Int64N(2*j.dur+1) - j.dur
			case 1: // its own slot
				to = j.start
			case 2: // the profile's origin
				to = now
			default:
				to = grid * r.Int64N(40)
			}
			to = max(to, now)
			if to+j.dur > horizon-1 {
				continue
			}
			b, ok := moveInModel(model, a, j.start, to, j.dur, j.procs, machine)
			if !ok {
				continue
			}
			a.MaxFreeBefore(grid * r.Int64N(50)) // prefix maxima that Move must invalidate
			before := steps(a)
			a.Move(j.start, to, j.dur, j.procs)
			if got, want := steps(a), steps(b); got != want {
				t.Fatalf("round %d op %d: Move(%d, %d, %d, %d) on %s left\n%s, Release+Reserve left\n%s",
					round, op, j.start, to, j.dur, j.procs, before, got, want)
			}
			if got, want := steps(a), model.steps(); got != want {
				t.Fatalf("round %d op %d: Move(%d, %d, %d, %d) on %s left\n%s, the array says\n%s",
					round, op, j.start, to, j.dur, j.procs, before, got, want)
			}
			for range 3 {
				cut := now + r.Int64N(horizon-now)
				if got, want := a.MaxFreeBefore(cut), model.maxBefore(cut); got != want {
					t.Fatalf("round %d op %d: MaxFreeBefore(%d) = %d after Move, want %d; %s", round, op, cut, got, want, steps(a))
				}
			}
			jobs[k].start = to
			moves++
			if to != j.start && to < j.start+j.dur && j.start < to+j.dur {
				overlapping++
			}
			if j.start < now {
				clipped++
			}
		}
	}
	if moves < 20000 || overlapping < 2000 || clipped < 500 {
		t.Errorf("only %d moves, %d overlapping, %d from before the origin", moves, overlapping, clipped)
	}
	t.Logf("%d moves, %d overlapping, %d from before the origin", moves, overlapping, clipped)
}

// Reserve and Release agree with the array, including intervals clipped by
// the origin, empty ones and ones ending Never.
func TestProfileAddMatchesArray(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 19))
	const horizon = 200
	for round := range 3000 {
		machine := 1 + r.Int64N(6)
		origin := r.Int64N(10)
		p := NewProfile(machine, origin)
		model := newFreeArray(machine, origin, horizon)
		for op := range 30 {
			start := r.Int64N(120)
			end := start + r.Int64N(40) - 5
			if r.IntN(10) == 0 {
				end = Never
			}
			n := 1 + r.Int64N(machine)
			if r.IntN(2) == 0 {
				n = -n
			}
			if !model.fits(start, end, n, machine) {
				continue
			}
			before := steps(p)
			if n < 0 {
				p.Reserve(start, end, -n)
			} else {
				p.Release(start, end, n)
			}
			model.add(start, end, n)
			if got, want := steps(p), model.steps(); got != want {
				t.Fatalf("round %d op %d: adding %d over [%d, %d) to %s left\n%s, want\n%s", round, op, n, start, end, before, got, want)
			}
			cut := r.Int64N(horizon)
			if got, want := p.MaxFreeBefore(cut), model.maxBefore(cut); got != want {
				t.Fatalf("round %d op %d: MaxFreeBefore(%d) = %d, want %d; %s", round, op, cut, got, want, steps(p))
			}
		}
	}
}

func TestProfileMovePanics(t *testing.T) {
	for _, tc := range []struct {
		name                string
		from, to, dur, proc int64
	}{
		{"onto a full slot", 0, 20, 10, 2},
		{"more than it holds", 0, 30, 10, 3},
		{"overlapping onto a full slot", 10, 15, 10, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			p := NewProfile(4, 0)
			p.Reserve(0, 10, 2)
			p.Reserve(10, 20, 2)
			p.Reserve(20, 30, 4)
			p.Move(tc.from, tc.to, tc.dur, tc.proc)
		})
	}
}

// moveBench is a profile of about size steps on a 1000-processor machine and
// pairs of moves (a reservation to an earlier start at which it fits, and
// back), as conservative backfilling's compression makes them.
func moveBench(size int) (*Profile, [][4]int64) {
	r := rand.New(rand.NewPCG(uint64(size), 1))
	p := NewProfile(1000, 0)
	type held struct{ start, dur, procs int64 }
	var jobs []held
	for p.Len() < size {
		n := 1 + r.Int64N(200)
		d := 60 + r.Int64N(20000)
		s := p.EarliestFit(r.Int64N(int64(size)*300), d, n)
		p.Reserve(s, s+d, n)
		jobs = append(jobs, held{s, d, n})
	}
	var moves [][4]int64
	for _, j := range jobs {
		if len(moves) == 256 {
			break
		}
		to := p.EarliestFitMoving(max(0, j.start-r.Int64N(50000)), j.dur, j.procs, j.start, j.start, -1)
		if to < j.start {
			moves = append(moves, [4]int64{j.start, to, j.dur, j.procs})
		}
	}
	return p, moves
}

func BenchmarkProfileMove(b *testing.B) {
	for _, size := range []int{100, 700, 3000} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			p, moves := moveBench(size)
			if len(moves) == 0 {
				b.Fatal("no moves")
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m := moves[i%len(moves)]
				p.Move(m[0], m[1], m[2], m[3])
				p.Move(m[1], m[0], m[2], m[3])
			}
			b.ReportMetric(float64(p.Len()), "steps")
		})
	}
}

// FuzzProfileMove reads reservations and then moves from the input, four
// bytes each (start, duration, processors, and for a move the reservation and
// its new start), and checks every Move against Release+Reserve and the array.
func FuzzProfileMove(f *testing.F) {
	f.Add([]byte{0, 10, 2, 0, 10, 10, 2, 0, 20, 5, 4, 0, 1, 0, 0, 0, 0, 2, 0, 0})
	f.Add([]byte{5, 20, 1, 0, 30, 20, 3, 0, 1, 25, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		const machine, horizon = 4, 1100 // a move to to = in[1]+in[2] ends before 255+255+256
		p := NewProfile(machine, 0)
		model := newFreeArray(machine, 0, horizon)
		type held struct{ start, dur, procs int64 }
		var jobs []held
		for len(in) >= 4 && in[3] == 0 {
			s, d, n := int64(in[0]), 1+int64(in[1]), 1+int64(in[2])%machine
			in = in[4:]
			if model.fits(s, s+d, -n, machine) {
				p.Reserve(s, s+d, n)
				model.add(s, s+d, -n)
				jobs = append(jobs, held{s, d, n})
			}
		}
		for ; len(in) >= 4 && len(jobs) > 0; in = in[4:] {
			k := int(in[0]) % len(jobs)
			j := jobs[k]
			to := int64(in[1]) + int64(in[2])
			if in[3]%4 == 0 { // overlapping or adjacent
				to = max(0, j.start+int64(in[1]%32)-16)
			}
			if to+j.dur >= horizon {
				continue // past the array's last second (repeated moves creep later)
			}
			b, ok := moveInModel(model, p, j.start, to, j.dur, j.procs, machine)
			if !ok {
				continue
			}
			p.MaxFreeBefore(int64(in[3]))
			p.Move(j.start, to, j.dur, j.procs)
			if got, want := steps(p), steps(b); got != want {
				t.Fatalf("Move(%d, %d, %d, %d) left %s, Release+Reserve %s", j.start, to, j.dur, j.procs, got, want)
			}
			if got, want := steps(p), model.steps(); got != want {
				t.Fatalf("Move(%d, %d, %d, %d) left %s, the array says %s", j.start, to, j.dur, j.procs, got, want)
			}
			if got, want := p.MaxFreeBefore(int64(in[3])), model.maxBefore(int64(in[3])); got != want {
				t.Fatalf("MaxFreeBefore(%d) = %d, want %d", in[3], got, want)
			}
			jobs[k].start = to
		}
	})
}

// Moves that change nothing leave the steps merged.
func TestProfileMoveNothing(t *testing.T) {
	for _, tc := range []struct{ from, to, dur, procs int64 }{
		{10, 5, 10, 0},   // no processors, earlier
		{5, 10, 10, 0},   // no processors, later
		{10, 10, 10, 2},  // onto its own slot
		{10, 5, 0, 2},    // no duration
		{-20, -30, 5, 2}, // wholly before the origin
	} {
		p := NewProfile(4, 0)
		p.Reserve(10, 20, 2)
		p.Move(tc.from, tc.to, tc.dur, tc.procs)
		if got, want := steps(p), "0:4 10:2 20:4"; got != want {
			t.Errorf("Move(%d, %d, %d, %d) left %s, want %s", tc.from, tc.to, tc.dur, tc.procs, got, want)
		}
	}
}

// splice moves whichever end of the steps is shorter: the head into the room
// Advance leaves in front, or the tail. Random reservations, moves (earlier,
// later, overlapping), releases and advances on a small machine, checked
// against the per-second array after every change, with both ends moved
// many times and the buffer re-centred on the way.
func TestProfileSpliceBothEnds(t *testing.T) {
	const machine, horizon = 6, 20000
	r := rand.New(rand.NewPCG(17, 4))
	p := NewProfile(machine, 0)
	model := newFreeArray(machine, 0, horizon)
	type held struct{ start, dur, procs int64 }
	var jobs []held
	now := int64(0)
	heads, tails, recentred := 0, 0, 0
	for op := 0; op < 30000; op++ {
		before, n, buf := p.off, p.Len(), len(p.tbuf)
		advanced := false
		switch k := r.IntN(10); {
		case k < 4 || len(jobs) == 0: // reserve where it fits
			s := now + r.Int64N(400)
			d, q := 1+r.Int64N(60), 1+r.Int64N(machine)
			if s+d < horizon-1000 && model.fits(s, s+d, -q, machine) {
				p.Reserve(s, s+d, q)
				model.add(s, s+d, -q)
				jobs = append(jobs, held{s, d, q})
			}
		case k < 8: // move, earlier or later
			i := r.IntN(len(jobs))
			j := jobs[i]
			to := max(now, j.start+r.Int64N(80)-40)
			if to+j.dur >= horizon-1000 {
				continue
			}
			model.add(j.start, j.start+j.dur, j.procs)
			if !model.fits(to, to+j.dur, -j.procs, machine) {
				model.add(j.start, j.start+j.dur, -j.procs)
				continue
			}
			model.add(to, to+j.dur, -j.procs)
			p.Move(j.start, to, j.dur, j.procs)
			jobs[i].start = to
		case k < 9: // release
			i := r.IntN(len(jobs))
			j := jobs[i]
			p.Release(j.start, j.start+j.dur, j.procs)
			model.add(j.start, j.start+j.dur, j.procs)
			jobs[i] = jobs[len(jobs)-1]
			jobs = jobs[:len(jobs)-1]
		default: // advance; slots that have begun are kept as they are
			advanced = true
			now += r.Int64N(30)
			p.Advance(now)
			model.advance(now)
			k := 0
			for _, j := range jobs {
				if j.start >= now {
					jobs[k] = j
					k++
				}
			}
			jobs = jobs[:k]
		}
		if got, want := steps(p), model.steps(); got != want {
			t.Fatalf("op %d: profile %s, the array says %s", op, got, want)
		}
		switch delta := p.Len() - n; {
		case advanced || delta == 0:
		case len(p.tbuf) == buf && p.off == before-delta:
			heads++
		case len(p.tbuf) == buf && p.off == before:
			tails++
		default:
			recentred++
		}
	}
	t.Logf("head moves %d, tail moves %d, re-centred %d", heads, tails, recentred)
	if heads < 100 || tails < 100 || recentred == 0 {
		t.Errorf("splices moved the head %d times, the tail %d, re-centred %d: the test no longer covers both ends", heads, tails, recentred)
	}
}

// moveOverlapping, Move's path for a reservation moved earlier onto part of
// its old slot, leaves the same steps as apply given the move's four points,
// on random profiles (a coarse grid, so the points often meet steps and
// neighbours merge), with the new start at the origin too, and whatever the
// far half's hint (endHint) says.
func TestMoveOverlappingMatchesApply(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 21))
	const horizon = 400
	var moves, atOrigin, merged int
	for round := range 4000 {
		machine := 1 + r.Int64N(8)
		origin := r.Int64N(4)
		a := NewProfile(machine, origin)
		model := newFreeArray(machine, origin, horizon)
		grid := 1 + r.Int64N(4)
		jobs := reserveRandom(r, a, model, 1+r.IntN(25), grid, 2, horizon-100)
		for op := range 10 {
			if len(jobs) == 0 {
				break
			}
			k := r.IntN(len(jobs))
			j := jobs[k]
			to := j.start - 1 - r.Int64N(j.dur-1) // to < start < to+dur
			if r.IntN(5) == 0 {
				to = origin
			}
			if to < origin || to >= j.start || to+j.dur <= j.start {
				continue
			}
			if _, ok := moveInModel(model, a, j.start, to, j.dur, j.procs, machine); !ok {
				continue
			}
			b := &Profile{procs: a.procs}
			b.adopt(append([]int64(nil), a.times...), append([]int32(nil), a.frees...))
			before, n := steps(a), a.Len()
			if r.IntN(2) == 0 {
				// Any far-half hint, stale or out of range, is only a
				// place to start searching from.
				a.endHint = r.IntN(n+6) - 3
			}
			a.moveOverlapping(to, j.start, to+j.dur, j.start+j.dur, j.procs)
			b.apply([]changePoint{{to, -j.procs}, {j.start, j.procs}, {to + j.dur, j.procs}, {j.start + j.dur, -j.procs}})
			if got, want := steps(a), steps(b); got != want {
				t.Fatalf("round %d op %d: moveOverlapping(%d, %d, %d, %d, %d) on %s left\n%s, apply left\n%s",
					round, op, to, j.start, to+j.dur, j.start+j.dur, j.procs, before, got, want)
			}
			if got, want := steps(a), model.steps(); got != want {
				t.Fatalf("round %d op %d: moveOverlapping on %s left\n%s, the array says\n%s", round, op, before, got, want)
			}
			jobs[k].start = to
			moves++
			if to == origin {
				atOrigin++
			}
			if a.Len() < n {
				merged++
			}
		}
	}
	if moves < 5000 || atOrigin < 500 || merged < 500 {
		t.Errorf("only %d moves, %d to the origin, %d merging steps away", moves, atOrigin, merged)
	}
	t.Logf("%d moves, %d to the origin, %d merging steps away", moves, atOrigin, merged)
}

// TestLocalMatchesSplice checks local, the in-place shift of moveOverlapping,
// against splice on random pairs of a deletion and an insertion, both ways
// round and across short and long runs of steps (local copies runs of more
// than 32 steps, and loops over shorter ones).
func TestLocalMatchesSplice(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 13))
	var delFirst, insFirst, long int
	for round := range 3000 {
		n := 2 + r.IntN(120)
		ts, fs := make([]int64, n), make([]int32, n)
		for i := range ts {
			ts[i], fs[i] = int64(10*i), int32(r.IntN(50))
		}
		a := r.IntN(n)
		b := a + r.IntN(n-a)
		var edits []stepEdit
		if r.IntN(2) == 0 && b > a {
			// Delete at a, insert before b (a < b).
			edits = []stepEdit{{at: a, del: true}, {at: b, t: ts[b-1] + 5, free: 99}}
			delFirst++
		} else {
			// Insert before a, delete at b (a <= b).
			t0 := int64(-5)
			if a > 0 {
				t0 = ts[a-1] + 5
			}
			edits = []stepEdit{{at: a, t: t0, free: 99}, {at: b, del: true}}
			insFirst++
		}
		if b-a > 32 {
			long++
		}
		want := &Profile{procs: 100}
		want.adopt(append([]int64(nil), ts...), append([]int32(nil), fs...))
		want.splice(edits)
		got := &Profile{procs: 100}
		got.adopt(append([]int64(nil), ts...), append([]int32(nil), fs...))
		if !local(got.times, got.frees, edits) {
			t.Fatalf("round %d: local refused %+v", round, edits)
		}
		if g, w := steps(got), steps(want); g != w {
			t.Fatalf("round %d: edits %+v on %d steps: local left\n%s, splice\n%s", round, edits, n, g, w)
		}
	}
	for _, bad := range [][]stepEdit{
		{{at: 1, del: true}},
		{{at: 1, del: true}, {at: 3, del: true}},
		{{at: 1, t: 5}, {at: 3, t: 25}},
		{{at: 1, del: true}, {at: 2, t: 15}, {at: 3, del: true}},
	} {
		if local(make([]int64, 6), make([]int32, 6), bad) {
			t.Errorf("local applied %+v, which changes the number of steps or is not a pair", bad)
		}
	}
	if delFirst < 1000 || insFirst < 1000 || long < 300 {
		t.Fatalf("only %d deletion-first, %d insertion-first, %d long pairs", delFirst, insFirst, long)
	}
}
