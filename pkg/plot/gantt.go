package plot

import (
	"cmp"
	"container/heap"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/swfkit/swfkit/pkg/printable"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// GanttJob is one job of a Gantt chart.
type GanttJob struct {
	Submit, Start, End int64 // seconds, trace time
	Procs              int64
	Group              string // what the job is colored by
}

// Schedule is the schedule of one trace over a window of time: processors on
// the y axis, time on the x axis, a job as a rectangle.
//
// SWF records no processor ids, so the y position of a job is a drawing
// choice: the jobs running in the window are laid out first fit in start
// order (ties in the order given), beginning with those already running at
// From; a job takes the lowest-numbered processors free at its start, as one
// rectangle, or several when the free processors are not contiguous. Its
// height is its processor count and its extent its run. A log whose jobs
// oversubscribe the machine draws them above the machine line.
type Schedule struct {
	Label    string
	Machine  int64 // processors; 0 when unknown (no machine line)
	From, To int64 // the window, seconds, From < To
	// Start describes From in the title (a date, or "t=N s").
	Start string
	Jobs  []GanttJob
	// ColorBy names what Group is ("user", "category", ...). Groups, when
	// given, fixes the legend order and each listed group's color (the
	// palette's color at its place in Groups, in every chart); other groups
	// follow by processor-seconds in the window with the colors left. At most
	// GanttColors groups get a color of their own; the rest are drawn grey as
	// "other".
	ColorBy string
	Groups  []string
}

// GanttColors is the number of groups a Gantt chart tells apart.
const GanttColors = 10

// palette is Tableau 10: distinguishable, and readable printed in grey.
var palette = []color.Color{
	color.RGBA{0x4e, 0x79, 0xa7, 255}, color.RGBA{0xf2, 0x8e, 0x2b, 255}, color.RGBA{0xe1, 0x57, 0x59, 255},
	color.RGBA{0x76, 0xb7, 0xb2, 255}, color.RGBA{0x59, 0xa1, 0x4f, 255}, color.RGBA{0xed, 0xc9, 0x48, 255},
	color.RGBA{0xb0, 0x7a, 0xa1, 255}, color.RGBA{0xff, 0x9d, 0xa7, 255}, color.RGBA{0x9c, 0x75, 0x5f, 255},
	color.RGBA{0x6b, 0x8e, 0xc9, 255},
}

var otherColor = color.RGBA{0xba, 0xb0, 0xac, 255}

// segment is a piece of a job on the contiguous processors [lo, hi).
type segment struct {
	job    int
	lo, hi int64
}

// EmptyWindowError is NewGantt's error when no job of the schedule runs in
// its window. It is an ErrNoData (errors.Is), with a message that names the
// one schedule rather than every input.
type EmptyWindowError struct {
	Label    string
	From, To int64
}

func (e *EmptyWindowError) Error() string {
	return fmt.Sprintf("no job of %s runs in the window, %d to %d s (a job of runtime 0 holds no processor)", printable.Label(e.Label), e.From, e.To)
}

// Is makes an EmptyWindowError an ErrNoData.
func (e *EmptyWindowError) Is(target error) bool { return target == ErrNoData }

// NewGantt draws the Gantt chart of a Schedule. Jobs outside the window and jobs of runtime 0
// (they hold no processor) are not drawn.
func NewGantt(g Schedule) (Drawer, error) {
	if g.From >= g.To {
		return nil, fmt.Errorf("plot: Gantt window [%d, %d) is empty", g.From, g.To)
	}
	segs := layout(g.Jobs, g.From, g.To)
	if len(segs) == 0 {
		return nil, &EmptyWindowError{Label: g.Label, From: g.From, To: g.To}
	}
	colors, legend := groupColors(g, segs)

	p := plot.New()
	hours := float64(g.To-g.From) / 3600
	title := []string{"Schedule of " + ShortLabel(g.Label), fmt.Sprintf("from %s (%s)", g.Start, formatHours(hours))}
	p.Title.Text = strings.Join(title, " ")
	p.X.Label.Text = "time since the window's start (h)"
	p.Y.Label.Text = "processors (first fit)"
	bars := &rects{list: make([]rect, 0, len(segs))}
	top := float64(g.Machine)
	for _, s := range segs {
		j := &g.Jobs[s.job]
		bars.list = append(bars.list, rect{
			x0: float64(max(j.Start, g.From)-g.From) / 3600, x1: float64(min(j.End, g.To)-g.From) / 3600,
			y0: float64(s.lo), y1: float64(s.hi), color: colors[j.Group]})
		top = math.Max(top, float64(s.hi))
	}
	if len(segs) < 3000 {
		bars.outline = draw.LineStyle{Color: white, Width: vg.Points(0.3)}
	}
	p.Add(bars)
	for _, e := range legend {
		p.Legend.Add(e.text, swatch{e.color})
	}
	if g.Machine > 0 {
		line, err := plotter.NewLine(plotter.XYs{{X: 0, Y: float64(g.Machine)}, {X: hours, Y: float64(g.Machine)}})
		if err != nil {
			return nil, err
		}
		line.Color, line.Dashes, line.Width = black, []vg.Length{vg.Points(3), vg.Points(2)}, vg.Points(0.8)
		p.Add(line)
		p.Legend.Add(fmt.Sprintf("machine: %d processors", g.Machine), line)
	}
	if marks, capped := waitingMarks(g, segs); len(marks) > 0 || waitingAtStart(g) > 0 {
		sc, err := plotter.NewScatter(marks)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: black, Radius: vg.Points(2.5), Shape: draw.TriangleGlyph{}}
		p.Add(sc)
		p.Legend.Add(fmt.Sprintf("waiting at the start: %d jobs", waitingAtStart(g)), sc)
		if capped {
			// A line of its own: the legend's width comes out of the chart's.
			p.Legend.Add(fmt.Sprintf("(the first %d to start marked)", maxWaitingMarks))
		}
	}
	p.X.Min, p.X.Max = 0, hours
	p.Y.Min, p.Y.Max = 0, math.Max(1, top)
	f := besideLegend(p)
	f.titleParts = title
	return f, nil
}

