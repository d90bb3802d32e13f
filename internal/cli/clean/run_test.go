package cleancli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// sacctDump is the committed output of scripts/slurm-jobmix.sh on a real Slurm.
const sacctDump = "../../../testdata/slurm/sacct.txt"

type result struct {
	stdout, stderr string
	code           int
}

// swfclean runs the command in-process.
func swfclean(t testing.TB, stdin io.Reader, args ...string) result {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var stdout, stderr bytes.Buffer
	code := Run(append([]string{"swfclean"}, args...), stdin, &stdout, &stderr)
	return result{stdout.String(), stderr.String(), code}
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestGolden compares whole outputs (stdout, stderr, exit status) with the
// files under testdata/golden; go test -run Golden -update rewrites them.
func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		trace string // a shared archive trace given on stdin, "" for none
		args  []string
	}{
		{"check_anomalies", "", []string{"--check", "testdata/anomalies.swf"}},
		{"check_dirty", "", []string{"--check", "testdata/dirty.swf"}},
		{"check_malformed_lenient", "", []string{"--check", "--lenient", "testdata/malformed.swf"}},
		{"clean_default", "", []string{"testdata/dirty.swf"}},
		{"clean_all", "", []string{"--rules", "all", "--skip", "flurries,anonymize", "testdata/dirty.swf"}},
		{"clean_filter", "", []string{"--rules", "none", "--filter", "user=374 and (job>=3 and job<=6)", "--filter", "user=9", "testdata/dirty.swf"}},
		{"clean_keep", "", []string{"--rules", "none", "--keep", "queue=5", "testdata/dirty.swf"}},
		{"clean_anonymize", "", []string{"--rules", "none", "--anonymize", "--set", "Installation=anonymous",
			"--set", "Acknowledge=Someone, Somewhere", "testdata/dirty.swf"}},
		{"clean_lenient", "", []string{"--lenient", "testdata/malformed.swf"}},
		{"clean_anomalies", "", []string{"--rules", "default,runtime_from_cpu,estimate_from_runtime", "testdata/anomalies.swf"}},
		{"flurries", "", []string{"--flurries", "--flurry-min-jobs", "2", "--flurry-window", "20", "--flurry-share", "0.6", "testdata/dirty.swf"}},
		{"clean_drop_flurries", "", []string{"--rules", "none", "--drop-flurries", "--flurry-min-jobs", "2", "--flurry-window", "20",
			"--flurry-share", "0.6", "testdata/dirty.swf"}},
		{"list_rules", "", []string{"--list-rules"}},
		{"check_hpc2n", "HPC2N-2002-2-first3170.swf.gz", []string{"--check", "-"}},
		{"check_kth_cln", "KTH-SP2-1996-2.1-cln.swf.gz", []string{"--check", "--flurries"}},
		// The dump of scripts/slurm-jobmix.sh on a real Slurm, converted as it is,
		// then cleaned with the default rules, then checked for submission.
		{"from_sacct", "", []string{"--from", "sacct", "--timezone", "Europe/Prague", "--rules", "none", sacctDump}},
		{"from_sacct_clean", "", []string{"--from", "sacct", "--timezone", "Europe/Prague", "--procs", "16", "--nodes", "2", sacctDump}},
		{"from_sacct_submission", "", []string{"--check", "--submission", "--from", "sacct", "--timezone", "Europe/Prague", sacctDump}},
		{"from_sacct_submission_ready", "", []string{"--check", "--submission", "--from", "sacct", "--timezone", "Europe/Prague",
			"--procs", "16", "--nodes", "2", "--set", "Computer=two nodes of 8 CPUs on one machine", "--set", "Installation=swfkit tests",
			"--set", "Acknowledge=swfkit", "--set", "Information=scripts/slurm-jobmix.sh", sacctDump}},
		// The first lines of MetaCentrum's published log, two of them with broken run times.
		{"from_alea", "", []string{"--from", "alea", "--rules", "none", "--timezone", "Europe/Prague", "testdata/metacentrum-head.alea"}},
		{"check_from_alea", "", []string{"--check", "--from", "alea", "testdata/metacentrum-head.alea"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdin io.Reader
			if tt.trace != "" {
				stdin = bytes.NewReader(readFile(t, testutil.Trace(t, tt.trace)))
			}
			res := swfclean(t, stdin, tt.args...)
			got := "$ swfclean " + strings.Join(tt.args, " ") + "\n" + res.stdout +
				"--- stderr ---\n" + res.stderr + "--- exit " + strconv.Itoa(res.code) + " ---\n"
			path := filepath.Join("testdata", "golden", tt.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := string(readFile(t, path))
			if got != want {
				t.Errorf("output differs from %s (rerun with -update if intended):\n--- got\n%s\n--- want\n%s", path, got, want)
			}
		})
	}
}

