#!/usr/bin/env bash
# Run the study's grid as a Slurm job array (one task per grid point), then
# aggregate it in a job that starts when every task succeeded.
#   examples/study/run-slurm.sh [SBATCH-OPTIONS...]
#   examples/study/run-slurm.sh --throttle N [SBATCH-OPTIONS...]
# Prints the two job ids: "ARRAY AGGREGATE". The array can be submitted again
# after a failure: tasks whose point is finished exit at once (point.sh).
# The options go to both sbatch calls, except that the script makes the array
# itself: --array is refused (--throttle N runs at most N tasks at once, the
# %N of --array), --dependency goes to the array only (the aggregation job
# waits for the array), --output and --error are refused (the logs go to
# $LOGS/slurm), and --export=... keeps its meaning for the user's own
# variables while the study's (STUDY_DIR, study.env's) are added to it, so
# that --export=NONE still lets the tasks find the study.
# RUNS, LOGS, STUDY_CSV, the traces and the binaries must be on a file system every
# node sees.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/study.env"
# The variables every task and the aggregation job need (study.env exports
# them; STUDY_DIR is set below).
study_vars=STUDY_DIR,TRACES,POLICIES,LOADS,SEEDS,ESTIMATE,RUNS,LOGS,STUDY_CSV,STUDY_FIGURE,SWFKIT_BIN
export_opt=--export=ALL
throttle=
opts=()
array_opts=()
while [ $# -gt 0 ]; do
  case "$1" in
  --throttle=*) throttle=${1#--throttle=} ;;
  --throttle)
    [ $# -gt 1 ] || { echo "run-slurm.sh: --throttle needs a number of tasks" >&2; exit 2; }
    throttle=$2
    shift ;;
  # sbatch takes --ar, --arr, --arra for --array (getopt's prefixes), and -aX.
  --ar | --ar=* | --arr | --arr=* | --arra | --arra=* | --array | --array=* | -a | -a*)
    echo "run-slurm.sh: $1: the script makes the job array itself, one task per grid point (0-$(($(grid_size) - 1))); to cap the tasks running at once, give --throttle N (the %N of --array)" >&2
    exit 2 ;;
  --export=*)
    # sbatch's --export=NONE (or a list without ALL) passes only the named
    # variables: the study's are added, or the tasks could not find it.
    v=${1#--export=}
    case "$v" in
    NONE | NIL | "") export_opt=--export=$study_vars ;;
    *) export_opt=--export=$v,$study_vars ;;
    esac ;;
  --export) export_opt=--export=ALL ;; # sbatch: bare --export is ALL
  # The aggregation job must wait for the array (afterok), whatever the
  # study itself waits for: a dependency goes to the array only.
  --dep | --dep=* | --depe* | --dependency | --dependency=* | -d | -d*)
    case "$1" in
    *=* | -d?*) array_opts+=("$1") ;;
    *)
      [ $# -gt 1 ] || { echo "run-slurm.sh: $1 needs a dependency list" >&2; exit 2; }
      array_opts+=("$1" "$2")
      shift ;;
    esac ;;
  # The script names the logs itself ($LOGS/slurm), where its hint and
  # slurm-aggregate.sh look for them: the user's would replace both calls'.
  --ou | --ou=* | --out* | -o | -o* | --er | --er=* | --err* | -e | -e*)
    echo "run-slurm.sh: $1: the script writes each task's log to \$LOGS/slurm (LOGS=$LOGS; set LOGS in study.env to move them)" >&2
    exit 2 ;;
  *) opts+=("$1") ;;
  esac
  shift
done
if [ -n "$throttle" ] && ! [[ $throttle =~ ^[1-9][0-9]*$ ]]; then
  echo "run-slurm.sh: --throttle $throttle: expected a number of tasks (1 or more)" >&2
  exit 2
fi
set -- ${opts[@]+"${opts[@]}"}
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
array=$(sbatch --parsable "$export_opt" --job-name=swfkit-study --array="0-$((n - 1))${throttle:+%$throttle}" \
  --output="$logs/slurm/point-%A_%a.out" ${array_opts[@]+"${array_opts[@]}"} "$@" "$here/slurm-point.sh")
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
aggregate=$(sbatch --parsable "$export_opt" --job-name=swfkit-study-aggregate --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$logs/slurm/aggregate-%j.out" "$@" "$here/slurm-aggregate.sh")
aggregate=${aggregate%%;*}
if ! [[ $aggregate =~ ^[0-9]+$ ]]; then
  echo "run-slurm.sh: the job array $array was submitted, but sbatch submitted no aggregation job (it printed: ${aggregate:-nothing}); once the array is done, aggregate with: STUDY_DIR=$here bash $here/slurm-aggregate.sh" >&2
  exit 1
fi
# The tasks' failures show only later, in Slurm: say where to look.
echo "run-slurm.sh: when it is done, $STUDY_CSV is written by job $aggregate; if it is not (a task failed, so the aggregation job was cancelled): sacct -j $array,$aggregate -X --format=JobID,State,ExitCode names the failed tasks, and $LOGS/slurm/point-${array}_N.out holds task N's messages" >&2
echo "$array $aggregate"
