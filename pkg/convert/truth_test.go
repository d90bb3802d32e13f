package convert

import (
	"bufio"
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
	for i := range res.Jobs {
		j := &res.Jobs[i]
		id, ok := j.ExtraValue("jobid")
		if !ok {
			t.Fatalf("job %d has no jobid= token", j.JobNumber)
		}
		if byID[id] != nil {
			t.Errorf("jobid=%s written twice", id)
		}
		byID[id] = j
		if j.JobNumber != int64(i+1) {
			t.Errorf("job %d is number %d", i+1, j.JobNumber)
		}
		if i > 0 && j.SubmitTime < res.Jobs[i-1].SubmitTime {
			t.Errorf("job %d submitted before job %d", j.JobNumber, i)
		}
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
		expect("status", j.Status, truthStatus[want.state])
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
		}
	}
	if a.Jobs != finished || len(res.Jobs) != finished {
		t.Errorf("%d jobs written (accounting %d), want the %d finished jobs of the truth", len(res.Jobs), a.Jobs, finished)
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
