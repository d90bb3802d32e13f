package convert_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/swfkit/swfkit/internal/testutil"
	"github.com/swfkit/swfkit/pkg/convert"
)

func compareSacct(t *testing.T, name, text string, loc *time.Location) {
	t.Helper()
	res, err := convert.ReadSacct(strings.NewReader(text), convert.Config{Name: name, Location: loc})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	m := modelSacct(text, loc)
	if len(res.Jobs) != len(m.Jobs) {
		t.Fatalf("%s: %d jobs, model %d", name, len(res.Jobs), len(m.Jobs))
	}
	for i := range res.Jobs {
		g, mj := &res.Jobs[i], &m.Jobs[i]
		if id, _ := g.ExtraValue("jobid"); id != mj.id {
			t.Errorf("%s: job %d jobid=%s, model %s", name, i+1, id, mj.id)
			continue
		}
		for f := 1; f <= 18; f++ {
			if gv, mv := g.Field(f), mj.fields[f]; math.Abs(gv-mv) > 1e-9 {
				t.Errorf("%s: jobid=%s field %d (%s): %v, model %v", name, mj.id, f, fieldName(f), gv, mv)
			}
		}
	}
	a := res.Accounting
	if a.JobLines != m.JobLns || a.StepLines != m.Steps || a.SkippedTotal() != sumSkips(m.Skipped) || !a.Balanced() {
		t.Errorf("%s: accounting %+v, model job lines %d steps %d skipped %v", name, a, m.JobLns, m.Steps, m.Skipped)
	}
	for _, s := range a.Skipped {
		if m.Skipped[s.Reason] != s.Count {
			t.Errorf("%s: skipped %q %d, model %d (%v)", name, s.Reason, s.Count, m.Skipped[s.Reason], m.Skipped)
		}
	}
	if v, _ := res.Header.Get("UnixStartTime"); v != fmt.Sprint(m.Unix) {
		t.Errorf("%s: UnixStartTime %s, model %d", name, v, m.Unix)
	}
	for _, label := range []string{"Version", "Preemption", "TimeZoneString", "StartTime", "EndTime", "MaxJobs", "MaxRecords"} {
		if _, ok := res.Header.Get(label); !ok {
			t.Errorf("%s: no %s line", name, label)
		}
	}
	if v, _ := res.Header.Get("MaxRecords"); v != fmt.Sprint(len(m.Jobs)) {
		t.Errorf("%s: MaxRecords %s, model %d", name, v, len(m.Jobs))
	}
	// A job on several lines (a requeued job's runs) is Preemption: Yes.
	preemption, distinct := "No", map[float64]bool{}
	for _, j := range m.Jobs {
		if j.fields[11] == 2 {
			preemption = "Yes"
		}
		distinct[j.fields[1]] = true
	}
	if v, _ := res.Header.Get("Preemption"); v != preemption {
		t.Errorf("%s: Preemption %q, model %q", name, v, preemption)
	}
	if v, _ := res.Header.Get("MaxJobs"); v != fmt.Sprint(len(distinct)) {
		t.Errorf("%s: MaxJobs %s, model %d", name, v, len(distinct))
	}
}

func fieldName(f int) string {
	return [...]string{"", "job", "submit", "wait", "run", "procs", "cpu", "mem", "req procs",
		"req time", "req mem", "status", "user", "group", "exe", "queue", "partition", "prev", "think"}[f]
}

func sumSkips(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func TestCrossCheckSacctRealDump(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "testdata", "slurm", "sacct.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, zone := range []string{"UTC", "Europe/Prague", "America/New_York"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		compareSacct(t, "sacct.txt "+zone, string(data), loc)
	}
}

const sacctHead = "JobID|User|Group|Partition|QOS|Submit|Start|End|ElapsedRaw|Timelimit|State|AllocCPUS|ReqCPUS|NNodes|NodeList|ReqMem|MaxRSS|TotalCPU\n"

