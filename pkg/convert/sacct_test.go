package convert

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/swfkit/swfkit/pkg/swf"
)

func sacct(t *testing.T, text string, cfg Config) (*Result, error) {
	t.Helper()
	if cfg.Name == "" {
		cfg.Name = "dump.txt"
	}
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	return ReadSacct(strings.NewReader(text), cfg)
}

const sacctHead = "JobID|Submit|Start|End|State|AllocCPUS|ReqCPUS|NNodes|Timelimit|ReqMem|TotalCPU|MaxRSS|User|Group|Partition|QOS\n"

func TestSacctFields(t *testing.T) {
	text := sacctHead +
		"10|2024-03-01T10:00:00|2024-03-01T10:00:30|2024-03-01T10:10:30|COMPLETED|4|4|1|00:20:00|4000M|00:08:00||ann|phys|batch|normal\n" +
		"10.batch|2024-03-01T10:00:30|2024-03-01T10:00:30|2024-03-01T10:10:30|COMPLETED|4|4|1||||2048K||||\n" +
		"10.0|2024-03-01T10:00:31|2024-03-01T10:00:31|2024-03-01T10:10:30|COMPLETED|4|4|1||||1.5M||||\n" +
		// Submitted earlier, printed later: renumbered first. Old-style ReqMem per node.
		"9_3|2024-03-01T09:59:00|2024-03-01T10:00:00|2024-03-01T11:00:00|TIMEOUT|8|8|2|1-00:00:00|1000Mn|||bob|chem|debug|high\n" +
		"9_3.batch|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T11:00:00|CANCELLED|4|4|1||||||||\n" +
		"9_3.0|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T11:00:00|CANCELLED|8|8|2|||01:00:00|||||\n" +
		// Cancelled while pending: Start None. Per-CPU memory.
		"11|2024-03-01T10:00:00|None|2024-03-01T10:05:00|CANCELLED by 1001|2|2|1|Partition_Limit|500Mc|00:00:00||ann|phys|debug|normal\n" +
		"12|2024-03-01T10:01:00|Unknown|Unknown|PENDING|1|1|1|UNLIMITED|1G|00:00:00||bob|chem|debug|normal\n" +
		"13|2024-03-01T10:01:00|2024-03-01T10:02:00|Unknown|RUNNING|1|1|1|UNLIMITED|1G|00:00:00||bob|chem|debug|normal\n"
	res, err := sacct(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		// 9_3: TIMEOUT -> 0; 1000 MB per node on 2 nodes over 8 CPUs = 256000 KB; CPU from the steps 3600/8.
		"1 0 60 3600 8 450 -1 8 86400 256000 0 1 1 -1 1 1 -1 -1 jobid=9_3",
		// 10: the job's own TotalCPU 480/4; the largest step MaxRSS, 2048 KB; 4000 MB / 4 CPUs.
		"2 60 30 600 4 120 2048 4 1200 1024000 1 2 2 -1 2 2 -1 -1 jobid=10",
		// 11: never started: fields 3-6 unknown; 500 MB per CPU.
		"3 60 -1 -1 -1 -1 -1 2 -1 512000 5 2 2 -1 2 1 -1 -1 jobid=11",
	}
	if len(res.Jobs) != len(want) {
		t.Fatalf("%d jobs, want %d", len(res.Jobs), len(want))
	}
	for i, w := range want {
		got := string(res.Jobs[i].AppendCanonical(nil))
		if got != w {
			t.Errorf("job %d:\n got %s\nwant %s", i+1, got, w)
		}
	}
	a := res.Accounting
	if a.Lines != 10 || a.HeaderLines != 1 || a.JobLines != 3 || a.StepLines != 4 || a.SkippedTotal() != 2 || a.Jobs != 3 || !a.Balanced() {
		t.Errorf("accounting %+v", a)
	}
	if got := res.Accounting.String(); !strings.Contains(got, "PENDING (not finished): 1; RUNNING (not finished): 1") {
		t.Errorf("accounting summary %q", got)
	}
	h := res.Header
	for label, value := range map[string]string{"UnixStartTime": "1709287140", "MaxJobs": "3", "MaxProcs": "12", "MaxNodes": "2",
		"TimeZoneString": "UTC", "StartTime": "Fri Mar  1 09:59:00 UTC 2024", "EndTime": "Fri Mar  1 11:00:00 UTC 2024"} {
		if got, _ := h.Get(label); got != value {
			t.Errorf("header %s = %q, want %q", label, got, value)
		}
	}
	// MaxProcs: 9_3 (8 processors, 10:00-11:00) and 10 (4, from 10:00:30)
	// held 12 at once, more than the largest job's 8.
	if len(res.Warnings) != 2 || !strings.Contains(res.Warnings[1], "MaxProcs 12 is the most processors the jobs held at once (the largest job's: 8), a lower bound") {
		t.Errorf("warnings %q, want the two lower bounds", res.Warnings)
	}
	var names []string
	for _, m := range res.Names {
		names = append(names, m.Kind+":"+m.Name)
	}
	if got := strings.Join(names, " "); got != "user:bob user:ann group:chem group:phys queue:high queue:normal partition:debug partition:batch" {
		t.Errorf("names in order of first appearance: %s", got)
	}
}

func TestSacctTimeZone(t *testing.T) {
	text := "JobID|Submit|Start|End|State|NCPUS\n1|2024-07-01T12:00:00|2024-07-01T12:00:00|2024-07-01T12:00:05|COMPLETED|1\n"
	prague, _ := time.LoadLocation("Europe/Prague")
	res, err := sacct(t, text, Config{Location: prague, Procs: 16, Nodes: 2})
	if err != nil {
		t.Fatal(err)
	}
	// 12:00 in Prague in July (CEST, UTC+2) is 10:00 UTC.
	if v, _ := res.Header.Get("UnixStartTime"); v != "1719828000" {
		t.Errorf("UnixStartTime %s, want 1719828000", v)
	}
	if v, _ := res.Header.Get("MaxProcs"); v != "16" || len(res.Warnings) != 0 {
		t.Errorf("MaxProcs %s, warnings %q", v, res.Warnings)
	}
}

func TestSacctStates(t *testing.T) {
	for state, status := range map[string]int64{"COMPLETED": 1, "FAILED": 0, "TIMEOUT": 0, "NODE_FAIL": 0,
		"OUT_OF_MEMORY": 0, "BOOT_FAIL": 0, "DEADLINE": 0, "CANCELLED": 5, "CANCELLED by 0": 5, "CANCELLED+": 5, "PREEMPTED": 0} {
		text := "JobID|Submit|Start|End|State|AllocCPUS\n1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|" + state + "|1\n"
		res, err := sacct(t, text, Config{})
		if err != nil {
			t.Errorf("%s: %v", state, err)
			continue
		}
		if res.Jobs[0].Status != status {
			t.Errorf("%s: status %d, want %d", state, res.Jobs[0].Status, status)
		}
	}
	for _, state := range []string{"PENDING", "RUNNING", "REQUEUED", "SUSPENDED"} {
		text := "JobID|Submit|Start|End|State|AllocCPUS\n1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1\n" +
			"2|2024-01-01T00:00:00|Unknown|Unknown|" + state + "|1\n"
		res, err := sacct(t, text, Config{})
		if err != nil {
			t.Fatalf("%s: %v", state, err)
		}
		reason := state + " (not finished)"
		if state == "REQUEUED" {
			reason = SkipRequeuedRun
		}
		if len(res.Jobs) != 1 || len(res.Accounting.Skipped) != 1 || res.Accounting.Skipped[0].Reason != reason {
			t.Errorf("%s: %d jobs, skipped %+v", state, len(res.Jobs), res.Accounting.Skipped)
		}
	}
}