// TestCommand runs end-to-end cases and checks exit status and messages.
func TestCommand(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		stdin      string
		code       int
		stdoutHas  string
		stderrHas  string
		stderrNone bool
	}{
		{name: "help", args: []string{"--help"}, code: 0, stdoutHas: "--fail-on-anomaly"},
		{name: "version", args: []string{"--version"}, code: 0, stdoutHas: cmdio.Version},
		{name: "unknown flag", args: []string{"--bogus"}, code: 2, stderrHas: "Run 'swfclean --help'"},
		{name: "two files", args: []string{"a.swf", "b.swf"}, code: 2, stderrHas: "one input file at most"},
		{name: "options after file", args: []string{"testdata/dirty.swf", "--check", "--lenient"}, code: 0, stdoutHas: "anomalies: 14 checks fired"},
		{name: "output over input", args: []string{"testdata/dirty.swf", "-o", "./testdata/dirty.swf"}, code: 2, stderrHas: "would overwrite the input"},
		{name: "check with a rule", args: []string{"--check", "--rules", "none", "testdata/dirty.swf"}, code: 2,
			stderrHas: "--rules does not apply to --check"},
		{name: "check with a filter", args: []string{"--check", "--filter", "user=1"}, code: 2, stderrHas: "--filter does not apply to --check"},
		{name: "flurries with a rule", args: []string{"--flurries", "--anonymize"}, code: 2, stderrHas: "--anonymize does not apply to --flurries"},
		{name: "flurries after a filter", args: []string{"--flurries", "--flurry-min-jobs", "2", "--flurry-window", "20", "--flurry-share", "0.6",
			"--filter", "job<=1", "testdata/dirty.swf"}, code: 0, stdoutHas: "flurries: 0 candidates"},
		{name: "flurries without the filter", args: []string{"--flurries", "--flurry-min-jobs", "2", "--flurry-window", "20", "--flurry-share", "0.6",
			"testdata/dirty.swf"}, code: 0, stdoutHas: "flurries: 1 candidate ("},
		{name: "value option after file", args: []string{"testdata/dirty.swf", "--filter", "user=9", "-q"}, code: 0, stdoutHas: "filter user=9: 2 jobs removed"},
		{name: "drop alias", args: []string{"--rules", "none", "--drop", "user=9", "testdata/dirty.swf"}, code: 0, stderrHas: "filter user=9   "},
		{name: "keep", args: []string{"--rules", "none", "--keep", "job<=2", "testdata/dirty.swf"}, code: 0, stderrHas: "2 written + 6 dropped"},
		{name: "double dash", args: []string{"-q", "--", "testdata/dirty.swf"}, code: 0, stdoutHas: "; MaxRecords: 5"},
		{name: "unknown rule", args: []string{"--rules", "default,nope"}, code: 2, stderrHas: `unknown rule "nope"`},
		{name: "unknown skip", args: []string{"--skip", "nope"}, code: 2, stderrHas: `unknown rule "nope" in --skip`},
		{name: "bad filter", args: []string{"--filter", "usr=3"}, code: 2, stderrHas: `unknown field "usr"`},
		{name: "bad keep", args: []string{"--keep", "user=(3"}, code: 2, stderrHas: "--keep"},
		{name: "bad set", args: []string{"--set", "no equals sign"}, code: 2, stderrHas: "Label=value"},
		{name: "fail-on-anomaly alone", args: []string{"--fail-on-anomaly"}, code: 2, stderrHas: "needs --check"},
		{name: "map without anonymize", args: []string{"--anonymize-map", "x"}, code: 2, stderrHas: "needs --anonymize"},
		// --rules all (or a list naming anonymize) selects anonymize as --anonymize does.
		{name: "map with rules all", args: []string{"--rules", "all", "--anonymize-map", "/dev/null", "-q", "testdata/dirty.swf"}, code: 0},
		{name: "map with rules anonymize skipped", args: []string{"--rules", "all", "--skip", "anonymize", "--anonymize-map", "x", "testdata/dirty.swf"},
			code: 2, stderrHas: "needs --anonymize"},
		// --skip used to be ignored for the rules these flags add: the flurries
		// were dropped, the ids renumbered, though the command said to skip them.
		{name: "drop-flurries skipped", args: []string{"--drop-flurries", "--skip", "flurries", "testdata/dirty.swf"}, code: 2,
			stderrHas: "--drop-flurries and --skip flurries contradict each other"},
		{name: "anonymize skipped", args: []string{"--anonymize", "--skip", "default,anonymize", "testdata/dirty.swf"}, code: 2,
			stderrHas: "--anonymize and --skip anonymize contradict each other"},
		{name: "bad share", args: []string{"--flurries", "--flurry-share", "2"}, code: 2, stderrHas: "--flurry-share"},
		{name: "bad window", args: []string{"--flurry-window", "0"}, code: 2, stderrHas: "--flurry-window"},
		{name: "missing file", args: []string{"testdata/no-such.swf"}, code: 1, stderrHas: "testdata/no-such.swf"},
		{name: "malformed", args: []string{"testdata/malformed.swf"}, code: 1,
			stderrHas: `testdata/malformed.swf:3: field 4 (Run Time): expected a number, got "ten"`},
		{name: "malformed check", args: []string{"--check", "testdata/malformed.swf"}, code: 1, stderrHas: "malformed.swf:3: field 4"},
		{name: "malformed stdin", stdin: "1 0 1 1 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1\n", code: 1,
			stderrHas: "<stdin>:1: expected 18 whitespace-separated fields, got 17: field 18 (Think Time from Preceding Job) is missing"},
		{name: "malformed MaxProcs", stdin: "; MaxProcs: lots\n1 0 1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n", code: 1,
			stderrHas: "swfclean: <stdin>:1: header label MaxProcs: expected an integer, got \"lots\"\n"},
		// Digit groups: read up to the blank, "4 096" was a machine of 4,
		// and too_big dropped the 8-processor job without a word.
		{name: "MaxProcs in digit groups", stdin: "; MaxProcs: 4 096\n1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n", code: 1,
			stderrHas: "swfclean: <stdin>:1: header label MaxProcs: expected an integer without blanks between its digits (digit groups), got \"4 096\"\n"},
		{name: "MaxProcs in digit groups check", args: []string{"--check"}, stdin: "; MaxProcs: 4 096\n1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n", code: 0,
			stdoutHas: "header_malformed"},
		{name: "MaxProcs with a unit", args: []string{"-q"}, stdin: "; MaxProcs: 4096 processors\n1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n", code: 0,
			stdoutHas: "\n1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n"},
		{name: "set MaxProcs in digit groups", args: []string{"--set", "MaxProcs=4 096"}, code: 2, stderrHas: "its digits not split by blanks or commas"},
		{name: "bad date in a filter", args: []string{"--filter", "submit<2001-19-09", "testdata/anomalies.swf"}, code: 2,
			stderrHas: "swfclean: --filter: filter \"submit<2001-19-09\": at column 8: \"2001-19-09\" is not a date of the form YYYY-MM-DD[ HH:MM[:SS]]\nRun 'swfclean --help' for usage.\n"},
		{name: "bad date in a keep", args: []string{"--keep", "end>=2001-02-30 10:00"}, stdin: "; MaxProcs: 8\n", code: 2, stderrHas: "--keep: filter \"end>=2001-02-30 10:00\": at column 6: \"2001-02-30 10:00\" is not a date"},
		{name: "date without UnixStartTime", args: []string{"--filter", "submit<2001-01-01", "testdata/anomalies.swf"}, code: 1,
			stderrHas: "testdata/anomalies.swf: filter \"submit<2001-01-01\": a date needs the header's UnixStartTime"},
		// --lenient on a file no line of which is SWF: every line was
		// skipped, and the run wrote an empty trace with exit 0.
		{name: "lenient, no line SWF", args: []string{"--lenient"}, stdin: "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n", code: 1,
			stderrHas: "swfclean: <stdin>: no valid SWF record: --lenient skipped all 2 record lines as malformed; the first: <stdin>:1: field 19 (extension token): "},
		{name: "lenient, no line SWF: hint", args: []string{"--lenient"}, stdin: "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n", code: 1, stderrHas: "read it with --from alea)"},
		{name: "lenient check, no line SWF", args: []string{"--check", "--lenient"}, stdin: "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n", code: 1, stderrHas: "no valid SWF record"},
		{name: "lenient flurries, no line SWF", args: []string{"--lenient", "--drop-flurries"}, stdin: "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n", code: 1, stderrHas: "no valid SWF record"},
		{name: "lenient rules none, no line SWF", args: []string{"--lenient", "--rules", "none", sacctDump}, code: 1,
			stderrHas: "sacct.txt: no valid SWF record: --lenient skipped all 84 record lines as malformed; the first: ../../../testdata/slurm/sacct.txt:1: field 1 (Job Number)"},
		{name: "lenient check", args: []string{"--check", "--lenient", "testdata/malformed.swf"}, code: 0, stdoutHas: "malformed lines skipped: 3"},
		{name: "lenient fail", args: []string{"--check", "--lenient", "--fail-on-anomaly", "testdata/malformed.swf"}, code: 1},
		{name: "check ok", args: []string{"--check", "testdata/anomalies.swf"}, code: 0, stdoutHas: "proc_too_many"},
		{name: "check fail", args: []string{"--check", "--fail-on-anomaly", "testdata/anomalies.swf"}, code: 1,
			stderrHas: "anomalies found"},
		{name: "check clean input", args: []string{"--check", "--fail-on-anomaly"},
			stdin: "; MaxProcs: 8\n1 0 1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", code: 0, stdoutHas: "0 checks fired"},
		{name: "empty input", args: []string{"-q"}, code: 1, stderrHas: "<stdin>: empty input (no header line and no job)"},
		{name: "header only", args: []string{"-q"}, stdin: "; MaxProcs: 8\n", code: 0, stdoutHas: "; MaxRecords: 0"},
		{name: "empty check", args: []string{"--check"}, code: 1, stderrHas: "empty input"},
		{name: "header only warns", stdin: "; MaxProcs: 8\n\n", code: 0, stderrHas: "swfclean: warning: <stdin>: no job lines (header only)"},
		{name: "header only check warns", args: []string{"--check"}, stdin: "; MaxProcs: 8\n", code: 0, stderrHas: "swfclean: warning: <stdin>: no job lines (header only)"},
		{name: "MaxProcs -5", stdin: "; MaxProcs: -5\n1 0 1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", code: 0,
			stderrHas: "swfclean: warning: too_big/clamp_too_big not applied: the header's MaxProcs -5 is not a machine size (give --procs)"},
		{name: "MaxProcs -5 check", args: []string{"--check"}, stdin: "; MaxProcs: -5\n1 0 1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", code: 0,
			stdoutHas: "machine size: unknown (the header's MaxProcs -5 is not a machine size)"},
		{name: "no MaxProcs", stdin: "; Version: 2\n1 0 1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", code: 0,
			stderrHas: "the header has no MaxProcs or MaxNodes (give --procs)"},
		{name: "empty rules", args: []string{"--rules", ""}, code: 2, stderrHas: `--rules ""`},
		{name: "comma rules", args: []string{"--rules", ","}, code: 2, stderrHas: "names no rule"},
		// --procs and --set MaxProcs both give the machine too_big checks and
		// the output's MaxProcs: the output said --set's, too_big used --procs.
		{name: "procs and set MaxProcs contradict", args: []string{"--procs", "8", "--set", "MaxProcs=4", "testdata/dirty.swf"}, code: 2,
			stderrHas: "--procs 8 and --set MaxProcs=4 contradict each other"},
		{name: "procs and set MaxProcs contradict with from", args: []string{"--from", "sacct", "--timezone", "UTC", "--procs", "8", "--set", "MaxProcs=4", sacctDump}, code: 2,
			stderrHas: "--procs 8 and --set MaxProcs=4 contradict each other"},
		{name: "nodes and set MaxNodes contradict", args: []string{"--from", "alea", "--nodes", "8", "--set", "MaxNodes=4", "x"}, code: 2,
			stderrHas: "--nodes 8 and --set MaxNodes=4 contradict each other"},
		{name: "procs and set MaxProcs agree", args: []string{"-q", "--procs", "4", "--set", "MaxProcs=4 (one node)"},
			stdin: "; MaxProcs: 16\n1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n", code: 0, stdoutHas: "; MaxProcs: 4 (one node)\n; Note: swfclean --procs 4: MaxProcs was 16\n"},
		{name: "check with set", args: []string{"--check", "--set", "MaxProcs=4", "testdata/dirty.swf"}, code: 2,
			stderrHas: "--set does not apply to --check, which checks the header as it is and writes no trace: clean with --set, then check the output"},
		{name: "set MaxProcs 0", args: []string{"--set", "MaxProcs=0"}, code: 2, stderrHas: "MaxProcs is the machine size, a whole number of at least 1, got 0"},
		{name: "set MaxProcs negative", args: []string{"--set", "MaxProcs=-5"}, code: 2, stderrHas: "MaxProcs is the machine size, a whole number of at least 1, got -5"},
		{name: "set Preemption maybe", args: []string{"--set", "Preemption=maybe"}, code: 2, stderrHas: `Preemption takes one of No, Yes, Double, TS, got "maybe"`},
		{name: "set Preemption", args: []string{"-q", "--set", "Preemption=Double", "testdata/dirty.swf"}, code: 0, stdoutHas: "; Preemption: Double\n"},
		{name: "set StartTime garbage", args: []string{"--set", "StartTime=garbage"}, code: 2, stderrHas: `StartTime takes a date as date(1) writes it`},
		{name: "set EndTime", args: []string{"-q", "--set", "EndTime=Fri Aug 29 10:55:01 CEST 1997", "testdata/dirty.swf"}, code: 0, stdoutHas: "; EndTime: Fri Aug 29 10:55:01 CEST 1997\n"},
		{name: "set Version banana", args: []string{"--set", "Version=banana"}, code: 2, stderrHas: `Version takes the SWF version`},
		{name: "set MaxJobs the output contradicts", args: []string{"-q", "--set", "MaxJobs=999", "testdata/dirty.swf"}, code: 0,
			stdoutHas: "; MaxJobs: 999\n", stderrHas: "warning: --set MaxJobs=999: the output has 5 distinct job numbers, the largest 8; --check flags it (header_maxjobs)"},
		{name: "set UnixStartTime negative", args: []string{"--set", "UnixStartTime=-99"}, code: 2, stderrHas: "UnixStartTime takes a whole number of at least 0, got -99"},
		// --drop is --filter's alias: both forms in one run are one list, in order.
		{name: "filter and drop mixed", args: []string{"--filter", "job>100", "--drop=job<2", "--drop", "user=9999", "testdata/dirty.swf"}, code: 0,
			stderrHas: "  filter job>100 "},
		{name: "filter and drop mixed, order kept", args: []string{"--drop", "job<2", "--filter", "job>100", "testdata/dirty.swf"}, code: 0,
			stderrHas: "  filter job<2 "},
		{name: "flurry window without a flurry search", args: []string{"--flurry-window", "100", "testdata/dirty.swf"}, code: 2,
			stderrHas: "--flurry-window applies to a flurry search (--flurries, --drop-flurries, or the rule flurries in --rules), and this run makes none"},
		{name: "flurry share with check", args: []string{"--check", "--flurry-share", "0.5", "testdata/dirty.swf"}, code: 2,
			stderrHas: "--flurry-share applies to a flurry search"},
		{name: "flurry min jobs with rules all", args: []string{"-q", "--rules", "all", "--flurry-min-jobs", "3", "testdata/dirty.swf"}, code: 0},
		{name: "flurry min jobs with drop-flurries", args: []string{"-q", "--drop-flurries", "--flurry-min-jobs", "3", "testdata/dirty.swf"}, code: 0},
		{name: "flurry window with flurries", args: []string{"--flurries", "--flurry-window", "100", "testdata/dirty.swf"}, code: 0},
		{name: "flurry window with flurries skipped", args: []string{"--rules", "all", "--skip", "flurries", "--flurry-window", "100", "testdata/dirty.swf"}, code: 2,
			stderrHas: "--flurry-window applies to a flurry search"},
		{name: "set TimeZone not an integer", args: []string{"--set", "TimeZone=abc"}, code: 2,
			stderrHas: `--set "TimeZone=abc": TimeZone: expected an integer, got "abc"`},
		{name: "set TimeZone beyond a day", args: []string{"--set", "TimeZone=-90000"}, code: 2,
			stderrHas: `--set "TimeZone=-90000": TimeZone: expected an offset from UTC in seconds, within a day (±86400), got -90000`},
		{name: "date filter, TimeZone no integer", args: []string{"--filter", "submit<2001-09-09 02:00"},
			stdin: "; UnixStartTime: 1000000000\n; TimeZone: abc\n1 100 10 100 4 50 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n", code: 1,
			stderrHas: `<stdin>:2: header label TimeZone: expected an integer, got "abc"`},
		{name: "set TimeZoneString Local", args: []string{"--set", "TimeZoneString=Local"}, code: 2,
			stderrHas: `--set "TimeZoneString=Local": TimeZoneString "Local" is the zone of whichever machine reads the log, not the log's; give an IANA name such as Europe/Stockholm`},
		{name: "set TimeZoneString unknown", args: []string{"--set", "TimeZoneString=Mars/Olympus"}, code: 2, stderrHas: `"Mars/Olympus" is no time zone this system knows`},
		{name: "set TimeZoneString", args: []string{"-q", "--set", "TimeZoneString=Asia/Tokyo", "testdata/dirty.swf"}, code: 0, stdoutHas: "; TimeZoneString: Asia/Tokyo\n"},
		{name: "set with a line break", args: []string{"--set", "Note=a\nb"}, code: 2, stderrHas: "a header value is one line"},
		{name: "accounting", args: []string{"testdata/dirty.swf"}, code: 0,
			stderrHas: "8 records read = 5 written + 3 dropped"},
		{name: "quiet", args: []string{"-q", "--rules", "default,renumber", "testdata/dirty.swf"}, code: 0, stderrNone: true},
		// Job 5 names job 4, which unknown_runtime drops: without renumber
		// the reference is kept, and -q leaves the warning that says so.
		{name: "quiet keeps the removed preceding job warning", args: []string{"-q", "testdata/dirty.swf"}, code: 0,
			stdoutHas: "; Note: swfclean 1 record written names as preceding job (field 17) a job this run removed: kept as read, with its think time (field 18); rule renumber writes such a reference -1\n",
			stderrHas: "swfclean: warning: 1 record written names as preceding job (field 17) a job this run removed: kept as read, with its think time (field 18); rule renumber writes such a reference -1\n"},
		// -q silences the tables, not the warnings (the conversion's too).
		{name: "quiet keeps warnings", args: []string{"-q", "--from", "alea", "testdata/metacentrum-head.alea"}, code: 0,
			stderrHas: "swfclean: warning: MaxProcs 460 is the most processors the jobs held at once (the largest job's: 64), a lower bound: the machine size was not given (--procs)\n"},
		{name: "unknown format", args: []string{"--from", "pbs", "x"}, code: 2, stderrHas: `--from "pbs": expected swf, sacct or alea`},
		{name: "sacct without timezone", args: []string{"--from", "sacct", sacctDump}, code: 2, stderrHas: "--from sacct needs --timezone"},
		{name: "bad timezone", args: []string{"--from", "sacct", "--timezone", "Mars/Olympus", sacctDump}, code: 2, stderrHas: `--timezone "Mars/Olympus"`},
		{name: "timezone without from", args: []string{"--timezone", "UTC", "testdata/dirty.swf"}, code: 2, stderrHas: "--timezone applies to --from"},
		{name: "nodes without from", args: []string{"--nodes", "4", "testdata/dirty.swf"}, code: 2, stderrHas: "--nodes applies to --from"},
		{name: "submission without check", args: []string{"--submission", "testdata/dirty.swf"}, code: 2, stderrHas: "--submission needs --check"},
		{name: "submission of an SWF log", args: []string{"--check", "--submission", "testdata/dirty.swf"}, code: 1,
			stdoutHas: "submission: NOT READY: missing Information, Conversion", stderrHas: "not ready for submission"},
		{name: "sacct as SWF", args: []string{sacctDump}, code: 1, stderrHas: "sacct.txt:1: field 1 (Job Number): expected a number"},
		{name: "SWF as sacct", args: []string{"--from", "sacct", "--timezone", "UTC", "testdata/dirty.swf"}, code: 1,
			stderrHas: "testdata/dirty.swf:1: expected the header line of `sacct --parsable2`"},
		{name: "sacct from stdin", args: []string{"--from", "sacct", "--timezone", "UTC", "-q"},
			stdin: "JobID|Submit|Start|End|State|AllocCPUS\n7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|COMPLETED|4\n",
			code:  0, stdoutHas: "1 0 10 60 4 -1 -1 4 -1 -1 1 -1 -1 -1 -1 -1 -1 -1 jobid=7"},
		{name: "sacct pipe in a name", args: []string{"--from", "sacct", "--timezone", "UTC"},
			stdin: "JobID|JobName|Submit|Start|End|State|AllocCPUS\n7|a|b|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|COMPLETED|4\n",
			code:  1, stderrHas: "<stdin>:2: 8 columns, the header has 7: a value contains '|'"},
		{name: "sacct unknown state", args: []string{"--from", "sacct", "--timezone", "UTC"},
			stdin: "JobID|Submit|Start|End|State|AllocCPUS\n7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|EXPLODED|4\n",
			code:  1, stderrHas: `<stdin>:2: column State: unknown Slurm job state "EXPLODED"`},
		{name: "sacct lenient", args: []string{"--from", "sacct", "--timezone", "UTC", "--lenient", "--rules", "none"},
			stdin: "JobID|Submit|Start|End|State|AllocCPUS\n7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|EXPLODED|4\n" +
				"8|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|FAILED|4\n",
			code: 0, stderrHas: "3 lines read = 1 header + 1 job lines + 0 step lines + 0 skipped + 1 malformed (--lenient)"},
		// A requeued job (sacct --duplicates): its first run a partial
		// execution, its last run the last part, both job 1, in a log
		// whose header says so, which --check finds no fault with.
		{name: "sacct requeued job's runs are partial executions", args: []string{"--check", "--from", "sacct", "--timezone", "UTC", "--procs", "4", "-q"},
			stdin: "JobID|Submit|Start|End|State|AllocCPUS\n7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|REQUEUED|4\n" +
				"7|2024-01-01T00:01:10|2024-01-01T00:03:00|2024-01-01T00:04:00|COMPLETED|4\n",
			code: 0, stdoutHas: "anomalies: 0 checks fired"},
		{name: "sacct requeued job's records", args: []string{"--from", "sacct", "--timezone", "UTC", "--procs", "4", "-q"},
			stdin: "JobID|Submit|Start|End|State|AllocCPUS\n7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|REQUEUED|4\n" +
				"7|2024-01-01T00:01:10|2024-01-01T00:03:00|2024-01-01T00:04:00|COMPLETED|4\n",
			code: 0, stdoutHas: "; Preemption: Yes\n; UnixStartTime: 1704067200\n; TimeZoneString: UTC\n; StartTime: Mon Jan  1 00:00:00 UTC 2024\n" +
				"; EndTime: Mon Jan  1 00:04:00 UTC 2024\n; MaxJobs: 1\n; MaxRecords: 2\n"},
		{name: "sacct requeued job's parts", args: []string{"--from", "sacct", "--timezone", "UTC", "--procs", "4", "-q"},
			stdin: "JobID|Submit|Start|End|State|AllocCPUS\n7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|REQUEUED|4\n" +
				"7|2024-01-01T00:01:10|2024-01-01T00:03:00|2024-01-01T00:04:00|COMPLETED|4\n",
			code: 0, stdoutHas: ";\n1 0 10 60 4 -1 -1 4 -1 -1 2 -1 -1 -1 -1 -1 -1 -1 jobid=7\n1 0 180 60 4 -1 -1 4 -1 -1 3 -1 -1 -1 -1 -1 -1 -1 jobid=7\n"},
		{name: "sacct anonymize map", args: []string{"--from", "sacct", "--timezone", "Europe/Prague", "--anonymize-map", "/dev/null", "-q", sacctDump},
			code: 0, stdoutHas: "jobid="},
		{name: "lenient conversion fails --fail-on-anomaly", args: []string{"--check", "--fail-on-anomaly", "--lenient", "--from", "alea"},
			stdin: "0 1000 5 100 1 1 1024 1 3600 -1 1 62 1 1 -1 1 1 1 {1} q 1:ppn=1\nnot a job\n", code: 1,
			stderrHas: "1 malformed (--lenient)"},
		// Errors cite the log's own line and column, not the converted SWF's.
		{name: "sacct huge processors", args: []string{"--from", "sacct", "--timezone", "UTC"},
			stdin: "JobID|Submit|Start|End|State|AllocCPUS\n7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|COMPLETED|99999999999\n",
			code:  1, stderrHas: `<stdin>:2: column AllocCPUS: "99999999999" is beyond 2147483647`},
		{name: "sacct lenient huge run time", args: []string{"--from", "sacct", "--timezone", "UTC", "--lenient", "--rules", "none"},
			stdin: "JobID|Submit|Start|End|State|AllocCPUS|ElapsedRaw\n7|2024-01-01T00:00:00|2024-01-01T00:00:10|Unknown|COMPLETED|4|9999999999999\n" +
				"8|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:10|FAILED|4|60\n",
			code: 0, stderrHas: "    <stdin>:2: column ElapsedRaw: \"9999999999999\" is beyond 2^40 s"},
		{name: "alea huge processors", args: []string{"--from", "alea"},
			stdin: "0 1000 5 100 99999999999 1 1024 1 3600 -1 1 62 1 1 -1 1 1 1 {1} q 1:ppn=1\n", code: 1,
			stderrHas: `<stdin>:1: column 5 (processors): "99999999999" is beyond 2147483647`},
		{name: "alea lenient huge run time", args: []string{"--from", "alea", "--lenient", "--rules", "none"},
			stdin: "0 1000 5 100 1 1 1024 1 3600 -1 1 62 1 1 -1 1 1 1 {1} q 1:ppn=1\n1 1000 5 1e300 1 1 1024 1 3600 -1 1 62 1 1 -1 1 1 1 {1} q 1:ppn=1\n", code: 0,
			stderrHas: `    <stdin>:2: column 4 (run time): "1e300" is beyond 2^40 s`},
		{name: "alea without a final newline", args: []string{"--from", "alea"}, stdin: "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1,1} q_1d 1:ppn=64:x86",
			code: 1, stderrHas: "<stdin>:1: the last line has no newline: the file was cut short, possibly inside its last column"},
		{name: "alea as SWF", args: []string{"testdata/metacentrum-head.alea"}, code: 1, stderrHas: "metacentrum-head.alea:1: field 19"},
		{name: "alea truncated", args: []string{"--from", "alea"}, stdin: "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1,1}",
			code: 1, stderrHas: "<stdin>:1: 19 columns, expected 21 (18 SWF fields, {node list}, queue name, properties) (the last line, without a newline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := swfclean(t, strings.NewReader(tt.stdin), tt.args...)
			if res.code != tt.code {
				t.Errorf("exit %d, want %d\nstderr: %s", res.code, tt.code, res.stderr)
			}
			if !strings.Contains(res.stdout, tt.stdoutHas) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdoutHas, res.stdout)
			}
			if !strings.Contains(res.stderr, tt.stderrHas) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderrHas, res.stderr)
			}
			if tt.stderrNone && res.stderr != "" {
				t.Errorf("stderr not empty: %s", res.stderr)
			}
		})
	}
}

