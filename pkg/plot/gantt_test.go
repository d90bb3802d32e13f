package plot

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// overlapFree checks that no two segments share a processor at a time and
// that every job got exactly its processors.
func overlapFree(t *testing.T, jobs []GanttJob, segs []segment) {
	t.Helper()
	got := map[int]int64{}
	for a, s := range segs {
		got[s.job] += s.hi - s.lo
		if s.lo < 0 || s.hi <= s.lo {
			t.Fatalf("segment %+v", s)
		}
		for _, r := range segs[a+1:] {
			ja, jb := jobs[s.job], jobs[r.job]
			timeOverlap := ja.Start < jb.End && jb.Start < ja.End
			procOverlap := s.lo < r.hi && r.lo < s.hi
			if timeOverlap && procOverlap {
				t.Fatalf("jobs %d and %d overlap: %+v %+v", s.job, r.job, s, r)
			}
		}
	}
	for j, n := range got {
		if n != jobs[j].Procs {
			t.Errorf("job %d got %d processors, wants %d", j, n, jobs[j].Procs)
		}
	}
}

func TestLayoutFirstFit(t *testing.T) {
	jobs := []GanttJob{
		{Start: 0, End: 10, Procs: 2},  // 0-1
		{Start: 0, End: 5, Procs: 1},   // 2
		{Start: 0, End: 10, Procs: 1},  // 3
		{Start: 5, End: 8, Procs: 2},   // 2 and 4: fragmented
		{Start: 10, End: 12, Procs: 4}, // 0-3 (ends at 10 free for a start at 10)
		{Start: 20, End: 20, Procs: 3}, // runtime 0: holds none, not drawn
	}
	segs := layout(jobs, 0, 100)
	overlapFree(t, jobs, segs)
	want := []segment{{0, 0, 2}, {1, 2, 3}, {2, 3, 4}, {3, 2, 3}, {3, 4, 5}, {4, 0, 4}}
	if len(segs) != len(want) {
		t.Fatalf("segments %v, want %v", segs, want)
	}
	for i := range want {
		if segs[i] != want[i] {
			t.Errorf("segment %d = %+v, want %+v", i, segs[i], want[i])
		}
	}
	// A window after the first jobs lays out only what runs in it.
	segs = layout(jobs, 9, 11)
	if len(segs) != 3 || segs[0].job != 0 || segs[2].job != 4 {
		t.Errorf("window [9,11): %v", segs)
	}
}

func TestLayoutRandomNoOverlap(t *testing.T) {
	var jobs []GanttJob
	x := uint64(42)
	next := func(n uint64) int64 { x = x*6364136223846793005 + 1442695040888963407; return int64((x >> 33) % n) }
	for i := 0; i < 300; i++ {
		s := next(1000)
		jobs = append(jobs, GanttJob{Start: s, End: s + 1 + next(100), Procs: 1 + next(16)})
	}
	overlapFree(t, jobs, layout(jobs, 0, 2000))
}

func TestGantt(t *testing.T) {
	jobs := []GanttJob{
		{Submit: 0, Start: 0, End: 7200, Procs: 3, Group: "SN"},
		{Submit: 100, Start: 4000, End: 9000, Procs: 2, Group: "LW"},   // waiting at 3600
		{Submit: 200, Start: 20000, End: 21000, Procs: 1, Group: "SN"}, // waiting, starts after the window
		{Submit: 0, Start: 0, End: 1000, Procs: 6, Group: "SW"},        // oversubscribes a 4-processor machine
	}
	d, err := NewGantt(Schedule{Label: "easy", Machine: 4, From: 0, To: 10800, Start: "t=0 s", Jobs: jobs, ColorBy: "category", Groups: Categories})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(d, "svg", Size{}, &buf); err != nil {
		t.Fatal(err)
	}
	checkValid(t, "svg", buf.Bytes())
	svg := buf.String()
	for _, s := range []string{"Schedule of easy from t=0 s (3 h)", "category SN", "category SW", "category LW", "machine: 4 processors"} {
		if !strings.Contains(svg, s) {
			t.Errorf("SVG lacks %q", s)
		}
	}
	if strings.Contains(svg, "category LN") {
		t.Error("legend lists a category with no job in the window")
	}
	// Counted from 3600 s, two jobs wait: one starts in the window.
	d, err = NewGantt(Schedule{Label: "easy", Machine: 4, From: 3600, To: 10800, Start: "t=3600 s", Jobs: jobs, ColorBy: "category"})
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	Write(d, "svg", Size{}, &buf)
	if !strings.Contains(buf.String(), "waiting at the start: 2 jobs") {
		t.Error("no waiting-jobs legend entry with the count")
	}
	// One schedule: the message names it, not "no input has data".
	if _, err := NewGantt(Schedule{Label: "x.swf", From: 50000, To: 60000, Jobs: jobs}); !errors.Is(err, ErrNoData) ||
		err.Error() != "no job of x.swf runs in the window, 50000 to 60000 s (a job of runtime 0 holds no processor)" {
		t.Errorf("empty window: %v, want ErrNoData naming x.swf", err)
	}
	if _, err := NewGantt(Schedule{Label: "x", From: 10, To: 10, Jobs: jobs}); err == nil {
		t.Error("window of length 0: no error")
	}
}

