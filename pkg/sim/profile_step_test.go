package sim

import (
	"fmt"
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
