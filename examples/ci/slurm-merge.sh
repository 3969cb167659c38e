#!/bin/bash
# Merges the slices of slurm-shard.sh once every task has ended (submit it with
# --dependency=afterany on the array job). Fails, naming them, if slices are missing.
#SBATCH --job-name=referee-merge
#SBATCH --time=00:10:00
#SBATCH --output=referee-merge-%j.log
set -euo pipefail
OUT=${OUT:-reports/slurm}
REFEREE=${REFEREE:-referee}
"$REFEREE" merge "$OUT"/slice-* --out "$OUT/merged" --junit "$OUT/merged-junit.xml"
