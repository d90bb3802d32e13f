#!/usr/bin/env bash
# Run a scripted mix of about 50 jobs on the Slurm of scripts/slurm.sh and dump what
# its accounting recorded, for the tests of `swfclean --from sacct`.
#
#   scripts/slurm-jobmix.sh OUTDIR
#
# writes OUTDIR/sacct.txt     `sacct --parsable2 --allusers --duplicates` with the full
#                             column list, NTasks included (the command is the one
#                             docs/swfclean.md gives), printed
#                             in the time zone Europe/Prague so the conversion's
#                             --timezone is exercised
#        OUTDIR/truth.tsv     the ground truth: one row per job (array task,
#                             heterogeneous component) with what it was submitted
#                             with and what it was told to do, and the state it must end in
#        OUTDIR/window        the Unix times just before the first submission and just
#                             after the dump
# The mix covers: completed jobs of three users in two groups, two partitions and two
# QOS; exit codes 1 and 3 and a kill by signal (FAILED); a 1-minute limit overrun
# (TIMEOUT, 60-90 s); cancelled while running; cancelled while pending (held, too wide
# for the machine, a dependency that can never be satisfied, throttled array tasks);
# a missed deadline (DEADLINE); multi-node jobs; job steps (srun), one of them failing
# inside a job that completes; a step of 2 tasks of 2 CPUs each holding memory (NTasks);
# a job requeued while running (scontrol requeue: a REQUEUED run, then the run that
# completes, which Slurm lets start about 2 minutes after the requeue); arrays, one
# with a failing task; a heterogeneous job; memory and CPU use; and a job still
# pending and one still running at dump time.
# Slurm must be running (scripts/slurm.sh start). About 3 minutes.
set -uo pipefail

OUT=${1:?usage: $0 OUTDIR}
STATE=${SWFKIT_SLURM_STATE:-/var/tmp/swfkit-slurm}
WORK=$STATE/work
TZNAME=Europe/Prague
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cd "$WORK" || { echo "jobmix: $WORK is missing: run scripts/slurm.sh start" >&2; exit 1; }
scontrol ping >/dev/null 2>&1 || { echo "jobmix: no Slurm controller answers: run scripts/slurm.sh start" >&2; exit 1; }

# The columns the converter reads, and others a site's dump carries (it must ignore them).
FORMAT=JobID,JobIDRaw,JobName,User,Group,Account,Partition,QOS,Submit,Eligible,Start,End,Elapsed,ElapsedRaw,Timelimit,State,ExitCode,DerivedExitCode,AllocCPUS,ReqCPUS,NCPUS,NNodes,NodeList,ReqMem,MaxRSS,AveRSS,NTasks,TotalCPU,UserCPU,SystemCPU,CPUTimeRAW,ReqTRES,AllocTRES

die() { echo "jobmix: $*" >&2; exit 1; }

# Other tests may use the cluster at the same time (as other users): this script
# waits for, and dumps, only its own jobs. Jobs of its users left by an aborted
# run are cancelled first (so run one job mix at a time).
MIXUSERS=swfalice,swfbob,swfcarol
left=$(squeue -h -u "$MIXUSERS" -o %i | tr '\n' ' ')
if [ -n "$left" ]; then
  echo "jobmix: cancelling jobs left by an earlier run: $left" >&2
  scancel -u swfalice; scancel -u swfbob; scancel -u swfcarol
  for i in $(seq 1 30); do [ -z "$(squeue -h -u "$MIXUSERS" -o %i)" ] && break; sleep 1; done
fi
sleep 1
T0=$(date +%s)


TRUTH=$OUT/truth.tsv
# tag: a name in this script; id: Slurm's id as sacct prints it; cpus, nodes: what the
# job asked for (nodes "-": not asked, Slurm chooses); limit: the time limit in seconds (-1 none); mem: the job's requested
# memory in MB, all nodes together; do: what the job runs; state: the state it must
# end in (PENDING/RUNNING: still so at dump time); min_run, max_run: bounds on its
# run time in seconds (-1: never started).
printf 'tag\tid\tuser\tgroup\tpartition\tqos\tcpus\tnodes\tlimit\tmem\tdo\tstate\tmin_run\tmax_run\n' >"$TRUTH"

declare -A ID # tag -> Slurm job id
ALL=()        # every id sbatch returned, for the dump

group_of() { id -gn "$1"; }

