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
n=$(grid_size)
# One task per point: a grid larger than Slurm's MaxArraySize (1001 by
# default: indexes 0 to 1000) cannot be one array, and sbatch would only say
# "Invalid job array specification".
max=$(scontrol show config 2>/dev/null | awk '$1 == "MaxArraySize" { print $3 }') || true
if [[ $max =~ ^[0-9]+$ ]] && [ "$n" -gt "$max" ]; then
  echo "run-slurm.sh: the grid has $n points, more than one job array may hold here (MaxArraySize $max: indexes 0 to $((max - 1))); split it (e.g. SEEDS) into grids of at most $max points with the same RUNS, or ask for a larger MaxArraySize in slurm.conf" >&2
  exit 2
fi
mkdir -p "$RUNS" "$LOGS/slurm"
export STUDY_DIR=$here # sbatch runs a copy of the script: it finds study.env here
# sbatch expands % in --output (%u is the user): a % of the folder's own is %%.
logs=${LOGS//%/%%}
array=$(sbatch --parsable --export=ALL --job-name=swfkit-study --array="0-$((n - 1))" \
  --output="$logs/slurm/point-%A_%a.out" "$@" "$here/slurm-point.sh")
array=${array%%;*}
# An option such as --test-only, --version or --help makes sbatch submit
# nothing: the earlier table stays current, and no id is printed.
if ! [[ $array =~ ^[0-9]+$ ]]; then
  echo "run-slurm.sh: sbatch submitted no job array (it printed: ${array:-nothing}); nothing was set aside" >&2
  exit 1
fi
# The array's tasks write points only: the table is set aside now, before
# the aggregation job that writes it again is submitted.
if ! set_aside_table; then
  scancel "$array" || true
  exit 1
fi
aggregate=$(sbatch --parsable --export=ALL --job-name=swfkit-study-aggregate --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$logs/slurm/aggregate-%j.out" "$@" "$here/slurm-aggregate.sh")
aggregate=${aggregate%%;*}
if ! [[ $aggregate =~ ^[0-9]+$ ]]; then
  echo "run-slurm.sh: the job array $array was submitted, but sbatch submitted no aggregation job (it printed: ${aggregate:-nothing}); once the array is done, aggregate with: STUDY_DIR=$here bash $here/slurm-aggregate.sh" >&2
  exit 1
fi
echo "$array $aggregate"
