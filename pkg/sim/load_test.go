package sim

import "testing"

func TestOfferedLoad(t *testing.T) {
	// Machine 2, submits 0 and 10: capacity 20 processor-seconds. Job 0 runs
	// 10 s on 1 processor; job 1 needs 20 s on 1 but was killed after 5.
	jobs := []Job{
		{Procs: 1, Submit: 0, Runtime: 10, Start: 0, End: 10},
		{Procs: 1, Submit: 10, Runtime: 20, Start: 10, End: 15, Killed: true},
	}
	in, out, ok := OfferedLoad(jobs, 2)
	if !ok || in != 1.5 || out != 0.75 {
		t.Errorf("OfferedLoad = %v, %v, %v; want 1.5, 0.75, true", in, out, ok)
	}
	if _, _, ok := OfferedLoad(jobs[:1], 2); ok {
		t.Error("a single submit time spans no time, want ok false")
	}
}

func TestOfferedLoadWith(t *testing.T) {
	// Machine 2; simulated jobs submitted at 100 and 110, one 10 s and one
	// killed after 5 of its 20; two unsimulated 3-processor jobs of 10 s at
	// 0 and 50. Span 0..110, capacity 220: input (60 + 30) / 220, simulated
	// 15 / 220 over the same span.
	jobs := []Job{
		{Procs: 1, Submit: 100, Runtime: 10, Start: 100, End: 110},
		{Procs: 1, Submit: 110, Runtime: 20, Start: 110, End: 115, Killed: true},
	}
	var u Unsimulated
	u.Add(50, 3, 10)
	u.Add(0, 3, 10)
	if u.N != 2 || u.First != 0 || u.Last != 50 || u.Work != 60 {
		t.Fatalf("Unsimulated = %+v", u)
	}
	in, out, ok := OfferedLoadWith(jobs, 2, u)
	if !ok || in != 90.0/220 || out != 15.0/220 {
		t.Errorf("OfferedLoadWith = %v, %v, %v; want %v, %v, true", in, out, ok, 90.0/220, 15.0/220)
	}
	// None unsimulated: OfferedLoad's figures.
	in, out, ok = OfferedLoadWith(jobs, 2, Unsimulated{})
	if !ok || in != 1.5 || out != 0.75 {
		t.Errorf("OfferedLoadWith none = %v, %v, %v; want 1.5, 0.75, true", in, out, ok)
	}
	// One simulated job spans no time, but with an unsimulated one it does;
	// and unsimulated jobs alone are the input's load.
	if in, out, ok := OfferedLoadWith(jobs[:1], 2, u); !ok || in != 70.0/200 || out != 10.0/200 {
		t.Errorf("one simulated job = %v, %v, %v", in, out, ok)
	}
	if in, out, ok := OfferedLoadWith(nil, 2, u); !ok || in != 60.0/100 || out != 0 {
		t.Errorf("no simulated job = %v, %v, %v", in, out, ok)
	}
}
