#!/usr/bin/env bash
# How swfsim's cost grows with trace length and queue length, per policy
# (issue 17; docs/swfsim.md "Where it stands"): every policy variant on the
# first N jobs of a trace, N in SIZES, the command end to end, one run each.
# Prints a Markdown table: "user s / wall s / max RSS MB" per cell (from
# /usr/bin/time), then each prefix's average queue (conservative's waits
# summed over the prefix's span: submit of the first job to the last end).
#
# Usage: scripts/growth.sh BIN TRACE [SIZES...]
#   SIZES default: 25000 50000 100000 200000 all
#   VARIANTS (env): policy variants, one per line, "POLICY [FLAGS]"; default:
#   every built-in policy with kills, then the --no-kill and --fair-start
#   variants of issue 17's targets. ga and ga-ckpt are left out by default
#   (their cost is 2,020 EASY schedules of the whole queue per decision:
#   docs/swfsim-ga.md); GA=1 adds them, on a trace that swfaugment --utility
#   (and --checkpoint for ga-ckpt) prepares per prefix, outside the time.
# Whole RICC-2010-2 with the default variants: about 8 minutes on 2 cores.
set -euo pipefail
bin=${1:?usage: growth.sh BIN TRACE [SIZES...]}
trace=${2:?usage: growth.sh BIN TRACE [SIZES...]}
shift 2
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(25000 50000 100000 200000 all)
default_variants="fcfs
easy
conservative
priofifo
sjf
lxf
lxfw
selective
selective-d
timed-fcfs
timed-easy
easy-p
sjbf
easy++
conservative --no-kill
selective --no-kill
selective-d --no-kill
easy --fair-start
timed-fcfs --fair-start
conservative --fair-start"
if [ "${GA:-0}" = 1 ]; then
	default_variants="$default_variants
ga
ga-ckpt"
fi
variants=${VARIANTS:-$default_variants}
[ -x /usr/bin/time ] || { echo "growth.sh: /usr/bin/time is needed (Debian: apt-get install time)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

commas() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }

# The prefixes: header lines kept, the first N jobs.
total=$(zcat -f "$trace" | awk '!/^;/ && NF {c++} END {print c+0}')
labels=()
for n in "${sizes[@]}"; do
	if [ "$n" = all ] || [ "$n" -ge "$total" ]; then
		zcat -f "$trace" > "$tmp/p$n.swf"
		labels+=("$(commas "$total") (whole)")
	else
		zcat -f "$trace" | awk -v n="$n" '/^;/ {print; next} NF && ++c > n {next} {print}' > "$tmp/p$n.swf"
		labels+=("$(commas "$n")")
	fi
done

# prepared FILE POLICY: the input a policy needs (GA: utility functions,
# ga-ckpt: also checkpoint intervals), made once per prefix.
prepared() {
	local in=$1 policy=$2 out
	case $policy in
	ga)
		out=${in%.swf}-u.swf
		[ -e "$out" ] || "$bin"/swfaugment --utility "$in" -o "$out"
		;;
	ga-ckpt)
		out=${in%.swf}-uc.swf
		[ -e "$out" ] || "$bin"/swfaugment --utility --checkpoint "$in" -o "$out"
		;;
	*) out=$in ;;
	esac
	echo "$out"
}

header="| policy |"
rule="|---|"
for l in "${labels[@]}"; do
	header="$header $l |"
	rule="$rule---|"
done
echo "$header"
echo "$rule"
while IFS= read -r v; do
	[ -n "$v" ] || continue
	read -r -a words <<< "$v"
	row="| $v |"
	for n in "${sizes[@]}"; do
		in=$(prepared "$tmp/p$n.swf" "${words[0]}")
		if /usr/bin/time -o "$tmp/time" -f '%U / %e / %M' "$bin"/swfsim --no-progress -p "${words[@]}" "$in" -o "$tmp/out.swf" 2>"$tmp/err"; then
			cell=$(awk -F' / ' '{printf "%.2f / %.2f / %.0f", $1, $2, $3 / 1024}' "$tmp/time")
		else
			cell=failed
			echo "growth.sh: swfsim -p $v on $n jobs failed:" >&2
			cat "$tmp/err" >&2
		fi
		row="$row $cell |"
	done
	echo "$row"
done <<< "$variants"

# The average queue of each prefix under conservative: the sum of its waits
# over the span from the first submit to the last end.
row="| average queue (conservative) |"
for n in "${sizes[@]}"; do
	"$bin"/swfsim --no-progress -p conservative "$tmp/p$n.swf" -o "$tmp/out.swf" 2>/dev/null
	q=$(awk '!/^;/ && NF && $3 >= 0 && $4 >= 0 {
			if (first == "" || $2 < first) first = $2
			if ($2 + $3 + $4 > last) last = $2 + $3 + $4
			w += $3
		} END {printf "%.0f", w / (last - first)}' "$tmp/out.swf")
	row="$row $q |"
done
echo "$row"