func formatHours(h float64) string {
	if h >= 48 {
		return fmt.Sprintf("%.4g days", h/24)
	}
	return fmt.Sprintf("%.4g h", h)
}

// waitingAtStart counts the jobs submitted before the window that start in
// it or after it.
func waitingAtStart(g Schedule) int {
	n := 0
	for i := range g.Jobs {
		if j := &g.Jobs[i]; j.Submit < g.From && j.Start >= g.From {
			n++
		}
	}
	return n
}

// maxWaitingMarks is the most jobs waiting at the window's start that get a
// marker: on a busy log thousands are, and their markers would hide the
// chart (the legend still counts them all).
const maxWaitingMarks = 100

// waitingMarks places a marker at the start of every job that was waiting
// at the window's start and starts inside it, the first maxWaitingMarks of
// them to start (then by processor); capped says whether more were left out.
func waitingMarks(g Schedule, segs []segment) (pts plotter.XYs, capped bool) {
	seen := map[int]bool{}
	for _, s := range segs {
		j := &g.Jobs[s.job]
		if j.Submit < g.From && j.Start >= g.From && !seen[s.job] {
			seen[s.job] = true
			pts = append(pts, plotter.XY{X: float64(j.Start-g.From) / 3600, Y: float64(s.lo)})
		}
	}
	if len(pts) > maxWaitingMarks {
		slices.SortStableFunc(pts, func(a, b plotter.XY) int {
			if c := cmp.Compare(a.X, b.X); c != 0 {
				return c
			}
			return cmp.Compare(a.Y, b.Y)
		})
		return pts[:maxWaitingMarks], true
	}
	return pts, false
}

type legendEntry struct {
	text  string
	color color.Color
}

