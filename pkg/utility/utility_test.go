package utility

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

func mustParse(t testing.TB, s string) Func {
	t.Helper()
	f, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return f
}

func TestValue(t *testing.T) {
	// Lee's Figure 2.10 style: flat, jump approximated by epsilon, slope, zero.
	f := mustParse(t, "0:100,5:100,5.001:60,7:40,15:10")
	tests := []struct {
		t, want float64
	}{
		{-3, 100}, {0, 100}, {2.5, 100}, {5, 100},
		{5.0005, 80}, {5.001, 60}, {6.0005, 50}, {7, 40},
		{11, 25}, {15, 10}, {15.000001, 0}, {1e9, 0},
	}
	for _, tc := range tests {
		got := f.Value(tc.t)
		if math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("Value(%v) = %v, want %v", tc.t, got, tc.want)
		}
	}
	if f.Start() != 100 || f.Deadline() != 15 {
		t.Errorf("Start, Deadline = %v, %v", f.Start(), f.Deadline())
	}
	var empty Func
	if empty.Value(0) != 0 || empty.Start() != 0 || empty.Deadline() != 0 {
		t.Error("empty Func is not 0 everywhere")
	}
}

func TestValueLongFunctionMatchesLinearScan(t *testing.T) {
	// More than 16 points takes the binary search path; compare with a scan.
	var f Func
	v := 1000.0
	for i := 0; i < 100; i++ {
		f.Points = append(f.Points, Point{Time: float64(i * i), Value: v})
		v -= float64(i % 7)
	}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	scan := func(x float64) float64 {
		p := f.Points
		if x <= 0 {
			return p[0].Value
		}
		for i := 1; i < len(p); i++ {
			if x <= p[i].Time {
				a, b := p[i-1], p[i]
				return a.Value + (b.Value-a.Value)*(x-a.Time)/(b.Time-a.Time)
			}
		}
		return 0
	}
	for x := -1.0; x < 10000; x += 0.37 {
		if got, want := f.Value(x), scan(x); math.Abs(got-want) > 1e-9 {
			t.Fatalf("Value(%v) = %v, want %v", x, got, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"", ErrSyntax},
		{"0:10", ErrTooFewPoints},
		{"1:10,2:0", ErrFirstTime},
		{"0:10,0:5", ErrTimeOrder},
		{"0:10,5:5,4:0", ErrTimeOrder},
		{"0:10,5:11", ErrValueOrder},
		{"0:-1,5:-2", ErrNegative},
		{"0:10,5", ErrSyntax},
		{"0:10,,5:0", ErrSyntax},
		{"0:10,5:0,", ErrSyntax},
		{"0:10,5:x", ErrSyntax},
		{"0:10,0x5:0", ErrSyntax},
		{"0:10,5:NaN", ErrSyntax},
		{"0:10,5:Inf", ErrSyntax},
		{"0:10,1e400:0", ErrNotFinite},
		{"0:2e300,10:0", ErrTooLarge},
		{"0:1.7e308,10:0", ErrTooLarge},
		{"0:10 ,5:0", ErrSyntax},
		{"0:1_0,5:0", ErrSyntax},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			_, err := Parse(tc.in)
			if !errors.Is(err, tc.want) {
				t.Errorf("Parse(%q) = %v, want %v", tc.in, err, tc.want)
			}
		})
	}
	var se *SyntaxError
	if _, err := Parse("0:10,5:x"); !errors.As(err, &se) || se.Point != 2 || se.Text != "5:x" {
		t.Errorf("SyntaxError = %+v", se)
	}
}

func TestFormatRoundTrip(t *testing.T) {
	for _, s := range []string{
		"0:1,10:0",
		"0:3456.25,1:3456.25,2:100,7200:0",
		"0:0.1,1e-7:0.1,0.30000000000000004:0",
	} {
		f := mustParse(t, s)
		out := f.String()
		g := mustParse(t, out)
		if !equal(f, g) {
			t.Errorf("%q -> %q -> %v", s, out, g)
		}
	}
	f := Func{Points: []Point{{0, 1e15}, {86400, 123.456}, {172800, 0}}}
	if got, want := f.Token(), "u=0:1000000000000000,86400:123.456,172800:0"; got != want {
		t.Errorf("Token = %q, want %q", got, want)
	}
}

func equal(a, b Func) bool {
	if len(a.Points) != len(b.Points) {
		return false
	}
	for i := range a.Points {
		if a.Points[i] != b.Points[i] {
			return false
		}
	}
	return true
}

func FuzzParseFormat(f *testing.F) {
	for _, s := range []string{
		"0:100,5:100,5.001:60,7:40,15:10",
		"0:1,10:0",
		"0:1e3,1e2:5e-1",
		"0:10,5:11",
		"",
		"0:-0,1:0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var fn Func
		if err := fn.Parse(s); err != nil {
			return
		}
		if err := fn.Validate(); err != nil {
			t.Fatalf("Parse accepted %q but Validate says %v", s, err)
		}
		out := fn.String()
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("Format(%q) = %q does not parse: %v", s, out, err)
		}
		if !equal(fn, back) {
			t.Fatalf("round trip %q -> %q changed the function", s, out)
		}
		if out2 := back.String(); out2 != out {
			t.Fatalf("Format not stable: %q then %q", out, out2)
		}
		// Values stay within [0, start] and are 0 after the deadline.
		after := math.Nextafter(fn.Deadline(), math.Inf(1))
		for _, x := range []float64{0, fn.Deadline() / 3, fn.Deadline(), after} {
			v := fn.Value(x)
			if v < 0 || v > fn.Start() || math.IsNaN(v) {
				t.Fatalf("Value(%v) = %v outside [0, %v] for %q", x, v, fn.Start(), s)
			}
		}
		if fn.Value(after) != 0 {
			t.Fatalf("value after deadline not 0 for %q", s)
		}
	})
}

func TestNoAllocations(t *testing.T) {
	f := mustParse(t, "0:100,5:100,5.001:60,7:40,15:10")
	if n := testing.AllocsPerRun(100, func() { _ = f.Value(6) }); n != 0 {
		t.Errorf("Value allocates %v times", n)
	}
	buf := make([]byte, 0, 128)
	if n := testing.AllocsPerRun(100, func() { buf = f.AppendFormat(buf[:0]) }); n != 0 {
		t.Errorf("AppendFormat allocates %v times", n)
	}
	s := "0:100,5:100,5.001:60,7:40,15:10"
	if n := testing.AllocsPerRun(100, func() {
		if err := f.Parse(s); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Parse into a Func with capacity allocates %v times", n)
	}
}

func BenchmarkValue(b *testing.B) {
	f, _ := Parse("0:100,5:100,5.001:60,7:40,15:10")
	b.ReportAllocs()
	var sum float64
	for i := 0; b.Loop(); i++ {
		sum += f.Value(float64(i % 17))
	}
	_ = sum
}

func BenchmarkParse(b *testing.B) {
	s := "0:1234.5,600:1200,1800:800.25,3600:400,7200:0"
	var f Func
	b.ReportAllocs()
	for b.Loop() {
		if err := f.Parse(s); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleFunc_Value() {
	// Full value for 10 minutes, half after a jump at 10 min, nothing after 1 h.
	f, err := Parse("0:100,600:100,601:50,3600:0")
	if err != nil {
		panic(err)
	}
	for _, t := range []float64{0, 600, 601, 2100.5, 3600, 3601} {
		fmt.Println(t, f.Value(t))
	}
	// Output:
	// 0 100
	// 600 100
	// 601 50
	// 2100.5 25
	// 3600 0
	// 3601 0
}
