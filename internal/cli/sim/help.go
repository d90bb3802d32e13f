package simcli

import (
	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/policy"
)

func help() cmdio.Help {
	var names []string
	for _, in := range policy.List() {
		names = append(names, in.Name)
	}
	return cmdio.Help{
		Docs: "docs/swfsim.md",
		Examples: []cmdio.Example{
			{Command: "swfsim --policy easy trace.swf.gz -o easy.swf", Explanation: "Simulate EASY backfilling on an archive trace; the schedule is SWF with simulated waits."},
			{Command: "swfsim --list-policies", Explanation: "Every policy with a one-line summary and its source."},
			{Command: "swfsim --policy conservative --no-kill --procs 128 trace.swf.gz | swfstat --check-capacity", Explanation: "Conservative backfilling on a 128-processor machine, jobs running past their estimate, then a capacity check."},
			{Command: "swfsim --policy selective --threshold adaptive --fair-start trace.swf.gz | swfstat", Explanation: "Selective reservations with the adaptive threshold, and the fairness table from the fair start times."},
			{Command: "swfaugment --utility trace.swf.gz | swfsim --policy ga --seed 7 | swfstat", Explanation: "The genetic-algorithm utility scheduler over utility functions swfaugment adds."},
			{Command: "swfsim --policy exec --exec 'python3 examples/policies/easy.py' trace.swf.gz -o easy.swf", Explanation: "A scheduler written in another language, driven over JSON lines (docs/swfsim-external.md); easy.py, in examples/policies of the source tree (share/swfkit/policies where make install put swfkit), makes the built-in easy schedule."},
		},
		Choices: map[string][]string{
			"policy":     names,
			"procs-from": {"requested", "requested-only", "allocated", "max"},
			"corrector":  {"estimate", "ladder", "double"},
			"price":      {"first", "vcg"},
			// lastk:K takes a number, so only the fixed names complete.
			"predictor":    {"estimate", "last2", "exact", "token"},
			"price-window": {"thesis", "whole-wait"},
		},
	}
}
