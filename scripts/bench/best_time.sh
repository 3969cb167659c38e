# shellcheck shell=bash
# Sourced by the benchmark scripts: `best CMD [ARGS...]` prints the best wall time, in seconds,
# of RUNS runs of the command (timings on shared machines are noisy; the best run is the least
# disturbed). The command's output and exit status are ignored.
best() {
  local best=999999 s e
  for _ in $(seq "${RUNS:-3}"); do
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    e=$(date +%s.%N)
    best=$(echo "$e - $s" | bc -l | awk -v b="$best" '{print ($1 < b) ? $1 : b}')
  done
  echo "$best"
}