// A job cancelled while pending may show Start = End = the cancel time; with
// NodeList "None assigned" it did not start. One cancelled a second after it
// started, on a node, did.
func TestSacctCancelledPendingWithStart(t *testing.T) {
	text := "JobID|Submit|Start|End|State|AllocCPUS|NodeList\n" +
		"1|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:01:00|CANCELLED by 5|1|None assigned\n" +
		"2|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:01:00|CANCELLED by 5|1|node1\n" +
		// A --deadline job dropped as it became eligible (--begin=now+5): a real
		// Slurm 22.05 gave it Start = End once in several runs of the job mix.
		"3|2024-01-01T00:00:00|2024-01-01T00:00:05|2024-01-01T00:00:05|DEADLINE|1|None assigned\n"
	res, err := sacct(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{0, 2} {
		if j := res.Jobs[k]; j.WaitTime != -1 || j.RunTime != -1 || j.AllocatedProcs != -1 {
			t.Errorf("job %d, ended while pending: wait %d run %d procs %d, want -1", k+1, j.WaitTime, j.RunTime, j.AllocatedProcs)
		}
	}
	if j := res.Jobs[1]; j.WaitTime != 60 || j.RunTime != 0 || j.AllocatedProcs != 1 {
		t.Errorf("running cancel: wait %d run %d procs %d", j.WaitTime, j.RunTime, j.AllocatedProcs)
	}
}

func TestSacctArrayLine(t *testing.T) {
	text := "JobID|JobIDRaw|Submit|Start|End|State|AllocCPUS\n" +
		"81_1|95|2024-01-01T00:00:00|2024-01-01T00:00:01|2024-01-01T00:00:05|CANCELLED by 7|1\n" +
		"81_[2-4,7,10-14:2%1]|81|2024-01-01T00:00:00|None|2024-01-01T00:00:05|CANCELLED by 7|1\n"
	res, err := sacct(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, j := range res.Jobs {
		v, _ := j.ExtraValue("jobid")
		ids = append(ids, v)
	}
	if got := strings.Join(ids, " "); got != "81_1 81_2 81_3 81_4 81_7 81_10 81_12 81_14" {
		t.Errorf("jobs %s", got)
	}
	a := res.Accounting
	if a.JobLines != 2 || a.Jobs != 8 || a.ExpandedLines != 1 || !a.Balanced() {
		t.Errorf("accounting %+v", a)
	}

	// Slurm may still list, in the array's line, a task that started and has a
	// line of its own (seen on 22.05 when the array is cancelled as task 1 runs):
	// the task is converted once, from its own line, whatever the order.
	text = "JobID|JobIDRaw|Submit|Start|End|State|AllocCPUS\n" +
		"81_[1-4%1]|81|2024-01-01T00:00:00|None|2024-01-01T00:00:05|CANCELLED by 7|1\n" +
		"81_1|95|2024-01-01T00:00:00|2024-01-01T00:00:01|2024-01-01T00:00:05|CANCELLED by 7|1\n" +
		"82_[5]|96|2024-01-01T00:00:00|None|2024-01-01T00:00:05|CANCELLED by 7|1\n" +
		"82_5|96|2024-01-01T00:00:00|2024-01-01T00:00:01|2024-01-01T00:00:05|COMPLETED|1\n"
	if res, err = sacct(t, text, Config{}); err != nil {
		t.Fatal(err)
	}
	ids = nil
	for _, j := range res.Jobs {
		v, _ := j.ExtraValue("jobid")
		ids = append(ids, v+"/"+strconv.FormatInt(j.RunTime, 10))
	}
	if got := strings.Join(ids, " "); got != "81_2/-1 81_3/-1 81_4/-1 81_1/4 82_5/4" {
		t.Errorf("jobs %s", got)
	}
	a = res.Accounting
	if a.JobLines != 3 || a.Jobs != 5 || a.SkippedTotal() != 1 || !a.Balanced() {
		t.Errorf("accounting %+v", a)
	}
}

// Columns in another order, unknown columns, --parsable's trailing '|', CRLF
// line ends and a byte-order mark are all read.
func TestSacctLayout(t *testing.T) {
	text := "\uFEFFState|Comment|AllocCPUS|End|Start|Submit|JobID|\r\n" +
		"COMPLETED|x|2|2024-01-01T00:00:09|2024-01-01T00:00:04|2024-01-01T00:00:00|5|\r\n"
	res, err := sacct(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Jobs[0].AppendCanonical(nil)); got != "1 0 4 5 2 -1 -1 2 -1 -1 1 -1 -1 -1 -1 -1 -1 -1 jobid=5" {
		t.Errorf("got %s", got)
	}
}

func TestSacctErrors(t *testing.T) {
	const ok = "1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1\n"
	const head = "JobID|Submit|Start|End|State|AllocCPUS\n"
	tests := []struct {
		name, text string
		err        error
		message    string
	}{
		{"no header", ok, ErrHeaderLine, "dump.txt:1: expected the header line of `sacct --parsable2`"},
		{"empty", "", ErrHeaderLine, "dump.txt:1: empty input"},
		{"commas", "JobID,Submit,Start,End,State,AllocCPUS\n", ErrDelimiter, "dump.txt:1: the columns are separated by commas, not '|'"},
		{"spaces", "JobID Submit Start End State AllocCPUS\n", ErrDelimiter, "separated by spaces"},
		{"missing column", "JobID|Submit|Start|State\n", ErrMissingColumn, "dump.txt:1: the header lacks the column(s) End, AllocCPUS (or NCPUS)"},
		{"pipe in a name", "JobID|JobName|Submit|Start|End|State|AllocCPUS\n1|a|b|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1\n",
			ErrColumnCount, "dump.txt:2: 8 columns, the header has 7: a value contains '|'"},
		{"truncated", head + ok + "2|2024-01-01T00:00:00|2024-01-01T00", ErrTruncated, "dump.txt:3: the last line ends after 3 of 6 columns"},
		{"cut inside the last value", head + ok + "2|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1", ErrTruncated,
			"dump.txt:3: the last line has no newline"},
		{"short line", head + "2|2024-01-01T00:00:00\n" + ok, ErrColumnCount, "dump.txt:2: 2 columns, the header has 6"},
		{"unknown state", head + "1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|VANISHED|1\n", ErrState,
			`dump.txt:2: column State: unknown Slurm job state "VANISHED"`},
		{"bad time", head + "1|01/01/2024|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1\n", ErrValue,
			`dump.txt:2: column Submit: expected a time YYYY-MM-DDTHH:MM:SS (or Unknown, None), got "01/01/2024"`},
		{"bad cpus", head + "1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|four\n", ErrValue,
			`dump.txt:2: column AllocCPUS: expected a whole number, got "four"`},
		{"bad job id", head + "x1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1\n", ErrValue,
			`dump.txt:2: column JobID: expected a Slurm job id`},
		{"bad limit", "JobID|Submit|Start|End|State|AllocCPUS|Timelimit\n1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1|soon\n",
			ErrValue, `dump.txt:2: column Timelimit: expected UNLIMITED, Partition_Limit`},
		{"bad memory", "JobID|Submit|Start|End|State|AllocCPUS|ReqMem\n1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1|lots\n",
			ErrValue, `dump.txt:2: column ReqMem: expected a size`},
		// Go's parser takes a fractional second and a one-digit hour the
		// layout does not hold: they are not sacct's form, not a gap.
		{"fractional seconds", head + "1|2024-01-01T00:00:00.5|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1\n", ErrValue,
			`dump.txt:2: column Submit: expected a time YYYY-MM-DDTHH:MM:SS (or Unknown, None), got "2024-01-01T00:00:00.5"`},
		{"one-digit hour", head + "1|2024-01-01T0:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1\n", ErrValue,
			`dump.txt:2: column Submit: expected a time YYYY-MM-DDTHH:MM:SS (or Unknown, None), got "2024-01-01T0:00:00"`},
		{"time in a summer-time gap", head + "1|2024-03-31T02:30:00|2024-03-31T03:00:00|2024-03-31T03:00:09|COMPLETED|1\n", ErrValue,
			`dump.txt:2: column Submit: 2024-03-31T02:30:00 does not exist in the time zone Europe/Prague`},
		{"a job twice", head + ok + ok, ErrValue, "dump.txt:3: column JobID: job 1 is also on line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prague, _ := time.LoadLocation("Europe/Prague")
			_, err := sacct(t, tt.text, Config{Location: prague})
			var pe *swf.ParseError
			if !errors.Is(err, tt.err) || !errors.As(err, &pe) {
				t.Fatalf("error %v, want a ParseError wrapping %v", err, tt.err)
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("error %q lacks %q", err, tt.message)
			}
		})
	}
}

// TestSacctRange: a value that does not fit, in 64 bits or in the toolkit's
// bounds (times within 2^40 s, processors up to 2^31-1, sizes up to 2^53 KB),
// is an error naming the line and the column, never a wrapped number.
func TestSacctRange(t *testing.T) {
	const head = "JobID|Submit|Start|End|State|AllocCPUS|NCPUS|ReqCPUS|NNodes|Timelimit|ElapsedRaw|TotalCPU|MaxRSS|ReqMem|ExitCode\n"
	// line builds a job line with some columns changed: column, value, ...
	line := func(id string, changes ...string) string {
		cols := strings.Split(strings.TrimSuffix(head, "\n"), "|")
		vals := []string{id, "2024-01-01T00:00:00", "2024-01-01T00:00:00", "2024-01-01T00:00:09", "COMPLETED",
			"2", "2", "2", "1", "01:00:00", "9", "00:00:10", "1000K", "1000M", "0:0"}
		for k := 0; k < len(changes); k += 2 {
			for i, c := range cols {
				if c == changes[k] {
					vals[i] = changes[k+1]
				}
			}
		}
		return strings.Join(vals, "|") + "\n"
	}
	tests := []struct{ name, text, message string }{
		{"ReqMem", head + line("1", "ReqMem", "99999999999P"), `dump.txt:2: column ReqMem: "99999999999P" is `},
		{"MaxRSS", head + line("1", "MaxRSS", "99999999999P"), `dump.txt:2: column MaxRSS: "99999999999P" is `},
		{"MaxRSS of a step", head + line("1") + line("1.batch", "MaxRSS", "99999999999P"), `dump.txt:3: column MaxRSS: "99999999999P" is `},
		{"ReqMem per node", head + line("1", "ReqMem", "8000000000000000Kn", "NNodes", "4"), `dump.txt:2: column ReqMem: `},
		{"AllocCPUS", head + line("1", "AllocCPUS", "99999999999"), `dump.txt:2: column AllocCPUS: "99999999999" is `},
		{"AllocCPUS beyond 64 bits", head + line("1", "AllocCPUS", "99999999999999999999"), `dump.txt:2: column AllocCPUS: "99999999999999999999" is `},
		{"ReqCPUS", head + line("1", "ReqCPUS", "2147483648"), `dump.txt:2: column ReqCPUS: "2147483648" is `},
		{"NNodes", head + line("1", "NNodes", "99999999999"), `dump.txt:2: column NNodes: "99999999999" is `},
		{"Timelimit", head + line("1", "Timelimit", "4294967295-00:00:00"), `dump.txt:2: column Timelimit: "4294967295-00:00:00" is `},
		{"Timelimit in minutes", head + line("1", "Timelimit", "99999999999999999999"), `dump.txt:2: column Timelimit: "99999999999999999999" is `},
		{"ElapsedRaw", head + line("1", "End", "Unknown", "ElapsedRaw", "9223372036854775807"),
			`dump.txt:2: column ElapsedRaw: "9223372036854775807" is `},
		{"TotalCPU", head + line("1", "TotalCPU", "4294967295-00:00:00"), `dump.txt:2: column TotalCPU: "4294967295-00:00:00" is `},
		{"TotalCPU of the steps", head + line("1", "TotalCPU", "") + line("1.0", "TotalCPU", "10000000-00:00:00") + line("1.1", "TotalCPU", "10000000-00:00:00"),
			`dump.txt:4: column TotalCPU: `},
		{"ExitCode", head + line("1", "ExitCode", "99999999999999999999:0"), `dump.txt:2: column ExitCode: `},
		{"ExitCode above a byte", head + line("1", "ExitCode", "256:0"), `dump.txt:2: column ExitCode: `},
		{"signal above a byte", head + line("1", "ExitCode", "0:300"), `dump.txt:2: column ExitCode: `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := sacct(t, tt.text, Config{})
			var pe *swf.ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.message) {
				var got string
				if res != nil {
					got = string(res.Jobs[0].AppendCanonical(nil))
				}
				t.Fatalf("error %v (job %s), want a ParseError with %q", err, got, tt.message)
			}
			lenient, err := sacct(t, tt.text+line("7"), Config{Lenient: true})
			if err != nil {
				t.Fatal(err)
			}
			if a := lenient.Accounting; a.Malformed != 1 || !a.Balanced() || len(a.FirstErrors) != 1 || !strings.Contains(a.FirstErrors[0], tt.message) {
				t.Errorf("lenient: %+v", a)
			}
		})
	}
	if _, err := sacct(t, head+line("1")+line("2", "ExitCode", "255:127")+line("3", "AllocCPUS", "2147483647", "MaxRSS", "8589934591G"), Config{}); err != nil {
		t.Errorf("values at the bounds: %v", err)
	}
}

