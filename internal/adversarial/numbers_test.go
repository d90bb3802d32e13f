//go:build unix

package adversarial

import (
	"strings"
	"testing"
)

const header = "; Version: 2.2\n; MaxProcs: 64\n"

// job is an SWF record with the given submit, wait, runtime, processors and
// requested time, and the remaining fields plain.
func job(n, submit, wait, run, procs, req string) string {
	return strings.Join([]string{n, submit, wait, run, procs, "-1", "-1", procs, req, "-1", "1", "1", "1", "1", "1", "-1", "-1", "-1"}, " ") + "\n"
}

// Defects 5 and 6: numbers no tool can represent are errors naming the line
// and the field, in every tool, never a panic or a wrapped value.
func TestUnrepresentableNumbers(t *testing.T) {
	cases := []struct {
		name, trace, want string
	}{
		{"beyond int64", header + job("1", "0", "0", "10", "4", "10") + job("99999999999999999999", "5", "0", "10", "4", "10"), ":4: field 1 (Job Number)"},
		{"int64 max plus one", header + job("1", "0", "0", "10", "4", "9223372036854775808"), ":3: field 9 (Requested Time)"},
		{"submit plus runtime overflows", header + job("1", "9223372036854775000", "0", "9223372036854775000", "64", "9223372036854775000") + job("2", "0", "0", "5", "60", "5"), ":3: field 2 (Submit Time)"},
		{"time beyond the bound", header + job("1", "0", "0", "2000000000000", "4", "10"), ":3: field 4 (Run Time)"},
		{"processors beyond the bound", header + job("1", "0", "0", "10", "4294967296", "10"), ":3: field 5"},
		{"hex float", header + job("1", "0", "0x1p4", "10", "4", "10"), ":3: field 3 (Wait Time)"},
		{"huge wait", header + job("1", "0", "9000000000000000000", "10", "4", "10"), ":3: field 3 (Wait Time)"},
	}
	for _, tool := range tools {
		t.Run(tool, func(t *testing.T) {
			for _, tc := range cases {
				r := run(t, call{tool: tool, args: toolArgs(tool, "-"), stdin: []byte(tc.trace)})
				expect(t, tc.name, r, 1, "<stdin>"+tc.want)
			}
		})
	}
	// The policies and options that panicked on the overflowing sum.
	overflow := []byte(cases[2].trace)
	for _, args := range [][]string{{"-p", "conservative"}, {"-p", "selective"}, {"-p", "easy", "--fair-start"}} {
		r := run(t, call{tool: "swfsim", args: args, stdin: overflow})
		expect(t, strings.Join(args, " "), r, 1, "<stdin>:3: field 2")
	}
}

// Defect 6: an unchanged line is written back byte-identical, also with the
// int64 limits, integers above 2^53 and the bounds themselves.
func TestLimitsAreKeptByteIdentical(t *testing.T) {
	trace := header +
		"9223372036854775807 0 0 10 4 -1 -9223372036854775808 4 10 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"9007199254740993 1099511627776 0 1099511627776 2147483647 -1 -1 2147483647 1099511627776 -1 1 9007199254740993 1 -1 1 -1 -1 -1\n"
	r := run(t, call{tool: "swfclean", args: []string{"--rules", "none", "-q"}, stdin: []byte(trace)})
	expect(t, "swfclean --rules none", r, 0)
	if r.stdout != trace {
		t.Errorf("not byte-identical:\n%s\nwant\n%s", r.stdout, trace)
	}
}

// Defect 7: swfaugment --utility's deadline (2 x wait) must not wrap.
func TestUtilityDeadlineDoesNotWrap(t *testing.T) {
	trace := header + job("1", "0", "1099511627776", "10", "4", "10")
	r := run(t, call{tool: "swfaugment", args: []string{"--utility"}, stdin: []byte(trace)})
	expect(t, "wait at the time bound", r, 1, "<stdin>:3: field 3 (Wait Time)", "deadline")
	r = run(t, call{tool: "swfaugment", args: []string{"--utility", "--deadline-factor", "1e300"}, stdin: []byte(header + job("1", "0", "1000", "10", "4", "10"))})
	expect(t, "--deadline-factor 1e300", r, 1, "<stdin>:3: field 3 (Wait Time)")
}

