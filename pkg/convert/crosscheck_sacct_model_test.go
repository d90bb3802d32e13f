package convert_test

// A second, deliberately simple model of swfclean --from sacct, written from
// docs/swfclean.md ("Converting other formats", "sacct") and the exported doc
// comments of pkg/convert only, without reading the package's unexported
// code; compared field by field with ReadSacct in crosscheck_sacct_test.go.
//
// Readings the model takes where the docs are silent (the tests say where
// one mattered):
//   - field 10's "processors" are field 8 (the page says per requested
//     processor), else AllocCPUS when field 8 is 0, and KB per processor is
//     rounded to the nearest integer.
//   - field 6 "to the millisecond" is rounded half away from zero; field 7's
//     MaxRSS x NTasks / processors is rounded to the nearest KB.
//   - MaxRSS units K, M, G, T are powers of 1024 (a bare number is KB);
//     ReqMem units likewise, a bare size is MB (the page says so).
//   - an empty User, Group, QOS or Partition is -1, not a name.
//   - the never-started tasks of an array line are jobs in task order at the
//     line's place (ties in submit order keep file order).

import (
	"bufio"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

type sacctModelJob struct {
	id                          string
	submit, start, end          int64 // Unix, -1 unknown
	fields                      [19]float64
	user, group, qos, partition string
	order                       int
}

type sacctModel struct {
	Jobs    []sacctModelJob // in output order, fields filled
	Skipped map[string]int
	Steps   int
	JobLns  int
	Unix    int64
}

var sacctUnfinished = map[string]bool{"PENDING": true, "RUNNING": true, "REQUEUED": true,
	"SUSPENDED": true, "RESIZING": true, "REQUEUE_HOLD": true, "REQUEUE_FED": true,
	"SPECIAL_EXIT": true, "REVOKED": true, "CONFIGURING": true, "COMPLETING": true,
	"STOPPED": true, "SIGNALING": true, "STAGE_OUT": true, "RESV_DEL_HOLD": true}

var sacctStatusModel = map[string]float64{"COMPLETED": 1, "FAILED": 0, "TIMEOUT": 0,
	"NODE_FAIL": 0, "OUT_OF_MEMORY": 0, "BOOT_FAIL": 0, "DEADLINE": 0, "PREEMPTED": 0,
	"CANCELLED": 5}

// sacctDuration reads [D-]HH:MM:SS, MM:SS (with optional .mmm) or bare
// minutes (minutes only when bareMinutes).
func sacctDuration(s string, bareMinutes bool) (float64, bool) {
	days := 0.0
	if i := strings.Index(s, "-"); i >= 0 {
		d, err := strconv.Atoi(s[:i])
		if err != nil {
			return 0, false
		}
		days, s = float64(d), s[i+1:]
	}
	parts := strings.Split(s, ":")
	num := func(p string) float64 { v, _ := strconv.ParseFloat(p, 64); return v }
	switch len(parts) {
	case 3:
		return days*86400 + num(parts[0])*3600 + num(parts[1])*60 + num(parts[2]), true
	case 2:
		if days > 0 { // D-HH:MM
			return days*86400 + num(parts[0])*3600 + num(parts[1])*60, true
		}
		return num(parts[0])*60 + num(parts[1]), true
	case 1:
		if days > 0 { // D-HH
			return days*86400 + num(parts[0])*3600, true
		}
		if bareMinutes {
			return num(parts[0]) * 60, true
		}
	}
	return 0, false
}

func sizeKB(s string, bare float64) (float64, bool) {
	if s == "" {
		return 0, false
	}
	mult := bare
	switch s[len(s)-1] {
	case 'K':
		mult, s = 1, s[:len(s)-1]
	case 'M':
		mult, s = 1024, s[:len(s)-1]
	case 'G':
		mult, s = 1024*1024, s[:len(s)-1]
	case 'T':
		mult, s = 1024*1024*1024, s[:len(s)-1]
	}
	v, err := strconv.ParseFloat(s, 64)
	return v * mult, err == nil
}

// modelSacct converts a dump the page's way; it assumes well-formed input.
func modelSacct(text string, loc *time.Location) *sacctModel {
	m := &sacctModel{Skipped: map[string]int{}}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	sc.Scan()
	col := map[string]int{}
	for i, name := range strings.Split(strings.TrimSuffix(sc.Text(), "|"), "|") {
		col[name] = i
	}
	type raw struct {
		v    []string
		line int
	}
	get := func(r []string, name string) string {
		if i, ok := col[name]; ok && i < len(r) {
			return r[i]
		}
		return ""
	}
	// rssPerProc is a line's MaxRSS per processor: x NTasks / its CPUs when
	// the line has both, else as it is (the page: one task per processor).
	rssPerProc := func(r []string) (float64, bool) {
		kb, ok := sizeKB(get(r, "MaxRSS"), 1)
		tasks, err1 := strconv.ParseFloat(get(r, "NTasks"), 64)
		cpus := get(r, "AllocCPUS")
		if _, has := col["AllocCPUS"]; !has {
			cpus = get(r, "NCPUS")
		}
		n, err2 := strconv.ParseFloat(cpus, 64)
		if ok && err1 == nil && err2 == nil && tasks > 0 && n > 0 {
			kb = math.Round(kb * tasks / n)
		}
		return kb, ok
	}
	var lines []raw
	n := 1
	for sc.Scan() {
		n++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		lines = append(lines, raw{strings.Split(sc.Text(), "|"), n})
	}
	// occurrences lists the Unix times a local time names: two in the hour
	// the clocks go back, earlier first.
	occurrences := func(s string) []int64 {
		if s == "Unknown" || s == "None" || s == "" {
			return []int64{-1}
		}
		t, err := time.ParseInLocation("2006-01-02T15:04:05", s, loc)
		if err != nil {
			panic(s)
		}
		var out []int64
		for _, d := range []time.Duration{-time.Hour, 0, time.Hour} {
			if u := t.Add(d); u.In(loc).Format("2006-01-02T15:04:05") == s {
				out = append(out, u.Unix())
			}
		}
		return out
	}
	// lineTimes picks the occurrences the page's rule picks: End - Start =
	// ElapsedRaw first, then Submit <= Start <= End, then first occurrences.
	lineTimes := func(sub, start, end, elapsed string) (int64, int64, int64) {
		e, eErr := strconv.ParseInt(elapsed, 10, 64)
		best, bestRank := [3]int64{}, 1<<30
		for si, a := range occurrences(sub) {
			for ti, b := range occurrences(start) {
				for ei, c := range occurrences(end) {
					rank := si*4 + ti*2 + ei
					if !(eErr == nil && b >= 0 && c >= 0 && c-b == e) {
						rank += 64
					}
					if !(a <= b || b < 0) || !(b <= c || c < 0) {
						rank += 32
					}
					if rank < bestRank {
						best, bestRank = [3]int64{a, b, c}, rank
					}
				}
			}
		}
		return best[0], best[1], best[2]
	}
	// Own lines of array tasks, so a pending-array line skips them.
	ownTask := map[string]bool{}
	for _, l := range lines {
		id := get(l.v, "JobID")
		if !strings.Contains(id, ".") && !strings.Contains(id, "[") {
			ownTask[id] = true
		}
	}
	type acc struct {
		job       *sacctModelJob
		cpu       float64
		cpuKnown  bool
		stepCPU   float64
		stepKnown bool
		rss       float64
		rssKnown  bool
		alloc     float64
		req       float64
		nnodes    float64
		reqMem    string
		started   bool
		state     string
		elapsed   string
		steps     int    // step lines credited to this line's run
		parts     []*acc // a job's runs before its requeues (REQUEUED lines)
	}
	var jobs []*acc
	byID := map[string]*acc{} // the latest written line (or REQUEUED run) of an id: its steps follow it
	skippedJob := map[string]bool{}
	firstSubmit := map[string]int64{} // the earliest Submit of an id's REQUEUED lines
	runs := map[string][]*acc{}       // an id's REQUEUED lines
	var runIDs []string               // ids with REQUEUED lines, in file order
	for _, l := range lines {
		id := get(l.v, "JobID")
		if i := strings.Index(id, "."); i >= 0 {
			parent := id[:i]
			if a := byID[parent]; a != nil {
				m.Steps++
				a.steps++
				if c := get(l.v, "TotalCPU"); c != "" {
					v, _ := sacctDuration(c, false)
					a.stepCPU += v
					a.stepKnown = true
				}
				if r, ok := rssPerProc(l.v); ok && (!a.rssKnown || r > a.rss) {
					a.rss, a.rssKnown = r, true
				}
			} else if skippedJob[parent] {
				m.Skipped["step of a skipped job line"]++
			} else {
				m.Skipped["step without its job"]++
			}
			continue
		}
		state := strings.Fields(get(l.v, "State"))[0]
		requeued := state == "REQUEUED"
		if requeued {
			// A run before a requeue (sacct -D): its Submit is the job's,
			// and it is a partial execution of the job, with its steps.
			if sub := occurrences(get(l.v, "Submit"))[0]; sub >= 0 {
				if prev, ok := firstSubmit[id]; !ok || sub < prev {
					firstSubmit[id] = sub
				}
			}
			if len(runs[id]) == 0 {
				runIDs = append(runIDs, id)
			}
		} else if sacctUnfinished[state] {
			m.Skipped[state+" (not finished)"]++
			skippedJob[id] = true
			delete(byID, id)
			continue
		} else {
			m.JobLns++
		}
		ids := []string{id}
		if i := strings.Index(id, "_["); i >= 0 {
			base := id[:i]
			spec := strings.TrimSuffix(id[i+2:], "]")
			if j := strings.Index(spec, "%"); j >= 0 {
				spec = spec[:j]
			}
			ids = nil
			for _, part := range strings.Split(spec, ",") {
				lo, hi := part, part
				if j := strings.Index(part, "-"); j >= 0 {
					lo, hi = part[:j], part[j+1:]
				}
				a, _ := strconv.Atoi(lo)
				b, _ := strconv.Atoi(hi)
				for k := a; k <= b; k++ {
					task := base + "_" + strconv.Itoa(k)
					if !ownTask[task] {
						ids = append(ids, task)
					}
				}
			}
			if len(ids) == 0 {
				m.Skipped["array line with no task left"]++
				continue
			}
		}
		for _, jid := range ids {
			sub, start, end := lineTimes(get(l.v, "Submit"), get(l.v, "Start"), get(l.v, "End"), get(l.v, "ElapsedRaw"))
			j := &sacctModelJob{id: jid, submit: sub, start: start, end: end,
				user: get(l.v, "User"), group: get(l.v, "Group"), qos: get(l.v, "QOS"),
				partition: get(l.v, "Partition"), order: len(jobs)}
			a := &acc{job: j, state: state, reqMem: get(l.v, "ReqMem"), elapsed: get(l.v, "ElapsedRaw")}
			a.started = j.start >= 0
			if _, hasNodes := col["NodeList"]; a.started && j.start == j.end {
				if hasNodes && get(l.v, "NodeList") == "None assigned" {
					a.started = false
				}
				if !hasNodes && state == "CANCELLED" {
					a.started = false
				}
			}
			a.alloc = -1
			if v := get(l.v, "AllocCPUS"); v != "" {
				a.alloc, _ = strconv.ParseFloat(v, 64)
			} else if v := get(l.v, "NCPUS"); v != "" {
				a.alloc, _ = strconv.ParseFloat(v, 64)
			}
			a.req = a.alloc
			if v := get(l.v, "ReqCPUS"); v != "" {
				a.req, _ = strconv.ParseFloat(v, 64)
			}
			a.nnodes = -1
			if v := get(l.v, "NNodes"); v != "" {
				a.nnodes, _ = strconv.ParseFloat(v, 64)
			}
			if c := get(l.v, "TotalCPU"); c != "" {
				a.cpu, _ = sacctDuration(c, false)
				a.cpuKnown = true
			}
			if r, ok := rssPerProc(l.v); ok {
				a.rss, a.rssKnown = r, true
			}
			j.fields[9] = -1
			switch tl := get(l.v, "Timelimit"); tl {
			case "UNLIMITED", "Partition_Limit", "INVALID", "NONE", "":
			default:
				v, _ := sacctDuration(tl, true)
				j.fields[9] = v
			}
			byID[jid] = a
			if requeued {
				runs[jid] = append(runs[jid], a)
			} else {
				jobs = append(jobs, a)
			}
		}
	}
	written := map[string]bool{}
	for _, a := range jobs {
		if sub, ok := firstSubmit[a.job.id]; ok && sub < a.job.submit {
			a.job.submit = sub
		}
		written[a.job.id] = true
	}
	skipRun := func(r *acc, reason string) {
		m.Skipped[reason]++
		m.Steps -= r.steps
		if r.steps > 0 {
			m.Skipped["step of a skipped job line"] += r.steps
		}
	}
	for _, id := range runIDs {
		for _, r := range runs[id] {
			if !written[id] {
				skipRun(r, "REQUEUED (an earlier run of a job not written)")
			}
		}
	}
	fill := func(a *acc, submit int64) {
		j := a.job
		f := &j.fields
		for i := range f {
			if i != 9 {
				f[i] = -1
			}
		}
		if a.started {
			f[3] = float64(j.start - submit)
			if j.end >= 0 {
				f[4] = float64(j.end - j.start)
			} else if e, err := strconv.ParseFloat(a.elapsed, 64); err == nil {
				f[4] = e
			}
			f[5] = a.alloc
			cpu, known := a.cpu, a.cpuKnown
			if !known && a.stepKnown {
				cpu, known = a.stepCPU, true
			}
			if known && a.alloc > 0 {
				f[6] = math.Round(cpu/a.alloc*1000) / 1000
			}
		}
		if a.rssKnown {
			f[7] = a.rss
		}
		f[8] = a.req
		procs := f[8]
		if procs <= 0 {
			procs = a.alloc
		}
		if rm := a.reqMem; rm != "" && procs > 0 {
			switch rm[len(rm)-1] {
			case 'c':
				v, _ := sizeKB(rm[:len(rm)-1], 1024)
				f[10] = math.Round(v)
			case 'n':
				v, _ := sizeKB(rm[:len(rm)-1], 1024)
				f[10] = math.Round(v * a.nnodes / procs)
			default:
				v, _ := sizeKB(rm, 1024)
				f[10] = math.Round(v / procs)
			}
		}
		f[11] = sacctStatusModel[a.state]
	}
	for _, a := range jobs {
		fill(a, a.job.submit)
		for _, r := range runs[a.job.id] {
			if !r.started {
				skipRun(r, "REQUEUED (an earlier run of a requeued job that did not start)")
				continue
			}
			m.JobLns++
			fill(r, a.job.submit)
			r.job.fields[11] = 2
			a.parts = append(a.parts, r)
		}
		sort.SliceStable(a.parts, func(x, y int) bool { return a.parts[x].job.start < a.parts[y].job.start })
		if !a.started && len(a.parts) > 0 {
			// Ended before it started again: the last run is the last part.
			last := a.parts[len(a.parts)-1]
			a.parts = a.parts[:len(a.parts)-1]
			m.JobLns--
			m.Skipped["the last line of a requeued job that ended before it started again (its last run is its last part)"]++
			status := a.job.fields[11]
			last.job.submit = a.job.submit
			a.job = last.job
			if len(a.parts) == 0 {
				a.job.fields[11] = status
				continue
			}
		}
		if len(a.parts) > 0 {
			if a.job.fields[11] == 1 {
				a.job.fields[11] = 3
			} else {
				a.job.fields[11] = 4
			}
		}
	}
	sort.SliceStable(jobs, func(x, y int) bool { return jobs[x].job.submit < jobs[y].job.submit })
	names := [4]map[string]float64{{}, {}, {}, {}}
	nameID := func(k int, s string) float64 {
		if s == "" {
			return -1
		}
		if id, ok := names[k][s]; ok {
			return id
		}
		names[k][s] = float64(len(names[k]) + 1)
		return names[k][s]
	}
	if len(jobs) > 0 {
		m.Unix = jobs[0].job.submit
	}
	for i, a := range jobs {
		j := a.job
		j.fields[1] = float64(i + 1)
		j.fields[2] = float64(j.submit - m.Unix)
		j.fields[12] = nameID(0, j.user)
		j.fields[13] = nameID(1, j.group)
		j.fields[15] = nameID(2, j.qos)
		j.fields[16] = nameID(3, j.partition)
		// The parts first, with the job's number, submit time and names.
		for _, r := range a.parts {
			pj := *r.job
			pj.id = j.id
			for _, k := range []int{1, 2, 12, 13, 15, 16} {
				pj.fields[k] = j.fields[k]
			}
			m.Jobs = append(m.Jobs, pj)
		}
		m.Jobs = append(m.Jobs, *j)
	}
	return m
}