func TestNotSWF(t *testing.T) {
	path := testutil.NotSWF(t)
	for _, args := range [][]string{{path}, {"--check", path}, {"--rules", "none", path}} {
		res := swfclean(t, nil, args...)
		if res.code != 1 || !strings.Contains(res.stderr, path+":1: field 19") {
			t.Errorf("%v: exit %d, stderr %q; want 1 and a message naming file, line 1 and field 19", args, res.code, res.stderr)
		}
	}
}

// brokenPipe fails every write as a closed pipe does.
type brokenPipe struct{}

func (brokenPipe) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}
}

func TestClosedPipe(t *testing.T) {
	for _, args := range [][]string{{"testdata/dirty.swf"}, {"--rules", "none", "testdata/dirty.swf"}, {"--check", "testdata/dirty.swf"}} {
		var stderr bytes.Buffer
		code := Run(append([]string{"swfclean"}, args...), nil, brokenPipe{}, &stderr)
		if code != 0 || stderr.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q; want 0 and nothing", args, code, stderr.String())
		}
	}
}

// TestRulesNoneIsIdentity: --rules none writes its input byte-identical, from a
// file or stdin, compressed or not.
func TestRulesNoneIsIdentity(t *testing.T) {
	inputs := []string{"testdata/dirty.swf", "testdata/anomalies.swf"}
	for _, name := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "HPC2N-2002-2-first3170.swf.gz", "CEA-Curie-2011-sample.swf.gz"} {
		path := filepath.Join(testutil.RepoRoot(t), "..", "shared", "data", name)
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s absent: not checked", path)
			continue
		}
		inputs = append(inputs, path)
	}
	for _, path := range inputs {
		data := readFile(t, path)
		want := data
		if strings.HasSuffix(path, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if want, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		res := swfclean(t, bytes.NewReader(data), "--rules", "none", "-q")
		if res.code != 0 || res.stdout != string(want) {
			t.Errorf("%s: --rules none changed the input (exit %d, %d bytes in, %d out)", path, res.code, len(want), len(res.stdout))
		}
	}
}

