package schedcheck

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// Options says what to check.
type Options struct {
	// Procs is the machine size.
	Procs int64
	// NoKill: the run let jobs pass their estimates.
	NoKill bool
	// Skipped is the number of input jobs the simulator reported skipped.
	Skipped int
	// FCFS checks that jobs start in arrival order.
	FCFS bool
	// EASY checks the EASY shadow-time guarantee; it needs exact estimates.
	EASY bool
	// Conservative checks the first-reservation guarantee; it needs exact
	// estimates of at least 1 s.
	Conservative bool
	// MaxErrors caps the violations reported (default 10).
	MaxErrors int
}

// Violations is the error Check returns: the first violations found and how
// many there were in all.
type Violations struct {
	List  []string
	Total int
}

func (v *Violations) Error() string {
	s := fmt.Sprintf("%d schedule violations", v.Total)
	if v.Total == 1 {
		s = "1 schedule violation"
	}
	return s + ":\n  " + strings.Join(v.List, "\n  ")
}

// ErrNotExact says a guarantee check was asked for on inexact estimates.
var ErrNotExact = errors.New("schedcheck: the easy and conservative guarantees hold only with exact estimates (field 9 = field 4, and >= 1 s for conservative)")

// job is one scheduled job as the checker sees it.
type job struct {
	in       int // index in the input
	number   int64
	submit   int64
	start    int64
	end      int64
	procs    int64
	estimate int64
}

type checker struct {
	opt  Options
	errs Violations
	jobs []job // output jobs, in input order
}

func (c *checker) fail(format string, args ...any) {
	c.errs.Total++
	if len(c.errs.List) < c.opt.MaxErrors {
		c.errs.List = append(c.errs.List, fmt.Sprintf(format, args...))
	}
}

func procsOf(j *swf.Job) int64 {
	if j.RequestedProcs > 0 {
		return j.RequestedProcs
	}
	return j.AllocatedProcs
}

func estimateOf(j *swf.Job) int64 {
	if j.RequestedTime > 0 {
		return j.RequestedTime
	}
	return j.RunTime
}

// Check verifies the schedule out (the simulator's output records) against
// in (the input records). It returns nil, a *Violations, or ErrNotExact.
func Check(in, out []swf.Job, opt Options) error {
	if opt.MaxErrors <= 0 {
		opt.MaxErrors = 10
	}
	c := &checker{opt: opt}
	c.match(in, out)
	if (opt.EASY || opt.Conservative) && !exact(in, opt.Conservative) {
		return ErrNotExact
	}
	c.capacity()
	if opt.FCFS {
		c.fcfs()
	}
	if opt.EASY {
		c.easy()
	}
	if opt.Conservative {
		c.conservative()
	}
	if c.errs.Total > 0 {
		return &c.errs
	}
	return nil
}

func exact(in []swf.Job, positive bool) bool {
	for i := range in {
		j := &in[i]
		if j.RunTime < 0 {
			continue // skipped
		}
		if estimateOf(j) != j.RunTime || (positive && j.RunTime < 1) {
			return false
		}
	}
	return true
}

// match pairs output records with input records (the output is the input in
// order, minus skipped jobs) and checks each pair.
func (c *checker) match(in, out []swf.Job) {
	if len(out)+c.opt.Skipped != len(in) {
		c.fail("%d input jobs, %d output jobs and %d skipped", len(in), len(out), c.opt.Skipped)
	}
	k := 0
	for o := range out {
		oj := &out[o]
		for k < len(in) && !(in[k].JobNumber == oj.JobNumber && in[k].SubmitTime == oj.SubmitTime) {
			k++
		}
		if k == len(in) {
			c.fail("output job %d (line %d) matches no remaining input job", oj.JobNumber, oj.Line)
			return
		}
		c.pair(k, &in[k], oj)
		k++
	}
}

func (c *checker) pair(k int, ij, oj *swf.Job) {
	for f := 1; f <= swf.NumFields; f++ {
		if f == swf.FieldWaitTime || f == swf.FieldRunTime || f == swf.FieldStatus {
			continue
		}
		if ij.Field(f) != oj.Field(f) {
			c.fail("job %d: field %d changed from %v to %v", oj.JobNumber, f, ij.Field(f), oj.Field(f))
		}
	}
	if oj.WaitTime < 0 {
		c.fail("job %d starts %d s before it is submitted", oj.JobNumber, -oj.WaitTime)
	}
	e := estimateOf(ij)
	killed, _ := oj.ExtraValue("killed")
	switch {
	case !c.opt.NoKill && ij.RunTime > e:
		if oj.RunTime != e || oj.Status != 0 || killed != "1" {
			c.fail("job %d runs past its estimate %d: want runtime %d, status 0, killed=1; got %d, %d, %q",
				oj.JobNumber, e, e, oj.RunTime, oj.Status, killed)
		}
	case oj.RunTime != ij.RunTime || killed != "":
		c.fail("job %d: runtime %d (killed=%q), want %d", oj.JobNumber, oj.RunTime, killed, ij.RunTime)
	}
	p := procsOf(ij)
	if p < 1 || p > c.opt.Procs {
		c.fail("job %d needs %d processors on a machine of %d but was scheduled", oj.JobNumber, p, c.opt.Procs)
	}
	start := oj.SubmitTime + oj.WaitTime
	c.jobs = append(c.jobs, job{in: k, number: oj.JobNumber, submit: oj.SubmitTime,
		start: start, end: start + oj.RunTime, procs: p, estimate: e})
}

