#!/usr/bin/env bash
# A single-machine Slurm with accounting, for the tests that run real Slurm
# (sbatch, job arrays, sacct). Debian 12 packages, no systemd: munged, mariadbd,
# slurmdbd, slurmctld and slurmd run in the foreground, detached, with pid files
# under the state directory; everything listens on localhost only.
#
#   scripts/slurm.sh start    configure and start everything (idempotent: a running
#                             daemon is left alone), register the cluster, accounts,
#                             QOS and test users, wait until the nodes are idle
#   scripts/slurm.sh stop     cancel every job, stop the daemons by pid, remove pid files
#   scripts/slurm.sh status   one line per daemon, then sinfo
#
# What it sets up (tests rely on these names):
#   cluster   swfkit, account "swfkit" (users) beside Slurm's own "root"
#   nodes     node1..nodeN (SWFKIT_SLURM_NODES, default 2) of SWFKIT_SLURM_CPUS CPUs
#             each (default 8; more than the machine has, through
#             SlurmdParameters=config_overrides), 1000 MB per CPU, one slurmd per node,
#             all on this machine, so jobs can span several nodes
#   partitions debug (default, no time limit), batch (MaxTime 1 h, DefaultTime 10 min),
#             both over all nodes
#   QOS       normal, high
#   users     swfalice, swfbob (group swfphys), swfcarol (group swfchem); submit as them
#             with `runuser -u swfalice -- sbatch ...` from a directory they can write,
#             e.g. "$STATE/work" (mode 1777)
# Environment: SWFKIT_SLURM_STATE (default /var/tmp/swfkit-slurm), SWFKIT_SLURM_CPUS
# (per node, default 8), SWFKIT_SLURM_NODES (default 2). Client commands read
# /etc/slurm/slurm.conf, which start writes (root; Debian ships none).
set -uo pipefail

STATE=${SWFKIT_SLURM_STATE:-/var/tmp/swfkit-slurm}
CPUS=${SWFKIT_SLURM_CPUS:-8}
NNODES=${SWFKIT_SLURM_NODES:-2}
CLUSTER=swfkit
ACCOUNT=swfkit
USERS=(swfalice:swfphys swfbob:swfphys swfcarol:swfchem)
CONF=/etc/slurm/slurm.conf
DBDCONF=/etc/slurm/slurmdbd.conf
DBPASS=swfkit-slurmdbd
HOST=$(hostname -s)

log() { echo "slurm.sh: $*" >&2; }
die() { log "$*"; exit 1; }

# alive PIDFILE: the process named in PIDFILE is running.
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# launch NAME PIDFILE CMD...: start CMD detached in its own session, stdout and stderr
# to $STATE/log/NAME.out, and record its pid (setsid does not fork here: a background
# job of a non-interactive shell is not a process-group leader, so $! is the daemon).
launch() {
  local name=$1 pidfile=$2; shift 2
  if alive "$pidfile"; then log "$name already running (pid $(cat "$pidfile"))"; return 0; fi
  setsid "$@" </dev/null >>"$STATE/log/$name.out" 2>&1 &
  echo $! >"$pidfile"
  log "$name started (pid $!)"
}

