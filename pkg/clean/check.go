package clean

import (
	"strings"
	"time"

	"github.com/swfkit/swfkit/pkg/swf"
)

// MaxExampleLines is how many line numbers a check result keeps per anomaly.
const MaxExampleLines = 5

// CommonLabels are the header labels --check warns about when missing.
var CommonLabels = []string{
	"Version", "Computer", "Installation", "Acknowledge", "Information", "Conversion",
	"MaxJobs", "MaxRecords", "Preemption", "UnixStartTime", "TimeZoneString",
	"StartTime", "EndTime", "MaxNodes", "MaxProcs",
}

// Fired is one anomaly that fired, with its count and the first few line numbers.
type Fired struct {
	Anomaly
	Count int
	Lines []int
}

// CheckResult is what a Checker found.
type CheckResult struct {
	Records      int   // records checked
	DistinctJobs int   // distinct job numbers
	MinJob       int64 // smallest job number (0 when no records)
	MaxJob       int64 // largest job number
	FirstSubmit  int64 // smallest submit time >= 0, -1 when none
	LastSubmit   int64 // largest submit time, -1 when none
	LargestProcs int64 // largest allocated or requested processor count
	LargestLine  int   // line of the largest job
	// Machine is the machine size used by the size checks (MaxProcs, else
	// MaxNodes), 0 when the header gives neither; MachineLabel names its source.
	Machine      int64
	MachineLabel string
	// Fired lists the anomalies with a non-zero count, in Anomalies order.
	Fired []Fired
	// MissingLabels lists the CommonLabels absent from the header.
	MissingLabels []string
	// Malformed lists the labels header_malformed counts, in header order.
	Malformed []MalformedLabel
}

// Failing returns the number of fired anomalies that are not Info.
func (r *CheckResult) Failing() int {
	n := 0
	for _, f := range r.Fired {
		if !f.Info {
			n++
		}
	}
	return n
}

// Checker runs every anomaly check over a stream of records. Its memory does not
// depend on the number of records except for the set of job numbers seen (for
// job_duplicate and MaxJobs), one bit per job number up to 2^26.
type Checker struct {
	hdr        *swf.Header
	machine    int64
	machineLbl string
	maxRuntime int64
	preemption bool

	counts [numAnomalies]int
	lines  [numAnomalies][]int

	records    int
	seen       jobSet
	distinct   int
	minJob     int64
	maxJob     int64
	prevSubmit int64
	firstSub   int64
	lastSub    int64
	largest    int64
	largestAt  int
	fireLine   int
	malformed  []MalformedLabel
}

// MalformedLabel is a header label whose value the format does not allow
// (CheckHeaderValue): header_malformed, with its line and why.
type MalformedLabel struct {
	Line  int
	Label string
	Why   string
}

// NewChecker returns a Checker for a trace with this header. Malformed values of
// the labels it reads are reported as header_malformed, not returned as errors.
func NewChecker(hdr *swf.Header) *Checker {
	if hdr == nil {
		hdr = &swf.Header{}
	}
	c := &Checker{hdr: hdr, prevSubmit: -1, firstSub: -1, lastSub: -1}
	// A value --set would refuse (CheckHeaderValue) is header_malformed,
	// at the label's first line: the one tools read.
	checked := map[string]bool{}
	for _, l := range hdr.Lines {
		key := strings.ToLower(l.Label)
		if l.Continuation || l.Label == "" || checked[key] {
			continue
		}
		checked[key] = true
		if err := CheckHeaderValue(l.Label, l.Value); err != nil {
			c.fireLine = l.Line
			c.fire(aHeaderMalformed)
			c.malformed = append(c.malformed, MalformedLabel{Line: l.Line, Label: l.Label, Why: err.Error()})
		}
	}
	headerInt := func(label string) int64 {
		v, ok, err := hdr.Int(label)
		if err != nil || !ok {
			return 0
		}
		return v
	}
	if v := headerInt("MaxProcs"); v > 0 {
		c.machine, c.machineLbl = v, "MaxProcs"
	}
	if v := headerInt("MaxNodes"); v > 0 && c.machine == 0 {
		c.machine, c.machineLbl = v, "MaxNodes"
	}
	c.maxRuntime = headerInt("MaxRuntime")
	p := strings.ToLower(hdr.Preemption())
	c.preemption = p != "" && p != "no"
	c.checkTimes()
	c.checkTwice()
	return c
}

// checkTwice fires header_label_twice on each later line of a label the
// format gives once.
func (c *Checker) checkTwice() {
	seen := map[string]bool{}
	for _, l := range c.hdr.Lines {
		if l.Continuation || l.Label == "" || !swf.IsFormatLabel(l.Label) || swf.IsRepeatable(l.Label) {
			continue
		}
		key := strings.ToLower(l.Label)
		if seen[key] {
			c.fireLine = l.Line
			c.fire(aHeaderTwice)
		}
		seen[key] = true
	}
}

// headerLine returns the input line number of the first line with label.
func (c *Checker) headerLine(label string) int {
	for _, l := range c.hdr.Lines {
		if !l.Continuation && strings.EqualFold(l.Label, label) {
			return l.Line
		}
	}
	return 0
}

func (c *Checker) fireHeader(a int, label string) {
	c.fireLine = c.headerLine(label)
	c.fire(a)
}

