#!/usr/bin/env bash
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
# The aggregation job: runs after every array task succeeded (afterok).
set -euo pipefail
. "${STUDY_DIR:?submit with run-slurm.sh}/study.env"
aggregate