# limit_of PARTITION TIME: the time limit Slurm applies, in seconds (-1 unlimited):
# TIME is minutes, MM:SS or D-HH:MM:SS, and Slurm rounds it up to whole minutes.
limit_of() {
  local t=$2 s
  case "$t" in
  -) [ "$1" = batch ] && echo 600 || echo -1; return ;;
  *-*:*:*) local d=${t%%-*} r=${t#*-}; IFS=: read -r h m sec <<<"$r"; s=$((10#$d * 86400 + 10#$h * 3600 + 10#$m * 60 + 10#$sec)) ;;
  *:*) s=$((10#${t%%:*} * 60 + 10#${t#*:})) ;;
  *) s=$((10#$t * 60)) ;;
  esac
  echo $(((s + 59) / 60 * 60))
}

# mem_of MEMSPEC CPUS NODES: the job's memory in MB (22.05's ReqMem is the job total;
# --mem is per node, and a job that did not ask for nodes gets one here).
mem_of() {
  case "$1" in
  -) echo $((1000 * $2)) ;;
  mem=*M) local m=${1#mem=} n=$3; [ "$n" = - ] && n=1; echo $((${m%M} * n)) ;;
  mem-per-cpu=*M) local m=${1#mem-per-cpu=}; echo $((${m%M} * $2)) ;;
  esac
}

# truth TAG ID USER PARTITION QOS CPUS NODES TIME MEMSPEC DO STATE MIN MAX
truth() {
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$(group_of "$3")" "$4" "$5" \
    "$6" "$7" "$(limit_of "$4" "$8")" "$(mem_of "$9" "$6" "$7")" "${10}" "${11}" "${12}" "${13}" >>"$TRUTH"
}

# sub TAG USER PARTITION QOS NODES NTASKS TIME MEMSPEC STATE MIN MAX DO [sbatch options...]
# submits one job (one task per CPU) and records its truth row. NODES, TIME, MEMSPEC
# "-" leave Slurm's default.
sub() {
  local tag=$1 user=$2 part=$3 qos=$4 nodes=$5 ntasks=$6 time=$7 mem=$8 state=$9 min=${10} max=${11} do=${12}
  shift 12
  local args=(--parsable -J "$tag" -o /dev/null -p "$part" --qos "$qos" -n "$ntasks")
  [ "$nodes" = - ] || args+=(-N "$nodes")
  [ "$time" = - ] || args+=(-t "$time")
  [ "$mem" = - ] || args+=("--$mem")
  local id
  id=$(runuser -u "$user" -- sbatch "${args[@]}" "$@" --wrap "$do") || die "sbatch $tag failed"
  ID[$tag]=$id
  ALL+=("$id")
  truth "$tag" "$id" "$user" "$part" "$qos" "$ntasks" "$nodes" "$time" "$mem" "$do" "$state" "$min" "$max"
}

# state_of ID: the job's state in squeue ("" once it has left the queue).
state_of() { squeue -h -j "$1" -o %T 2>/dev/null | head -1; }

# wait_state ID STATE SECONDS
wait_state() {
  local i
  for ((i = 0; i < $3 * 2; i++)); do [ "$(state_of "$1")" = "$2" ] && return 0; sleep 0.5; done
  die "job $1 did not reach $2 within $3 s (now: $(state_of "$1"))"
}

A=swfalice B=swfbob C=swfcarol

# The requeued job first: it takes longest (Slurm lets a requeued job start again
# about 2 minutes after the requeue). Its first run is requeued a few seconds in
# (below); min/max are the run that completes.
sub requeued $B debug normal - 2 5 - COMPLETED 6 16 'sleep 6' --requeue
# The 1-minute limit next (Slurm enforces it 60-90 s after start).
sub timeout $A batch normal - 1 1 - TIMEOUT 60 150 'sleep 300'
# Still running when sacct is dumped (so not finished, skipped by the conversion).
sub dump-running $C debug normal - 1 - - RUNNING -1 -1 'sleep 600'
sub run-cancel $B debug normal - 2 - - CANCELLED 3 60 'sleep 300'
sub held $C debug normal - 1 - - CANCELLED -1 -1 'sleep 5' --hold
sub too-wide $A batch normal 3 3 - - CANCELLED -1 -1 'sleep 5'
sub fail-1 $B debug normal - 1 - - FAILED 0 10 'sleep 1; exit 1'
sub never-eligible $A debug normal - 1 - - CANCELLED -1 -1 'sleep 5' --dependency=afterok:${ID[fail-1]}
sub deadline $C batch high - 1 5 - DEADLINE -1 -1 'sleep 5' --begin=now+5 --deadline=now+20

# Completed jobs: three users, two partitions, two QOS, time limits in three forms,
# memory per node and per CPU, several CPUs.
sub ok-a1 $A debug normal - 1 - - COMPLETED 2 12 'sleep 2'
sub ok-a2 $A batch normal - 4 10 - COMPLETED 3 13 'sleep 3'
sub ok-a3 $A batch high - 2 2:30 mem=500M COMPLETED 2 12 'sleep 2'
sub ok-b1 $B debug normal - 1 - mem-per-cpu=200M COMPLETED 4 14 'sleep 4'
sub ok-b2 $B batch normal - 8 5 - COMPLETED 2 12 'sleep 2'
sub ok-b3 $B debug high - 3 1-00:00:00 mem=2000M COMPLETED 1 11 'sleep 1'
sub ok-c1 $C batch normal - 1 - - COMPLETED 5 15 'sleep 5'
sub ok-c2 $C debug normal - 2 30 mem-per-cpu=300M COMPLETED 3 13 'sleep 3'
sub ok-c3 $C batch normal - 1 0:45 - COMPLETED 0 10 'true'
sub memory $C debug normal - 1 5 mem=800M COMPLETED 3 13 'x=$(head -c 100M /dev/zero | tr "\0" a); sleep 3; echo ${#x}'
sub cpu $A batch normal - 1 5 - COMPLETED 4 14 'timeout 4 sh -c "while :; do :; done"; true'

# Failures: exit codes and a signal.
sub fail-3 $A batch normal - 2 5 - FAILED 1 11 'sleep 1; exit 3'
sub fail-kill $C debug normal - 1 - - FAILED 1 11 'sleep 1; kill -9 $$'

# Job steps (srun inside the batch script), on one and on two nodes; a failing step
# inside a job that completes.
sub steps $B debug normal - 2 - - COMPLETED 2 12 'srun -n 2 true; srun -n 1 sleep 2'
sub step-fails $C batch normal - 1 5 - COMPLETED 1 11 'srun false; sleep 1; true'
sub two-nodes $A debug normal 2 4 - - COMPLETED 2 12 'srun sleep 2'
sub two-nodes-b $B batch high 2 6 5 mem=600M COMPLETED 3 13 'srun -n 6 sleep 1; srun -n 2 sleep 2'
# A step of 2 tasks with 2 CPUs each, each task holding about 50 MB: sacct's MaxRSS
# is one task's, NTasks 2 and AllocCPUS 4, so field 7 is MaxRSS x 2 / 4 per processor.
cat >"$WORK/hold-memory.sh" <<'EOF2'
#!/bin/sh
x=$(head -c 50M /dev/zero | tr "\0" a)
sleep 3
echo ${#x}
EOF2
chmod 755 "$WORK/hold-memory.sh"
sub ntasks $C debug normal 1 4 5 - COMPLETED 3 13 "srun -n 2 -c 2 $WORK/hold-memory.sh"

# Arrays: every task a job of its own.
arr() { # arr TAG USER PARTITION QOS RANGE DO [sbatch options...]
  local tag=$1 user=$2 part=$3 qos=$4 range=$5 do=$6; shift 6
  local id
  id=$(runuser -u "$user" -- sbatch --parsable -J "$tag" -o /dev/null -p "$part" --qos "$qos" -n 1 --array="$range" "$@" --wrap "$do") ||
    die "sbatch $tag failed"
  ID[$tag]=$id
  ALL+=("$id")
}
arr array-c $C batch normal 1-6 'sleep 2'
for t in 1 2 3 4 5 6; do truth "array-c" "${ID[array-c]}_$t" $C batch normal 1 - - - 'sleep 2' COMPLETED 2 12; done
arr array-a $A debug normal 0-4 'sleep 1; [ $SLURM_ARRAY_TASK_ID != 3 ]' -t 3
for t in 0 1 2 4; do truth "array-a" "${ID[array-a]}_$t" $A debug normal 1 - 3 - 'sleep 1; [ $SLURM_ARRAY_TASK_ID != 3 ]' COMPLETED 1 11; done
truth "array-a" "${ID[array-a]}_3" $A debug normal 1 - 3 - 'sleep 1; [ $SLURM_ARRAY_TASK_ID != 3 ]' FAILED 1 11
# One task at a time; cancelled while task 1 runs: the others never start, and sacct
# shows them as one record, ID_[2-4%1].
arr array-cancel $B debug normal 1-4%1 'sleep 120'
truth "array-cancel" "${ID[array-cancel]}_1" $B debug normal 1 - - - 'sleep 120' CANCELLED 2 60
for t in 2 3 4; do truth "array-cancel" "${ID[array-cancel]}_$t" $B debug normal 1 - - - 'sleep 120' CANCELLED -1 -1; done

# A heterogeneous job: two components, each a job of its own in the conversion.
cat >"$WORK/hetjob.sh" <<'EOF'
#!/bin/bash
#SBATCH -n 1 -p debug
#SBATCH hetjob
#SBATCH -n 2 -p debug
srun --het-group=0,1 sleep 2
EOF
chmod 644 "$WORK/hetjob.sh"
ID[het]=$(runuser -u $A -- sbatch --parsable -J het -o /dev/null "$WORK/hetjob.sh") || die "sbatch het failed"
ALL+=("${ID[het]}")
truth het "${ID[het]}+0" $A debug normal 1 - - - 'srun --het-group=0,1 sleep 2' COMPLETED 2 12
truth het "${ID[het]}+1" $A debug normal 2 - - - 'srun --het-group=0,1 sleep 2' COMPLETED 2 12

# Still pending when sacct is dumped: not finished, so skipped. (A held job, or one
# whose --begin is in the future, is not in sacct's output at all until it ends,
# so this one waits for resources it will never get.)
sub dump-pending $B batch normal 3 3 - - PENDING -1 -1 'sleep 5'

# Requeue the requeued job's first run a few seconds in.
wait_state "${ID[requeued]}" RUNNING 60
sleep 3
scontrol requeue "${ID[requeued]}" || die "scontrol requeue ${ID[requeued]} failed"

# Cancel what must be cancelled, once it is where it must be.
wait_state "${ID[run-cancel]}" RUNNING 60
sleep 4
runuser -u $B -- scancel "${ID[run-cancel]}"
wait_state "${ID[array-cancel]}_1" RUNNING 60
sleep 3
runuser -u $B -- scancel "${ID[array-cancel]}"
wait_state "${ID[held]}" PENDING 10
runuser -u $C -- scancel "${ID[held]}"
wait_state "${ID[too-wide]}" PENDING 10
scancel "${ID[too-wide]}"
for i in $(seq 1 60); do
  squeue -h -j "${ID[never-eligible]}" -o %r | grep -q DependencyNeverSatisfied && break
  sleep 1
done
squeue -h -j "${ID[never-eligible]}" -o %r | grep -q DependencyNeverSatisfied ||
  die "job ${ID[never-eligible]} is not waiting on a never-satisfied dependency: $(squeue -h -j "${ID[never-eligible]}" -o %r)"
runuser -u $A -- scancel "${ID[never-eligible]}"

# Wait for everything else to end (the TIMEOUT job last).
keep=" ${ID[dump-pending]} ${ID[dump-running]} "
for i in $(seq 1 150); do
  left=$(squeue -h -u "$MIXUSERS" -o %i | while read -r j; do case "$keep" in *" $j "*) ;; *) echo "$j" ;; esac; done)
  [ -z "$left" ] && break
  sleep 2
