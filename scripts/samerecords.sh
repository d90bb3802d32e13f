#!/usr/bin/env bash
# Checks that two swfsim binaries make the same schedules (issue 17's rule
# for a speed change: outputs byte for byte the same): every shared trace
# but RICC-2010-2 (DATA, default ../shared/data) under each policy variant,
# the records compared without the header's comment lines (which name the
# binary's commit and the run's time). RICC=1 adds whole RICC-2010-2 under
# the variants of issue 17's targets (about 3 minutes a binary).
#
# Usage: scripts/samerecords.sh OLD_SWFSIM NEW_SWFSIM
# Prints each variant that differs and a count; exits 1 if any does.
set -euo pipefail
old=${1:?usage: samerecords.sh OLD_SWFSIM NEW_SWFSIM}
new=${2:?usage: samerecords.sh OLD_SWFSIM NEW_SWFSIM}
data=${DATA:-$(dirname "$0")/../../shared/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
variants="conservative
conservative --no-kill
selective
selective --no-kill
selective-d --no-kill
easy --fair-start
timed-fcfs --fair-start
conservative --fair-start
lxf
easy
timed-easy
sjbf --no-kill
easy++ --repredict
lxfw --no-kill"
runs=0 differ=0
compare() { # trace, variant
	local ra=0 rb=0
	# shellcheck disable=SC2086 # the variant is a policy and its flags
	"$old" --no-progress -p $2 "$1" -o "$tmp/a.swf" 2>"$tmp/a.err" || ra=$?
	# shellcheck disable=SC2086
	"$new" --no-progress -p $2 "$1" -o "$tmp/b.swf" 2>"$tmp/b.err" || rb=$?
	runs=$((runs + 1))
	if [ "$ra" != "$rb" ] || ! cmp -s <(grep -v '^;' "$tmp/a.swf" 2>/dev/null) <(grep -v '^;' "$tmp/b.swf" 2>/dev/null); then
		echo "differ: $(basename "$1") -p $2 (exit $ra / $rb)"
		differ=$((differ + 1))
	fi
	rm -f "$tmp/a.swf" "$tmp/b.swf"
}
for trace in "$data"/*.swf.gz; do
	case $trace in *RICC-2010-2*) continue ;; esac
	while read -r v; do compare "$trace" "$v"; done <<<"$variants"
done
if [ "${RICC:-0}" = 1 ]; then
	while read -r v; do compare "$data/RICC-2010-2.swf.gz" "$v"; done <<<"conservative
conservative --no-kill
selective-d --no-kill
easy --fair-start
timed-fcfs --fair-start"
fi
echo "$runs runs, $differ differ"
[ "$differ" = 0 ]
