package cleancli

import (
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/clean"
)

var help = cmdio.Help{
	Docs:       "docs/swfclean.md",
	ExitStatus: "with --check --fail-on-anomaly an anomaly (or with --submission a log not ready)",
	Examples: []cmdio.Example{
		{Command: "swfclean --check trace.swf.gz", Explanation: "Report every anomaly of a raw archive log (counts and first lines); writes no trace."},
		{Command: "swfclean trace.swf.gz -o clean.swf", Explanation: "Clean with the default rules; the accounting (read = written + dropped, per rule) goes to stderr."},
		{Command: "swfclean --rules none --keep 'job<=2014' clean.swf -o first.swf", Explanation: "Keep the first jobs of a trace, every record byte-identical."},
		{Command: "swfclean --filter 'user=374 and job>14968' --drop-flurries trace.swf.gz | swfstat", Explanation: "Drop one user's jobs and the candidate flurries, then summarize."},
		{Command: "swfclean --anonymize --anonymize-map ids.tsv log.swf -o public.swf", Explanation: "Prepare a log for the archive: user, group, executable, queue and partition ids renumbered."},
		{Command: "swfclean --set MaxProcs=512 log.swf -o fixed.swf", Explanation: "Correct the machine size: too_big checks the jobs against 512 (as --procs 512), and a Note keeps the old MaxProcs."},
	},
	Choices: map[string][]string{
		"rules": append([]string{"default", "none", "all"}, ruleNames()...),
		"skip":  ruleNames(),
		"from":  {"swf", "sacct", "alea"},
	},
}

func ruleNames() []string {
	var out []string
	for _, r := range clean.Rules {
		out = append(out, r.Name)
	}
	return out
}
