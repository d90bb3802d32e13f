#!/usr/bin/env bash
# Srinivasan et al. 2002, section 4.2 / Figs. 4 and 6: selective reservation
# against conservative and EASY backfilling as the load grows, the load raised
# the paper's way (arrival times divided by a constant, runtimes kept:
# swfaugment --load F). Prints the change of the average bounded slowdown
# against conservative, in percent, for exact and user estimates.
# Usage: scripts/srinivasan-load.sh BIN TRACE [FACTORS...]   (KTH: about 20 s per factor on 2 cores)
set -euo pipefail
bin=${1:?bin dir}
trace=${2:?trace}
shift 2
factors=("$@")
[ ${#factors[@]} -gt 0 ] || factors=(1 1.3 1.6 2)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'estimates\tload_factor\toffered_load\teasy_pct\tselective_pct\tselective_d_pct\n'
for est in exact user; do
	for f in "${factors[@]}"; do
		if [ "$est" = exact ]; then
			"$bin"/swfaugment --estimate exact --load "$f" "$trace" -o "$tmp/in.swf"
		else
			"$bin"/swfaugment --load "$f" "$trace" -o "$tmp/in.swf"
		fi
		offered=$(grep -o 'processor-second of the submit span) [0-9.]* -> [0-9.]*' "$tmp/in.swf" | head -1 | awk '{print $NF}')
		for p in conservative easy selective selective-d; do
			"$bin"/swfsim --policy "$p" --no-progress "$tmp/in.swf" -o "$tmp/$p.swf" 2>/dev/null
		done
		"$bin"/swfstat --format csv --baseline conservative.swf "$tmp/conservative.swf" "$tmp/easy.swf" "$tmp/selective.swf" "$tmp/selective-d.swf" |
			awk -F, -v est="$est" -v f="$f" -v off="$offered" '$3=="all" && $7=="bsld" && $8=="mean" {c[$1]=$11}
				END {printf "%s\t%s\t%s\t%.1f\t%.1f\t%.1f\n", est, f, off, c["easy.swf"], c["selective.swf"], c["selective-d.swf"]}'
	done
done
