package statcli

import (
	"encoding/csv"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/internal/testutil"
)

// bigTraces are swept only by BenchmarkAllTraces (too slow under -race).
var bigTraces = map[string]bool{"RICC-2010-2.swf.gz": true, "LCG-2005-1.swf.gz": true, "LANL-CM5-1994-4.1-cln.swf.gz": true}

// publishedJobs are the record counts of ../shared/data/SOURCES.md.
var publishedJobs = map[string]int{
	"KTH-SP2-1996-2.1-cln.swf.gz": 28476, "NASA-iPSC-1993-3.1-cln.swf.gz": 18239, "lublin_256.swf.gz": 10000,
	"KTH-SP2-1996-2-unfiltered.swf.gz": 28489, "CEA-Curie-2011-sample.swf.gz": 29998, "HPC2N-2002-2-first3170.swf.gz": 3170,
	"LLNL-Atlas-2006-2.1-cln.swf.gz": 43778, "RICC-2010-2.swf.gz": 447794, "LCG-2005-1.swf.gz": 188041,
	"LANL-CM5-1994-4.1-cln.swf.gz": 122060,
}

// TestSmallTraces summarizes every small archive trace and checks that the
// counts add up: every job read is in "jobs", and each metric's n plus the
// jobs excluded from it for the stated reason is the job count.
func TestSmallTraces(t *testing.T) {
	for _, path := range testutil.Traces(t) {
		name := filepath.Base(path)
		if bigTraces[name] {
			continue
		}
		t.Run(name, func(t *testing.T) { checkTrace(t, path, "--by", "category") })
	}
}

func checkTrace(t testing.TB, path string, extra ...string) {
	name := filepath.Base(path)
	var out, errb strings.Builder
	code := Run(append(append([]string{"swfstat", "--format", "csv"}, extra...), path), nil, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	rows, err := csv.NewReader(strings.NewReader(out.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	get := map[string]float64{}
	excluded := map[string]float64{}
	for _, r := range rows[1:] {
		if r[2] != NoGroup {
			continue // breakdown rows
		}
		v, _ := strconv.ParseFloat(r[8], 64)
		if r[6] == "excluded" {
			excluded[r[7][:strings.Index(r[7], " (left out of")]] = v
			continue
		}
		get[r[6]+"/"+r[7]] = v
	}
	jobs := get["jobs/count"]
	if want, ok := publishedJobs[name]; ok && int(jobs) != want {
		t.Errorf("%d jobs, SOURCES.md says %d", int(jobs), want)
	}
	if n := get["wait_s/n"] + excluded["wait unknown (field 3 < 0)"]; n != jobs {
		t.Errorf("wait n + wait unknown = %v, want %v jobs", n, jobs)
	}
	if n := get["request_inaccuracy_pct/n"] + excluded["requested time unknown (field 9 <= 0)"]; n < jobs-excluded["runtime unknown (field 4 < 0)"] {
		t.Errorf("estimate accuracy covers %v jobs, fewer than expected", n)
	}
	if get["wait_s/n"] > 0 {
		if !(get["wait_s/p25"] <= get["wait_s/p50"] && get["wait_s/p50"] <= get["wait_s/p100"] && get["wait_s/mean"] <= get["wait_s/p100"]) {
			t.Errorf("wait percentiles out of order: %v", get)
		}
		if get["bsld/p50"] < 1 {
			t.Errorf("bounded slowdown median %v below 1", get["bsld/p50"])
		}
	}
}

// TestNotSWF: the MetaCentrum file must be refused with a clear error: its
// name, line 1, and the format it is in with how to convert it, instead of
// (not as well as) the question whether it is an SWF trace.
func TestNotSWF(t *testing.T) {
	path := testutil.NotSWF(t)
	var errb strings.Builder
	code := Run([]string{"swfstat", path}, nil, io.Discard, &errb)
	msg := errb.String()
	if code != 1 || !strings.Contains(msg, "MetaCentrum-wagap-2013-alea-format.gz:1") ||
		!strings.HasSuffix(msg, " (it looks like the Alea simulator's format, in which MetaCentrum publishes its logs: convert it to SWF first, swfclean --from alea FILE -o FILE.swf)\n") ||
		strings.Contains(msg, "an SWF trace?") {
		t.Errorf("exit %d, stderr %q: want exit 1 naming the file, line 1 and the format", code, msg)
	}
}

// BenchmarkAllTraces sweeps every archive trace, the big ones included.
func BenchmarkAllTraces(b *testing.B) {
	for _, path := range testutil.Traces(b) {
		b.Run(filepath.Base(path), func(b *testing.B) {
			for b.Loop() {
				checkTrace(b, path, "--by", "category")
			}
		})
	}
}

// BenchmarkRICCSummary is the target: the default summary of
// RICC-2010-2 (447,794 jobs) under 2 s.
func BenchmarkRICCSummary(b *testing.B) {
	path := testutil.Trace(b, "RICC-2010-2.swf.gz")
	b.ReportAllocs()
	for b.Loop() {
		if code := Run([]string{"swfstat", path}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// TestGuimBounds: the U-QoS runtime upper bound derived from KTH-SP2 (50% of
// the 95th percentile of runtime) equals Guim et al.'s Table 4 value.
func TestGuimBounds(t *testing.T) {
	path := testutil.Trace(t, "KTH-SP2-1996-2.1-cln.swf.gz")
	var out strings.Builder
	if code := Run([]string{"swfstat", "--format", "csv", path}, nil, &out, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	recs, _ := csv.NewReader(strings.NewReader(out.String())).ReadAll()
	rows := csvRows(t, recs)
	got := map[string]string{"rt_upperbound_s": rows[0]["uqos_upper_s"], "rt_lowerbound_s": rows[0]["uqos_lower_s"]}
	if got["rt_upperbound_s"] != "23922" || got["rt_lowerbound_s"] != "956.88" {
		t.Errorf("KTH bounds upper %s lower %s, want Guim Table 4's 23922 and 956.88 (4%% of it)", got["rt_upperbound_s"], got["rt_lowerbound_s"])
	}
}