// Defect 8 and the doubtful flag values: NaN, Inf, hex, explicit 0 for a
// flag whose 0 means "default", and --set values no tool could read are
// usage errors (exit 2).
func TestFlagValues(t *testing.T) {
	cases := map[string][][]string{
		"swfsim": {
			{"-p", "lxfw", "--lxfw-weight", "NaN"},
			{"-p", "easy", "--kill-warn", "NaN"},
			{"-p", "easy", "--procs", "0x40"},
			{"-p", "timed-fcfs", "--trial", "9223372036854775807"},
			{"-p", "easy-p", "--predictor", "lastk:9223372036854775807"},
			{"-p", "ga", "--ga-population", "10001", "--ga-generations", "0"},
			{"-p", "selective", "--threshold", "0x1p4"},
		},
		"swfstat": {
			{"--uqos-upper-bound", "NaN"},
			{"--uqos-lower-bound", "Inf"},
			{"--uqos-lower-bound", "0"},
			{"--procs", "0"},
			{"--bsld-threshold", "0x1p4"},
			{"--percentiles", "50,0x1p4"},
			{"--skip-first", "0x1p2%"},
		},
		"swfclean": {
			{"--flurry-share", "NaN"},
			{"--procs", "0"},
			{"--from", "alea", "--nodes", "0"},
			{"--set", "MaxProcs=abc"},
			{"--set", "MaxJobs=-3"},
			{"--flurry-window", "1_000"},
		},
		"swfaugment": {
			{"--utility", "--digits", "0"},
			{"--utility", "--min-deadline", "0"},
			{"--utility", "--epsilon", "0"},
			{"--load", "2", "--procs", "0"},
			{"--utility", "--globmax", "0x1p0"},
			{"--estimate", "scale:0x1p1"},
			{"--utility", "--decay", "linear:0x1p0"},
			{"--utility", "--epsilon", "4611686018427387904", "--min-deadline", "9223372036854775807"},
		},
	}
	for _, tool := range tools {
		t.Run(tool, func(t *testing.T) {
			for _, args := range cases[tool] {
				r := run(t, call{tool: tool, args: args, stdin: small(t)})
				expect(t, strings.Join(args, " "), r, 2)
			}
		})
	}
}

// Extension tokens with values no tool can use are errors naming the file,
// the line and the token.
func TestTokenValues(t *testing.T) {
	dir := t.TempDir()
	aug := run(t, call{tool: "swfaugment", args: []string{"--utility", "--checkpoint", "-"}, stdin: small(t)})
	expect(t, "swfaugment", aug, 0)
	lines := strings.Split(aug.stdout, "\n")
	var jobLine int
	for i, l := range lines {
		if !strings.HasPrefix(l, ";") && strings.Contains(l, " u=") && strings.Contains(l, " ckpt=") {
			jobLine = i
			break
		}
	}
	if jobLine == 0 {
		t.Fatal("no job with u= and ckpt= tokens")
	}
	replace := func(key, value string) string {
		out := make([]string, len(lines))
		copy(out, lines)
		f := strings.Fields(out[jobLine])
		for i, tok := range f {
			if strings.HasPrefix(tok, key+"=") {
				f[i] = key + "=" + value
			}
		}
		out[jobLine] = strings.Join(f, " ")
		return strings.Join(out, "\n")
	}
	at := "bad.swf:" + itoa(jobLine+1) + ": field "
	for _, tc := range []struct {
		policy, key, value string
	}{
		{"ga-ckpt", "ckpt", "abc"},
		{"ga-ckpt", "ckpt", "0"},
		{"ga-ckpt", "ckpt", "9223372036854775807"},
		{"ga", "u", "0:1,5:NaN"},
		{"ga", "u", "0:1,0x10:0"},
	} {
		path := write(t, dir, "bad.swf", []byte(replace(tc.key, tc.value)), 0o644)
		r := run(t, call{tool: "swfsim", args: []string{"-p", tc.policy, "--ga-generations", "2", path}})
		expect(t, tc.policy+" "+tc.key+"="+tc.value, r, 1, at, tc.key+"=")
	}
	for _, v := range []string{"-5", "1099511627777", "abc"} {
		trace := header + job("1", "0", "0", "10", "4", "10") + strings.TrimSuffix(job("2", "5", "0", "10", "4", "10"), "\n") + " pred=" + v + "\n"
		path := write(t, dir, "bad.swf", []byte(trace), 0o644)
		r := run(t, call{tool: "swfsim", args: []string{"-p", "easy-p", "--predictor", "token", path}})
		expect(t, "pred="+v, r, 1, "bad.swf:4: field 19 (extension token): pred="+v)
	}
	sched := run(t, call{tool: "swfsim", args: []string{"-p", "easy", "--fair-start", "-"}, stdin: small(t)})
	expect(t, "swfsim --fair-start", sched, 0)
	lines = strings.Split(sched.stdout, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, ";") && strings.Contains(l, "fairstart=") {
			jobLine = i
			break
		}
	}
	for _, v := range []string{"-5", "-1099511627777"} {
		path := write(t, dir, "bad.swf", []byte(replace("fairstart", v)), 0o644)
		r := run(t, call{tool: "swfstat", args: []string{path}})
		expect(t, "fairstart="+v, r, 1, "bad.swf:"+itoa(jobLine+1)+": field 19 (extension token)", "fairstart="+v)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
