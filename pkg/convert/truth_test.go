package convert

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/swfkit/swfkit/pkg/swf"
)

// truthRow is one line of truth.tsv, written by scripts/slurm-jobmix.sh: what a
// job was submitted with and told to do.
type truthRow struct {
	tag, id, user, group, partition, qos string
	cpus                                 int64
	limit                                int64 // seconds, -1 none
	memMB                                int64 // the job's total
	state                                string
	minRun, maxRun                       int64 // -1: never started
}

func readTruth(t *testing.T, path string) []truthRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []truthRow
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if line == 1 {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 14 {
			t.Fatalf("%s:%d: %d columns, want 14", path, line, len(c))
		}
		num := func(s string) int64 {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("%s:%d: %q is not a number", path, line, s)
			}
			return n
		}
		rows = append(rows, truthRow{tag: c[0], id: c[1], user: c[2], group: c[3], partition: c[4], qos: c[5],
			cpus: num(c[6]), limit: num(c[8]), memMB: num(c[9]), state: c[11], minRun: num(c[12]), maxRun: num(c[13])})
	}
	return rows
}

// readWindow reads the Unix times before the first submission and after the dump.
func readWindow(t *testing.T, path string) (start, end int64, zone string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		k, v, _ := strings.Cut(line, " ")
		switch k {
		case "start":
			start, _ = strconv.ParseInt(v, 10, 64)
		case "end":
			end, _ = strconv.ParseInt(v, 10, 64)
		case "timezone":
			zone = v
		}
	}
	if start == 0 || end < start || zone == "" {
		t.Fatalf("%s: malformed window %q", path, data)
	}
	return start, end, zone
}

var truthStatus = map[string]int64{"COMPLETED": 1, "FAILED": 0, "TIMEOUT": 0, "DEADLINE": 0, "CANCELLED": 5}

// stepsInDump counts the step lines of job id in dir/sacct.txt.
func stepsInDump(t *testing.T, dir, id string) int {
	data, err := os.ReadFile(filepath.Join(dir, "sacct.txt"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, id+".") {
			n++
		}
	}
	return n
}

// memoryPerProcessor reads the lines of job id (its own and its steps') in
// dir/sacct.txt and returns the largest MaxRSS x NTasks / AllocCPUS among
// them in KB, and whether a step line has NTasks 2 and AllocCPUS 4 (the
// step the job mix runs).
func memoryPerProcessor(t *testing.T, dir, id string) (kb float64, step bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "sacct.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	col := map[string]int{}
	for i, c := range strings.Split(lines[0], "|") {
		col[c] = i
	}
	for _, c := range []string{"JobID", "MaxRSS", "NTasks", "AllocCPUS"} {
		if _, ok := col[c]; !ok {
			t.Fatalf("%s/sacct.txt has no %s column", dir, c)
		}
	}
	for _, line := range lines[1:] {
		f := strings.Split(line, "|")
		if len(f) < len(col) || f[col["JobID"]] != id && !strings.HasPrefix(f[col["JobID"]], id+".") {
			continue
		}
		tasks, err1 := strconv.ParseFloat(f[col["NTasks"]], 64)
		alloc, err2 := strconv.ParseFloat(f[col["AllocCPUS"]], 64)
		rss := f[col["MaxRSS"]]
		if err1 != nil || err2 != nil || alloc <= 0 || rss == "" {
			continue
		}
		unit := map[byte]float64{'K': 1, 'M': 1024, 'G': 1024 * 1024}[rss[len(rss)-1]]
		if c := rss[len(rss)-1]; c >= '0' && c <= '9' {
			unit = 1 // a bare number is KB (sacct prints 0 so)
		}
		v, err := strconv.ParseFloat(strings.TrimRight(rss, "KMG"), 64)
		if err != nil || unit == 0 {
			t.Fatalf("%s: MaxRSS %q", id, rss)
		}
		kb = max(kb, v*unit*tasks/alloc)
		step = step || strings.HasPrefix(f[col["JobID"]], id+".") && tasks == 2 && alloc == 4
	}
	return kb, step
}

