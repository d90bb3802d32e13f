package sim

import "testing"

func TestProfileStepAtAndMinFree(t *testing.T) {
	p := NewProfile(10, 0)
	p.Reserve(5, 15, 4)  // 0:10 5:6 15:10
	p.Reserve(10, 20, 3) // 0:10 5:6 10:3 15:7 20:10
	for _, hint := range []int{-1, 0, 2, 4, 99} {
		for _, tc := range []struct{ t, start, free int64 }{
			{0, 0, 10}, {4, 0, 10}, {5, 5, 6}, {9, 5, 6}, {10, 10, 3}, {19, 15, 7}, {20, 20, 10}, {1000, 20, 10},
		} {
			i, start, free := p.StepAt(tc.t, hint)
			if start != tc.start || free != tc.free || p.steps[i].t != start {
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