func TestOutputFileReportAndMapping(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.swf.gz")
	report := filepath.Join(dir, "report.json")
	mapping := filepath.Join(dir, "map.tsv")
	res := swfclean(t, nil, "-o", out, "--report", report, "--anonymize", "--anonymize-map", mapping, "testdata/dirty.swf")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	zr, err := gzip.NewReader(bytes.NewReader(readFile(t, out)))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(zr)
	again := swfclean(t, nil, "--anonymize", "-q", "testdata/dirty.swf")
	if withoutProvenance(string(body)) != withoutProvenance(again.stdout) {
		t.Errorf("-o out.swf.gz differs from stdout output")
	}
	var rep struct {
		File    string `json:"file"`
		Read    int    `json:"records_read"`
		Written int    `json:"records_written"`
		Dropped int    `json:"records_dropped"`
		Rules   []struct {
			Rule             string
			Dropped, Changed int
		} `json:"rules"`
	}
	if err := json.Unmarshal(readFile(t, report), &rep); err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, r := range rep.Rules {
		sum += r.Dropped
	}
	if rep.File != "testdata/dirty.swf" || rep.Read != 8 || rep.Written != 5 || rep.Dropped != 3 || sum != 3 {
		t.Errorf("report %+v", rep)
	}
	if got := string(readFile(t, mapping)); !strings.HasPrefix(got, "# kind\told\tnew\nuser\t374\t1\nuser\t12\t2\n") {
		t.Errorf("mapping file:\n%s", got)
	}
	// With --check, --report writes the check result.
	res = swfclean(t, nil, "--check", "--report", report, "testdata/anomalies.swf")
	var chk struct {
		Records   int `json:"records"`
		Anomalies []struct {
			Name  string `json:"name"`
			Count int    `json:"count"`
		} `json:"anomalies"`
	}
	if err := json.Unmarshal(readFile(t, report), &chk); err != nil || chk.Records != 6 || len(chk.Anomalies) == 0 {
		t.Errorf("check report %+v, err %v", chk, err)
	}
}