// TestSacctChecks: durations with a component out of its range, a column
// twice in the header, and times before 1970 are errors naming the column.
func TestSacctChecks(t *testing.T) {
	const head = "JobID|Submit|Start|End|State|AllocCPUS|Timelimit|TotalCPU\n"
	const job = "1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1|"
	tests := []struct {
		name, text string
		err        error
		message    string
	}{
		{"Timelimit hours", head + job + "1-25:00:00|00:00:01\n", ErrValue, `dump.txt:2: column Timelimit: expected UNLIMITED, Partition_Limit, INVALID, NONE, [D-]HH:MM:SS`},
		{"Timelimit minutes", head + job + "1-02:60:00|00:00:01\n", ErrValue, `dump.txt:2: column Timelimit: `},
		{"Timelimit seconds", head + job + "02:00:60|00:00:01\n", ErrValue, `dump.txt:2: column Timelimit: `},
		{"TotalCPU", head + job + "01:00:00|99-99:99:99\n", ErrValue, `dump.txt:2: column TotalCPU: expected a duration`},
		{"TotalCPU seconds", head + job + "01:00:00|00:60.5\n", ErrValue, `dump.txt:2: column TotalCPU: `},
		{"column twice", "JobID|State|Submit|Start|End|State|AllocCPUS\n", ErrHeaderLine, `dump.txt:1: column State: twice in the header (columns 2 and 6)`},
		{"column twice in other case", "JobID|Submit|Start|End|State|AllocCPUS|ncpus|NCPUS\n", ErrHeaderLine, `dump.txt:1: column NCPUS: twice in the header (columns 7 and 8)`},
		{"Submit in year 1", head + "1|0001-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1|01:00:00|00:00:01\n", ErrRange,
			`dump.txt:2: column Submit: 0001-01-01T00:00:00 is out of range`},
		{"End before 1970", head + "1|2024-01-01T00:00:00|2024-01-01T00:00:00|1969-12-31T23:59:59|COMPLETED|1|01:00:00|00:00:01\n", ErrRange,
			`dump.txt:2: column End: 1969-12-31T23:59:59 is out of range`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sacct(t, tt.text, Config{})
			if !errors.Is(err, tt.err) || err == nil || !strings.Contains(err.Error(), tt.message) {
				t.Errorf("error %v, want %v with %q", err, tt.err, tt.message)
			}
		})
	}
	// At the edges of their ranges, and columns Slurm never prints twice but
	// that the conversion does not read, are fine.
	ok := "JobID|Comment|Submit|Start|End|State|AllocCPUS|Timelimit|TotalCPU|Comment\n" +
		"1|a|1970-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1|1-23:59:59|36:00:59.999|b\n"
	res, err := sacct(t, ok, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Jobs[0].RequestedTime; got != 86400+86399 {
		t.Errorf("requested time %d", got)
	}
}

