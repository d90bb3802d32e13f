#!/usr/bin/env bash
# Run the study's grid with GNU parallel, then aggregate it into one CSV.
#   examples/study/run-parallel.sh [PARALLEL-OPTIONS...]
# Every local core by default (-j 100%); across machines with a shared file
# system: run-parallel.sh --sshloginfile hosts.txt (":" in it is this machine).
# An interrupted or failed sweep restarts where it stopped: run the same command
# again; point.sh never recomputes a point whose file exists. (Not parallel's
# --resume: its job log matches jobs by number, so a grid that grew would skip
# new points that took old numbers.) LOGS/joblog logs the last run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/study.env"
check_grid
command -v parallel >/dev/null || { echo "run-parallel.sh: GNU parallel is not installed (Debian: apt-get install parallel)" >&2; exit 1; }
# --dry-run (parallel's: print the commands, run none) leaves the study as
# it is: no table set aside, no aggregation of points that were not made.
dry=0
for a in "$@"; do
  case $a in --dr*) dry=1 ;; esac # parallel takes --dr, --dry, --dry-r, ... too
done
mkdir -p "$RUNS" "$LOGS"
[ $dry = 1 ] || set_aside_table
status=0
# -q: parallel joins a command's words into one shell line, so without it a
# blank in RUNS (a study folder such as "my study", the default RUNS being
# $PWD/runs) or in this folder's path would split the word and every point
# would fail with point.sh's usage line.
# In the background, so that SIGTERM or SIGHUP to this script reaches it
# (Ctrl-C reaches every process of the group): parallel then ends the
# running points (which leave nothing a rerun takes for finished), starts
# no other and exits, and the sweep is stopped.
parallel -q --joblog "$LOGS/joblog" -j "${JOBS:-100%}" "$@" \
  "$here/point.sh" "$RUNS" {1} {2} {3} {4} \
  ::: "${traces_a[@]}" ::: "${policies_a[@]}" ::: "${loads_a[@]}" ::: "${seeds_a[@]}" </dev/null &
pid=$!
stopped=0
trap 'stopped=1; kill -TERM $pid 2>/dev/null' TERM HUP
while :; do
  status=0
  wait $pid || status=$?
  # A trapped signal ends the wait early (status above 128): wait again
  # until parallel itself has ended.
  kill -0 $pid 2>/dev/null || break
done
trap - TERM HUP
[ $stopped = 0 ] || status=255
if [ $status -ne 0 ]; then
  # parallel's exit status: the number of failed jobs up to 100, 101 for more,
  # 255 when it was stopped (Ctrl-C) or failed itself.
  case $status in
  101) what="more than 100 grid points failed" ;;
  255) what="the sweep was stopped" ;;
  *) what="$status grid points failed" ;;
  esac
  echo "run-parallel.sh: $what (see $LOGS/joblog and each point's message above); once their causes are mended (a point refused as another study's or another trace's: remove it), run the same command again to finish" >&2
  exit 1
fi
[ $dry = 1 ] || aggregate
