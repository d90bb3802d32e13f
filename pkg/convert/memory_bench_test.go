package convert

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sacctDump is a dump of n finished jobs, one line each (a job of four
// processors a minute long every ten seconds, 50 users), or, with array,
// one line for n array tasks that never started.
func sacctDump(n int, array bool) string {
	var b strings.Builder
	b.WriteString(sacctHead)
	if array {
		fmt.Fprintf(&b, "10_[0-%d]|2024-01-01T00:00:00|None|2024-01-01T00:00:05|CANCELLED by 0|0|1|1|00:10:00|1000M|00:00:00||u|g|p|q\n", n-1)
		return b.String()
	}
	at := func(s int) string { return time.Unix(1700000000+int64(s), 0).UTC().Format("2006-01-02T15:04:05") }
	for i := 1; i <= n; i++ {
		s := 10 * i
		fmt.Fprintf(&b, "%d|%s|%s|%s|COMPLETED|4|4|1|00:10:00|1000M|00:01:00||u%d|g|p|q\n", i, at(s), at(s+5), at(s+65), i%50)
	}
	return b.String()
}

// BenchmarkSacctMemory reports what a sacct conversion holds and allocates
// per job (docs/swfclean.md, Performance): the conversion keeps every job
// until the end (it sorts them by submit time), so its memory grows with
// the dump, and a line for n never-started array tasks costs as n jobs.
//
//	go test -run '^$' -bench SacctMemory -benchtime 1x ./pkg/convert
func BenchmarkSacctMemory(b *testing.B) {
	for _, array := range []bool{false, true} {
		n := 100000
		b.Run(fmt.Sprintf("array=%v/%d", array, n), func(b *testing.B) {
			text := sacctDump(n, array)
			for range b.N {
				debug.FreeOSMemory() // so that the peak below is this run's
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				rss := resetPeakRSS()
				res, err := ReadSacct(strings.NewReader(text), Config{Name: "dump", Location: time.UTC})
				if err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&after)
				total := after.TotalAlloc - before.TotalAlloc
				runtime.GC()
				runtime.ReadMemStats(&after)
				if len(res.Jobs) != n {
					b.Fatalf("%d jobs, want %d", len(res.Jobs), n)
				}
				b.ReportMetric(float64(total)/float64(n), "allocB/job")
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(n), "resultB/job")
				if peak := statusKB("VmHWM"); rss > 0 && peak > rss {
					b.ReportMetric(float64(peak-rss)*1024/float64(n), "peakRSSB/job")
				}
			}
		})
	}
}

// resetPeakRSS resets the process's peak resident size (Linux: clear_refs
// 5) and returns the resident size now in KB, or 0 where it cannot.
func resetPeakRSS() int64 {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return 0
	}
	return statusKB("VmRSS")
}

// statusKB reads a field of /proc/self/status in KB, 0 if absent.
func statusKB(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
