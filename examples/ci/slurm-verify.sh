#!/bin/bash
# A Slurm job array verifying the transcripts under $CASES in 8 slices, one per array task:
#
#   jobid=$(sbatch --parsable examples/ci/slurm-verify.sh)
#   sbatch --dependency=afterany:"$jobid" examples/ci/slurm-merge.sh
#
# Each task finds its slice with `--shard auto` (SLURM_ARRAY_TASK_ID, _MIN and _COUNT) and
# writes its reports to $OUT/slice-<task id>; slurm-merge.sh combines them.
#SBATCH --job-name=referee-verify
#SBATCH --array=0-7
#SBATCH --cpus-per-task=4
#SBATCH --time=01:00:00
#SBATCH --output=referee-verify-%A_%a.log
set -euo pipefail
CASES=${CASES:-corpus}
OUT=${OUT:-reports/slurm}
REFEREE=${REFEREE:-referee}
# Exit 1 means mismatches were found and reported: the task itself succeeded.
"$REFEREE" verify "$CASES" --shard auto --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --out "$OUT/slice-$SLURM_ARRAY_TASK_ID" || test $? -eq 1
