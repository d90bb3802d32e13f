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
		{Command: "swfaugment --as-prediction --error-quant 100 --error-stdev 20 --error-category 11 clean.swf | swfsim --policy easy-p --predictor token | swfstat", Explanation: "Guim et al.'s setup as docs/swfaugment.md reads it: runtime predictions off by 100% of the runtime (stdev 20%) except for category 11 of their Table 2 (a --perfect-share of jobs predicted exactly), read by EASY as predictions while the request stays the kill time."},
		{Command: "swfaugment --target-load 0.9 clean.swf | swfsim --policy conservative > cons90.swf", Explanation: "Compress inter-arrival times until the offered load is 0.9, then simulate."},
		{Command: "swfaugment --estimate exact clean.swf | swfsim --policy easy -o easy-exact.swf", Explanation: "Perfect runtime estimates, the upper bound of what better estimates can give."},
	},
	Choices: map[string][]string{
		"error-qual":      {"s2l", "l2s", "both"},
		"error-untouched": {"exact", "user"},
	},
}
