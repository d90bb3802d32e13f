package sim

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestProfileStepAtAndMinFree(t *testing.T) {
	p := NewProfile(10, 0)
	p.Reserve(5, 15, 4)  // 0:10 5:6 15:10
	p.Reserve(10, 20, 3) // 0:10 5:6 10:3 15:7 20:10
	// Every index as a hint: the step itself (StepAt's fast path), either side
	// of it, and out of range.
	for _, hint := range []int{-1, 0, 1, 2, 3, 4, 5, 99} {
		for _, tc := range []struct{ t, start, free int64 }{
			{0, 0, 10}, {4, 0, 10}, {5, 5, 6}, {9, 5, 6}, {10, 10, 3}, {19, 15, 7}, {20, 20, 10}, {1000, 20, 10},
		} {
			i, start, free := p.StepAt(tc.t, hint)
			if start != tc.start || free != tc.free || p.times[i] != start {
				t.Errorf("StepAt(%d, hint %d) = %d, %d, %d; want start %d, free %d", tc.t, hint, i, start, free, tc.start, tc.free)
			}
		}
	}
	for _, tc := range []struct{ from, to, want int64 }{
		{0, 5, 10}, {0, 6, 6}, {4, 11, 3}, {15, 20, 7}, {16, 17, 7}, {19, 21, 7}, {20, 1000, 10}, {0, Never, 3},
	} {
		if got := p.MinFree(tc.from, tc.to); got != tc.want {
			t.Errorf("MinFree(%d, %d) = %d, want %d", tc.from, tc.to, got, tc.want)
		}
	}
}

// ResetRunning must build the profile Reset and one Reserve per hold build.
func TestProfileResetRunning(t *testing.T) {
	for _, holds := range [][]Hold{
		nil,
		{{End: 10, Procs: 3}},
		{{End: 10, Procs: 3}, {End: 5, Procs: 2}, {End: 10, Procs: 1}, {End: 3, Procs: 4}},
		{{End: 0, Procs: 4}, {End: -5, Procs: 9}, {End: Never, Procs: 2}, {End: 7, Procs: 8}},
		{{End: 1, Procs: 10}},
	} {
		want := NewProfile(10, 0)
		want.Reserve(0, 100, 1) // leftovers that ResetRunning must drop
		want.Reset(10, 0)
		for _, h := range holds {
			want.Reserve(0, h.End, h.Procs)
		}
		got := NewProfile(10, 0)
		got.Reserve(2, 50, 6)
		got.ResetRunning(10, 0, append([]Hold(nil), holds...))
		if a, b := stepsOf(got), stepsOf(want); a != b {
			t.Errorf("ResetRunning(%v) = %s, want %s", holds, a, b)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("ResetRunning over the machine did not panic")
		}
	}()
	NewProfile(10, 0).ResetRunning(10, 0, []Hold{{End: 5, Procs: 6}, {End: 9, Procs: 5}})
}

// stepsOf renders a profile's steps as "t:free t:free ...".
func stepsOf(p *Profile) string {
	var b strings.Builder
	p.Steps(func(t, free int64) { fmt.Fprintf(&b, "%d:%d ", t, free) })
	return b.String()
}

// StepAt with every hint on a profile of one step, and on one that Advance
// cut at its front.
func TestProfileStepAtEdges(t *testing.T) {
	p := NewProfile(10, 100)
	for _, hint := range []int{-5, -1, 0, 1, 2, math.MaxInt} {
		for _, at := range []int64{100, 101, Never - 1} {
			if i, start, free := p.StepAt(at, hint); i != 0 || start != 100 || free != 10 {
				t.Errorf("one step: StepAt(%d, hint %d) = %d, %d, %d; want 0, 100, 10", at, hint, i, start, free)
			}
		}
	}
	p.Reserve(100, 200, 3)
	p.Reserve(150, 300, 2)
	p.Advance(160) // 160:5 200:8 300:10
	for _, tc := range []struct {
		at, start, free int64
		i               int
	}{
		{160, 160, 5, 0}, {199, 160, 5, 0}, {200, 200, 8, 1}, {299, 200, 8, 1}, {300, 300, 10, 2}, {5000, 300, 10, 2},
	} {
		for hint := -1; hint <= p.Len()+1; hint++ {
			if i, start, free := p.StepAt(tc.at, hint); i != tc.i || start != tc.start || free != tc.free {
				t.Errorf("advanced: StepAt(%d, hint %d) = %d, %d, %d; want %d, %d, %d", tc.at, hint, i, start, free, tc.i, tc.start, tc.free)
			}
		}
	}
}