// TestEveryTraceCommand runs --check and the default cleaning on every small
// archive trace through the command (the large ones: BenchmarkEveryTraceCommand).
func TestEveryTraceCommand(t *testing.T) {
	for _, path := range testutil.Traces(t) {
		st, err := os.Stat(path)
		if err != nil || st.Size() > 1<<20 {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			if res := swfclean(t, nil, "--check", path); res.code != 0 {
				t.Errorf("--check: exit %d: %s", res.code, res.stderr)
			}
			res := swfclean(t, nil, path)
			if res.code != 0 || !strings.Contains(res.stderr, "records read = ") {
				t.Errorf("clean: exit %d: %s", res.code, res.stderr)
			}
		})
	}
}

// TestDropFlurriesTwoPasses: the two-pass run (file read twice, or stdin copied)
// writes what the whole-trace run writes.
func TestDropFlurriesTwoPasses(t *testing.T) {
	args := []string{"--drop-flurries", "--flurry-min-jobs", "2", "--flurry-window", "20", "--flurry-share", "0.6", "-q"}
	fromFile := swfclean(t, nil, append(args, "testdata/dirty.swf")...)
	fromStdin := swfclean(t, bytes.NewReader(readFile(t, "testdata/dirty.swf")), args...)
	// sort_submit holds the trace, so the flurries are found in memory instead.
	whole := swfclean(t, nil, append(args, "--rules", "default,sort_submit", "--skip", "sort_submit", "testdata/dirty.swf")...)
	if fromFile.code != 0 || fromStdin.code != 0 || withoutProvenance(fromFile.stdout) != withoutProvenance(fromStdin.stdout) || !strings.Contains(fromFile.stdout, "flurry user=374") {
		t.Fatalf("file and stdin runs differ or found no flurry:\n%s\n---\n%s", fromFile.stdout, fromStdin.stdout)
	}
	if withoutProvenance(whole.stdout) != withoutProvenance(fromFile.stdout) {
		t.Errorf("two passes and one pass differ:\n%s\n---\n%s", fromFile.stdout, whole.stdout)
	}
	gz := swfclean(t, bytes.NewReader(testutil.Gzip(t, string(readFile(t, "testdata/dirty.swf")))), args...)
	if gz.stdout != fromStdin.stdout {
		t.Errorf("gzip stdin differs")
	}
}

// TestRenumberNotesNameInputNumbers: with --rules ...,renumber the Notes
// that name job numbers (a --filter on job, a --drop-flurries flurry, in one
// pass from a file read twice and from standard input) say the numbers are
// the input's, as does the filter's entry in --report; the Note of a filter
// on users does not. The output's jobs are 1..N.
func TestRenumberNotesNameInputNumbers(t *testing.T) {
	var in strings.Builder
	in.WriteString("; MaxProcs: 64\n")
	for i := range 400 { // jobs 10, 20, ...: users 1 and 2 all day, user 9 in a burst
		user := 9
		if i%3 == 0 {
			user = 1 + i%2
		}
		fmt.Fprintf(&in, "%d %d 0 10 1 -1 -1 1 -1 -1 1 %d 1 -1 -1 -1 -1 -1\n", 10*(i+1), i*60, user)
	}
	dir := t.TempDir()
	file, report := filepath.Join(dir, "in.swf"), filepath.Join(dir, "report.json")
	if err := os.WriteFile(file, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	const input = "job numbers are the input's, before rule renumber"
	for _, from := range []string{file, "-"} {
		res := swfclean(t, strings.NewReader(in.String()), "-q", "--rules", "default,renumber", "--drop-flurries",
			"--filter", "job<=20", "--filter", "user=2", "--report", report, from)
		for _, want := range []string{
			"; Note: swfclean filter job<=20: 2 jobs removed (" + input + ")\n",
			"; Note: swfclean filter user=2: 67 jobs removed\n",
			"; Note: swfclean flurry user=9 and job>=30 and job<=3990 (265 jobs removed; in its windows, 23761 s, 265 of 331 submissions, 80%, were the user's, first to last in 23760 s; " + input + ")\n",
			"\n1 360 0 10 1 ", // job 70, the first kept
		} {
			if !strings.Contains(res.stdout, want) {
				t.Errorf("%s: output lacks %q:\n%s", from, want, res.stdout)
			}
		}
		var rep struct {
			Rules []struct {
				Rule       string `json:"rule"`
				JobNumbers string `json:"job_numbers"`
			} `json:"rules"`
		}
		if err := json.Unmarshal(readFile(t, report), &rep); err != nil {
			t.Fatal(err)
		}
		for _, s := range rep.Rules {
			if want := map[bool]string{true: "input"}[s.Rule == "filter job<=20"]; s.JobNumbers != want {
				t.Errorf("%s: report step %q: job_numbers %q, want %q", from, s.Rule, s.JobNumbers, want)
			}
		}
		if res.code != 0 || strings.Count(res.stdout, input) != 2 {
			t.Errorf("%s: exit %d, stderr %s, output\n%s", from, res.code, res.stderr, res.stdout)
		}
	}
}

// TestRenumberNoteOnEarlierNotes: a second cleaning with renumber of a
// log the first renumbered gets, right after renumber's counts, one Note
// saying that the job numbers of the earlier Notes and Provenance line (the
// first run's "filter job<=20", "filter=job<=20") are not the output's; the
// first run, whose input had neither, gets none.
func TestRenumberNoteOnEarlierNotes(t *testing.T) {
	const earlier = "; Note: swfclean rule renumber: job numbers in the header's earlier Notes and Provenance lines " +
		"are the input's numbering, before this run's renumber (or an older one, where an earlier run renumbered)\n"
	var in strings.Builder
	in.WriteString("; MaxProcs: 64\n")
	for i := range 8 {
		fmt.Fprintf(&in, "%d %d 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n", 10*(i+1), i*60)
	}
	first := swfclean(t, strings.NewReader(in.String()), "-q", "--rules", "default,renumber", "--filter", "job<=20")
	if first.code != 0 || strings.Contains(first.stdout, "earlier Notes") || !strings.Contains(first.stdout, "\n1 120 ") {
		t.Fatalf("first run: exit %d, stderr %s, output\n%s", first.code, first.stderr, first.stdout)
	}
	second := swfclean(t, strings.NewReader(first.stdout), "-q", "--rules", "default,renumber", "--filter", "job<=2")
	if second.code != 0 || !strings.Contains(second.stdout, "; Note: swfclean rule renumber: 4 jobs changed\n"+earlier) ||
		strings.Count(second.stdout, "earlier Notes") != 1 || !strings.Contains(second.stdout, "\n1 240 ") {
		t.Errorf("second run: exit %d, stderr %s, output\n%s", second.code, second.stderr, second.stdout)
	}
}

// TestReportRulesNone: with no rule the report's "rules" is an empty list, so
// a consumer can iterate it without a null check.
func TestReportRulesNone(t *testing.T) {
	report := filepath.Join(t.TempDir(), "report.json")
	res := swfclean(t, nil, "--rules", "none", "-q", "--report", report, "testdata/dirty.swf")
	if res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	if got := string(readFile(t, report)); !strings.Contains(got, `"rules": []`) {
		t.Errorf("report with --rules none:\n%s", got)
	}
}

// TestProcsRewritesMaxProcs: --procs overrides the machine size, so the output
// header says the new size (the next tool in the pipe reads it) and a Note
// keeps the old one; the same size as the header changes nothing.
func TestProcsRewritesMaxProcs(t *testing.T) {
	for _, args := range [][]string{{"--procs", "128"}, {"--procs", "128", "--rules", "none"}} {
		res := swfclean(t, nil, append(args, "-q", "testdata/dirty.swf")...)
		if res.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, res.code, res.stderr)
		}
		if !strings.Contains(res.stdout, "; MaxProcs: 128\n") || strings.Contains(res.stdout, "; MaxProcs: 64\n") ||
			!strings.Contains(res.stdout, "; Note: swfclean --procs 128: MaxProcs was 64\n") {
			t.Errorf("%v: output:\n%s", args, res.stdout)
		}
	}
	res := swfclean(t, nil, "--procs", "64", "-q", "testdata/dirty.swf")
	if res.code != 0 || !strings.Contains(res.stdout, "; MaxProcs: 64\n") || strings.Contains(res.stdout, "MaxProcs was") {
		t.Errorf("--procs equal to the header: exit %d\n%s", res.code, res.stdout)
	}
}