// groupColors gives each group a color and returns the legend entries.
func groupColors(g Schedule, segs []segment) (map[string]color.Color, []legendEntry) {
	area := map[string]float64{}
	for _, s := range segs {
		j := &g.Jobs[s.job]
		area[j.Group] += float64(min(j.End, g.To)-max(j.Start, g.From)) * float64(s.hi-s.lo)
	}
	order := make([]string, 0, len(area))
	for _, grp := range g.Groups {
		if _, ok := area[grp]; ok {
			order = append(order, grp)
		}
	}
	var rest []string
	for grp := range area {
		if !slices.Contains(order, grp) {
			rest = append(rest, grp)
		}
	}
	slices.SortFunc(rest, func(a, b string) int {
		if c := cmp.Compare(area[b], area[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	order = append(order, rest...)
	// A group of g.Groups keeps the color of its place in that list whether
	// or not the others are in the window, so that one value has one color
	// in every chart (two inputs side by side, two windows); the other
	// groups take the colors left, by processor-seconds.
	colors := map[string]color.Color{}
	taken := make([]bool, len(palette))
	for i, grp := range g.Groups {
		if _, ok := area[grp]; ok && i < GanttColors {
			colors[grp] = palette[i]
			taken[i] = true
		}
	}
	free := 0
	var legend []legendEntry
	others := 0
	for _, grp := range order {
		c, fixed := colors[grp]
		if !fixed {
			for free < GanttColors && taken[free] {
				free++
			}
			if free >= GanttColors {
				colors[grp] = otherColor
				others++
				continue
			}
			c = palette[free]
			taken[free] = true
			colors[grp] = c
		}
		legend = append(legend, legendEntry{fmt.Sprintf("%s %s", g.ColorBy, grp), c})
	}
	if others > 0 {
		legend = append(legend, legendEntry{fmt.Sprintf("%d other %s values", others, g.ColorBy), otherColor})
	}
	return colors, legend
}

// interval is the free processors [lo, hi).
type interval struct{ lo, hi int64 }

// layout assigns processors to the jobs that run in [from, to): first fit in
// start order, from the lowest free processor. Processors beyond any machine
// size are free (a log that oversubscribes its machine is drawn as it ran).
func layout(jobs []GanttJob, from, to int64) []segment {
	var order []int
	for i := range jobs {
		j := &jobs[i]
		if j.Start < to && j.End > from && j.End > j.Start && j.Procs > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(jobs[a].Start, jobs[b].Start) })
	free := []interval{{0, math.MaxInt64}}
	running := &endHeap{jobs: jobs}
	var segs []segment
	for _, i := range order {
		for running.Len() > 0 && jobs[running.items[0].job].End <= jobs[i].Start {
			r := heap.Pop(running).(held)
			for _, s := range segs[r.first:r.last] {
				free = release(free, interval{s.lo, s.hi})
			}
		}
		first := len(segs)
		need := jobs[i].Procs
		k := 0
		for need > 0 {
			iv := &free[k]
			take := min(need, iv.hi-iv.lo)
			segs = append(segs, segment{job: i, lo: iv.lo, hi: iv.lo + take})
			iv.lo += take
			need -= take
			if iv.lo == iv.hi {
				k++
			}
		}
		free = free[k:]
		heap.Push(running, held{job: i, first: first, last: len(segs)})
	}
	return segs
}

// release returns [iv.lo, iv.hi) to the sorted free list, merging neighbours.
func release(free []interval, iv interval) []interval {
	k, _ := slices.BinarySearchFunc(free, iv.lo, func(f interval, lo int64) int { return cmp.Compare(f.lo, lo) })
	joinLeft := k > 0 && free[k-1].hi == iv.lo
	joinRight := k < len(free) && free[k].lo == iv.hi
	switch {
	case joinLeft && joinRight:
		free[k-1].hi = free[k].hi
		return slices.Delete(free, k, k+1)
	case joinLeft:
		free[k-1].hi = iv.hi
	case joinRight:
		free[k].lo = iv.lo
	default:
		return slices.Insert(free, k, iv)
	}
	return free
}

// held is a running job and its segments segs[first:last].
type held struct{ job, first, last int }

type endHeap struct {
	jobs  []GanttJob
	items []held
}

func (h *endHeap) Len() int { return len(h.items) }
func (h *endHeap) Less(a, b int) bool {
	return h.jobs[h.items[a].job].End < h.jobs[h.items[b].job].End
}
func (h *endHeap) Swap(a, b int) { h.items[a], h.items[b] = h.items[b], h.items[a] }
func (h *endHeap) Push(x any)    { h.items = append(h.items, x.(held)) }
func (h *endHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// floorDiv is a/b rounded down (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// BusiestWindow returns the start of the window of the given length, among
// consecutive windows from the first submit, in which the jobs used the most
// processor-seconds (the earliest of equals). ok is false without jobs.
//
// A job adds a part of a window at each end of its run and whole windows in
// between, kept as a range (one start and one end event), so that the cost
// follows the jobs, not the span: a job of 2^40 s covers 12.7 million days.
// Between events the whole windows' sum is constant and it rises only where
// a range starts, so the busiest window is a window with a part or the first
// window of a range.
func BusiestWindow(jobs []GanttJob, length int64) (from int64, ok bool) {
	if len(jobs) == 0 || length <= 0 {
		return 0, false
	}
	origin := jobs[0].Submit
	for i := range jobs {
		origin = min(origin, jobs[i].Submit)
	}
	// Sums of whole numbers of processor-seconds: exact in float64 below
	// 2^53, whatever their order.
	part := map[int64]float64{}
	type event struct {
		w    int64
		area float64 // a whole window's processor-seconds, + from w on, - from w on
	}
	var events []event
	for i := range jobs {
		j := &jobs[i]
		if j.End <= j.Start {
			if w := (j.Start - origin) / length; origin+w*length < j.End {
				part[w] += float64(j.End-j.Start) * float64(j.Procs)
			}
			continue
		}
		// The windows from the one holding the start (divided toward zero:
		// a start before the first submit counts from window 0 or -1 on,
		// the time before that window's start left out) to the last that
		// starts before the end.
		first := (j.Start - origin) / length
		start := max(j.Start, origin+first*length)
		last := floorDiv(j.End-1-origin, length)
		if last < first {
			continue
		}
		procs := float64(j.Procs)
		if first == last {
			part[first] += float64(j.End-start) * procs
			continue
		}
		part[first] += float64(origin+(first+1)*length-start) * procs
		part[last] += float64(j.End-(origin+last*length)) * procs
		if first+1 < last {
			whole := float64(length) * procs
			events = append(events, event{first + 1, whole}, event{last, -whole})
		}
	}
	cands := make([]int64, 0, len(part)+len(events)/2)
	for w := range part {
		cands = append(cands, w)
	}
	for _, e := range events {
		if e.area > 0 {
			cands = append(cands, e.w)
		}
	}
	if len(cands) == 0 {
		return origin, true
	}
	slices.Sort(cands)
	slices.SortFunc(events, func(a, b event) int { return cmp.Compare(a.w, b.w) })
	best, bestArea := int64(0), -1.0
	whole, k := 0.0, 0
	for _, w := range cands {
		for ; k < len(events) && events[k].w <= w; k++ {
			whole += events[k].area
		}
		if a := whole + part[w]; a > bestArea {
			best, bestArea = w, a
		}
	}
	return origin + best*length, true
}