done
[ -z "$left" ] || die "jobs still in the queue after 300 s: $left"
[ "$(state_of "${ID[dump-running]}")" = RUNNING ] || die "dump-running is not running"
# slurmctld hands a job's end to slurmdbd asynchronously: wait until the accounting
# shows every job that has left the queue in a final state (a slow machine can take
# several seconds), so that the dump does not catch a finished job still RUNNING.
jobs=$(IFS=,; echo "${ALL[*]}")
keepids="${ID[dump-pending]} ${ID[dump-running]}"
for i in $(seq 1 60); do
  open=$(sacct -n -X -P --allusers --jobs="$jobs" --format=JobIDRaw,State 2>/dev/null |
    awk -F'|' -v keep=" $keepids " 'index(keep, " " $1 " ") == 0 && $2 !~ /^(COMPLETED|FAILED|TIMEOUT|CANCELLED|DEADLINE|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|PREEMPTED)/ {print $1 ":" $2}')
  [ -z "$open" ] && break
  sleep 1
done
[ -z "$open" ] || die "the accounting still shows unfinished jobs 60 s after they left the queue: $open"

# docs/swfclean.md's command selects by time (--starttime, --endtime, --state);
# here --jobs selects this run's jobs (array and heterogeneous ids bring all their
# tasks and components), leaving out whatever else ran on the cluster meanwhile.
TZ=$TZNAME sacct --parsable2 --allusers --duplicates --jobs="$jobs" --format=$FORMAT >"$OUT/sacct.txt" || die "sacct failed"
T1=$(date +%s)
printf 'start %s\nend %s\ntimezone %s\n' "$T0" "$T1" "$TZNAME" >"$OUT/window"
scancel "${ID[dump-pending]}" "${ID[dump-running]}"
echo "jobmix: $(($(wc -l <"$TRUTH") - 1)) jobs in $((T1 - T0)) s; $(($(wc -l <"$OUT/sacct.txt") - 1)) sacct lines in $OUT/sacct.txt" >&2