// TestSetMaxProcsIsTheMachine: --set MaxProcs=N is the machine size too_big
// checks, for SWF input as with --from: the rules read the old MaxProcs 16,
// dropped nothing, and the output held an 8-processor job on a "4-processor"
// machine, which --check then reported (proc_too_many, header_maxprocs).
func TestSetMaxProcsIsTheMachine(t *testing.T) {
	const in = "; MaxProcs: 16\n1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n2 0 1 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n"
	res := swfclean(t, strings.NewReader(in), "--set", "MaxProcs=4", "-")
	if res.code != 0 || !strings.Contains(res.stderr, "too_big                                         1 dropped") ||
		!strings.Contains(res.stdout, "; MaxProcs: 4\n; Note: swfclean --set MaxProcs=4: MaxProcs was 16\n") ||
		strings.Contains(res.stdout, "\n1 0 1 10 8 ") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	check := swfclean(t, strings.NewReader(res.stdout), "--check", "--fail-on-anomaly", "-")
	if check.code != 0 || strings.Contains(check.stdout, "proc_too_many") || strings.Contains(check.stdout, "header_maxprocs") {
		t.Errorf("the cleaned output does not check: exit %d\n%s", check.code, check.stdout)
	}
	// The same run with --procs 4 writes the same trace.
	procs := swfclean(t, strings.NewReader(in), "--procs", "4", "-")
	strip := func(s string) string {
		s = withoutProvenance(s)
		s = strings.Replace(s, "--set MaxProcs=4", "--procs 4", 1)
		return s
	}
	if strip(res.stdout) != strip(procs.stdout) {
		t.Errorf("--set MaxProcs=4:\n%s\n--procs 4:\n%s", res.stdout, procs.stdout)
	}
	// --set MaxNodes is the machine when the header has no MaxProcs.
	res = swfclean(t, strings.NewReader("; MaxNodes: 16\n1 0 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n"), "-q", "--set", "MaxNodes=4")
	if res.code != 0 || !strings.Contains(res.stdout, "; MaxRecords: 0\n") || !strings.Contains(res.stdout, "; Note: swfclean --set MaxNodes=4: MaxNodes was 16\n") {
		t.Errorf("--set MaxNodes=4: exit %d\n%s", res.code, res.stdout)
	}
}

// TestSetMachineWithFrom: with --from, --set is written once (a Note was
// written twice: in the converted header, then by the cleaning), and its
// MaxProcs is the conversion's machine and too_big's.
func TestSetMachineWithFrom(t *testing.T) {
	res := swfclean(t, nil, "-q", "--from", "sacct", "--timezone", "UTC", "--set", "Note=hello", "--set", "MaxProcs=1", sacctDump)
	if res.code != 0 || strings.Count(res.stdout, "; Note: hello\n") != 1 || !strings.Contains(res.stdout, "; MaxProcs: 1\n") ||
		strings.Contains(res.stdout, "MaxProcs was") || strings.Contains(res.stdout, "; Note: MaxProcs ") {
		t.Fatalf("exit %d\n%s", res.code, res.stdout)
	}
	if !strings.Contains(res.stdout, "; Note: swfclean rule too_big: ") || strings.Contains(res.stdout, "; Note: swfclean rule too_big: no jobs affected") {
		t.Errorf("too_big did not use the machine of --set MaxProcs=1:\n%s", res.stdout)
	}
}

// withoutProvenance drops the Provenance line, which differs between runs
// with different options that must write the same trace otherwise.
func withoutProvenance(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if !strings.HasPrefix(l, "; Provenance: ") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// A CRLF trace stays CRLF when the first thing written is composed: a changed
// first record after the header, or the header lines swfclean adds to a
// trace that has none. A UTF-8 byte-order mark survives --rules none.
func TestLineEndingsFollowTheInput(t *testing.T) {
	rec := "1 0 1 10 0 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\r\n" // zero_to_unknown changes it
	for name, in := range map[string]string{
		"header":     "; MaxProcs: 8\r\n" + rec,
		"semicolon":  "; MaxProcs: 8\r\n;\r\n" + rec + "2 0 1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\r\n",
		"headerless": rec,
	} {
		res := swfclean(t, strings.NewReader(in), "-q")
		if res.code != 0 {
			t.Fatalf("%s: exit %d: %s", name, res.code, res.stderr)
		}
		lines := strings.SplitAfter(res.stdout, "\n")
		for i, l := range lines[:len(lines)-1] {
			if !strings.HasSuffix(l, "\r\n") {
				t.Errorf("%s: output line %d %q ends in LF alone", name, i+1, l)
			}
		}
	}
	in := "\xef\xbb\xbf; MaxProcs: 8\n" + strings.TrimSuffix(rec, "\r\n") + "\n"
	if res := swfclean(t, strings.NewReader(in), "--rules", "none", "-q"); res.stdout != in {
		t.Errorf("--rules none with a byte-order mark wrote %q, want %q", res.stdout, in)
	}
	if res := swfclean(t, strings.NewReader(in), "-q"); !strings.HasPrefix(res.stdout, "\xef\xbb\xbf; MaxProcs: 8\n") || strings.Count(res.stdout, "\xef\xbb\xbf") != 1 {
		t.Errorf("cleaning a trace with a byte-order mark wrote %q: want the mark once, first", res.stdout)
	}
}

// In a trace whose first line ends in CRLF and whose last header line in LF,
// a changed first record is composed after swfclean's header, whose last
// lines are its own (counts, Notes, Provenance) and follow that LF line: it
// ends in LF, as every composed line ends like the line before it. And the
// other way round. The body is written before the header is final (spooled),
// so these lines are mended when it is copied out.
func TestChangedFirstRecordEndsLikeTheHeader(t *testing.T) {
	rec := "1 0 1 10 0 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1" // zero_to_unknown changes it
	two := "2 0 1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1"
	for _, c := range []struct {
		name, in string
		want     []string // the endings of the two records
	}{
		{"CRLF then LF", "; Version: 2.2\r\n; MaxProcs: 8\n" + rec + "\n" + two + "\n", []string{"\n", "\n"}},
		{"LF then CRLF", "; Version: 2.2\n; MaxProcs: 8\r\n" + rec + "\r\n" + two + "\r\n", []string{"\r\n", "\r\n"}},
		{"CRLF then LF, raw CRLF second", "; Version: 2.2\r\n; MaxProcs: 8\n" + rec + "\n" + two + "\r\n", []string{"\n", "\r\n"}},
	} {
		res := swfclean(t, strings.NewReader(c.in), "-q")
		if res.code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, res.code, res.stderr)
		}
		lines := strings.SplitAfter(res.stdout, "\n")
		lines = lines[:len(lines)-1]
		if len(lines) < 3 {
			t.Fatalf("%s: %q", c.name, res.stdout)
		}
		header := lines[len(lines)-3]
		got := []string{lines[len(lines)-2], lines[len(lines)-1]}
		if !strings.HasPrefix(header, ";") || !strings.HasPrefix(got[0], "1 ") || !strings.HasPrefix(got[1], "2 ") {
			t.Fatalf("%s: %q", c.name, res.stdout)
		}
		if strings.HasSuffix(header, "\r\n") != (c.want[0] == "\r\n") {
			t.Errorf("%s: the header's last line %q, the first record should end like it", c.name, header)
		}
		for i, l := range got {
			if end := strings.TrimLeft(l, "0123456789 -"); end != c.want[i] {
				t.Errorf("%s: record %d ends in %q, want %q", c.name, i+1, end, c.want[i])
			}
		}
	}
}

