package clean_test

// A second, deliberately simple model of swfclean's --check and cleaning,
// written from docs/swfclean.md, README.md, the SWF notes and the exported doc
// comments of pkg/clean only, without reading the package's unexported code.
// It exists to be compared with the real tool (crosscheck_test.go), as
// pkg/policy/reference_test.go does for the schedulers: plain loops over
// whole slices, no streaming, no bitmaps.
//
// Readings the model takes where the docs are silent or read two ways (the
// tests say where one mattered):
//   - "known" for the comparisons of two fields (proc_got_less/more,
//     run_got_more, got_more_mem, cpu_gt_run): a run time or CPU time >= 0;
//     a value of fields 5, 7, 8, 9, 10 > 0, since 0 there is what the archive
//     writes as -1 (zero_to_unknown). The model first took >= 0 everywhere and
//     the tool disagreed on 0 (proc_got_less with field 5 = 0, run_got_more
//     with field 9 = 0): the page says only "both known".
//   - submit_order compares with the previous record whose submit time is
//     known (>= 0), as the Anomalies summary says ("the previous known one");
//     the page's table says "the previous record's".
//   - job_duplicate: a number is "seen" on any record, partial or not.
//   - header checks count 1 and report the line of the label they read.
//   - runtime_from_cpu: "unknown" is -1 only, and a negative field 6 gives
//     nothing (the model first took any negative run time; the tool fills
//     only -1). cancelled_unstarted: "0 or unknown" is any run time <= 0.
//     The default rules run negative_to_unknown first, so only a rule alone
//     can tell.
//   - estimate_from_runtime copies only a run time above 0: the model
//     first copied -1 too (field 9 = 0 became -1); the tool leaves field 9
//     as it is when the run time is unknown or 0 (a requested time of 0 is
//     run_req_zero).
//   - sort_submit's "changed" counts the records whose submit time is below
//     the previous record's (the breaks in the order); the page does not say
//     what it counts for a rule that changes no field (the model first
//     counted 0, then the records that moved, 16 where the tool says 4).
//   - renumber: a job number on several lines (partial executions, or a
//     duplicate) gets one new number, that of its first line; the page says
//     "1..N in output order" and is silent on repeated numbers (the model first
//     gave every line its own number; the tool gives the job's).
//   - renumber treats field 17 <= 0 as no reference and keeps it as it is
//     (0 and -2 stay, with their think time), even where a job 0 was
//     written before; the page says only "a reference to a job not written
//     before becomes -1". SWF job numbers start at 1, so the model follows.
//   - anonymize leaves every negative id as it is, not only -1 (the page:
//     "-1 stays"; a negative id other than -1 is no id the format allows;
//     the model first renumbered it, the tool keeps it).
//   - merge_partial: a part's negative run time or field 6 adds nothing (is
//     unknown); when no part's run time is known the first part's value stays
//     (-61 stays -61), but when no part's field 6 is known it becomes -1
//     (-61 becomes -1). The page says "-1 stays when no part is known" for
//     both and is silent on negatives other than -1 (merge_partial runs
//     before negative_to_unknown, so only the rule alone shows it).
//   - flurries: a window is [start, start+window); the second grid starts
//     half a window later, exactly (W/2 with its half second for an odd W,
//     so at earliest + ceil(W/2) for whole-second times). The model first
//     took the integer division W/2, and the tool disagreed on W = 101 (a
//     job at earliest+2626 s, hand-checked in the page's reading).

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

// --- checks -----------------------------------------------------------------

type modelFired struct {
	Count int
	Lines []int
}

type modelCheck struct {
	Fired        map[string]*modelFired
	Records      int
	DistinctJobs int
	MinJob       int64
	MaxJob       int64
	FirstSubmit  int64
	LastSubmit   int64
	LargestProcs int64
	Machine      int64
	Missing      []string
}

