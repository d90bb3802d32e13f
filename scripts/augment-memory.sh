#!/usr/bin/env bash
# Measures swfaugment's time and memory on whole RICC-2010-2 and on RICC three
# times over, the figures of docs/swfaugment.md's "Memory" table: user s, wall s
# and maximum resident set size (KB) of
#
#   /usr/bin/time -f '%U %e %M' BIN/swfaugment OPERATION TRACE -o out.swf
#
# It makes the two inputs the table names: ANSWERS, every 7th job of RICC with
# an interval of 3600 s and every third of those "none", and the 1,343,382-job
# trace, RICC's records three times with job numbers (and preceding-job numbers)
# shifted by the largest job number and submit times by the span, under RICC's
# header. About 2 minutes.
#
# Usage: scripts/augment-memory.sh [BIN]   (BIN defaults to bin; DATA to ../shared/data)
set -euo pipefail
bin=${1:-bin}
data=${DATA:-$(dirname "$0")/../../shared/data}
ricc=$data/RICC-2010-2.swf.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

zcat "$ricc" | awk '!/^;/ { if (++n % 7 == 0) print $1, (++m % 3 == 0 ? "none" : 3600) }' >"$tmp/answers.txt"
read -r maxid maxsubmit < <(zcat "$ricc" | awk '!/^;/ { if ($1 > id) id = $1; if ($2 > s) s = $2 } END { print id, s }')
zcat "$ricc" | awk -v id="$maxid" -v span="$((maxsubmit + 1))" '
	/^;/ { print; next }
	{ rec[++n] = $0 }
	END {
		for (k = 0; k < 3; k++)
			for (i = 1; i <= n; i++) {
				$0 = rec[i]
				$1 += k * id
				$2 += k * span
				if ($17 > 0) $17 += k * id
				print
			}
	}' >"$tmp/ricc3.swf"
echo "inputs: $(wc -l <"$tmp/answers.txt") answers; RICC x3: $(grep -vc '^;' "$tmp/ricc3.swf") jobs, $(($(stat -c %s "$tmp/ricc3.swf") / 1000000)) MB"

ops=(
	"--utility"
	"--checkpoint"
	"--checkpoint-from $tmp/answers.txt --expand"
	"--error-quant 100 --error-stdev 20 --error-category 11"
	"--error-qual both --error-percent 50"
	"--estimate uniform:1,3"
	"--target-load 0.9"
	"--utility --checkpoint --error-quant 400 --error-stdev 60 --error-category 11 --target-load 0.9 --seed 7"
)
for trace in "$ricc" "$tmp/ricc3.swf"; do
	echo "== $(basename "$trace")"
	for op in "${ops[@]}"; do
		# shellcheck disable=SC2086 # an operation is several flags
		/usr/bin/time -o "$tmp/time" -f '%U %e %M' "$bin/swfaugment" $op "$trace" -o "$tmp/out.swf" 2>"$tmp/err" ||
			{ cat "$tmp/err" >&2; exit 1; }
		echo "${op/$tmp\//}: $(cat "$tmp/time")"
	done
done