func TestGanttManyGroups(t *testing.T) {
	var jobs []GanttJob
	for i := 0; i < 15; i++ {
		jobs = append(jobs, GanttJob{Start: 0, End: int64(100 * (i + 1)), Procs: 1, Group: string(rune('a' + i))})
	}
	d, err := NewGantt(Schedule{Label: "u", Machine: 15, From: 0, To: 2000, Start: "t=0 s", Jobs: jobs, ColorBy: "user"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	Write(d, "svg", Size{}, &buf)
	svg := buf.String()
	// The largest groups by processor-seconds get colors; 5 are "other".
	if !strings.Contains(svg, "user o") || strings.Contains(svg, ">user a<") || !strings.Contains(svg, "5 other user values") {
		t.Errorf("legend does not keep the %d largest groups and count the rest", GanttColors)
	}
}

func TestBusiestWindow(t *testing.T) {
	jobs := []GanttJob{
		{Submit: 100, Start: 100, End: 200, Procs: 1},
		{Submit: 100, Start: 86400 + 150, End: 86400 + 50000, Procs: 2}, // day 1 from 100
		{Submit: 100, Start: 3 * 86400, End: 3*86400 + 10, Procs: 64},
	}
	from, ok := BusiestWindow(jobs, 86400)
	if !ok || from != 100+86400 {
		t.Errorf("BusiestWindow = %d, %v; want %d", from, ok, 100+86400)
	}
	if _, ok := BusiestWindow(nil, 86400); ok {
		t.Error("no jobs: ok")
	}
}

// On a busy log thousands of jobs wait at the window's start: the first 100
// to start are marked (then by processor) and the legend counts them all and
// says so; with 100 or fewer every one is marked.
func TestGanttWaitingMarksCapped(t *testing.T) {
	for _, n := range []int{maxWaitingMarks, 3 * maxWaitingMarks} {
		var jobs []GanttJob
		for i := range n {
			// one processor each, waiting since before the window, starting
			// one a minute in reverse order of their index
			jobs = append(jobs, GanttJob{Submit: 0, Start: 3600 + int64(60*(n-i)), End: 3600 + int64(60*(n-i)) + 30, Procs: 1, Group: "x"})
		}
		g := Schedule{Label: "busy", Machine: 8, From: 3600, To: 3600 + int64(60*(n+2)), Jobs: jobs}
		segs := layout(g.Jobs, g.From, g.To)
		marks, capped := waitingMarks(g, segs)
		if want := min(n, maxWaitingMarks); len(marks) != want || capped != (n > maxWaitingMarks) {
			t.Fatalf("%d waiting: %d marks (capped %v), want %d", n, len(marks), capped, want)
		}
		for i, m := range marks {
			if want := float64(60*(i+1)) / 3600; m.X != want {
				t.Fatalf("%d waiting: mark %d at %v h, want the %d-th to start, at %v h", n, i, m.X, i+1, want)
			}
		}
		d, err := NewGantt(g)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		Write(d, "svg", Size{}, &buf)
		if legend := fmt.Sprintf("waiting at the start: %d jobs", n); !strings.Contains(buf.String(), legend) {
			t.Errorf("%d waiting: no legend %q", n, legend)
		}
		if note := fmt.Sprintf("(the first %d to start marked)", maxWaitingMarks); strings.Contains(buf.String(), note) != capped {
			t.Errorf("%d waiting: legend line %q shown %v, want %v", n, note, !capped, capped)
		}
	}
}

// busiestWindowByDay is BusiestWindow as it was, window by window: the
// oracle of TestBusiestWindowRandom.
func busiestWindowByDay(jobs []GanttJob, length int64) int64 {
	origin := jobs[0].Submit
	for i := range jobs {
		origin = min(origin, jobs[i].Submit)
	}
	area := map[int64]float64{}
	for i := range jobs {
		j := &jobs[i]
		for w := (j.Start - origin) / length; w*length+origin < j.End; w++ {
			lo, hi := max(j.Start, origin+w*length), min(j.End, origin+(w+1)*length)
			area[w] += float64(hi-lo) * float64(j.Procs)
		}
	}
	best, bestArea := int64(0), -1.0
	for w, a := range area {
		if a > bestArea || (a == bestArea && w < best) {
			best, bestArea = w, a
		}
	}
	return origin + best*length
}

// TestBusiestWindowRandom: the windows found from the jobs' ends and ranges
// are those a walk over every window finds, on random jobs short and long
// (ties included: small whole numbers), and a job of 2^40 s is answered at
// once (the walk would visit 12.7 million days).
func TestBusiestWindowRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 3000; trial++ {
		length := int64(1 + rng.IntN(20))
		jobs := make([]GanttJob, 1+rng.IntN(6))
		for i := range jobs {
			submit := int64(rng.IntN(50))
			start := submit + int64(rng.IntN(30)) - 10 // some before their submit, and before the first
			jobs[i] = GanttJob{Submit: submit, Start: start, End: start + int64(rng.IntN(80)), Procs: int64(1 + rng.IntN(3))}
		}
		want := busiestWindowByDay(jobs, length)
		if got, ok := BusiestWindow(jobs, length); !ok || got != want {
			t.Fatalf("length %d, jobs %+v: BusiestWindow = %d, want %d", length, jobs, got, want)
		}
	}
	long := []GanttJob{{Submit: 0, Start: 0, End: 1 << 40, Procs: 4}, {Submit: 5, Start: 1 << 39, End: 1<<39 + 10, Procs: 1}}
	if got, _ := BusiestWindow(long, 86400); got != (1<<39)/86400*86400 {
		t.Errorf("a job of 2^40 s: BusiestWindow = %d, want the day of the second job, %d", got, (1<<39)/86400*86400)
	}
}