// TestSacctOrphanStep: a step line whose job has no line in the dump is a
// counted skip of its own, not a step line; the accounting still balances.
func TestSacctOrphanStep(t *testing.T) {
	text := "JobID|Submit|Start|End|State|AllocCPUS|TotalCPU\n" +
		"1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1|\n" +
		"1.batch|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1|00:00:05\n" +
		"2.batch|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1|00:00:05\n" +
		"2.0|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1|00:00:05\n" +
		"3|2024-01-01T00:00:00|2024-01-01T00:00:00|Unknown|RUNNING|1|\n" +
		"3.batch|2024-01-01T00:00:00|2024-01-01T00:00:00|Unknown|RUNNING|1|\n"
	res, err := sacct(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Accounting
	if a.StepLines != 1 || a.JobLines != 1 || !a.Balanced() || res.Jobs[0].AverageCPUTime != 5 {
		t.Errorf("accounting %s; job %s", a.String(), res.Jobs[0].AppendCanonical(nil))
	}
	if !strings.Contains(a.String(), "step without its job: 2") || !strings.Contains(a.String(), "step of a skipped job line: 1") {
		t.Errorf("accounting lacks the orphan steps: %s", a.String())
	}
}

// With --duplicates sacct prints each run of a requeued job with its steps
// after it: each run's steps are credited to that run (a partial execution),
// not to the run that completed (its memory and CPU time are its own), and
// the steps of a run whose job is not written are skipped with it.
func TestSacctRequeuedRunKeepsItsSteps(t *testing.T) {
	text := "JobID|Submit|Start|End|State|AllocCPUS|TotalCPU|MaxRSS\n" +
		"400|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:05:00|REQUEUED|2||\n" +
		"400.batch|2024-01-01T00:01:00|2024-01-01T00:01:00|2024-01-01T00:05:00|CANCELLED|2|00:04:00|9000000K\n" +
		"400|2024-01-01T00:05:00|2024-01-01T00:07:00|2024-01-01T00:10:00|COMPLETED|2||\n" +
		"400.batch|2024-01-01T00:07:00|2024-01-01T00:07:00|2024-01-01T00:10:00|COMPLETED|2|00:03:00|100K\n" +
		"401|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:05:00|REQUEUED|2||\n" +
		"401.batch|2024-01-01T00:01:00|2024-01-01T00:01:00|2024-01-01T00:05:00|CANCELLED|2|00:04:00|900K\n"
	res, err := sacct(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Accounting
	if len(res.Jobs) != 2 || a.JobLines != 2 || a.StepLines != 2 || a.Parts != 1 || !a.Balanced() ||
		!strings.Contains(a.String(), SkipRequeuedRun+": 1; step of a skipped job line: 1") {
		t.Fatalf("accounting %s", a.String())
	}
	// The first run: 240 s of CPU over 2 processors, 9000000 KB; the
	// final one: 180 s over 2 for a 180 s run, 100 KB.
	if j := res.Jobs[0]; j.JobNumber != 1 || j.Status != 2 || j.WaitTime != 60 || j.RunTime != 240 || j.AverageCPUTime != 120 || j.UsedMemory != 9000000 {
		t.Errorf("first run %s: want part of job 1, wait 60, run 240, CPU 120 s and 9000000 KB, its own steps", j.AppendCanonical(nil))
	}
	if j := res.Jobs[1]; j.JobNumber != 1 || j.Status != 3 || j.WaitTime != 420 || j.RunTime != 180 || j.AverageCPUTime != 90 || j.UsedMemory != 100 {
		t.Errorf("final run %s: want last part of job 1, wait 420, run 180, CPU 90 s and 100 KB, the final run's steps alone", j.AppendCanonical(nil))
	}
}

// A requeued job that ended (cancelled) before it started again: its last
// run that started is its last part (status 4 after earlier parts; with no
// earlier part, one record with the line's own status, cancelled), and the
// line that never ran is skipped and counted. Written as it was, it was a
// last part without a run, which swfclean's defaults drop, leaving a lone
// status-2 part (found in review).
func TestSacctRequeuedThenCancelledUnstarted(t *testing.T) {
	text := "JobID|Submit|Start|End|State|AllocCPUS|TotalCPU|MaxRSS\n" +
		"501|2024-01-01T00:02:00|2024-01-01T00:03:00|2024-01-01T00:04:00|REQUEUED|1||\n" +
		"501.batch|2024-01-01T00:03:00|2024-01-01T00:03:00|2024-01-01T00:04:00|CANCELLED|1|00:01:00|100K\n" +
		"501|2024-01-01T00:04:00|None|2024-01-01T00:30:00|CANCELLED|1||\n" +
		"502|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:02:00|REQUEUED|2||\n" +
		"502|2024-01-01T00:02:00|2024-01-01T00:03:00|2024-01-01T00:05:00|REQUEUED|2||\n" +
		"502|2024-01-01T00:05:00|None|2024-01-01T00:30:00|CANCELLED|2||\n"
	res, err := sacct(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Accounting
	if len(res.Jobs) != 3 || a.JobLines != 3 || a.Parts != 1 || !a.Balanced() ||
		!strings.Contains(a.String(), SkipRequeuedNotRestarted+": 2") {
		t.Fatalf("%d records, accounting %s", len(res.Jobs), a.String())
	}
	var got []string
	for _, j := range res.Jobs {
		got = append(got, fmt.Sprintf("%d %d %d %d %d", j.JobNumber, j.SubmitTime, j.WaitTime, j.RunTime, j.Status))
	}
	// 502 (submitted first): a part of 60 s, then its last part of 120 s,
	// failed (4); 501: one run of 60 s, cancelled after it ran (5).
	want := []string{"1 0 60 60 2", "1 0 180 120 4", "2 120 60 60 5"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("records (number submit wait run status)\n%s\nwant\n%s", strings.Join(got, "; "), strings.Join(want, "; "))
	}
}

// sacctRequeueDump is `sacct -D` on a real Slurm 22.05: job 1, submitted with
// --requeue at 17:16:48, was requeued after 6 s of running; Slurm reset its
// submit time to 17:16:54 and rewrote its UNLIMITED limit to 365-00:00:00.
const sacctRequeueDump = "JobID|JobIDRaw|User|Group|Account|Partition|QOS|Submit|Eligible|Start|End|Elapsed|ElapsedRaw|Timelimit|State|ExitCode|AllocCPUS|ReqCPUS|NCPUS|NNodes|NodeList|ReqMem|MaxRSS|TotalCPU\n" +
	"1|1|swfalice|swfphys|swfkit|debug|normal|2026-12-07T17:16:48|2026-12-07T17:16:48|2026-12-07T17:16:48|2026-12-07T17:16:54|00:00:06|6|UNLIMITED|REQUEUED|0:0|1|1|1|1|node1|1000M||00:00.006\n" +
	"1.batch|1.batch|||swfkit|||2026-12-07T17:16:48|2026-12-07T17:16:48|2026-12-07T17:16:48|2026-12-07T17:16:54|00:00:06|6||CANCELLED|0:15|1|1|1|1|node1||3060K|00:00.006\n" +
	"2|2|swfbob|swfphys|swfkit|debug|normal|2026-12-07T17:16:48|2026-12-07T17:16:48|2026-12-07T17:16:48|2026-12-07T17:16:53|00:00:05|5|UNLIMITED|COMPLETED|0:0|4|4|4|1|node1|4000M||00:00.415\n" +
	"2.batch|2.batch|||swfkit|||2026-12-07T17:16:48|2026-12-07T17:16:48|2026-12-07T17:16:48|2026-12-07T17:16:53|00:00:05|5||COMPLETED|0:0|4|4|4|1|node1||316548K|00:00.415\n" +
	"1|1|swfalice|swfphys|swfkit|debug|normal|2026-12-07T17:16:54|2026-12-07T17:18:55|2026-12-07T17:18:59|2026-12-07T17:19:19|00:00:20|20|365-00:00:00|COMPLETED|0:0|1|1|1|1|node1|1000M||00:00.003\n" +
	"1.batch|1.batch|||swfkit|||2026-12-07T17:18:59|2026-12-07T17:18:59|2026-12-07T17:18:59|2026-12-07T17:19:19|00:00:20|20||COMPLETED|0:0|1|1|1|1|node1||3000K|00:00.003\n"

// A requeued job is written once, with the submit time of its first run (the
// REQUEUED line's Submit): Slurm resets the submit time at a requeue, which
// understated the wait by the 6 s before it. The earlier run is counted.
func TestSacctRequeuedJobKeepsFirstSubmit(t *testing.T) {
	res, err := sacct(t, sacctRequeueDump, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Jobs) != 3 {
		t.Fatalf("%d records, want 3 (job 2; job 1's requeued run and its last run)", len(res.Jobs))
	}
	// Job 1 submitted 17:16:48 with job 2 (ties in file order: its last
	// line comes after job 2's): its first run, a partial execution (status
	// 2), started at once and ran 6 s; its last part started 17:18:59, a
	// wait of 131 s from the submit (the first run and the requeue
	// included), ran 20 s and completed (status 3), with the final run's
	// steps and limit (Slurm's 365-00:00:00, converted as it is).
	want := []struct {
		id                        string
		number, status, wait, run int64
		memory                    float64
	}{{"2", 1, 1, 0, 5, 316548}, {"1", 2, 2, 0, 6, 3060}, {"1", 2, 3, 131, 20, 3000}}
	for i, w := range want {
		j := res.Jobs[i]
		if id, _ := j.ExtraValue("jobid"); id != w.id || j.JobNumber != w.number || j.Status != w.status || j.SubmitTime != 0 ||
			j.WaitTime != w.wait || j.RunTime != w.run || float64(j.UsedMemory) != w.memory {
			t.Errorf("record %d: %s, want jobid=%s number %d status %d wait %d run %d memory %v", i+1, j.AppendCanonical(nil),
				w.id, w.number, w.status, w.wait, w.run, w.memory)
		}
	}
	if j := res.Jobs[2]; j.RequestedTime != 31536000 {
		t.Errorf("requeued job's last part: %s, want Slurm's limit 31536000", j.AppendCanonical(nil))
	}
	a := res.Accounting
	if a.JobLines != 3 || a.Parts != 1 || a.SkippedTotal() != 0 || !a.Balanced() ||
		!strings.Contains(a.String(), "3 records written: 2 jobs, and 1 earlier runs of them as partial executions") {
		t.Errorf("accounting %s", a.String())
	}
	if v, _ := res.Header.Get("Preemption"); v != "Yes" {
		t.Errorf("Preemption %q, want Yes: a job spans several lines", v)
	}
	if v, _ := res.Header.Get("MaxJobs"); v != "2" {
		t.Errorf("MaxJobs %q, want 2", v)
	}
	if v, _ := res.Header.Get("MaxRecords"); v != "3" {
		t.Errorf("MaxRecords %q, want 3", v)
	}
	if !strings.Contains(strings.Join(res.Header.GetAll("Note"), "\n"), "requeued jobs: 1;") {
		t.Errorf("no Note on the requeued job: %v", res.Header.GetAll("Note"))
	}
	// The run line may come first: the first submit is kept all the same;
	// and a REQUEUED line with a malformed Submit is an error naming it.
	lines := strings.SplitAfter(sacctRequeueDump, "\n")
	swapped := lines[0] + lines[5] + lines[6] + lines[3] + lines[4] + lines[1] + lines[2]
	res, err = sacct(t, swapped, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range res.Jobs {
		if id, _ := j.ExtraValue("jobid"); id == "1" && (j.SubmitTime != 0 || j.Status == 3 && j.WaitTime != 131 || j.Status == 2 && j.WaitTime != 0) {
			t.Errorf("run line first: %s", j.AppendCanonical(nil))
		}
	}
	bad := strings.Replace(sacctRequeueDump, "normal|2026-12-07T17:16:48|2026-12-07T17:16:48|2026-12-07T17:16:48|2026-12-07T17:16:54|00:00:06", "normal|yesterday|2026-12-07T17:16:48|2026-12-07T17:16:48|2026-12-07T17:16:54|00:00:06", 1)
	if _, err := sacct(t, bad, Config{}); err == nil || !strings.Contains(err.Error(), "dump.txt:2: column Submit") {
		t.Errorf("malformed Submit of a REQUEUED line: %v", err)
	}
}

// With --lenient a malformed job line is skipped, and so are the step lines
// after it: they are its run's, and crediting them to an earlier line of the
// same id (a job listed twice) would change that job's CPU time and memory.
func TestSacctLenientSkipsStepsOfMalformedLine(t *testing.T) {
	text := "JobID|Submit|Start|End|State|AllocCPUS|TotalCPU|MaxRSS\n" +
		"5|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:10:10|COMPLETED|2||\n" +
		"5.batch|2024-01-01T00:00:10|2024-01-01T00:00:10|2024-01-01T00:10:10|COMPLETED|2|00:10:00|100M\n" +
		"5|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:10:10|COMPLETED|2||\n" +
		"5.batch|2024-01-01T00:00:10|2024-01-01T00:00:10|2024-01-01T00:10:10|COMPLETED|2|00:10:00|900M\n" +
		"6|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:10:10|COMPLETED|xx||\n" +
		"6.batch|2024-01-01T00:00:10|2024-01-01T00:00:10|2024-01-01T00:10:10|COMPLETED|2|00:10:00|900M\n"
	res, err := sacct(t, text, Config{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Accounting
	if len(res.Jobs) != 1 || a.Malformed != 2 || a.StepLines != 1 || !a.Balanced() ||
		!strings.Contains(a.String(), "step of a malformed job line: 2") {
		t.Fatalf("accounting %s", a.String())
	}
	// 600 s of CPU over 2 processors; 100 MB: the first line's step alone.
	if j := res.Jobs[0]; j.AverageCPUTime != 300 || j.UsedMemory != 100<<10 {
		t.Errorf("job %s: want average CPU 300 s and 102400 KB, job 5's own step alone", j.AppendCanonical(nil))
	}
}

func TestSacctLenient(t *testing.T) {
	text := "JobID|Submit|Start|End|State|AllocCPUS\n" +
		"1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|VANISHED|1\n" +
		"2|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|COMPLETED|1\n" +
		"\n" +
		"3|2024-01-01T00:00:00|2024-01-01T00"
	res, err := sacct(t, text, Config{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Accounting
	if a.Lines != 5 || a.Malformed != 2 || a.BlankLines != 1 || a.Jobs != 1 || !a.Balanced() || len(a.FirstErrors) != 2 {
		t.Errorf("accounting %+v", a)
	}
}

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in          string
		bareMinutes bool
		want        float64
		ok          bool
	}{
		{"00:20:00", true, 1200, true},
		{"1-00:00:00", true, 86400, true},
		{"2-03:04:05", true, 2*86400 + 3*3600 + 4*60 + 5, true},
		{"1-02", true, 86400 + 7200, true},
		{"1-02:30", true, 86400 + 7200 + 1800, true},
		{"0-05", true, 5 * 3600, true},
		{"0-05:30", true, 5*3600 + 1800, true},
		{"0-00:00:07", true, 7, true},
		{"05:30", true, 330, true},
		{"45", true, 2700, true},
		{"00:00.846", false, 0.846, true},
		{"01:02:03.5", false, 3723.5, true},
		{"12", false, 12, true},
		{"", true, 0, false},
		{"1:2:3:4", true, 0, false},
		{"-5", true, 0, false},
		{"1.5:00", true, 0, false},
		{"x", true, 0, false},
		{"1e3", true, 0, false},
		{"36:00:00", true, 129600, true},
		{"1-24:00:00", true, 0, false},
		{"1-24", true, 0, false},
		{"00:60", false, 0, false},
		{"10:00:59.999", false, 36059.999, true},
		{"10:00:60", false, 0, false},
	}
	for _, tt := range tests {
		got, ok := parseDuration(tt.in, tt.bareMinutes)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseMemKB(t *testing.T) {
	tests := []struct {
		in   string
		bare float64
		want int64
		ok   bool
	}{
		{"3236K", 1.0 / 1024, 3236, true},
		{"3M", 1.0 / 1024, 3072, true},
		{"1.5G", 1.0 / 1024, 1572864, true},
		{"192516096", 1.0 / 1024, 188004, true}, // bytes (sacct --noconvert)
		{"0", 1.0 / 1024, 0, true},
		{"4000", 1024, 4096000, true}, // MB (ReqMem without a unit)
		{"", 1, 0, false},
		{"M", 1, 0, false},
		{"-3K", 1, 0, false},
		{"3Q", 1, 0, false},
	}
	for _, tt := range tests {
		kb, ok := parseMemKB(tt.in, tt.bare)
		got := int64(math.Round(kb))
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("parseMemKB(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSplitJobID(t *testing.T) {
	tests := []struct{ in, base, step string }{
		{"123", "123", ""}, {"123.batch", "123", "batch"}, {"123_4", "123_4", ""}, {"123_4.0", "123_4", "0"},
		{"123+1.extern", "123+1", "extern"}, {"123_[2-4%1]", "123_[2-4%1]", ""},
	}
	for _, tt := range tests {
		base, step, ok := splitJobID(tt.in)
		if !ok || base != tt.base || step != tt.step {
			t.Errorf("splitJobID(%q) = %q, %q, %v", tt.in, base, step, ok)
		}
	}
	for _, bad := range []string{"", "abc", "12a", "12_", "12+", "12.", "_3"} {
		if _, _, ok := splitJobID(bad); ok {
			t.Errorf("splitJobID(%q) accepted", bad)
		}
	}
}

// FuzzReadSacct: any input either fails with a ParseError or converts with every
// line accounted for and jobs numbered 1..n in submit order, a requeued job's
// parts sharing its number.
func FuzzReadSacct(f *testing.F) {
	f.Add(sacctHead + "10|2024-03-01T10:00:00|2024-03-01T10:00:30|2024-03-01T10:10:30|COMPLETED|4|4|1|00:20:00|4000M|00:08:00||ann|phys|batch|normal\n")
	f.Add("JobID|Submit|Start|End|State|AllocCPUS\n81_[2-4%1]|2024-01-01T00:00:00|None|2024-01-01T00:00:05|CANCELLED by 7|1\n")
	f.Add("JobID|Submit|Start|End|State|NCPUS|\n1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:09|TIMEOUT|1|\n1.0|||||1|\n")
	f.Add("JobID|Submit|Start|End|State|AllocCPUS|ReqCPUS|Timelimit|ElapsedRaw|TotalCPU|MaxRSS|ReqMem\n" +
		"1|2024-01-01T00:00:00|2024-01-01T00:00:00|Unknown|COMPLETED|99999999999|99999999999|4294967295-00:00:00|9223372036854775807|4294967295-00:00:00|99999999999P|99999999999P\n")
	f.Add(sacctRequeueDump)
	f.Fuzz(func(t *testing.T, text string) {
		for _, lenient := range []bool{false, true} {
			res, err := ReadSacct(strings.NewReader(text), Config{Name: "f", Lenient: lenient})
			if err != nil {
				var pe *swf.ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("error %v is not a ParseError", err)
				}
				continue
			}
			if !res.Accounting.Balanced() || res.Accounting.Jobs != len(res.Jobs) {
				t.Fatalf("accounting %+v for %d jobs", res.Accounting, len(res.Jobs))
			}
			// A job number on several records: the parts of a requeued
			// job, status 2 but the last (3 or 4), with one submit time.
			number, parts := int64(0), 0
			for i := range res.Jobs {
				j := &res.Jobs[i]
				partOfPrevious := i > 0 && res.Jobs[i-1].Status == swf.StatusPartial
				switch {
				case partOfPrevious && (j.JobNumber != number || j.SubmitTime != res.Jobs[i-1].SubmitTime):
					t.Fatalf("record %d: number %d submit %d after a part of job %d", i, j.JobNumber, j.SubmitTime, number)
				case !partOfPrevious && (j.JobNumber != number+1 || i > 0 && j.SubmitTime < res.Jobs[i-1].SubmitTime):
					t.Fatalf("record %d: number %d submit %d", i, j.JobNumber, j.SubmitTime)
				case partOfPrevious && j.Status != swf.StatusPartial && j.Status != swf.StatusLastOK && j.Status != swf.StatusLastFail:
					t.Fatalf("record %d: status %d after a part", i, j.Status)
				}
				if j.Status == swf.StatusPartial {
					parts++
				}
				number = j.JobNumber
			}
			if parts != res.Accounting.Parts || int(number) != len(res.Jobs)-parts {
				t.Fatalf("%d parts (accounting %d), %d jobs, %d records", parts, res.Accounting.Parts, number, len(res.Jobs))
			}
			readsBack(t, res)
		}
	})
}

// The hour repeated when summer time ends (Europe/Prague, 2024-10-27: 02:00 to
// 02:59 happen twice, first in CEST, UTC+2, then in CET, UTC+1). A time in it is
// read as its first occurrence unless only the second keeps the job's times in
// order.
func TestSacctRepeatedHour(t *testing.T) {
	const head = "JobID|Submit|Start|End|State|AllocCPUS\n"
	tests := []struct {
		name, line string
		run        int64
	}{
		// 02:10 CEST (00:10 UTC) to 02:50 CEST (00:50 UTC)
		{"both first", "1|2024-10-27T01:00:00|2024-10-27T02:10:00|2024-10-27T02:50:00|COMPLETED|1", 2400},
		// 02:50 CEST (00:50 UTC) to 02:10 CET (01:10 UTC): across the change
		{"across the change", "1|2024-10-27T01:00:00|2024-10-27T02:50:00|2024-10-27T02:10:00|COMPLETED|1", 1200},
		// 02:30 CEST (00:30 UTC) to 03:00 CET (02:00 UTC)
		{"end after the hour", "1|2024-10-27T01:00:00|2024-10-27T02:30:00|2024-10-27T03:00:00|COMPLETED|1", 5400},
	}
	prague, err := time.LoadLocation("Europe/Prague")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := sacct(t, head+tt.line+"\n", Config{Location: prague})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Jobs[0].RunTime; got != tt.run {
				t.Errorf("run time %d, want %d", got, tt.run)
			}
			if got := res.Jobs[0].WaitTime; got < 0 {
				t.Errorf("negative wait %d", got)
			}
		})
	}
}

// TestSacctRepeatedHourElapsed: when the line has ElapsedRaw, the occurrence of
// a repeated local time is the one that gives End - Start = ElapsedRaw, even
// where the first occurrence would keep the times in order.
func TestSacctRepeatedHourElapsed(t *testing.T) {
	prague, err := time.LoadLocation("Europe/Prague")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	const head = "JobID|Submit|Start|End|State|AllocCPUS|ElapsedRaw\n"
	for _, tt := range []struct {
		elapsed string
		run     int64
	}{
		{"4800", 4800}, // 01:50 CEST to 02:10 CET
		{"1200", 1200}, // 01:50 CEST to 02:10 CEST
		{"999", 1200},  // neither (a suspended job): the first occurrence, as without ElapsedRaw
	} {
		line := "1|2024-10-27T01:40:00|2024-10-27T01:50:00|2024-10-27T02:10:00|COMPLETED|1|" + tt.elapsed + "\n"
		res, err := sacct(t, head+line, Config{Location: prague})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Jobs[0].RunTime; got != tt.run {
			t.Errorf("ElapsedRaw %s: run time %d, want %d", tt.elapsed, got, tt.run)
		}
	}
}

// TestSacctArrayLinesOverlap: two array lines that stand for the same pending
// task (two dumps put together) are an error naming both lines; with
// --lenient the later line is skipped as malformed, none of its tasks kept.
func TestSacctArrayLinesOverlap(t *testing.T) {
	const head = "JobID|Submit|Start|End|State|AllocCPUS\n"
	text := head +
		"5_[1-3]|2024-05-01T10:00:00|None|2024-05-01T10:10:00|CANCELLED by 0|1\n" +
		"5_[2-4]|2024-05-01T10:05:00|None|2024-05-01T10:10:00|CANCELLED by 0|7\n"
	_, err := sacct(t, text, Config{})
	if err == nil || !strings.Contains(err.Error(), "dump.txt:3: column JobID: array task 5_2 is also in the array line on line 2") {
		t.Errorf("overlapping array lines: %v", err)
	}
	res, err := sacct(t, text, Config{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Accounting
	if a.Jobs != 3 || a.JobLines != 1 || a.Malformed != 1 || a.ExpandedLines != 1 || !a.Balanced() {
		t.Errorf("accounting %+v", a)
	}
	_, err = sacct(t, head+"5_[1-3,2]|2024-05-01T10:00:00|None|2024-05-01T10:10:00|CANCELLED by 0|1\n", Config{})
	if err == nil || !strings.Contains(err.Error(), "array task 5_2 is listed twice") {
		t.Errorf("a task twice in one line: %v", err)
	}
	// Slurm's largest array: task ids 0 to 4,000,000, in one line or in parts.
	for _, tt := range []struct{ spec, want string }{
		{"1-3,0-4000000", "more than 4000001 array tasks"},
		{"0-4000001", "array task 4000001 in"},
		// Ranges whose length or whose last step overflows an int.
		{"0-9223372036854775807", "beyond 4000000, the largest task id"},
		{"9223372036854775806-9223372036854775807", "beyond 4000000, the largest task id"},
		{"0-4000000,1-2", "more than 4000001"},
	} {
		_, err = sacct(t, head+"5_["+tt.spec+"]|2024-05-01T10:00:00|None|2024-05-01T10:10:00|CANCELLED by 0|1\n", Config{})
		if !errors.Is(err, swf.ErrRange) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v", tt.spec, err)
		}
	}
}

// TestSacctTimesOutOfOrder: a Start before Submit or an End before Start is
// kept as given (for --check and the cleaning rules), with a warning and a Note.
func TestSacctTimesOutOfOrder(t *testing.T) {
	text := "JobID|Submit|Start|End|State|AllocCPUS|ElapsedRaw\n" +
		"1|2024-05-01T10:00:00|2024-05-01T10:00:00|2024-05-01T09:10:00|COMPLETED|1|600\n" +
		"2|2024-05-01T10:00:00|2024-05-01T09:00:00|2024-05-01T09:10:00|COMPLETED|1|600\n" +
		"3|2024-05-01T10:00:00|2024-05-01T10:00:00|2024-05-01T10:10:00|COMPLETED|1|600\n"
	res, err := sacct(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs[0].RunTime != -3000 || res.Jobs[1].WaitTime != -3600 {
		t.Errorf("jobs %+v %+v", res.Jobs[0], res.Jobs[1])
	}
	w := strings.Join(res.Warnings, "\n")
	notes := strings.Join(res.Header.GetAll("Note"), "\n")
	for _, want := range []string{"1 job lines have Start before Submit (a negative wait), first line 3",
		"1 job lines have End before Start (a negative run time), first line 2"} {
		if !strings.Contains(w, want) || !strings.Contains(notes, want) {
			t.Errorf("warnings and notes lack %q:\n%s\n%s", want, w, notes)
		}
	}
	// A line skipped as malformed (--lenient) is not counted.
	text = "JobID|Submit|Start|End|State|AllocCPUS|ElapsedRaw\n" +
		"1|2024-05-01T10:00:00|2024-05-01T09:00:00|2024-05-01T09:10:00|COMPLETED|x|600\n" +
		"2|2024-05-01T10:00:00|2024-05-01T10:00:00|2024-05-01T10:10:00|COMPLETED|1|600\n"
	if res, err = sacct(t, text, Config{Lenient: true}); err != nil {
		t.Fatal(err)
	}
	if res.Accounting.Malformed != 1 || strings.Contains(strings.Join(res.Warnings, "\n"), "Start before Submit") {
		t.Errorf("a malformed line counted: %q, %+v", res.Warnings, res.Accounting)
	}
}

// TestSacctPerNodeMemoryWithoutNNodes: ReqMem per node (4000Mn) needs the
// job's node count; a dump without the NNodes column used to write field 10
// as -1 on every such line without a word.
func TestSacctPerNodeMemoryWithoutNNodes(t *testing.T) {
	text := "JobID|Submit|Start|End|State|AllocCPUS|ReqMem\n" +
		"1|2024-05-01T10:00:00|2024-05-01T10:00:00|2024-05-01T10:10:00|COMPLETED|4|4000Mn\n" +
		"2|2024-05-01T10:00:00|2024-05-01T10:00:00|2024-05-01T10:10:00|COMPLETED|4|4000Mc\n" +
		"3|2024-05-01T10:00:00|2024-05-01T10:00:00|2024-05-01T10:10:00|COMPLETED|4|4000Mn\n"
	res, err := sacct(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs[0].RequestedMemory != -1 || res.Jobs[1].RequestedMemory != 4000*1024 {
		t.Errorf("jobs %+v %+v", res.Jobs[0], res.Jobs[1])
	}
	want := "2 job lines have ReqMem per node (such as 4000Mn), first line 2, but the dump has no NNodes column"
	if w, notes := strings.Join(res.Warnings, "\n"), strings.Join(res.Header.GetAll("Note"), "\n"); !strings.Contains(w, want) || !strings.Contains(notes, want) {
		t.Errorf("warnings and notes lack %q:\n%s\n%s", want, w, notes)
	}
	// With the column, no warning (an empty NNodes of a job is its own matter).
	text = "JobID|Submit|Start|End|State|AllocCPUS|NNodes|ReqMem\n" +
		"1|2024-05-01T10:00:00|2024-05-01T10:00:00|2024-05-01T10:10:00|COMPLETED|4|2|4000Mn\n"
	if res, err = sacct(t, text, Config{}); err != nil {
		t.Fatal(err)
	}
	if res.Jobs[0].RequestedMemory != 2000*1024 || strings.Contains(strings.Join(res.Warnings, "\n"), "NNodes") {
		t.Errorf("job %+v, warnings %q", res.Jobs[0], res.Warnings)
	}
}

// TestSacctNoJobs: a dump with its header line but no job to convert (a
// period without jobs, or jobs all pending) is a header-only trace with a
// warning, as a header without records is a valid empty trace in every tool;
// a file without even the header line stays an error.
func TestSacctNoJobs(t *testing.T) {
	const head = "JobID|Submit|Start|End|State|AllocCPUS\n"
	for name, text := range map[string]string{
		"header only": head,
		"all pending": head + "2|2024-01-01T00:00:00|Unknown|Unknown|PENDING|1\n",
	} {
		res, err := sacct(t, text, Config{Location: time.UTC, Procs: 8})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var b strings.Builder
		w := swf.NewWriter(&b)
		w.WriteHeader(res.Header)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if len(res.Jobs) != 0 || res.Accounting.Jobs != 0 || len(res.Warnings) != 1 ||
			!strings.Contains(res.Warnings[0], "no job could be converted, so the trace has no records") ||
			!strings.Contains(out, "; MaxJobs: 0\n") || !strings.Contains(out, "; MaxProcs: 8\n") ||
			strings.Contains(out, "StartTime") || strings.Contains(out, "EndTime") {
			t.Errorf("%s: jobs %d, warnings %q, header\n%s", name, len(res.Jobs), res.Warnings, out)
		}
		r := swf.NewReader(strings.NewReader(out))
		if _, err := r.Header(); err != nil {
			t.Errorf("%s: the header does not read back: %v", name, err)
		}
	}
	if _, err := sacct(t, "", Config{Location: time.UTC}); err == nil {
		t.Error("an empty file converted")
	}
}

// TestSacctOrderPastManyTasks: ties in submit time keep file order, then
// task order, however many tasks a line has (the order was line<<21 + task,
// so a task past 2^21 of one line sorted after the next line's job; a line
// of MaxArrayTasks tasks is too slow for a test, so add is called directly).
func TestSacctOrderPastManyTasks(t *testing.T) {
	var s sacctReader
	s.add(pending{}, "10_2097152", 0, 1, false, 2, 1<<21)
	s.add(pending{}, "10_4000000", 0, 1, false, 2, MaxArrayTasks-1)
	s.add(pending{}, "11", 0, 1, true, 3, 0)
	for i := 1; i < len(s.jobs); i++ {
		if s.jobs[i-1].order >= s.jobs[i].order {
			t.Errorf("%s (order %d) sorts after %s (order %d)", s.jobs[i-1].id, s.jobs[i-1].order, s.jobs[i].id, s.jobs[i].order)
		}
	}
}

// Field 10 is the request per requested processor (field 8) in both
// converters: a 16 GB job that asked for 8 processors and got 16 requested
// 2 GB per processor, from sacct as from Alea (sacct divided by the 16
// allocated ones and wrote 1 GB).
func TestSacctRequestedMemoryPerRequestedProcessor(t *testing.T) {
	text := "JobID|Submit|Start|End|State|AllocCPUS|ReqCPUS|NNodes|ReqMem\n" +
		"1|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|COMPLETED|16|8|1|16G\n" +
		"2|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|COMPLETED|16|8|2|8Gn\n" +
		"3|2024-01-01T00:00:00|None|2024-01-01T00:01:10|CANCELLED|16|8|2|16G\n" +
		"4|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|COMPLETED|16|0|1|16G\n"
	res, err := sacct(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	// 16 GB / 8; 8 GB per node on 2 nodes / 8; never started: still / 8;
	// ReqCPUS 0 (no request): / the 16 allocated.
	want := []int64{2097152, 2097152, 2097152, 1048576}
	for i, w := range want {
		if got := res.Jobs[i].RequestedMemory; got != w {
			t.Errorf("job %d: field 10 = %d KB, want %d", i+1, got, w)
		}
	}
	// The same job in Alea's format: 16 GB in KB, 8 requested, 16 allocated.
	ares, err := alea(t, "0 1000 10 60 16 -1 -1 8 -1 16777216 1 1 1 -1 -1 1 -1 -1 {1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1} q p\n", Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ares.Jobs[0].RequestedMemory; got != want[0] {
		t.Errorf("Alea: field 10 = %d KB, sacct %d: the converters disagree", got, want[0])
	}
}

// Field 7 is KB per processor: MaxRSS is the largest task's, so a step's use
// per processor is MaxRSS x NTasks / its CPUs. An OpenMP job (`sbatch -n1
// -c8`) with 6 GB in its one task used 768 MB per processor, not 6 GB on each
// (which also made --check report got_more_mem against its 1 GB per processor).
func TestSacctUsedMemoryPerProcessor(t *testing.T) {
	head := "JobID|Submit|Start|End|State|AllocCPUS|ReqMem|MaxRSS|NTasks\n"
	run := "|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T01:00:10|"
	text := head +
		// One task on 8 CPUs: 6 GB / 8.
		"1" + run + "COMPLETED|8|8G||\n" +
		"1.batch" + run + "COMPLETED|8||6G|1\n" +
		// The largest over the steps: 4 tasks of 300 MB on 4 CPUs beats a
		// batch step of 1 GB in one task on 8.
		"2" + run + "COMPLETED|8|8G||\n" +
		"2.batch" + run + "COMPLETED|8||1G|1\n" +
		"2.0" + run + "COMPLETED|4||300M|4\n" +
		// No NTasks on the step: one task per processor, as before.
		"3" + run + "COMPLETED|8|8G||\n" +
		"3.batch" + run + "COMPLETED|8||6G|\n"
	res, err := sacct(t, text, Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{786432, 307200, 6291456}
	for i, w := range want {
		if got := res.Jobs[i].UsedMemory; got != w {
			t.Errorf("job %d: field 7 = %d KB, want %d", i+1, got, w)
		}
	}
	// A dump without the NTasks column keeps MaxRSS as it is.
	noTasks := "JobID|Submit|Start|End|State|AllocCPUS|ReqMem|MaxRSS\n" +
		"1" + run + "COMPLETED|8|8G|\n" + "1.batch" + run + "COMPLETED|8||6G\n"
	if res, err = sacct(t, noTasks, Config{}); err != nil || res.Jobs[0].UsedMemory != 6291456 {
		t.Errorf("without NTasks: %v, %+v", err, res)
	}
	// A malformed NTasks is an error naming it.
	bad := strings.Replace(text, "6G|1\n", "6G|one\n", 1)
	if _, err := sacct(t, bad, Config{}); err == nil || !strings.Contains(err.Error(), "dump.txt:3: column NTasks") {
		t.Errorf("malformed NTasks: %v", err)
	}
}