// --rules none --lenient drops malformed lines, so its output is no copy:
// the header says what was dropped and how (Note, Provenance).
func TestRulesNoneLenientSaysWhatItDropped(t *testing.T) {
	in := "; MaxProcs: 8\n1 0 1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\nbad line\n"
	res := swfclean(t, strings.NewReader(in), "--rules", "none", "--lenient", "-q")
	if res.code != 0 || !strings.Contains(res.stdout, "1 dropped (1 malformed)") || !strings.Contains(res.stdout, "; Provenance: swfclean") {
		t.Errorf("exit %d:\n%s", res.code, res.stdout)
	}
}

// TestFailedCopyWritesNothing: --rules none copied its input to standard
// output as it read it, so a copy that failed at a late line (here after
// 3,000 records of 64 bytes: two flushes of 64 KiB) had already given the
// next command of a pipe 2,048 whole records, a valid trace it summarized
// with exit 0. Now standard output gets nothing from a failed copy, and the
// next command reports an empty input, as after any other failed tool.
func TestFailedCopyWritesNothing(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&b, "%-63s\n", fmt.Sprintf("%d %d 1 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1", i, 10*i))
	}
	good := b.String()
	b.WriteString("a line that is no record\n")
	res := swfclean(t, strings.NewReader(b.String()), "--rules", "none")
	if res.code != 1 || res.stdout != "" || !strings.Contains(res.stderr, "<stdin>:3001:") {
		t.Errorf("failed copy: exit %d, %d bytes on stdout, stderr %q; want 1, nothing, line 3001", res.code, len(res.stdout), res.stderr)
	}
	if res := swfclean(t, strings.NewReader(good), "--rules", "none"); res.code != 0 || res.stdout != good {
		t.Errorf("whole copy: exit %d, %d bytes of %d", res.code, len(res.stdout), len(good))
	}
}

// A converter's input cut inside its gzip stream is an error that names the
// file once (the reader's error already names it), for sacct and Alea.
func TestConverterCutGzipNamedOnce(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		src  string
		args []string
	}{
		{sacctDump, []string{"--from", "sacct", "--timezone", "UTC"}},
		{"testdata/metacentrum-head.alea", []string{"--from", "alea"}},
	} {
		data, err := os.ReadFile(c.src)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
		cut := filepath.Join(dir, filepath.Base(c.src)+".gz")
		if err := os.WriteFile(cut, buf.Bytes()[:buf.Len()*2/3], 0o644); err != nil {
			t.Fatal(err)
		}
		r := swfclean(t, nil, append(c.args, cut, "-o", filepath.Join(dir, "out.swf"))...)
		if r.code != 1 || strings.Count(r.stderr, cut) != 1 || !strings.Contains(r.stderr, "truncated gzip data") {
			t.Errorf("%s: exit %d, want 1 and the file named once:\n%s", c.src, r.code, r.stderr)
		}
	}
}

// --list-rules writes to -o when given, and refuses what it would ignore: an
// input file, any other option.
func TestListRulesOnly(t *testing.T) {
	list := filepath.Join(t.TempDir(), "rules.txt")
	r := swfclean(t, nil, "--list-rules", "-o", list)
	data, err := os.ReadFile(list)
	if r.code != 0 || r.stdout != "" || err != nil || !strings.Contains(string(data), "flurries") {
		t.Errorf("-o: exit %d, stdout %q, stderr %q, file %q (%v)", r.code, r.stdout, r.stderr, data, err)
	}
	for _, args := range [][]string{
		{"--list-rules", "--lenient"},
		{"--list-rules", "--check"},
		{"--list-rules", "--rules", "none"},
		{"--list-rules", "testdata/dirty.swf"},
	} {
		r := swfclean(t, nil, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "--list-rules") {
			t.Errorf("%v: exit %d, %q", args, r.code, r.stderr)
		}
	}
}

// TestStrictFormatHint: without --lenient, a Slurm sacct dump or an Alea log
// fails at its first record line with the hint a --lenient read gives when
// it skips every line (how to convert it), and a malformed SWF line keeps
// its message.
func TestStrictFormatHint(t *testing.T) {
	const (
		sacct = "JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode\n1|x|p|a|2|COMPLETED|0:0\n"
		alea  = "; MaxProcs: 64\n" + "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 {1241,1241} q_1d 1:ppn=64\n"
	)
	for _, args := range [][]string{{}, {"--check"}, {"--drop-flurries"}, {"--rules", "none"}, {"--rules", "default,merge_partial"}} {
		for _, tc := range []struct{ name, stdin, stderr string }{
			{"sacct", sacct, "swfclean: <stdin>:1: field 1 (Job Number): expected a number, got \"JobID|JobName|Partition|Account|AllocCPU\"... (it looks like a Slurm `sacct --parsable2` dump: read it with --from sacct --timezone ZONE)\n"},
			{"alea", alea, "swfclean: <stdin>:2: field 19 (extension token): expected a key=value extension token after the 18 SWF fields, got \"{1241,1241}\" (it looks like the Alea simulator's format, in which MetaCentrum publishes its logs: read it with --from alea)\n"},
			{"SWF", "1 2 3\n", "swfclean: <stdin>:1: expected 18 whitespace-separated fields, got 3: fields 4 (Run Time) to 18 are missing\n"},
		} {
			t.Run(fmt.Sprint(tc.name, args), func(t *testing.T) {
				r := swfclean(t, strings.NewReader(tc.stdin), args...)
				code, errOut := r.code, r.stderr
				if code != 1 || errOut != tc.stderr {
					t.Errorf("exit %d, stderr\n%s\nwant exit 1, stderr\n%s", code, errOut, tc.stderr)
				}
			})
		}
	}
}

// TestAnonymizeQueuesHeader: --anonymize on an archive-style header whose
// Queues line describes the queues in free text: the line, whose numbers
// are the input's, is not in the output, a Note says why and what to do,
// and --set Queues=TEXT puts a new one in (after the rule dropped the old).
func TestAnonymizeQueuesHeader(t *testing.T) {
	const in = "; MaxQueues: 2\n; Queues: 0 is interactive, 7 is \"long\" (up to 48 h)\n; Queue: 0 interactive\n; Queue: 7 long\n;\n" +
		"1 0 5 100 4 -1 -1 4 500 -1 1 374 20 55 7 -1 -1 -1\n2 1 5 100 4 -1 -1 4 500 -1 1 12 21 -1 0 -1 -1 -1\n"
	const note = "; Note: swfclean rule anonymize: dropped 1 header line describing queues in free text (Queues, or Queue without a leading number): " +
		"the queue numbers in them are the input's, not those of the renumbered field 15; --set 'Queues=TEXT' describes the queues again\n"
	for _, tc := range []struct {
		args   []string
		queues string // the output's Queues line, "" for none
	}{
		{[]string{"--anonymize", "-q"}, ""},
		{[]string{"--anonymize", "-q", "--set", "Queues=0 is interactive, 1 is long (up to 48 h)"}, "; Queues: 0 is interactive, 1 is long (up to 48 h)\n"},
	} {
		res := swfclean(t, strings.NewReader(in), tc.args...)
		// -q silences the table, not the warnings.
		const warning = "swfclean: warning: too_big/clamp_too_big not applied: the header has no MaxProcs or MaxNodes (give --procs)\n"
		if res.code != 0 || res.stderr != warning || !strings.Contains(res.stdout, "; Queue: 0 interactive\n; Queue: 1 long\n") ||
			!strings.Contains(res.stdout, note) || strings.Contains(res.stdout, "7 is") ||
			strings.Count(res.stdout, "; Queues:") != strings.Count(tc.queues, "; Queues:") || !strings.Contains(res.stdout, tc.queues) ||
			!strings.Contains(res.stdout, "\n1 0 5 100 4 -1 -1 4 500 -1 1 1 1 1 1 -1 -1 -1\n") {
			t.Errorf("%v: exit %d, stderr %q, output\n%s", tc.args, res.code, res.stderr, res.stdout)
		}
	}
}