func (m *modelCheck) fire(name string, line int) {
	f := m.Fired[name]
	if f == nil {
		f = &modelFired{}
		m.Fired[name] = f
	}
	f.Count++
	if len(f.Lines) < 5 {
		f.Lines = append(f.Lines, line)
	}
}

// leadingInt reads the integer a header value starts with ("128 (64 nodes)").
func leadingInt(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	digits := end
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == digits {
		return 0, false
	}
	v, err := strconv.ParseInt(s[:end], 10, 64)
	return v, err == nil
}

// headerLabel returns the first line with this label (case-insensitive).
func headerLabel(h *swf.Header, label string) (swf.HeaderLine, bool) {
	for _, l := range h.Lines {
		if !l.Continuation && strings.EqualFold(l.Label, label) {
			return l, true
		}
	}
	return swf.HeaderLine{}, false
}

var commonLabels = []string{"Version", "Computer", "Installation", "Acknowledge",
	"Information", "Conversion", "MaxJobs", "MaxRecords", "Preemption",
	"UnixStartTime", "TimeZoneString", "StartTime", "EndTime", "MaxNodes", "MaxProcs"}

func known(v int64) bool { return v >= 0 }

// modelRunChecks is the --check table of docs/swfclean.md, record by record.
func modelRunChecks(h *swf.Header, jobs []swf.Job) *modelCheck {
	m := &modelCheck{Fired: map[string]*modelFired{}, FirstSubmit: -1, LastSubmit: -1}
	ints := map[string]int64{}
	for _, label := range []string{"MaxProcs", "MaxNodes", "MaxJobs", "MaxRecords", "MaxRuntime", "UnixStartTime"} {
		if l, ok := headerLabel(h, label); ok {
			if v, ok := leadingInt(l.Value); ok {
				ints[label] = v
			} else {
				m.fire("header_malformed", l.Line)
			}
		}
	}
	// The zones of the IANA database that the archive traces and the random
	// ones name; the random traces' other values name none.
	if l, ok := headerLabel(h, "TimeZoneString"); ok {
		switch strings.TrimSpace(l.Value) {
		case "UTC", "Europe/Stockholm", "Europe/London", "US/Mountain", "US/Pacific", "Asia/Tokyo":
		default:
			m.fire("header_malformed", l.Line)
		}
	}
	if v, ok := ints["MaxProcs"]; ok {
		m.Machine = v
	} else if v, ok := ints["MaxNodes"]; ok {
		m.Machine = v
	}
	preemption := ""
	if l, ok := headerLabel(h, "Preemption"); ok {
		preemption = l.Value
	}
	noPreemption := preemption == "" || strings.EqualFold(preemption, "No")
	maxRuntime, hasMaxRuntime := ints["MaxRuntime"]

	seen := map[int64]bool{}
	prevSubmit := int64(-1)
	for i := range jobs {
		j := &jobs[i]
		line := j.Line
		m.Records++
		if i == 0 || j.JobNumber < m.MinJob {
			m.MinJob = j.JobNumber
		}
		if i == 0 || j.JobNumber > m.MaxJob {
			m.MaxJob = j.JobNumber
		}
		if j.SubmitTime >= 0 && (m.FirstSubmit < 0 || j.SubmitTime < m.FirstSubmit) {
			m.FirstSubmit = j.SubmitTime
		}
		if j.SubmitTime > m.LastSubmit {
			m.LastSubmit = j.SubmitTime
		}
		for _, p := range []int64{j.AllocatedProcs, j.RequestedProcs} {
			if p > m.LargestProcs {
				m.LargestProcs = p
			}
		}
		partial := j.Status == 2 || j.Status == 3 || j.Status == 4
		if j.SubmitTime < 0 {
			m.fire("submit_undef", line)
		}
		if j.WaitTime == -1 {
			m.fire("start_undef", line)
		}
		if j.RunTime == -1 {
			m.fire("end_undef", line)
		}
		if j.WaitTime < -1 {
			m.fire("wait_neg", line)
		}
		if j.WaitTime < -60 {
			m.fire("wait_neg_big", line)
		}
		if j.WaitTime < -3900 {
			m.fire("wait_neg_huge", line)
		}
		if j.RunTime < -1 {
			m.fire("run_neg", line)
		}
		if j.RunTime < -60 {
			m.fire("run_neg_big", line)
		}
		if j.RunTime < -3900 {
			m.fire("run_neg_huge", line)
		}
		if j.AllocatedProcs == 0 {
			m.fire("proc_zero", line)
			if j.Status == 0 {
				m.fire("proc_zero_fail", line)
			}
			if j.Status == 1 {
				m.fire("proc_zero_success", line)
			}
		}
		if m.Machine > 0 && j.AllocatedProcs > m.Machine {
			m.fire("proc_too_many", line)
		}
		if m.Machine > 0 && j.RequestedProcs > m.Machine {
			m.fire("proc_req_too_many", line)
		}
		if j.AverageCPUTime == 0 {
			m.fire("cpu_zero", line)
		}
		if j.AverageCPUTime >= 0 && known(j.RunTime) && j.AverageCPUTime > float64(j.RunTime)+1 {
			m.fire("cpu_gt_run", line)
		}
		if j.UsedMemory == 0 {
			m.fire("mem_zero", line)
		}
		if j.RequestedProcs == 0 {
			m.fire("proc_req_zero", line)
		}
		if j.AllocatedProcs > 0 && j.RequestedProcs > 0 {
			if j.AllocatedProcs < j.RequestedProcs {
				m.fire("proc_got_less", line)
			}
			if j.AllocatedProcs > j.RequestedProcs {
				m.fire("proc_got_more", line)
			}
		}
		if j.RequestedTime == 0 {
			m.fire("run_req_zero", line)
		}
		if known(j.RunTime) && j.RequestedTime > 0 {
			if j.RunTime > j.RequestedTime {
				m.fire("run_got_more", line)
			}
			if j.RunTime > j.RequestedTime+60 {
				m.fire("run_got_much_more", line)
			}
		}
		if j.RequestedMemory == 0 {
			m.fire("mem_req_zero", line)
		}
		if j.UsedMemory > 0 && j.RequestedMemory > 0 && j.UsedMemory > j.RequestedMemory {
			m.fire("got_more_mem", line)
		}
		if j.RunTime == 0 && j.Status == 1 {
			m.fire("run_zero_success", line)
		}
		if hasMaxRuntime && j.RunTime > maxRuntime {
			m.fire("run_over_limit", line)
		}
		if j.AllocatedProcs <= 0 && (j.Status == 1 || j.Status == 3) {
			m.fire("proc_none_completed", line)
		}
		if j.Status < -1 || j.Status > 5 {
			m.fire("status_unknown", line)
		}
		if partial && noPreemption {
			m.fire("partial_no_preemption", line)
		}
		if j.SubmitTime >= 0 {
			if prevSubmit >= 0 && j.SubmitTime < prevSubmit {
				m.fire("submit_order", line)
			}
			prevSubmit = j.SubmitTime
		}
		if seen[j.JobNumber] && !partial {
			m.fire("job_duplicate", line)
		}
		seen[j.JobNumber] = true
		if j.JobNumber < 1 {
			m.fire("job_number_invalid", line)
		}
		if j.PrecedingJob != -1 && (j.PrecedingJob < 1 || j.PrecedingJob >= j.JobNumber) {
			m.fire("preceding_invalid", line)
		}
	}
	m.DistinctJobs = len(seen)

	if v, ok := ints["MaxJobs"]; ok && v != int64(m.DistinctJobs) && v != m.MaxJob {
		l, _ := headerLabel(h, "MaxJobs")
		m.fire("header_maxjobs", l.Line)
	}
	if v, ok := ints["MaxRecords"]; ok && v != int64(m.Records) {
		l, _ := headerLabel(h, "MaxRecords")
		m.fire("header_maxrecords", l.Line)
	}
	if v, ok := ints["MaxProcs"]; ok && v >= 1 && m.LargestProcs > v { // below 1 is no machine size
		l, _ := headerLabel(h, "MaxProcs")
		m.fire("header_maxprocs", l.Line)
	}
	counts := map[string]int{}
	for _, l := range h.Lines {
		if l.Label == "" || l.Continuation {
			continue
		}
		k := strings.ToLower(l.Label)
		if k == "note" || k == "queue" || k == "partition" {
			continue
		}
		counts[k]++
	}
	for _, l := range h.Lines {
		if l.Label != "" && !l.Continuation && counts[strings.ToLower(l.Label)] > 1 {
			m.fire("header_label_twice", l.Line)
			counts[strings.ToLower(l.Label)] = 0 // once per label
		}
	}
	for _, label := range commonLabels {
		if _, ok := headerLabel(h, label); !ok {
			m.Missing = append(m.Missing, label)
		}
	}
	return m
}

