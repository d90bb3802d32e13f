#!/usr/bin/env bash
# Counts the instructions swfsim binaries execute on a slice of a trace, with
# valgrind's cachegrind (no cache simulation): a measure of a speed change
# that, unlike a timing, does not move with the machine's load (docs/swfsim.md,
# round 20). The slice is FROM..FROM+N-1 of the trace's jobs (1-based, header
# kept), by default RICC-2010-2's jobs 280,000-329,999, a stretch of long
# queues of serial jobs (about 2 s a run, 35 s under cachegrind; the
# binaries run at once, one processor each).
#
# Usage: scripts/icount.sh TRACE "SWFSIM_ARGS" BINARY...
#   e.g. scripts/icount.sh ../shared/data/RICC-2010-2.swf.gz "-p conservative" old/swfsim bin/swfsim
# SWFSIM_ARGS are swfsim's flags (a policy at least); FROM and N set the
# slice. The runs collect no garbage and use one processor (GOGC=off,
# GOMAXPROCS=1 unless set), as the collector's work otherwise moves the
# counts by several per cent from run to run. Prints
# each binary's instruction count; the schedules must be the same (exits 1
# if not; 2 if a binary fails or cannot run).
set -euo pipefail
trace=${1:?usage: icount.sh TRACE "SWFSIM_ARGS" BINARY...}
args=${2:?usage: icount.sh TRACE "SWFSIM_ARGS" BINARY...}
shift 2
[ $# -ge 1 ] || { echo "icount.sh: no binary" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "icount.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
[ -r "$trace" ] || { echo "icount.sh: cannot read $trace" >&2; exit 2; }
for b in "$@"; do
	[ -x "$b" ] || { echo "icount.sh: $b is not an executable" >&2; exit 2; }
done
from=${FROM:-280000}
n=${N:-50000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat_trace() { case $1 in *.gz) gzip -dc "$1" ;; *) cat "$1" ;; esac; }
cat_trace "$trace" | awk -v from="$from" -v n="$n" '/^;/ { print; next } NF == 0 { next } { k++ } k >= from && k < from + n' > "$tmp/slice.swf"
if ! grep -q -m 1 -v '^;' "$tmp/slice.swf"; then
	echo "icount.sh: $trace has no job $from (FROM) or later" >&2
	exit 2
fi
bins=("$@")
pids=()
i=0
for b in "${bins[@]}"; do
	i=$((i + 1))
	# shellcheck disable=SC2086 # args are words
	GOGC=${GOGC:-off} GOMAXPROCS=${GOMAXPROCS:-1} valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
		"$b" --no-progress $args "$tmp/slice.swf" -o "$tmp/out$i.swf" 2>"$tmp/vg$i" &
	pids+=($!)
done
failed=0
for j in $(seq "$i"); do
	if ! wait "${pids[$((j - 1))]}"; then
		echo "icount.sh: ${bins[$((j - 1))]} failed:" >&2
		grep -v '^==' "$tmp/vg$j" >&2 || true
		failed=1
	fi
done
[ "$failed" -eq 0 ] || exit 2
status=0
for j in $(seq "$i"); do
	printf '%s\t%s instructions\n' "${bins[$((j - 1))]}" "$(sed -n 's/.*I *refs: *//p' "$tmp/vg$j" | tr -d ,)"
	if [ "$j" -gt 1 ] && ! cmp -s <(grep -v '^;' "$tmp/out1.swf") <(grep -v '^;' "$tmp/out$j.swf"); then
		echo "icount.sh: binary $j's schedule differs from binary 1's" >&2
		status=1
	fi
done
exit $status
