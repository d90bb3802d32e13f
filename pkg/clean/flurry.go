package clean

import (
	"fmt"
	"math"
	"sort"

	"github.com/swfkit/swfkit/pkg/swf"
)

// FlurryConfig sets the flurry thresholds. The archive publishes no numeric
// threshold (Tsafrir & Feitelson, IPDPS 2006, judged flurries by eye); these
// defaults flag a user who submits at least 200 jobs and half of all
// submissions in a day. Zero values take the defaults.
type FlurryConfig struct {
	// Window is the window length in seconds (default 86400). The trace is cut
	// into consecutive windows twice: from the earliest submit time, and half a
	// window later.
	Window int64
	// MinJobs is the least number of the user's jobs in a window (default 200).
	MinJobs int
	// MinShare is the least share of the window's submissions (default 0.5).
	MinShare float64
}

// Flurry defaults.
const (
	DefaultFlurryWindow   = 86400
	DefaultFlurryMinJobs  = 200
	DefaultFlurryMinShare = 0.5
)

func (c FlurryConfig) withDefaults() FlurryConfig {
	if c.Window <= 0 {
		c.Window = DefaultFlurryWindow
	}
	if c.MinJobs <= 0 {
		c.MinJobs = DefaultFlurryMinJobs
	}
	if c.MinShare <= 0 {
		c.MinShare = DefaultFlurryMinShare
	}
	return c
}

// Flurry is one candidate flurry: overlapping or consecutive windows in which
// one user passed both thresholds.
type Flurry struct {
	User              int64
	FirstJob, LastJob int64 // smallest and largest job number of the user's jobs in the windows
	Start, End        int64 // first and last submit time of those jobs
	Jobs              int   // the user's jobs in the merged windows
	Total             int   // all jobs submitted in the merged windows
	// Span is the length in seconds of the merged windows Jobs and Total
	// are counted over (a window reaching past the last submission ends
	// just after it), not End - Start.
	Span      int64
	FirstLine int // input line of the user's first job in the flurry
}

// Share is the user's share of the submissions in the flurry's windows.
func (f Flurry) Share() float64 { return float64(f.Jobs) / float64(f.Total) }

// Filter returns the flurry in the archive's filter syntax: the jobs the
// flurries rule removes, and what --filter accepts to remove them again.
func (f Flurry) Filter() string {
	return fmt.Sprintf("user=%d and job>=%d and job<=%d", f.User, f.FirstJob, f.LastJob)
}

// FlurryDetector collects (submit, user, job) of every record and finds the
// flurries. It keeps 32 bytes per record with a known submit time and user.
type FlurryDetector struct {
	cfg    FlurryConfig
	points []flurryPoint
}

type flurryPoint struct {
	submit, user, job int64
	line              int
}

// NewFlurryDetector returns a detector with these thresholds.
func NewFlurryDetector(cfg FlurryConfig) *FlurryDetector {
	return &FlurryDetector{cfg: cfg.withDefaults()}
}

// Add records one job. Jobs with an unknown submit time or user are ignored.
func (d *FlurryDetector) Add(j *swf.Job) {
	if j.SubmitTime < 0 || j.UserID < 0 {
		return
	}
	d.points = append(d.points, flurryPoint{j.SubmitTime, j.UserID, j.JobNumber, j.Line})
}

// Flurries returns the candidate flurries ordered by start time.
//
// The windows form two grids, starting at the earliest submit time and half a
// window later, so that a burst shorter than half a window lies whole inside one
// window. A window passes for a user holding at least MinJobs of its
// submissions and at least MinShare of them; the passing windows of one user
// that overlap or touch merge into one flurry, whose counts are then taken over
// the merged span.
func (d *FlurryDetector) Flurries() []Flurry {
	pts := d.points
	sort.SliceStable(pts, func(a, b int) bool { return pts[a].submit < pts[b].submit })
	if len(pts) == 0 {
		return nil
	}
	spans := map[int64][]span{} // user -> passing windows
	w := d.cfg.Window
	for _, offset := range []int64{0, w - w/2} {
		// The second grid starts half a window after the earliest submit
		// time (rounded up for an odd window): the submissions before it
		// are in the first grid's first window, and a window of the second
		// grid reaching before them would judge shares over half a window
		// of the log.
		origin := pts[0].submit + offset
		first := 0 // the first submission in this grid
		for first < len(pts) && pts[first].submit < origin {
			first++
		}
		for lo := first; lo < len(pts); {
			win := (pts[lo].submit - origin) / w
			hi := lo
			counts := map[int64]int{}
			for hi < len(pts) && (pts[hi].submit-origin)/w == win {
				counts[pts[hi].user]++
				hi++
			}
			total := hi - lo
			for user, n := range counts {
				if n >= d.cfg.MinJobs && float64(n) >= d.cfg.MinShare*float64(total) {
					start := origin + win*w
					end := start + w
					if end < start { // a window longer than int64 leaves: it holds the rest of the trace
						end = math.MaxInt64
					}
					spans[user] = append(spans[user], span{start, end})
				}
			}
			lo = hi
		}
		if w/2 == 0 {
			break
		}
	}
	var out []Flurry
	for user, list := range spans {
		for _, sp := range mergeSpans(list) {
			out = append(out, d.measure(user, sp))
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Start != out[b].Start {
			return out[a].Start < out[b].Start
		}
		return out[a].User < out[b].User
	})
	return out
}

