package stats

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/swf"
)

// FuzzReport feeds arbitrary records through a Collector: Report and the
// capacity check must not panic, every job must be counted, and no defined
// statistic may be NaN or infinite except U-QoS values of 0-runtime jobs.
func FuzzReport(f *testing.F) {
	for _, line := range []string{
		"1 0 0 100 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1 u=0:10,100:10,300:0 fairstart=0",
		"2 10 90 5 2 -1 -1 2 50 -1 1 2 1 -1 1 -1 -1 -1 u=0:8,50:4 fairstart=10",
		"3 20 30 4000 2 -1 -1 2 4000 -1 0 1 1 -1 2 -1 -1 -1 killed=1",
		"4 30 -5 0 1 -1 -1 1 -1 -1 5 3 1 -1 2 -1 -1 -1 fairstart=-7",
		"5 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
	} {
		f.Add(line, line, "25,50", uint8(0))
	}
	f.Fuzz(func(t *testing.T, a, b, skip string, by uint8) {
		r := swf.NewReader(strings.NewReader("; MaxProcs: 8\n" + a + "\n" + b + "\n"))
		r.Lenient = true
		cfg := Config{By: []Key{Key(by%5) + 1}}
		if c, err := ParseCount(skip); err == nil {
			cfg.SkipFirst = c
		}
		c := NewCollector(cfg, Machine{Procs: 8})
		for {
			job, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return
			}
			if c.Add(&job) != nil {
				return
			}
		}
		rep := c.Report("fuzz")
		c.CheckCapacity()
		c.Timeline(3)
		if rep.JobsRead != c.Len() || rep.Measured > rep.JobsRead {
			t.Fatalf("read %d, measured %d, added %d", rep.JobsRead, rep.Measured, c.Len())
		}
		for _, row := range rep.Rows {
			if math.IsInf(row.Value, 0) || (math.IsNaN(row.Value) && row.Jobs > 0 && row.Metric != "uqos") {
				t.Errorf("%+v", row)
			}
		}
	})
}

// FuzzFairstartToken: a fairstart= value is either a time in [0, swf.MaxTime]
// that the fairness metric uses, or an error naming the line and the token;
// never a wrapped or negative fair start.
func FuzzFairstartToken(f *testing.F) {
	for _, v := range []string{"0", "10", "-5", "-1", "1099511627776", "1099511627777",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "abc", "+7", "1e3", "0x10", ""} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if strings.ContainsAny(v, " \t\r\n\v\f;") {
			return
		}
		r := swf.NewReader(strings.NewReader("; MaxProcs: 8\n1 0 0 100 2 -1 -1 2 200 -1 1 1 1 -1 1 -1 -1 -1 fairstart=" + v + "\n"))
		job, err := r.Read()
		if err != nil {
			return
		}
		c := NewCollector(Config{}, Machine{Procs: 8})
		if err := c.Add(&job); err != nil {
			if !strings.Contains(err.Error(), "line 2: field 19 (extension token): fairstart=") {
				t.Fatalf("fairstart=%q: error %q does not name the line and token", v, err)
			}
			return
		}
		if got := c.records[0].fairStart; got < 0 || got > swf.MaxTime {
			t.Fatalf("fairstart=%q accepted as %d", v, got)
		}
	})
}
