#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the tests that run referee's shards through real
# `sbatch --array ... --wait`: Debian's slurmctld, slurmd and munge (installed when missing), the
# node localhost with this machine's CPUs, every file of the cluster under DIR, the daemons
# started without systemd.
#   scripts/ci/slurm.sh start DIR   # prints the SLURM_CONF to export
#   scripts/ci/slurm.sh stop DIR    # stops the daemons (and munge when this script started it)
set -euo pipefail
action=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)
conf=$dir/slurm.conf
case $action in
start)
  if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null \
      || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    apt-get install -y -q slurmctld slurmd slurm-client munge >&2
  fi
  if ! pgrep -x munged >/dev/null; then
    service munge start >&2
    touch "$dir/munge-started"
  fi
  host=$(hostname -s)
  mkdir -p "$dir/state" "$dir/spool"
  cat > "$conf" <<CONF
ClusterName=referee
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  SLURM_CONF=$conf slurmctld -c
  SLURM_CONF=$conf slurmd
  # Ready when the node takes jobs.
  for _ in $(seq 60); do
    if SLURM_CONF=$conf sinfo -h -o %t 2>/dev/null | grep -qx idle; then
      echo "$conf"
      exit 0
    fi
    sleep 1
  done
  echo "slurm.sh: the node did not come up; see $dir/slurmctld.log and $dir/slurmd.log" >&2
  exit 1
  ;;
stop)
  for daemon in slurmd slurmctld; do
    if [ -f "$dir/$daemon.pid" ]; then
      kill "$(cat "$dir/$daemon.pid")" 2>/dev/null || true
    fi
  done
  for daemon in slurmd slurmctld; do
    for _ in $(seq 50); do
      pgrep -x "$daemon" >/dev/null || break
      sleep 0.2
    done
  done
  if [ -f "$dir/munge-started" ]; then
    service munge stop >&2 || true
    rm -f "$dir/munge-started"
  fi
  ;;
*)
  echo "usage: scripts/ci/slurm.sh start|stop DIR" >&2
  exit 2
  ;;
esac
