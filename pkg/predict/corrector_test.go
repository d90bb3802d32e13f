package predict

import (
	"strings"
	"testing"
)

func TestCorrectors(t *testing.T) {
	type call struct {
		elapsed, estimate, want int64
		ok                      bool
	}
	for _, tc := range []struct {
		name   string
		ladder []int64
		calls  []call
	}{
		{name: "estimate", calls: []call{
			{60, 3600, 3600, true},
			{3599, 3600, 3600, true},
			{3600, 3600, 3600, false},
			{4000, 3600, 3600, false}, // running past the estimate (--no-kill)
		}},
		{name: "double", calls: []call{
			{60, 3600, 120, true},
			{2000, 3600, 3600, true},
			{1, 10, 2, true},
			{0, 10, 1, true}, // a 0 s prediction still moves forward
			{10, 10, 10, false},
		}},
		{name: "ladder", calls: []call{
			{1, 1000000, 60, true},
			{59, 1000000, 60, true},
			{60, 1000000, 300, true}, // on a rung: the next one
			{61, 1000000, 300, true},
			{3600, 1000000, 7200, true},
			{3600, 5000, 5000, true}, // capped at the estimate
			{360000, 1000000, 1000000, true},
			{500000, 1000000, 1000000, true}, // past the top rung
			{1000000, 1000000, 1000000, false},
		}},
		{name: "ladder", ladder: []int64{10, 100}, calls: []call{
			{5, 1000, 10, true},
			{10, 1000, 100, true},
			{100, 1000, 1000, true},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewCorrector(tc.name, tc.ladder)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range tc.calls {
				got, ok := c.Correct(k.elapsed, k.estimate)
				if got != k.want || ok != k.ok {
					t.Errorf("%s.Correct(%d, %d) = %d, %v; want %d, %v", c, k.elapsed, k.estimate, got, ok, k.want, k.ok)
				}
				if ok && got <= k.elapsed {
					t.Errorf("%s.Correct(%d, %d) = %d does not move forward", c, k.elapsed, k.estimate, got)
				}
			}
		})
	}
	if _, err := NewCorrector("triple", nil); err == nil {
		t.Error(`NewCorrector("triple") succeeded`)
	}
}

func TestParseLadder(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []int64
		wantErr string
		format  string
	}{
		{in: "1m,5m,15m,30m,1h,2h,5h,10h,20h,50h,100h", want: DefaultLadder, format: "1m,5m,15m,30m,1h,2h,5h,10h,20h,50h,100h"},
		{in: "30, 90s, 2m, 1d", want: []int64{30, 90, 120, 86400}, format: "30s,90s,2m,1d"},
		{in: "5m,1m", wantErr: "strictly increasing"},
		{in: "0,1m", wantErr: "positive"},
		{in: "1m,1m", wantErr: "strictly increasing"},
		{in: "1w", wantErr: "bad duration"},
		{in: "", wantErr: "bad duration"},
		{in: "1m,", wantErr: "bad duration"},
		{in: "-5", wantErr: "bad duration"},
		{in: "1m,12725830d", wantErr: "beyond swfkit's time bound"}, // 2^40 s is 12,725,829.02 days
		{in: "1m,1099511627776", want: []int64{60, 1 << 40}, format: "1m,1099511627776s"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseLadder(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseLadder(%q) error = %v, want one containing %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("ParseLadder(%q) = %v, want %v", tc.in, got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("ParseLadder(%q) = %v, want %v", tc.in, got, tc.want)
				}
			}
			if f := FormatLadder(got); f != tc.format {
				t.Errorf("FormatLadder = %q, want %q", f, tc.format)
			}
			back, err := ParseLadder(FormatLadder(got))
			if err != nil || len(back) != len(got) {
				t.Errorf("round trip of %q failed: %v %v", tc.in, back, err)
			}
		})
	}
}

func FuzzParseLadder(f *testing.F) {
	for _, s := range []string{"1m,5m,15m", "30,90s,2m,1d", "5m,1m", "", "1w", "99999999999999999999d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rungs, err := ParseLadder(s)
		if err != nil {
			return
		}
		l, err := NewLadder(rungs)
		if err != nil {
			t.Fatalf("ParseLadder(%q) accepted rungs NewLadder rejects: %v", s, err)
		}
		again, err := ParseLadder(FormatLadder(rungs))
		if err != nil || len(again) != len(rungs) {
			t.Fatalf("round trip of %q: %v, %v", s, again, err)
		}
		for i := range again {
			if again[i] != rungs[i] {
				t.Fatalf("round trip of %q changed rung %d: %d -> %d", s, i, rungs[i], again[i])
			}
		}
		if p, ok := l.Correct(0, 1<<40); !ok || p <= 0 {
			t.Fatalf("Correct(0, big) = %d, %v", p, ok)
		}
	})
}

func TestAccuracy(t *testing.T) {
	var a Accuracy
	if a.MeanAbsError() != 0 || a.UnderpredictedShare() != 0 {
		t.Fatal("zero Accuracy not zero")
	}
	a.Add(100, 1000, 150) // under by 50, estimate off by 850
	a.Add(100, 1000, 100) // exact
	a.Add(300, 1000, 100) // over by 200
	a.Add(10, 20, 20)     // under by 10
	a.Corrected(true)
	a.Corrected(false)
	a.Corrected(true)
	if got := a.UnderpredictedShare(); got != 0.5 {
		t.Errorf("UnderpredictedShare = %v, want 0.5", got)
	}
	if got := a.MeanAbsError(); got != 65 {
		t.Errorf("MeanAbsError = %v, want 65", got)
	}
	if got := a.MeanAbsEstimateError(); got != (850+900+900+0)/4.0 {
		t.Errorf("MeanAbsEstimateError = %v", got)
	}
	want := "predictions for 4 jobs: 50.00% underpredicted, mean absolute error 65 s (user estimates: 662 s); 3 corrections of 2 jobs"
	if got := a.String(); got != want {
		t.Errorf("String() =\n%q, want\n%q", got, want)
	}
}
