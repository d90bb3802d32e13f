package simcli

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/extpolicy"
	"github.com/swfkit/swfkit/pkg/policy"
	"github.com/swfkit/swfkit/pkg/provenance"
)

const execCategory = "External policy, exec (docs/swfsim-external.md):"

// execFlags are the flags of policy exec.
func execFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "exec", Category: execCategory,
			Usage: "exec: run `COMMAND`, a program and its arguments such as 'python3 my_policy.py', as the scheduler, without a shell (quotes and backslashes group words; nothing else is special; use sh -c '...' for a shell), talking JSON lines on its stdin/stdout"},
		&cli.DurationFlag{Name: "exec-timeout", Value: extpolicy.DefaultTimeout, DefaultText: "60s", Category: execCategory,
			Usage: "exec: the longest the program may take to answer a message or to exit after the last one, as a `DURATION` (e.g. 60s, 5m)"},
		&cli.DurationFlag{Name: "exec-spin", Value: extpolicy.DefaultSpin, Category: execCategory,
			Usage: "exec: how long each wait for the program's reply polls before it sleeps, as a `DURATION` (0 never polls; no wait polls while the machine has more runnable tasks than processors, and one preempted while polling stops polling for a while); changes the speed only, never the schedule (Linux)"},
	}
}

// execParams reads --exec and --exec-timeout for policy exec; the header,
// the records and stderr are added once the trace is read (Simulate).
func execParams(c *cli.Context, info policy.Info) (policy.ExecParams, error) {
	var p policy.ExecParams
	if info.Name != "exec" {
		return p, nil
	}
	text := c.String("exec")
	if !c.IsSet("exec") {
		return p, cmdio.Usagef("--policy exec needs --exec 'PROGRAM ARG...', e.g. --exec 'python3 examples/policies/easy.py'")
	}
	argv, err := extpolicy.SplitCommand(text)
	if err != nil {
		return p, cmdio.Usagef("--exec: %v", err)
	}
	p.Command = argv
	p.Seed = c.Int64("seed")
	p.Timeout = c.Duration("exec-timeout")
	if p.Timeout <= 0 {
		return p, cmdio.Usagef("--exec-timeout %v: want a positive duration, e.g. 60s", p.Timeout)
	}
	p.Spin = c.Duration("exec-spin")
	if p.Spin < 0 || p.Spin > time.Second {
		return p, cmdio.Usagef("--exec-spin %v: want a duration from 0 to 1s, e.g. 200us", p.Spin)
	}
	if c.String("price") == "vcg" {
		return p, cmdio.Usagef("--price vcg re-simulates the policy once per job; it is not available with --policy exec")
	}
	return p, nil
}

// execFiles are the files an exec command names: the program (looked up in
// PATH as it will be started) and every argument that is an existing file
// (a script, a model), so that -o cannot replace them.
func execFiles(argv []string) []string {
	var out []string
	for i, a := range argv {
		if i == 0 {
			if p, err := exec.LookPath(a); err == nil {
				out = append(out, p)
			}
			continue
		}
		if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() {
			out = append(out, a)
		}
	}
	return out
}

// withExecFiles returns r with, after its exec= field, one exec-file-sha256
// field (HASH:PATH, provenance.ExecFileSHA256) for each file of the command
// that the run's schedule depends on: the program when it is named by a
// path (one found in PATH, an interpreter such as python3, belongs to the
// machine rather than to the study) and every argument that is an existing
// regular file (the policy's script, a model), each once. A file that
// cannot be read is left out. r's fields are copied, not shared.
func withExecFiles(r provenance.Record, argv []string) provenance.Record {
	var fields []provenance.Field
	var seen []string
	for i, a := range argv {
		if (i == 0 && !strings.ContainsRune(a, os.PathSeparator)) || slices.Contains(seen, a) {
			continue
		}
		sum, err := cmdio.RawFileSHA256(a) // an error for all but regular files
		if err != nil {
			continue
		}
		seen = append(seen, a)
		fields = append(fields, provenance.Field{Key: provenance.ExecFileSHA256, Value: sum + ":" + a})
	}
	if len(fields) == 0 {
		return r
	}
	at := slices.IndexFunc(r.Fields, func(f provenance.Field) bool { return f.Key == "exec" })
	if at < 0 {
		return r
	}
	r.Fields = slices.Insert(slices.Clone(r.Fields), at+1, fields...)
	return r
}