// TestAnonymizeIdsInHeaderNotes: --anonymize on archive logs whose cleaning
// Notes name users by number ("user=4 and (job>=3874 ..."): the Notes are
// kept as written, a warning names each line that may name an id the rule
// renumbered, and a Note says how many there are. NASA-iPSC's "group 1 is
// normal users" is not named: its groups keep their numbers. Without
// --anonymize, or on a log whose ids are already 1..N (the output, anonymized
// again), nothing is said.
func TestAnonymizeIdsInHeaderNotes(t *testing.T) {
	const (
		named = " may name %s ids from before the renumbering\n"
		check = "swfclean: warning: rule anonymize keeps free text as written: check %s above before the log is published (--anonymize-map writes the old and new numbers)\n"
		note  = "; Note: swfclean rule anonymize: %s may name %s ids from before the renumbering (free text, kept as written: its numbers are not rewritten)\n"
	)
	for _, tc := range []struct {
		trace, kinds, count, these string
		lines                      []int
		kept                       string // a flagged line, as the output keeps it
	}{
		{"LLNL-Atlas-2006-2.1-cln.swf.gz", "user", "5 header lines", "the 5 header lines", []int{27, 28, 29, 30, 31},
			";         user=4 and (job>=3874 and job<=5925) (2038 jobs removed)\n"},
		{"NASA-iPSC-1993-3.1-cln.swf.gz", "user or executable", "1 header line", "the header line", []int{31},
			";         user=3 and proc=1 and app=1 (24025 jobs removed)\n"},
	} {
		t.Run(tc.trace, func(t *testing.T) {
			trace := readFile(t, testutil.Trace(t, tc.trace))
			res := swfclean(t, bytes.NewReader(trace), "--anonymize")
			want := ""
			for _, n := range tc.lines {
				want += fmt.Sprintf("swfclean: warning: <stdin>:%d: header line"+named, n, tc.kinds)
			}
			want += fmt.Sprintf(check, tc.these)
			if res.code != 0 || !strings.HasSuffix(res.stderr, want) || strings.Count(res.stderr, "warning:") != len(tc.lines)+1 ||
				!strings.Contains(res.stdout, fmt.Sprintf(note, tc.count, tc.kinds)) || !strings.Contains(res.stdout, "\n"+tc.kept) {
				t.Fatalf("exit %d, stderr\n%s\nwant it to end\n%s\noutput header\n%s", res.code, res.stderr, want, header(res.stdout))
			}
			// Already 1..N: anonymized again, nothing changes and nothing is said.
			again := swfclean(t, strings.NewReader(res.stdout), "--rules", "none", "--anonymize")
			if again.code != 0 || strings.Contains(again.stderr, "warning") || strings.Count(again.stdout, "may name") != 1 ||
				!strings.Contains(again.stdout, "; Note: swfclean rule anonymize: no jobs affected\n") {
				t.Errorf("anonymized again: exit %d, stderr\n%s\noutput header\n%s", again.code, again.stderr, header(again.stdout))
			}
			plain := swfclean(t, bytes.NewReader(trace))
			if plain.code != 0 || strings.Contains(plain.stderr, "warning") || strings.Contains(plain.stdout, "may name") {
				t.Errorf("without --anonymize: exit %d, stderr\n%s\noutput header\n%s", plain.code, plain.stderr, header(plain.stdout))
			}
		})
	}
}

// header returns the comment lines at the start of an SWF text.
func header(text string) string {
	end := 0
	for end < len(text) && strings.HasPrefix(strings.TrimLeft(text[end:], " \t"), ";") {
		i := strings.IndexByte(text[end:], '\n')
		if i < 0 {
			return text
		}
		end += i + 1
	}
	return text[:end]
}

// TestCheckFromLinesAreRulesNoneLines: --check of a log that --from converts
// names the lines of the SWF `--from X --rules none` writes (its header ends
// with the run's Provenance line), so every line it reports is the line the
// same check names in that file; --set changes what the checks read, not the
// numbers.
func TestCheckFromLinesAreRulesNoneLines(t *testing.T) {
	for _, tc := range []struct{ from, log string }{
		{"sacct", sacctDump},
		{"alea", "testdata/metacentrum-head.alea"},
	} {
		t.Run(tc.from, func(t *testing.T) {
			conv := []string{"--from", tc.from, tc.log}
			if tc.from == "sacct" {
				conv = append(conv, "--timezone", "Europe/Prague")
			}
			plain := swfclean(t, nil, append([]string{"--rules", "none"}, conv...)...)
			if plain.code != 0 {
				t.Fatalf("--rules none: %d %s", plain.code, plain.stderr)
			}
			direct := swfclean(t, strings.NewReader(plain.stdout), "--check", "-")
			// The lines the report names: header size, largest job, anomalies.
			lines := func(report string) string {
				var b strings.Builder
				for _, l := range strings.Split(report, "\n") {
					if strings.HasPrefix(l, "header: ") || strings.Contains(l, "(line ") || strings.Contains(l, " lines ") {
						b.WriteString(l + "\n")
					}
				}
				return b.String()
			}
			want := lines(direct.stdout)
			if !strings.Contains(want, "(line ") || !strings.Contains(want, " lines ") {
				t.Fatalf("the check of the converted file names no job line:\n%s", direct.stdout)
			}
			for _, extra := range [][]string{nil, {"--set", "Computer=X", "--set", "Note=set here"}} {
				got := swfclean(t, nil, append(append([]string{"--check"}, conv...), extra...)...)
				if got.code != 0 {
					t.Fatalf("--check %v: %d %s", extra, got.code, got.stderr)
				}
				if g := lines(got.stdout); g != want {
					t.Errorf("--check %v names other lines than the check of the --rules none output:\n%s\nwant\n%s", extra, g, want)
				}
			}
		})
	}
}

// TestFlurriesReport: --flurries --report writes the candidates the table
// prints (and --check's result beside them), with the filter that drops each.
func TestFlurriesReport(t *testing.T) {
	var in strings.Builder
	in.WriteString("; MaxProcs: 8\n")
	for i := range 300 { // user 1 submits 250 of 300 jobs in 300 s: one flurry
		user := 1
		if i%6 == 5 {
			user = 2
		}
		fmt.Fprintf(&in, "%d %d 0 10 1 -1 -1 1 -1 -1 1 %d 1 1 1 1 -1 -1\n", i+1, i, user)
	}
	report := filepath.Join(t.TempDir(), "r.json")
	res := swfclean(t, strings.NewReader(in.String()), "--flurries", "--flurry-min-jobs", "240", "--report", report)
	if res.code != 0 || !strings.Contains(res.stdout, "user=1 and job>=1 and job<=299") {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	var rep struct {
		Records  int `json:"records"`
		Flurries *struct {
			Window     int64   `json:"window_s"`
			MinJobs    int     `json:"min_jobs"`
			MinShare   float64 `json:"min_share"`
			Candidates []struct {
				User      int64   `json:"user"`
				FirstJob  int64   `json:"first_job"`
				LastJob   int64   `json:"last_job"`
				Start     int64   `json:"start"`
				End       int64   `json:"end"`
				Jobs      int     `json:"jobs"`
				Of        int     `json:"of"`
				FirstLine int     `json:"first_line"`
				Share     float64 `json:"share"`
				Filter    string  `json:"filter"`
			} `json:"candidates"`
		} `json:"flurries"`
	}
	data := readFile(t, report)
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	f := rep.Flurries
	if rep.Records != 300 || f == nil || f.Window != 86400 || f.MinJobs != 240 || f.MinShare != 0.5 || len(f.Candidates) != 1 {
		t.Fatalf("report %s", data)
	}
	c := f.Candidates[0]
	if c.User != 1 || c.Jobs != 250 || c.Of != 300 || c.FirstJob != 1 || c.LastJob != 299 || c.Start != 0 || c.End != 298 ||
		c.FirstLine != 2 || c.Filter != "user=1 and job>=1 and job<=299" || c.Share != 250.0/300 {
		t.Errorf("candidate %+v", c)
	}
	// --check alone has no flurries object.
	res = swfclean(t, strings.NewReader(in.String()), "--check", "--report", report)
	if res.code != 0 || bytes.Contains(readFile(t, report), []byte(`"flurries"`)) {
		t.Errorf("--check --report: exit %d, %s", res.code, readFile(t, report))
	}
}

// TestDamagedGzip: a gzip file with a byte changed mid-file is reported as
// damaged, naming the file, not as the malformed SWF line its garbage
// decompresses to, by the check and the cleaning alike (swfsim always said
// "corrupt gzip data").
func TestDamagedGzip(t *testing.T) {
	var text strings.Builder
	for job := 1; job <= 1000; job++ {
		fmt.Fprintf(&text, "%d %d 1 10 8 -1 -1 8 20 -1 1 1 1 1 1 1 -1 -1\n", job, job*10)
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.NoCompression) // the byte changed is the text's
	zw.Write([]byte(text.String()))
	zw.Close()
	data := b.Bytes()
	at := bytes.Index(data, []byte("\n700 "))
	data[at+1] = 'x'
	path := filepath.Join(t.TempDir(), "crc.swf.gz")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{path}, {"--check", path}, {"-"}} {
		var stdin io.Reader
		if args[0] == "-" {
			stdin = bytes.NewReader(data)
		}
		r := swfclean(t, stdin, args...)
		name := path
		if args[0] == "-" {
			name = "<stdin>"
		}
		if r.code != 1 || !strings.Contains(r.stderr, name+": corrupt gzip data") || strings.Contains(r.stderr, "field 1") {
			t.Errorf("%v: exit %d, stderr %q; want the damage named", args, r.code, r.stderr)
		}
	}
}