// span is a time interval [from, to).
type span struct{ from, to int64 }

// mergeSpans merges overlapping or touching intervals.
func mergeSpans(list []span) []span {
	sort.Slice(list, func(a, b int) bool { return list[a].from < list[b].from })
	merged := []span{list[0]}
	for _, sp := range list[1:] {
		last := &merged[len(merged)-1]
		if sp.from <= last.to {
			last.to = max(last.to, sp.to)
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// measure counts a user's flurry over a merged span of the sorted points.
func (d *FlurryDetector) measure(user int64, sp span) Flurry {
	pts := d.points
	lo := sort.Search(len(pts), func(i int) bool { return pts[i].submit >= sp.from })
	hi := sort.Search(len(pts), func(i int) bool { return pts[i].submit >= sp.to })
	f := Flurry{User: user, FirstJob: 1<<63 - 1, LastJob: -1 << 63, Start: -1, Total: hi - lo}
	f.Span = min(sp.to, pts[len(pts)-1].submit+1) - max(sp.from, pts[0].submit)
	for _, p := range pts[lo:hi] {
		if p.user != user {
			continue
		}
		f.Jobs++
		f.FirstJob = min(f.FirstJob, p.job)
		f.LastJob = max(f.LastJob, p.job)
		if f.Start < 0 {
			f.Start, f.FirstLine = p.submit, p.line
		}
		f.End = p.submit
	}
	return f
}

// flurryRemover drops every job of a flurry's user whose number lies in the
// flurry's job range, as the archive's flurry filters do, and notes each flurry
// in the archive's filter syntax.
type flurryRemover struct {
	flurries []Flurry
	removed  []int
}

func (f *flurryRemover) apply(j *swf.Job) verdict {
	for k, fl := range f.flurries {
		if j.UserID == fl.User && j.JobNumber >= fl.FirstJob && j.JobNumber <= fl.LastJob {
			f.removed[k]++
			return dropped
		}
	}
	return kept
}

// notes gives each flurry's filter with its counts; qualifier (Cleaner.
// inputNumbers) ends the parenthesis. Each count says the span it is taken
// over: the share over the merged windows (often more than a day), the
// user's first to last submission apart.
func (f *flurryRemover) notes(qualifier string) []string {
	var out []string
	for k, fl := range f.flurries {
		out = append(out, fmt.Sprintf("flurry %s (%s removed; in its windows, %d s, %d of %d submissions, %.0f%%, were the user's, first to last in %d s%s)",
			fl.Filter(), jobCount(f.removed[k]), fl.Span, fl.Jobs, fl.Total, 100*fl.Share(), fl.End-fl.Start, qualifier))
	}
	return out
}

// buildFlurries streams with the flurries of Config.Flurries (found by a first
// pass), or else finds them itself over the whole trace.
func buildFlurries(c *Cleaner) (step, error) {
	if c.cfg.Flurries != nil {
		f := &flurryRemover{flurries: *c.cfg.Flurries, removed: make([]int, len(*c.cfg.Flurries))}
		c.noteFuncs = append(c.noteFuncs, func() []string { return f.notes(c.inputNumbers()) })
		return step{job: f.apply}, nil
	}
	return step{trace: traceFunc(func(jobs []swf.Job, t *tracker) []swf.Job {
		d := NewFlurryDetector(c.cfg.Flurry)
		for i := range jobs {
			d.Add(&jobs[i])
		}
		f := &flurryRemover{flurries: d.Flurries()}
		f.removed = make([]int, len(f.flurries))
		c.noteFuncs = append(c.noteFuncs, func() []string { return f.notes(c.inputNumbers()) })
		return t.keep(jobs, func(_ int, j *swf.Job) bool { return f.apply(j) != dropped })
	})}, nil
}
