#!/usr/bin/env bash
# Run the study's grid as a Slurm job array (one task per grid point), then
# aggregate it in a job that starts when every task succeeded.
#   examples/study/run-slurm.sh [SBATCH-OPTIONS...]
# Prints the two job ids: "ARRAY AGGREGATE". The array can be submitted again
# after a failure: tasks whose point is finished exit at once (point.sh).
# RUNS, LOGS, STUDY_CSV, the traces and the binaries must be on a file system every
# node sees.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/study.env"
check_grid
mkdir -p "$RUNS" "$LOGS/slurm"
set_aside_table
n=$(grid_size)
export STUDY_DIR=$here # sbatch runs a copy of the script: it finds study.env here
array=$(sbatch --parsable --export=ALL --job-name=swfkit-study --array="0-$((n - 1))" \
  --output="$LOGS/slurm/point-%A_%a.out" "$@" "$here/slurm-point.sh")
array=${array%%;*}
aggregate=$(sbatch --parsable --export=ALL --job-name=swfkit-study-aggregate --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$LOGS/slurm/aggregate-%j.out" "$@" "$here/slurm-aggregate.sh")
aggregate=${aggregate%%;*}
echo "$array $aggregate"
