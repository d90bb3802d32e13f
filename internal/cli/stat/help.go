package statcli

import (
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/plot"
	"github.com/swfkit/swfkit/pkg/stats"
)

var help = cmdio.Help{
	Docs:       "docs/swfstat.md",
	ExitStatus: "a failed --check-capacity",
	Examples: []cmdio.Example{
		{Command: "swfstat --label easy,cons --baseline cons easy.swf cons.swf", Explanation: "Two schedules side by side, with each number's change against conservative backfilling in percent."},
		{Command: "swfstat --format csv --by category easy.swf cons.swf > summary.csv", Explanation: "Long-form CSV (stable column names) for pandas or R, with the SN/SW/LN/LW breakdown."},
		{Command: "swfstat --html report.html --label easy,cons easy.swf cons.swf > summary.txt", Explanation: "One self-contained page: the tables, wait and slowdown CDFs, utilization, queue, categories and Gantt charts."},
		{Command: "swfstat --plot day.svg --plot-kind gantt --window 1997-03-01:1997-03-02 --gantt-color user easy.swf", Explanation: "The schedule of one day (dates in the trace's time zone) as a Gantt chart colored by user."},
		{Command: "swfclean trace.swf.gz | swfsim --policy easy | swfstat --check-capacity", Explanation: "Check that a simulated schedule never oversubscribes its machine (exit 1 on a violation)."},
	},
	Choices: map[string][]string{
		"format":      {"table", "csv", "json"},
		"by":          stats.KeyNames,
		"procs-from":  {"requested", "requested-only", "allocated", "max"},
		"plot-kind":   kindNames(),
		"gantt-color": ganttColorKeys,
	},
}

func kindNames() []string {
	var out []string
	for _, k := range plot.Kinds {
		out = append(out, string(k))
	}
	return out
}