// capacity sweeps start and end events; at equal times ends come first.
func (c *checker) capacity() {
	type ev struct{ t, d int64 }
	evs := make([]ev, 0, 2*len(c.jobs))
	for _, j := range c.jobs {
		if j.end > j.start {
			evs = append(evs, ev{j.start, j.procs}, ev{j.end, -j.procs})
		}
	}
	sort.Slice(evs, func(a, b int) bool {
		if evs[a].t != evs[b].t {
			return evs[a].t < evs[b].t
		}
		return evs[a].d < evs[b].d
	})
	var used int64
	for _, e := range evs {
		used += e.d
		if used > c.opt.Procs {
			c.fail("at time %d, %d processors are in use on a machine of %d", e.t, used, c.opt.Procs)
			return
		}
	}
}

// arrival returns the jobs in arrival order: submit time, then input order.
func (c *checker) arrival() []job {
	a := append([]job(nil), c.jobs...)
	sort.SliceStable(a, func(x, y int) bool { return a[x].submit < a[y].submit })
	return a
}

func (c *checker) fcfs() {
	a := c.arrival()
	for i := 1; i < len(a); i++ {
		if a[i].start < a[i-1].start {
			c.fail("fcfs: job %d (submit %d) starts at %d, before job %d (submit %d) at %d",
				a[i].number, a[i].submit, a[i].start, a[i-1].number, a[i-1].submit, a[i-1].start)
		}
	}
}

// easy: when a job becomes the queue head (all jobs that arrived before it have
// started) and does not start then, its shadow time is the earliest end of the
// jobs running then at which enough processors are free. With exact estimates
// EASY starts it no later. Head times never decrease along the arrival order,
// so one sweep over the jobs by start time keeps the running set.
func (c *checker) easy() {
	a := c.arrival()
	byStart := append([]job(nil), c.jobs...)
	sort.Slice(byStart, func(x, y int) bool { return byStart[x].start < byStart[y].start })
	var active []job
	next := 0
	var lastStart int64 = -1 << 62
	for _, j := range a {
		t0 := max(j.submit, lastStart)
		lastStart = max(lastStart, j.start)
		if j.start <= t0 {
			continue
		}
		for next < len(byStart) && byStart[next].start <= t0 {
			active = append(active, byStart[next])
			next++
		}
		w := active[:0]
		for _, r := range active {
			if r.end > t0 {
				w = append(w, r)
			}
		}
		active = w
		run := append([]job(nil), active...)
		sort.Slice(run, func(x, y int) bool { return run[x].end < run[y].end })
		free := c.opt.Procs
		for _, r := range run {
			free -= r.procs
		}
		shadow := t0
		for i := 0; free < j.procs && i < len(run); i++ {
			free += run[i].procs
			shadow = run[i].end
		}
		if j.start > shadow {
			c.fail("easy: job %d became the queue head at %d with shadow time %d but starts at %d",
				j.number, t0, shadow, j.start)
		}
	}
}

// conservative: job j's first reservation is the earliest time from its
// submit time at which its processors are free for its estimate, given the
// intervals of the jobs that arrived before it and had not ended by then.
// With exact estimates those intervals are their scheduled ones. The jobs
// that ended by then need not be taken out: from the submit time on, an
// interval that ended before it frees and takes nothing, so the oracle
// (freeTree) holds every earlier arrival's interval.
func (c *checker) conservative() {
	times := make([]int64, 0, 3*len(c.jobs))
	for _, j := range c.jobs {
		times = append(times, j.submit, j.start, j.end)
	}
	free := newFreeTree(times, c.opt.Procs)
	for _, j := range c.arrival() {
		r := free.earliestFit(j.submit, j.estimate, j.procs)
		if j.start > r {
			c.fail("conservative: job %d got its first reservation at %d but starts at %d", j.number, r, j.start)
		}
		free.add(j.start, j.end, -j.procs)
	}
}

// SkippedFromHeader sums the counts in the simulator's skip notes
// ("; Note: swfsim skipped N jobs: reason").
func SkippedFromHeader(h *swf.Header) int {
	n := 0
	for _, v := range h.GetAll("Note") {
		if rest, ok := strings.CutPrefix(v, "swfsim skipped "); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				if k, err := strconv.Atoi(f[0]); err == nil {
					n += k
				}
			}
		}
	}
	return n
}

// ReadAll reads every record of an SWF stream.
func ReadAll(r io.Reader, name string) (*swf.Header, []swf.Job, error) {
	rd := swf.NewReader(r)
	rd.Name = name
	h, err := rd.Header()
	if err != nil {
		return nil, nil, err
	}
	var jobs []swf.Job
	for {
		j, err := rd.Read()
		if err == io.EOF {
			return h, jobs, nil
		}
		if err != nil {
			return nil, nil, err
		}
		jobs = append(jobs, j)
	}
}