// checkAgainstTruth converts dir/sacct.txt and compares every job, field by
// field, with what scripts/slurm-jobmix.sh submitted (dir/truth.tsv).
func checkAgainstTruth(t *testing.T, dir string) {
	t.Helper()
	start, end, zone := readWindow(t, filepath.Join(dir, "window"))
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "sacct.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := ReadSacct(f, Config{Name: "sacct.txt", Location: loc})
	if err != nil {
		t.Fatal(err)
	}
	truth := readTruth(t, filepath.Join(dir, "truth.tsv"))

	a := &res.Accounting
	if !a.Balanced() {
		t.Errorf("accounting does not balance: %s", a.String())
	}
	ids := map[string]map[string]int64{}
	for _, m := range res.Names {
		if ids[m.Kind] == nil {
			ids[m.Kind] = map[string]int64{}
		}
		ids[m.Kind][m.Name] = m.ID
	}
	byID := map[string]*swf.Job{}
	partsOf := map[string][]*swf.Job{} // a requeued job's earlier runs (status 2)
	number := int64(0)
	for i := range res.Jobs {
		j := &res.Jobs[i]
		id, ok := j.ExtraValue("jobid")
		if !ok {
			t.Fatalf("job %d has no jobid= token", j.JobNumber)
		}
		afterPart := i > 0 && res.Jobs[i-1].Status == swf.StatusPartial
		if !afterPart {
			number++
		}
		if j.JobNumber != number {
			t.Errorf("record %d is job number %d, want %d", i+1, j.JobNumber, number)
		}
		if i > 0 && j.SubmitTime < res.Jobs[i-1].SubmitTime {
			t.Errorf("record %d submitted before record %d", i+1, i)
		}
		if j.Status == swf.StatusPartial {
			partsOf[id] = append(partsOf[id], j)
			continue
		}
		if byID[id] != nil {
			t.Errorf("jobid=%s written twice", id)
		}
		byID[id] = j
	}
	unixStart, ok, err := res.Header.UnixStartTime()
	// sacct prints whole seconds; the window is taken a moment before the first sbatch.
	if !ok || err != nil || unixStart < start || unixStart > end {
		t.Errorf("UnixStartTime %d (%v, %v) outside the run's window %d..%d: time zone %s misread?", unixStart, ok, err, start, end, zone)
	}
	if tz, _ := res.Header.Get("TimeZoneString"); tz != zone {
		t.Errorf("TimeZoneString %q, want %q", tz, zone)
	}

	finished, unfinished := 0, map[string]int{}
	for _, want := range truth {
		j := byID[want.id]
		if want.state == "PENDING" || want.state == "RUNNING" {
			unfinished[want.state+" (not finished)"]++
			// Its steps in the dump (a running job's batch step) are
			// skipped with it.
			if n := stepsInDump(t, dir, want.id); n > 0 {
				unfinished["step of a skipped job line"] += n
			}
			if j != nil {
				t.Errorf("%s (%s) was %s at dump time but was converted", want.tag, want.id, want.state)
			}
			continue
		}
		finished++
		if j == nil {
			t.Errorf("%s (%s): no SWF job with jobid=%s", want.tag, want.id, want.id)
			continue
		}
		where := want.tag + " (jobid=" + want.id + ")"
		expect := func(field string, got, wanted int64) {
			if got != wanted {
				t.Errorf("%s: %s = %d, want %d", where, field, got, wanted)
			}
		}
		if want.tag == "requeued" {
			// Requeued while running: its first run is a partial
			// execution (status 2) of the job, the run that completed
			// its last part (3), after it, with its number and submit.
			expect("status (last part)", j.Status, swf.StatusLastOK)
			parts := partsOf[want.id]
			if len(parts) != 1 {
				t.Errorf("%s: %d partial executions, want 1 (its run before the requeue)", where, len(parts))
			}
			for _, p := range parts {
				if p.JobNumber != j.JobNumber || p.SubmitTime != j.SubmitTime || p.AllocatedProcs != want.cpus ||
					p.RunTime < 1 || p.RunTime > 60 || p.WaitTime < 0 || j.WaitTime < p.WaitTime+p.RunTime {
					t.Errorf("%s: its run before the requeue: %s; the last part: %s", where, p.AppendCanonical(nil), j.AppendCanonical(nil))
				}
			}
		} else {
			expect("status", j.Status, truthStatus[want.state])
			if len(partsOf[want.id]) > 0 {
				t.Errorf("%s: %d partial executions, want none (not requeued)", where, len(partsOf[want.id]))
			}
		}
		expect("requested processors", j.RequestedProcs, want.cpus)
		expect("user", j.UserID, ids["user"][want.user])
		expect("group", j.GroupID, ids["group"][want.group])
		expect("queue (QOS)", j.Queue, ids["queue"][want.qos])
		expect("partition", j.Partition, ids["partition"][want.partition])
		expect("requested memory (KB per processor)", j.RequestedMemory, (want.memMB*1024+want.cpus/2)/want.cpus)
		// Slurm records an array task that started under an unlimited partition
		// with a limit of 365 days: what the log says is what is converted.
		if !(want.limit == -1 && j.RequestedTime == 365*86400) {
			expect("requested time", j.RequestedTime, want.limit)
		}
		if j.SubmitTime < 0 || j.SubmitTime > end-start {
			t.Errorf("%s: submit time %d outside the run (%d s)", where, j.SubmitTime, end-start)
		}
		if want.tag == "deadline" && j.WaitTime >= 0 && j.RunTime == 0 {
			// Slurm drops the job when it becomes eligible and cannot end by its
			// deadline; it sometimes records that moment as a 0-second run on a
			// node (with "None assigned" the conversion has it never start).
			continue
		}
		if want.minRun < 0 {
			expect("wait (never started)", j.WaitTime, -1)
			expect("run time (never started)", j.RunTime, -1)
			expect("allocated processors (never started)", j.AllocatedProcs, -1)
			continue
		}
		expect("allocated processors", j.AllocatedProcs, want.cpus)
		if j.RunTime < want.minRun || j.RunTime > want.maxRun {
			t.Errorf("%s: run time %d, want %d..%d", where, j.RunTime, want.minRun, want.maxRun)
		}
		if j.WaitTime < 0 || j.SubmitTime+j.WaitTime+j.RunTime > end-start {
			t.Errorf("%s: wait %d, run %d end outside the run (%d s)", where, j.WaitTime, j.RunTime, end-start)
		}
		switch want.tag {
		case "memory": // holds a 100 MB string for 3 s
			if j.UsedMemory < 100*1024 {
				t.Errorf("%s: used memory %d KB, want at least 102400", where, j.UsedMemory)
			}
		case "cpu": // spins for 4 s on a shared machine
			if j.AverageCPUTime < 0.1 {
				t.Errorf("%s: average CPU time %g s, want at least 0.1", where, j.AverageCPUTime)
			}
		case "ntasks": // a step of 2 tasks of 2 CPUs each, each holding 50 MB
			perProc, steps := memoryPerProcessor(t, dir, want.id)
			if !steps || j.UsedMemory < 50*1024*2/4 || math.Abs(float64(j.UsedMemory)-perProc) > 1 {
				t.Errorf("%s: used memory %d KB per processor, want the largest MaxRSS x NTasks / AllocCPUS of its lines, %.0f (at least 25600: 50 MB x 2 tasks / 4 CPUs; NTasks in the dump: %v)",
					where, j.UsedMemory, perProc, steps)
			}
		}
	}
	parts := 0
	for _, p := range partsOf {
		parts += len(p)
	}
	if a.Jobs != len(res.Jobs) || a.Parts != parts || len(res.Jobs)-parts != finished {
		t.Errorf("%d records written (accounting %d, %d of them partial executions, accounting %d), want the %d finished jobs of the truth and their parts",
			len(res.Jobs), a.Jobs, parts, a.Parts, finished)
	}
	for _, s := range a.Skipped {
		if unfinished[s.Reason] != s.Count {
			t.Errorf("skipped %q: %d, want %d", s.Reason, s.Count, unfinished[s.Reason])
		}
		delete(unfinished, s.Reason)
	}
	for reason, n := range unfinished {
		t.Errorf("skipped %q: none counted, want %d", reason, n)
	}
}

// TestSacctJobMix converts the committed dump of scripts/slurm-jobmix.sh (one run
// on a real Slurm) and compares it with what the script submitted.
func TestSacctJobMix(t *testing.T) {
	checkAgainstTruth(t, filepath.Join("..", "..", "testdata", "slurm"))
}