// --- cleaning -----------------------------------------------------------------

type modelTally struct {
	Dropped, Changed int
}

type modelClean struct {
	Jobs   []swf.Job
	Read   int
	Tally  map[string]*modelTally
	Order  []string // steps in the order they run
	Unix   int64    // UnixStartTime after shift_time (when present)
	Shift  int64
	Flurry []modelFlurry
}

type modelFlurry struct {
	User              int64
	FirstJob, LastJob int64
	Start, End        int64
	Jobs, Total       int
}

var registryOrder = []string{"flurries", "merge_partial", "zero_to_unknown",
	"negative_to_unknown", "runtime_from_cpu", "estimate_from_runtime",
	"clamp_too_big", "cancelled_unstarted", "no_procs", "too_big",
	"unknown_runtime", "unknown_submit", "sort_submit", "shift_time", "renumber", "anonymize"}

// fieldsEqual compares the 18 fields (field 6 to the microsecond).
func fieldsEqual(a, b *swf.Job) bool {
	for n := 1; n <= 18; n++ {
		if n == 6 {
			if math.Abs(a.AverageCPUTime-b.AverageCPUTime) > 1e-6 {
				return false
			}
			continue
		}
		if a.IntField(n) != b.IntField(n) {
			return false
		}
	}
	return true
}