func (c *Checker) fire(a int) {
	c.counts[a]++
	if len(c.lines[a]) < MaxExampleLines {
		c.lines[a] = append(c.lines[a], c.fireLine)
	}
}

// checkTimes compares StartTime and EndTime when both parse as date(1) output.
// Zone abbreviations are not resolved, so 2 h of slack covers DST changes.
func (c *Checker) checkTimes() {
	start, ok1 := c.hdr.Get("StartTime")
	end, ok2 := c.hdr.Get("EndTime")
	if !ok1 || !ok2 {
		return
	}
	t0, _, err1 := swf.ParseDate(start, time.UTC)
	t1, _, err2 := swf.ParseDate(end, time.UTC)
	if err1 != nil || err2 != nil {
		return
	}
	if t0.Sub(t1) > 2*time.Hour {
		c.fireHeader(aHeaderTimeOrder, "StartTime")
	}
}

// Check runs the per-record checks on one record.
func (c *Checker) Check(j *swf.Job) {
	c.records++
	c.fireLine = j.Line
	c.jobChecks(j)
	// Unknown submit times are submit_undef's business, not an order problem.
	if j.SubmitTime >= 0 && j.SubmitTime < c.prevSubmit {
		c.fire(aSubmitOrder)
	}
	if j.SubmitTime >= 0 {
		c.prevSubmit = j.SubmitTime
		if c.firstSub < 0 || j.SubmitTime < c.firstSub {
			c.firstSub = j.SubmitTime
		}
		if j.SubmitTime > c.lastSub {
			c.lastSub = j.SubmitTime
		}
	}
	if c.seen.add(j.JobNumber) {
		c.distinct++
	} else if !isPartial(j) {
		c.fire(aJobDuplicate)
	}
	if c.records == 1 || j.JobNumber < c.minJob {
		c.minJob = j.JobNumber
	}
	if c.records == 1 || j.JobNumber > c.maxJob {
		c.maxJob = j.JobNumber
	}
	procs := max(j.AllocatedProcs, j.RequestedProcs)
	if procs > c.largest {
		c.largest, c.largestAt = procs, j.Line
	}
}

// isMalformed reports whether header_malformed fired on label.
func (c *Checker) isMalformed(label string) bool {
	for _, m := range c.malformed {
		if strings.EqualFold(m.Label, label) {
			return true
		}
	}
	return false
}

// Result finishes the header consistency checks and returns what was found.
// Call it once, after the last record.
func (c *Checker) Result() *CheckResult {
	if v, ok, err := c.hdr.MaxJobs(); ok && err == nil && v != int64(c.distinct) && v != c.maxJob {
		c.fireHeader(aHeaderMaxJobs, "MaxJobs")
	}
	if v, ok, err := c.hdr.MaxRecords(); ok && err == nil && v != int64(c.records) {
		c.fireHeader(aHeaderMaxRecords, "MaxRecords")
	}
	// A malformed MaxProcs (0, -8) is no machine size (header_malformed
	// says so): the largest job is not compared with it.
	if v, ok, err := c.hdr.MaxProcs(); ok && err == nil && !c.isMalformed("MaxProcs") && c.largest > v {
		c.fireHeader(aHeaderMaxProcs, "MaxProcs")
	}
	r := &CheckResult{
		Records: c.records, DistinctJobs: c.distinct, MinJob: c.minJob, MaxJob: c.maxJob,
		FirstSubmit: c.firstSub, LastSubmit: c.lastSub,
		LargestProcs: c.largest, LargestLine: c.largestAt,
		Machine: c.machine, MachineLabel: c.machineLbl, Malformed: c.malformed,
	}
	for a := 0; a < numAnomalies; a++ {
		if c.counts[a] > 0 {
			r.Fired = append(r.Fired, Fired{Anomaly: Anomalies[a], Count: c.counts[a], Lines: c.lines[a]})
		}
	}
	for _, label := range CommonLabels {
		if _, ok := c.hdr.Get(label); !ok {
			r.MissingLabels = append(r.MissingLabels, label)
		}
	}
	return r
}

// jobSet is a set of job numbers: a bitmap for numbers in [0, 2^26), a map for
// the rare others, so memory is one bit per job number in real traces.
type jobSet struct {
	bits  []uint64
	other map[int64]struct{}
}

const jobSetDense = 1 << 26

// has reports whether n is in the set.
func (s *jobSet) has(n int64) bool {
	if n >= 0 && n < jobSetDense {
		w := int(n >> 6)
		return w < len(s.bits) && s.bits[w]&(uint64(1)<<(n&63)) != 0
	}
	_, ok := s.other[n]
	return ok
}

// add inserts n and reports whether it was new.
func (s *jobSet) add(n int64) bool {
	if n >= 0 && n < jobSetDense {
		w := int(n >> 6)
		if w >= len(s.bits) {
			grown := make([]uint64, max(w+1, 2*len(s.bits)))
			copy(grown, s.bits)
			s.bits = grown
		}
		mask := uint64(1) << (n & 63)
		if s.bits[w]&mask != 0 {
			return false
		}
		s.bits[w] |= mask
		return true
	}
	if s.other == nil {
		s.other = make(map[int64]struct{})
	}
	if _, ok := s.other[n]; ok {
		return false
	}
	s.other[n] = struct{}{}
	return true
}
