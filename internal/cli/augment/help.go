package augmentcli

import "github.com/swfkit/swfkit/internal/cli/cmdio"

// description is swfaugment's DESCRIPTION.
const description = `Reads FILE (or standard input) and writes the trace with the asked operations applied, in
the fixed order utility -> checkpoint -> estimate -> load; nothing is changed unless asked.
Every operation draws from its own random stream derived from --seed (printed in the
header), so the same input and options give the same output, and adding an operation
does not change what another writes. Each operation adds a Note line with its options.`

var help = cmdio.Help{
	Docs: "docs/swfaugment.md",
	Examples: []cmdio.Example{
		{Command: "swfaugment --utility --checkpoint --seed 7 clean.swf -o aug.swf", Explanation: "Give every job a utility function (Lee) and mark checkpointing jobs, reproducibly."},
		{Command: "swfaugment --error-quant 50 --error-category 11 clean.swf | swfsim --policy easy | swfstat", Explanation: "Estimates off by 50% of the runtime except for the jobs of category 11 of Guim et al.'s Table 2 (a --perfect-share of jobs estimated exactly), then EASY."},
		{Command: "swfaugment --target-load 0.9 clean.swf | swfsim --policy conservative > cons90.swf", Explanation: "Compress inter-arrival times until the offered load is 0.9, then simulate."},
		{Command: "swfaugment --estimate exact clean.swf | swfsim --policy easy -o easy-exact.swf", Explanation: "Perfect runtime estimates, the upper bound of what better estimates can give."},
	},
	Choices: map[string][]string{
		"error-qual":      {"s2l", "l2s", "both"},
		"error-untouched": {"exact", "user"},
	},
}