# waitfor SECONDS DESCRIPTION CMD...: poll CMD every 0.5 s until it succeeds.
waitfor() {
  local limit=$1 what=$2; shift 2
  local i
  for ((i = 0; i < limit * 2; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  die "$what did not happen within $limit s (logs in $STATE/log)"
}

node_names() {
  local i
  for ((i = 1; i <= NNODES; i++)); do echo "node$i"; done
}

write_configs() {
  mkdir -p "$STATE"/{log,ctld,work} /etc/slurm
  chown slurm:slurm "$STATE/ctld" "$STATE/log"
  chmod 1777 "$STATE/work"
  # One slurmd per node, each on its own port (Debian's slurmd allows several per host).
  local nodes_lines="" names="node[1-$NNODES]" i
  for ((i = 1; i <= NNODES; i++)); do
    nodes_lines+="NodeName=node$i NodeHostname=$HOST NodeAddr=127.0.0.1 Port=$((17000 + i)) CPUs=$CPUS RealMemory=$((CPUS * 1000)) State=UNKNOWN"$'\n'
  done
  cat >"$CONF" <<EOF
# Written by swfkit scripts/slurm.sh: a single-machine test cluster.
ClusterName=$CLUSTER
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/slurmd-%n
SlurmctldPidFile=$STATE/slurmctld.pid.slurm
SlurmdPidFile=$STATE/slurmd-%n.pid.slurm
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStorageEnforce=associations,limits,qos
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1000
MpiDefault=none
MailProg=/bin/true
SlurmdParameters=config_overrides
ReturnToService=2
SchedulerType=sched/backfill
PriorityType=priority/basic
MinJobAge=300
KillWait=5
InactiveLimit=0
SlurmdTimeout=300
$nodes_lines
PartitionName=debug Nodes=$names Default=YES MaxTime=INFINITE State=UP
PartitionName=batch Nodes=$names MaxTime=1:00:00 DefaultTime=10 State=UP
EOF
  cat >"$DBDCONF" <<EOF
# Written by swfkit scripts/slurm.sh.
AuthType=auth/munge
DbdHost=localhost
DbdAddr=127.0.0.1
SlurmUser=slurm
PidFile=$STATE/slurmdbd.pid.slurm
LogFile=$STATE/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageLoc=slurm_acct_db
StorageUser=slurm
StoragePass=$DBPASS
EOF
  chown slurm:slurm "$DBDCONF"
  chmod 600 "$DBDCONF"
}

start_munge() {
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  chmod 755 /run/munge
  [ -s /etc/munge/munge.key ] || die "/etc/munge/munge.key is missing (reinstall the munge package)"
  launch munged "$STATE/munged.pid" setpriv --reuid munge --regid munge --init-groups /usr/sbin/munged -F
  waitfor 10 "munge answering" sh -c 'munge -n | unmunge'
}

start_mariadb() {
  mkdir -p /run/mysqld
  chown mysql:mysql /run/mysqld
  launch mariadbd "$STATE/mariadbd.pid" /usr/sbin/mariadbd --user=mysql --datadir=/var/lib/mysql \
    --socket=/run/mysqld/mysqld.sock --bind-address=127.0.0.1 --skip-networking=0
  waitfor 30 "MariaDB answering" mariadb -u root -e 'select 1'
  mariadb -u root <<EOF || die "could not create the accounting database"
CREATE DATABASE IF NOT EXISTS slurm_acct_db;
CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY '$DBPASS';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';
FLUSH PRIVILEGES;
EOF
}

register_accounts() {
  local out
  out=$(sacctmgr -n -P show cluster format=cluster 2>&1)
  echo "$out" | grep -qx "$CLUSTER" || sacctmgr -i add cluster "$CLUSTER" >/dev/null || die "sacctmgr add cluster failed"
  sacctmgr -n -P show qos format=name | grep -qx high || sacctmgr -i add qos high >/dev/null || die "sacctmgr add qos failed"
  sacctmgr -n -P show account format=account | grep -qx "$ACCOUNT" ||
    sacctmgr -i add account "$ACCOUNT" cluster="$CLUSTER" description="swfkit tests" organization=swfkit >/dev/null ||
    die "sacctmgr add account failed"
  local entry user group
  for entry in "${USERS[@]}" root:root; do
    user=${entry%%:*} group=${entry#*:}
    getent group "$group" >/dev/null || groupadd "$group" || die "groupadd $group failed"
    id "$user" >/dev/null 2>&1 || useradd -M -N -g "$group" -s /bin/bash -d "$STATE/work" "$user" || die "useradd $user failed"
    sacctmgr -n -P show assoc where user="$user" account="$ACCOUNT" format=user | grep -qx "$user" ||
      sacctmgr -i add user "$user" account="$ACCOUNT" cluster="$CLUSTER" qos=normal,high defaultqos=normal >/dev/null ||
      die "sacctmgr add user $user failed"
  done
}

start_slurmd() {
  local name
  for name in $(node_names); do
    launch "slurmd-$name" "$STATE/slurmd-$name.pid" /usr/sbin/slurmd -D -N "$name"
  done
}

nodes_idle() {
  local n want
  want=$(node_names | wc -l)
  n=$(sinfo -h -N -o '%N %t' 2>/dev/null | awk '$2 == "idle" || $2 == "mix" || $2 == "alloc" {print $1}' | sort -u | wc -l)
  [ "$n" -ge "$want" ]
}

cmd_start() {
  [ "$(id -u)" = 0 ] || die "run as root (it writes /etc/slurm and starts daemons)"
  for prog in munged mariadbd slurmdbd slurmctld slurmd sacctmgr; do
    command -v "$prog" >/dev/null || [ -x "/usr/sbin/$prog" ] ||
      die "$prog is not installed: bash scripts/components.sh install"
  done
  mkdir -p "$STATE/log"
  write_configs
  start_munge
  start_mariadb
  launch slurmdbd "$STATE/slurmdbd.pid" setpriv --reuid slurm --regid slurm --init-groups /usr/sbin/slurmdbd -D
  waitfor 30 "slurmdbd answering" sacctmgr -n show cluster
  register_accounts
  launch slurmctld "$STATE/slurmctld.pid" setpriv --reuid slurm --regid slurm --init-groups /usr/sbin/slurmctld -D -i
  waitfor 30 "slurmctld answering scontrol ping" scontrol ping
  start_slurmd
  if ! waitfor 30 "nodes idle" nodes_idle; then exit 1; fi
  # A node left DOWN or DRAINED by an earlier run comes back.
  local node
  for node in $(node_names); do
    case "$(sinfo -h -n "$node" -o %t)" in
    idle | mix | alloc) ;;
    *) scontrol update nodename="$node" state=resume >/dev/null 2>&1 ;;
    esac
  done
  log "ready: $(sinfo -h -o '%P %D %c %t' | tr '\n' ';')"
}

# stop_pid NAME PIDFILE: TERM, wait up to 20 s, then KILL; remove the pid file.
stop_pid() {
  local name=$1 pidfile=$2 pid i
  [ -s "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < 40; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$pid" 2>/dev/null; then log "$name did not stop; killing pid $pid"; kill -KILL "$pid" 2>/dev/null; fi
    log "$name stopped (pid $pid)"
  fi
  rm -f "$pidfile"
}

cmd_stop() {
  if alive "$STATE/slurmctld.pid"; then
    # Cancel every job so that no job step outlives its slurmd.
    scancel --full --quiet $(squeue -h -o %i 2>/dev/null) 2>/dev/null
    local i
    for ((i = 0; i < 20; i++)); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.5; done
  fi
  local f
  for f in "$STATE"/slurmd-*.pid; do [ -e "$f" ] && stop_pid "$(basename "$f" .pid)" "$f"; done
  stop_pid slurmctld "$STATE/slurmctld.pid"
  stop_pid slurmdbd "$STATE/slurmdbd.pid"
  stop_pid mariadbd "$STATE/mariadbd.pid"
  stop_pid munged "$STATE/munged.pid"
  rm -f "$STATE"/*.pid.slurm
}

cmd_status() {
  local f name rc=0
  for name in munged mariadbd slurmdbd slurmctld; do
    f=$STATE/$name.pid
    if alive "$f"; then echo "$name running (pid $(cat "$f"))"; else echo "$name not running"; rc=1; fi
  done
  for f in "$STATE"/slurmd-*.pid; do
    [ -e "$f" ] || { echo "slurmd not running"; rc=1; continue; }
    name=$(basename "$f" .pid)
    if alive "$f"; then echo "$name running (pid $(cat "$f"))"; else echo "$name not running"; rc=1; fi
  done
  [ $rc = 0 ] && sinfo
  return $rc
}

case "${1:-}" in
start) cmd_start ;;
stop) cmd_stop ;;
status) cmd_status ;;
*) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