type modelCleanConfig struct {
	Rules   []string
	Machine int64 // --procs, 0 for none
	Flurry  struct {
		Window   int64
		MinJobs  int
		MinShare float64
	}
	Unix    int64 // header UnixStartTime, -1 when absent
	HdrMach int64 // MaxProcs, else MaxNodes, 0 when neither
}

// modelCleanRun applies the selected rules to a copy of jobs in registry order.
func modelCleanRun(jobs []swf.Job, cfg modelCleanConfig) *modelClean {
	sel := map[string]bool{}
	for _, r := range cfg.Rules {
		sel[r] = true
	}
	out := &modelClean{Read: len(jobs), Tally: map[string]*modelTally{}, Unix: cfg.Unix}
	for _, r := range registryOrder {
		if sel[r] {
			out.Order = append(out.Order, r)
			out.Tally[r] = &modelTally{}
		}
	}
	cur := make([]swf.Job, len(jobs))
	copy(cur, jobs)
	// A rule's "changed" counts the records it changed that are written
	// (the Tally's doc): ids follow each record of cur to the end, and
	// changedBy lists, by id, the rules that changed it.
	ids := make([]int, len(jobs))
	for i := range ids {
		ids[i] = i
	}
	changedBy := map[int][]string{}
	changed := func(rule string) func(id int) {
		return func(id int) { changedBy[id] = append(changedBy[id], rule) }
	}
	machine := cfg.Machine
	if machine == 0 {
		machine = cfg.HdrMach
	}

	// perJob applies f to every record; f returns false to drop.
	perJob := func(name string, f func(j *swf.Job) bool) {
		t := out.Tally[name]
		var kept []swf.Job
		var keptIDs []int
		for k, j := range cur {
			before := j
			keep := f(&j)
			if !fieldsEqual(&before, &j) {
				changed(name)(ids[k])
			}
			if keep {
				kept = append(kept, j)
				keptIDs = append(keptIDs, ids[k])
			} else {
				t.Dropped++
			}
		}
		cur, ids = kept, keptIDs
	}

	for _, r := range out.Order {
		switch r {
		case "flurries":
			fl := modelFlurries(cur, cfg.Flurry.Window, cfg.Flurry.MinJobs, cfg.Flurry.MinShare)
			out.Flurry = fl
			perJob(r, func(j *swf.Job) bool {
				for _, f := range fl {
					if j.UserID == f.User && j.JobNumber >= f.FirstJob && j.JobNumber <= f.LastJob {
						return false
					}
				}
				return true
			})
		case "merge_partial":
			cur, ids = modelMerge(cur, ids, out.Tally[r], changed(r))
		case "zero_to_unknown":
			perJob(r, func(j *swf.Job) bool {
				for n := 5; n <= 10; n++ {
					if j.Field(n) == 0 {
						j.SetField(n, -1)
					}
				}
				return true
			})
		case "negative_to_unknown":
			perJob(r, func(j *swf.Job) bool {
				for n := 2; n <= 18; n++ {
					if v := j.Field(n); v < 0 && v != -1 {
						j.SetField(n, -1)
					}
				}
				return true
			})
		case "runtime_from_cpu":
			perJob(r, func(j *swf.Job) bool {
				if j.RunTime == -1 && j.AverageCPUTime >= 0 {
					j.RunTime = int64(math.Round(j.AverageCPUTime))
				}
				return true
			})
		case "estimate_from_runtime":
			perJob(r, func(j *swf.Job) bool {
				if j.RequestedTime <= 0 && j.RunTime > 0 {
					j.RequestedTime = j.RunTime
				}
				return true
			})
		case "clamp_too_big":
			perJob(r, func(j *swf.Job) bool {
				if machine > 0 {
					if j.AllocatedProcs > machine {
						j.AllocatedProcs = machine
					}
					if j.RequestedProcs > machine {
						j.RequestedProcs = machine
					}
				}
				return true
			})
		case "cancelled_unstarted":
			perJob(r, func(j *swf.Job) bool { return !(j.Status == 5 && j.RunTime <= 0) })
		case "no_procs":
			perJob(r, func(j *swf.Job) bool { return j.AllocatedProcs > 0 || j.RequestedProcs > 0 })
		case "too_big":
			perJob(r, func(j *swf.Job) bool {
				return machine <= 0 || (j.AllocatedProcs <= machine && j.RequestedProcs <= machine)
			})
		case "unknown_runtime":
			perJob(r, func(j *swf.Job) bool { return j.RunTime >= 0 })
		case "unknown_submit":
			perJob(r, func(j *swf.Job) bool { return j.SubmitTime >= 0 })
		case "sort_submit":
			// Unknown submit times after the known ones: key max for them.
			key := func(j *swf.Job) int64 {
				if j.SubmitTime < 0 {
					return math.MaxInt64
				}
				return j.SubmitTime
			}
			order := make([]int, len(cur))
			for i := range order {
				order[i] = i
			}
			sort.SliceStable(order, func(a, b int) bool { return key(&cur[order[a]]) < key(&cur[order[b]]) })
			for i := 1; i < len(cur); i++ {
				if key(&cur[i]) < key(&cur[i-1]) {
					changed(r)(ids[i])
				}
			}
			sorted, sortedIDs := make([]swf.Job, len(cur)), make([]int, len(cur))
			for i, k := range order {
				sorted[i], sortedIDs[i] = cur[k], ids[k]
			}
			cur, ids = sorted, sortedIDs
		case "shift_time":
			earliest := int64(-1)
			for _, j := range cur {
				if j.SubmitTime >= 0 && (earliest < 0 || j.SubmitTime < earliest) {
					earliest = j.SubmitTime
				}
			}
			if earliest > 0 {
				out.Shift = earliest
				if out.Unix >= 0 {
					out.Unix += earliest
				}
				perJob(r, func(j *swf.Job) bool {
					if j.SubmitTime >= 0 {
						j.SubmitTime -= earliest
					}
					return true
				})
			}
		case "renumber":
			newNum := map[int64]int64{}
			n := int64(0)
			perJob(r, func(j *swf.Job) bool {
				old := j.JobNumber
				num, seen := newNum[old]
				if !seen {
					n++
					num = n
				}
				j.JobNumber = num
				if j.PrecedingJob > 0 {
					if p, ok := newNum[j.PrecedingJob]; ok {
						j.PrecedingJob = p
					} else {
						j.PrecedingJob = -1
						j.ThinkTime = -1
					}
				}
				newNum[old] = num
				return true
			})
		case "anonymize":
			maps := [5]map[int64]int64{{}, {}, {}, {}, {}}
			fields := [5]int{12, 13, 14, 15, 16}
			perJob(r, func(j *swf.Job) bool {
				for k, n := range fields {
					v := j.IntField(n)
					if v < 0 || (n == 15 && v == 0) {
						continue
					}
					id, ok := maps[k][v]
					if !ok {
						id = int64(len(maps[k]) + 1)
						maps[k][v] = id
					}
					j.SetIntField(n, id)
				}
				return true
			})
		}
	}
	for _, id := range ids {
		for _, rule := range changedBy[id] {
			out.Tally[rule].Changed++
		}
	}
	out.Jobs = cur
	return out
}

