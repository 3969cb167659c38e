#!/usr/bin/env bash
# The sandbox's cost inside Debian's kernels (cgroup v2 alone, as root): scripts/bench/
# confinement_bench.sh run in each guest of scripts/ci/kernels.sh, on UVa 844's public-solution
# judge, with fewer runs and cases (software emulation is some 20 times slower than the host;
# the ratios are what compare; GUEST_RUNS and GUEST_CASES, set on the host, change them). Its
# table lands in OUT/KERNEL/bench.txt.
# Usage (on the host): scripts/ci/kernels.sh OUT scripts/bench/confinement_guest.sh [KERNEL...]
set -euo pipefail
# kernels.sh starts it in the checkout (it runs a copy of this file).
PREBUILT=1 RUNS=${GUEST_RUNS:-200} CASES=${GUEST_CASES:-4000} CONTEST=0 \
  JUDGE=examples/judges/pousse_uva.c \
  scripts/bench/confinement_bench.sh > "$1/bench.txt"
