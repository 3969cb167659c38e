#!/bin/bash
# A Slurm job array running one referee command in slices, one per array task: `verify`,
# `grade`, `stress` or `audit` with its arguments, for example
#
#   jobid=$(sbatch --parsable examples/ci/slurm-shard.sh verify corpus)
#   sbatch --dependency=afterany:"$jobid" examples/ci/slurm-merge.sh
#
# Each task finds its slice with `--shard auto` (SLURM_ARRAY_TASK_ID, _MIN and _COUNT) and
# writes its reports to $OUT/slice-<task id>; slurm-merge.sh combines them. `sbatch --wait`
# exits with the highest exit status of the tasks: a task fails only when referee does (exit
# 2 or more), never for what it found.
#SBATCH --job-name=referee
#SBATCH --array=0-7
#SBATCH --cpus-per-task=4
#SBATCH --time=01:00:00
#SBATCH --output=referee-%A_%a.log
set -euo pipefail
OUT=${OUT:-reports/slurm}
REFEREE=${REFEREE:-referee}
jobs=()
case ${1:-} in
  verify|grade|audit) jobs=(--jobs "${SLURM_CPUS_PER_TASK:-1}") ;;
esac
# Exit 1 means problems were found and reported (mismatches, findings): the task succeeded.
status=0
"$REFEREE" "$@" --shard auto "${jobs[@]}" --out "$OUT/slice-$SLURM_ARRAY_TASK_ID" || status=$?
if [ "$status" -ne 1 ]; then
  exit "$status"
fi