// modelMerge is merge_partial as the page's "Choices" list states it.
// ids are the records' ids, returned for the records kept; changed is
// called with the id of each merged record that differs from its first part.
func modelMerge(jobs []swf.Job, ids []int, t *modelTally, changed func(id int)) ([]swf.Job, []int) {
	isPart := func(j *swf.Job) bool { return j.Status == 2 || j.Status == 3 || j.Status == 4 }
	hasSummary := map[int64]bool{}
	parts := map[int64][]int{}
	for i := range jobs {
		if isPart(&jobs[i]) {
			parts[jobs[i].JobNumber] = append(parts[jobs[i].JobNumber], i)
		} else {
			hasSummary[jobs[i].JobNumber] = true
		}
	}
	var out []swf.Job
	var outIDs []int
	for i := range jobs {
		j := jobs[i]
		if !isPart(&j) {
			out = append(out, j)
			outIDs = append(outIDs, ids[i])
			continue
		}
		idx := parts[j.JobNumber]
		if hasSummary[j.JobNumber] || idx[0] != i {
			t.Dropped++
			continue
		}
		m := j
		run, runKnown := int64(0), false
		procs := j.AllocatedProcs
		mem := j.UsedMemory
		for _, k := range idx {
			p := &jobs[k]
			if p.RunTime >= 0 {
				run += p.RunTime
				runKnown = true
			}
			if p.AllocatedProcs > procs {
				procs = p.AllocatedProcs
			}
			if p.UsedMemory > mem {
				mem = p.UsedMemory
			}
		}
		if !runKnown {
			run = j.RunTime
		}
		m.RunTime, m.AllocatedProcs, m.UsedMemory = run, procs, mem
		cpu := -1.0
		if procs > 0 {
			total, any := 0.0, false
			for _, k := range idx {
				p := &jobs[k]
				if p.AverageCPUTime >= 0 && p.AllocatedProcs >= 0 {
					total += p.AverageCPUTime * float64(p.AllocatedProcs)
					any = true
				}
			}
			if any {
				cpu = total / float64(procs)
			}
		} else {
			total, any := 0.0, false
			for _, k := range idx {
				if v := jobs[k].AverageCPUTime; v >= 0 {
					total += v
					any = true
				}
			}
			if any {
				cpu = total
			}
		}
		m.AverageCPUTime = cpu
		switch jobs[idx[len(idx)-1]].Status {
		case 3:
			m.Status = 1
		case 4:
			m.Status = 0
		default:
			m.Status = -1
		}
		if !fieldsEqual(&j, &m) {
			changed(ids[i])
		}
		out = append(out, m)
		outIDs = append(outIDs, ids[i])
	}
	return out, outIDs
}

