#!/usr/bin/env bash
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
# One array task = grid point $SLURM_ARRAY_TASK_ID (run-slurm.sh submits it).
set -euo pipefail
. "${STUDY_DIR:?submit with run-slurm.sh}/study.env"
read -r trace policy load seed <<<"$(grid_point "${SLURM_ARRAY_TASK_ID:?not a Slurm array task}")"
exec "$STUDY_DIR/point.sh" "$RUNS" "$trace" "$policy" "$load" "$seed"
