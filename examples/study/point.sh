#!/usr/bin/env bash
# One grid point: point.sh RUNS TRACE POLICY LOAD SEED
#   swfaugment --estimate $ESTIMATE --target-load LOAD --seed SEED TRACE
#   | swfsim --policy POLICY --seed SEED  ->  RUNS/<trace>_<policy>_load<LOAD>_seed<SEED>.swf.gz
# The file name is a function of the grid point only, and a point whose file
# exists is not recomputed: the file appears (by rename) only when the whole
# pipeline succeeded, so an existing file is a finished point, once checked
# (not damaged, made by this study, from the trace's present bytes).
# The parameters themselves travel in the file's Provenance header lines;
# swfstat reads them from there, not from the name.
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: $0 RUNS TRACE POLICY LOAD SEED" >&2; exit 2; }
runs=$1 trace=$2 policy=$3 load=$4 seed=$5
. "$(dirname "$0")/study.env" # ESTIMATE, SWFKIT_BIN and the point's file name
out=$(point_file "$runs" "$trace" "$policy" "$load" "$seed")
name=$(basename "$out" .swf.gz)
mkdir -p "$runs"
# One run of a point at a time: two sweeps into one RUNS (started twice, or
# two grids that share points) meet here, and the second waits for the
# first's run of the point, then finds it finished. The lock file is removed
# by its holder, so that RUNS keeps only points; a waiter that then gets the
# lock on the removed file sees that the path is no longer its file (-ef)
# and locks again. flock(1) is util-linux; without it, or on a file system
# that refuses locks, the point runs unlocked: its temporary file is its own
# (below), so two runs of it at once only do the work twice, each renaming
# the same bytes onto the point.
lock="$runs/.$name.lock"
locked=false
if command -v flock >/dev/null 2>&1; then
  while { exec 9>>"$lock"; } 2>/dev/null; do
    if ! flock 9 2>/dev/null; then
      exec 9>&- # a file system without locks: none is kept
      rm -f "$lock"
      break
    fi
    if [ "$lock" -ef /dev/fd/9 ]; then locked=true; break; fi
    exec 9>&-
  done
fi
trap 'rm -f "${tmp:-}"; if $locked; then rm -f "$lock"; fi' EXIT
if [ -e "$out" ]; then
  # Written whole by rename, but a file damaged since (a disk, an edit) would
  # pass for finished until the aggregation fails on it.
  if ! gzip -t "$out" 2>/dev/null; then
    echo "point.sh: $out is damaged (gzip -t fails): remove it to compute the point again" >&2
    exit 1
  fi
  if ! point_made_here "$out" "$trace"; then
    echo "point.sh: $out is not this point's: its Provenance says another estimate model or trace (this study: ESTIMATE=$ESTIMATE, trace $trace); give this study its own RUNS, or remove the file to compute it again" >&2
    exit 1
  fi
  # The trace at the same path with other bytes (replaced, edited, fetched
  # again) would leave the point standing for a trace that is gone. Hashed
  # as the tools hash it (swfstat --sha256: decompressed, any compression).
  recorded=$(point_trace_sha256 "$out")
  if [ -z "$recorded" ] && point_has_sha256_field "$out"; then
    echo "point.sh: $out is damaged: its swfaugment Provenance line has an input-sha256= that is not 64 hexadecimal digits, so it cannot be checked against $trace; remove it to compute the point again" >&2
    exit 1
  elif [ -z "$recorded" ]; then
    echo "point.sh: note: $out records no input-sha256 (made before swfkit recorded it): not checked against $trace as it is now" >&2
  else
    now=$("$SWFKIT_BIN/swfstat" --sha256 "$trace") || { echo "point.sh: cannot hash $trace to check $out against it" >&2; exit 1; }
    now=${now%% *}
    now=${now#\\}
    if [ "$now" != "$recorded" ]; then
      echo "point.sh: $out was made from other contents of $trace (its input-sha256 $recorded; the file now hashes to $now): the trace changed since; remove it to compute the point again (every point of this trace is refused likewise)" >&2
      exit 1
    fi
  fi
  echo "finished already: $out"
  exit 0
fi
# The temporary file is this run's own (host and process in its name), so
# that no other run of the point, locked out or not, renames or removes it.
tmp="$runs/.$name.partial.$(hostname -s 2>/dev/null || echo host).$$.swf.gz"
if $locked; then
  # What a killed run of this point left (its temporary file and swfsim's
  # beside it): no other run of this point is going on, since it would hold
  # the lock.
  rm -f "$runs/.$name.partial."* "$runs/..$name.partial."*
fi
# A failed point says which it is: the tools' messages name the trace and
# the option, not the grid point, and a sweep's runs interleave them.
est=()
[ -z "$ESTIMATE" ] || est=(--estimate "$ESTIMATE") # empty: the users' estimates
"$SWFKIT_BIN/swfaugment" "${est[@]}" --target-load "$load" --seed "$seed" "$trace" |
  "$SWFKIT_BIN/swfsim" --policy "$policy" --seed "$seed" --no-progress -o "$tmp" || {
  status=$?
  echo "point.sh: point $trace $policy load $load seed $seed failed (exit status $status; the messages above say why); nothing written" >&2
  exit $status
}
mv -f "$tmp" "$out"
echo "wrote $out"