// modelFlurries is the --flurries definition: two grids of windows, per-user
// thresholds, merging of a user's passing windows that overlap or touch.
func modelFlurries(jobs []swf.Job, window int64, minJobs int, minShare float64) []modelFlurry {
	if window == 0 {
		window = 86400
	}
	if minJobs == 0 {
		minJobs = 200
	}
	if minShare == 0 {
		minShare = 0.5
	}
	type sub struct{ t, user, job int64 }
	var subs []sub
	earliest, latest := int64(-1), int64(-1)
	for _, j := range jobs {
		if j.SubmitTime < 0 || j.UserID < 0 {
			continue
		}
		subs = append(subs, sub{j.SubmitTime, j.UserID, j.JobNumber})
		if earliest < 0 || j.SubmitTime < earliest {
			earliest = j.SubmitTime
		}
		if j.SubmitTime > latest {
			latest = j.SubmitTime
		}
	}
	if len(subs) == 0 {
		return nil
	}
	sort.SliceStable(subs, func(a, b int) bool { return subs[a].t < subs[b].t })
	// in returns the submissions in [a, b), by binary search over the sorted times.
	in := func(a, b int64) []sub {
		lo := sort.Search(len(subs), func(i int) bool { return subs[i].t >= a })
		hi := sort.Search(len(subs), func(i int) bool { return subs[i].t >= b })
		return subs[lo:hi]
	}
	type span struct{ a, b int64 } // [a, b)
	passing := map[int64][]span{}
	// Half a window of odd length is a half second: on whole-second submit
	// times a window from earliest + W/2 (exactly) holds the same jobs as one
	// from earliest + ceil(W/2).
	for _, origin := range []int64{earliest, earliest + (window+1)/2} {
		for a := origin; a <= latest; a += window {
			b := a + window
			ws := in(a, b)
			per := map[int64]int{}
			for _, s := range ws {
				per[s.user]++
			}
			for u, c := range per {
				if c >= minJobs && float64(c) >= minShare*float64(len(ws)) {
					passing[u] = append(passing[u], span{a, b})
				}
			}
		}
	}
	var out []modelFlurry
	for u, spans := range passing {
		sort.Slice(spans, func(x, y int) bool { return spans[x].a < spans[y].a })
		var merged []span
		for _, s := range spans {
			if n := len(merged); n > 0 && s.a <= merged[n-1].b {
				if s.b > merged[n-1].b {
					merged[n-1].b = s.b
				}
				continue
			}
			merged = append(merged, s)
		}
		for _, s := range merged {
			f := modelFlurry{User: u, Start: -1}
			for _, x := range in(s.a, s.b) {
				f.Total++
				if x.user != u {
					continue
				}
				if f.Jobs == 0 || x.job < f.FirstJob {
					f.FirstJob = x.job
				}
				if f.Jobs == 0 || x.job > f.LastJob {
					f.LastJob = x.job
				}
				if f.Start < 0 || x.t < f.Start {
					f.Start = x.t
				}
				if x.t > f.End {
					f.End = x.t
				}
				f.Jobs++
			}
			out = append(out, f)
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
