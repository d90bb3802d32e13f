#!/usr/bin/env bash
# Run the study's grid with GNU parallel, then aggregate it into one CSV.
#   examples/study/run-parallel.sh [PARALLEL-OPTIONS...]
# Every local core by default (-j 100%); across machines with a shared file
# system: run-parallel.sh --sshloginfile hosts.txt (":" in it is this machine).
# The job log LOGS/joblog lets an interrupted or failed sweep restart where it
# stopped: run the same command again; finished points are skipped (by the job
# log, and by point.sh, which never recomputes a point whose file exists).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/study.env"
check_traces
command -v parallel >/dev/null || { echo "run-parallel.sh: GNU parallel is not installed (Debian: apt-get install parallel)" >&2; exit 1; }
mkdir -p "$RUNS" "$LOGS"
status=0
parallel --joblog "$LOGS/joblog" --resume-failed -j "${JOBS:-100%}" "$@" \
  "$here/point.sh" "$RUNS" {1} {2} {3} {4} \
  ::: "${traces_a[@]}" ::: "${policies_a[@]}" ::: "${loads_a[@]}" ::: "${seeds_a[@]}" || status=$?
if [ $status -ne 0 ]; then
  echo "run-parallel.sh: $status grid points failed (see $LOGS/joblog); run the same command again to retry them" >&2
  exit 1
fi
# The aggregation: one swfstat call, parameters from the files' Provenance lines.
"$SWFKIT_BIN/swfstat" --csv "$STUDY_CSV" "$RUNS"/* >"$LOGS/summary.txt"
echo "wrote $STUDY_CSV ($(grid_size) grid points)"