func TestCrossCheckSacctEdgeCases(t *testing.T) {
	cases := map[string]string{
		"forms": sacctHead +
			"10|u1|g1|p1|q1|2024-03-01T10:00:00|2024-03-01T10:00:05|2024-03-01T10:01:05|60|1-00:00:00|COMPLETED|4|4|1|n1|4000Mc||\n" +
			"10.batch|||||2024-03-01T10:00:05|2024-03-01T10:00:05|2024-03-01T10:01:05|60||COMPLETED|4|4|1|n1||2G|01:00.500\n" +
			"10.0|||||2024-03-01T10:00:05|2024-03-01T10:00:05|2024-03-01T10:01:05|60||COMPLETED|4|4|1|n1||512M|00:01:00\n" +
			"11|u2|g1|p2|q1|2024-03-01T09:59:00|2024-03-01T10:00:00|Unknown|90|30|FAILED|3|2|2|n[1-2]|6Gn||00:00:07\n" +
			"12|u1|g2|p1|q2|2024-03-01T10:02:00|None|2024-03-01T10:03:00|0|05:30|CANCELLED by 7|2|2|1|None assigned|100||\n" +
			"13|u3|g2|p1|q1|2024-03-01T10:02:00|2024-03-01T10:04:00|2024-03-01T10:04:00|0|UNLIMITED|CANCELLED|2|2|1|None assigned|1000M||\n" +
			"14|u3|g2|p1|q1|2024-03-01T10:02:30|2024-03-01T10:05:00|2024-03-01T10:04:00|0|Partition_Limit|TIMEOUT|1|1|1|n2|1G||1-02:03:04\n" +
			"15|u1|g1|p1|q1|2024-03-01T10:03:00|2024-03-01T10:03:10|2024-03-01T10:03:20|10|NONE|OUT_OF_MEMORY|2|2|1|n1|1500M||\n" +
			"16|u4|g1|p1|q1|2024-03-01T10:03:00|2024-03-01T10:03:10||10|INVALID|RUNNING|2|2|1|n1|1500M||\n" +
			"16.batch|||||2024-03-01T10:03:10|2024-03-01T10:03:10||10||RUNNING|2|2|1|n1||1M|00:00:01\n" +
			"17.batch|||||2024-03-01T10:03:10|2024-03-01T10:03:10|2024-03-01T10:03:11|1||COMPLETED|2|2|1|n1||1M|00:00:01\n" +
			"18_[2-5,7%2]|u1|g1|p1|q1|2024-03-01T10:01:00|None|2024-03-01T10:09:00|0|10|CANCELLED by 1|1|1|1|None assigned|1000M||\n" +
			"18_3|u1|g1|p1|q1|2024-03-01T10:01:00|2024-03-01T10:02:00|2024-03-01T10:09:00|420|10|PREEMPTED|1|1|1|n1|1000M||00:00:30\n" +
			"18_3.batch|||||2024-03-01T10:02:00|2024-03-01T10:02:00|2024-03-01T10:09:00|420||CANCELLED|1|1|1|n1||10K|00:00:30\n" +
			"19+0|u2|g1|p2|q2|2024-03-01T10:01:00|2024-03-01T10:01:30|2024-03-01T10:02:30|60|02:00:00|NODE_FAIL|8|8|2|n[1-2]|2000M||\n" +
			"19+1|u2|g1|p2|q2|2024-03-01T10:01:00|2024-03-01T10:01:30|2024-03-01T10:02:30|60|02:00:00|BOOT_FAIL|1|1|1|n3|2000M||\n" +
			"19+0.batch|||||2024-03-01T10:01:30|2024-03-01T10:01:30|2024-03-01T10:02:30|60||COMPLETED|8|8|2|n1||100K|00:08:00\n" +
			"20|u1|g1|p1|q1|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:00:00|0|365-00:00:00|DEADLINE|1|1|1|None assigned|1000M||\n" +
			"21|u1|g1|p1|q1|2024-03-01T10:00:00|2024-03-01T09:59:00|2024-03-01T09:58:00|0|10|COMPLETED|1|1|1|n1|1000M||\n" +
			"22|u1|g1|p1|q1|2024-03-01T10:10:00|Unknown|Unknown|0|10|PENDING|1|1|1|None assigned|1000M||\n" +
			// Requeued twice (sacct -D): two partial executions and the
			// last part, all with the first Submit.
			"23|u2|g1|p1|q1|2024-03-01T09:00:00|2024-03-01T09:01:00|2024-03-01T09:02:00|60|UNLIMITED|REQUEUED|2|2|1|n1|1000M||\n" +
			"23.batch|||||2024-03-01T09:01:00|2024-03-01T09:01:00|2024-03-01T09:02:00|60||CANCELLED|2|2|1|n1||5G|00:01:00\n" +
			"23|u2|g1|p1|q1|2024-03-01T09:02:00|2024-03-01T09:03:00|2024-03-01T09:04:00|60|365-00:00:00|REQUEUED|2|2|1|n1|1000M||\n" +
			"23|u2|g1|p1|q1|2024-03-01T09:04:00|2024-03-01T09:05:00|2024-03-01T09:06:00|60|365-00:00:00|COMPLETED|2|2|1|n1|1000M||\n" +
			"23.batch|||||2024-03-01T09:05:00|2024-03-01T09:05:00|2024-03-01T09:06:00|60||COMPLETED|2|2|1|n1||1M|00:00:30\n",
		// NTasks: MaxRSS x tasks / CPUs per line, the largest over the job's lines.
		"ntasks": "JobID|Submit|Start|End|State|NCPUS|ReqCPUS|ReqMem|MaxRSS|NTasks\n" +
			"1|2024-03-01T10:00:00|2024-03-01T10:00:05|2024-03-01T10:01:05|COMPLETED|8|8|8G||\n" +
			"1.batch|2024-03-01T10:00:05|2024-03-01T10:00:05|2024-03-01T10:01:05|COMPLETED|8|8||6G|1\n" +
			"1.0|2024-03-01T10:00:05|2024-03-01T10:00:05|2024-03-01T10:01:05|COMPLETED|3|3||1000K|2\n" +
			"2|2024-03-01T10:00:00|2024-03-01T10:00:05|2024-03-01T10:01:05|COMPLETED|4|4|8G||\n" +
			"2.batch|2024-03-01T10:00:05|2024-03-01T10:00:05|2024-03-01T10:01:05|COMPLETED|4|4||300M|\n" +
			"2.0|2024-03-01T10:00:05|2024-03-01T10:00:05|2024-03-01T10:01:05|COMPLETED|4|4||100M|4\n",
		// 2024-10-27 02:00-03:00 happens twice in Europe/Prague.
		"fall back": sacctHead +
			"1|u1|g1|p1|q1|2024-10-27T01:40:00|2024-10-27T01:50:00|2024-10-27T02:10:00|4800|10|COMPLETED|1|1|1|n1|1000M||\n" +
			"2|u1|g1|p1|q1|2024-10-27T01:40:00|2024-10-27T01:50:00|2024-10-27T02:10:00|1200|10|COMPLETED|1|1|1|n1|1000M||\n" +
			"3|u1|g1|p1|q1|2024-10-27T02:40:00|2024-10-27T02:50:00|2024-10-27T02:10:00|1200|10|COMPLETED|1|1|1|n1|1000M||\n",
	}
	prague, err := time.LoadLocation("Europe/Prague")
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range cases {
		compareSacct(t, name, text, prague)
	}
}
