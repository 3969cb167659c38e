#!/usr/bin/env bash
# What the sandbox costs audit, measured in one run, confined against --unconfined (best of 3):
#   - per run: `referee audit pousse` on the C judge of examples/judges, one case per run
#     (--batch 1 --jobs 1, RUNS runs): the time per run, and the difference;
#   - cases per second at the default batch (--batch 20, --jobs 1 and all cores, CASES cases);
#   - the example contest (examples/contest/pousse, 10 submissions, --cases 400): the whole
#     audit's wall-clock time, builds included, the runs it made, and whether every program's
#     result and findings (programs.csv) came out the same both ways;
#   - with ISOLATE=/path/to/isolate (a judge system's sandbox, built by you from its public
#     source: github.com/ioi/isolate, v1.9 on a cgroup v1 machine, as root), the same judge on
#     the same one-case input run RUNS times in isolate's box (--cg, a memory limit, 128
#     processes) and directly, from one Python loop: isolate's cost per run beside referee's.
# Prints a Markdown table and the ratios (confined over unconfined; the target at the default
# batch is at least 0.8, at one case per run 0.6). Needs cc. JUDGE names the C judge
# (examples/judges/pousse.c by default; pousse_uva.c is one written as UVa 844's public solutions
# are, read in the multi-case form); CONTEST=0 leaves the example contest out.
# Usage: [RUNS=1000] [CASES=20000] [JUDGE=...] [CONTEST=1] [ISOLATE=...]
# scripts/bench/confinement_bench.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-1000}
CASES=${CASES:-20000}
JUDGE=${JUDGE:-examples/judges/pousse.c}
CONTEST=${CONTEST:-1}
# PREBUILT=1 takes target/release as it is (a guest of scripts/ci/kernels.sh has no cargo).
[ "${PREBUILT:-0}" = 1 ] || cargo build --release --quiet
B=$PWD/target/release/referee
W=$(mktemp -d)
# As root, audit runs the programs as nobody, who must reach them.
chmod 755 "$W"
trap 'rm -rf "$W"' EXIT
cc -O2 -o "$W/pousse" "$JUDGE"

# rate MODE BATCH JOBS CASES: audit's cases per second, best of 3.
rate() {
  local best=0 r
  for _ in 1 2 3; do
    # shellcheck disable=SC2086
    r=$("$B" audit pousse --cmd "$W/pousse" --cases "$4" --batch "$2" --jobs "$3" $1 \
      --out "$W/out" 2>&1 | sed -n 's/.* cases in .* (\([0-9.]*\) cases\/s).*/\1/p')
    best=$(python3 -c "print(max($best, ${r:-0}))")
  done
  echo "$best"
}
# contest MODE NAME: the example contest's audit in seconds, best of 3; the best run's
# programs.csv (each program's result and findings) and its count of runs kept as NAME.csv and
# NAME.runs.
contest() {
  local best=1e9 start end took
  for _ in 1 2 3; do
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$B" audit pousse --package examples/contest/pousse --cases 400 $1 --out "$W/contest" \
      >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    took=$(python3 -c "print($end - $start)")
    if python3 -c "import sys; sys.exit(0 if $took < $best else 1)"; then
      best=$took
      cp "$W/contest/programs.csv" "$W/$2.csv"
      python3 -c "import json; print(json.load(open('$W/contest/audit.json'))['summary']['runs'])" \
        >"$W/$2.runs"
    fi
  done
  echo "$best"
}

# isolate_cost: ms per run of the judge on one case in isolate's box, and directly (Python's
# loop, the same for both), when ISOLATE is given; empty otherwise.
isolate_cost() {
  [ -n "${ISOLATE:-}" ] || return 0
  local box=97
  "$ISOLATE" --cg --box-id=$box --cleanup >/dev/null 2>&1 || true
  local dir
  dir=$("$ISOLATE" --cg --box-id=$box --init)/box
  cp "$W/pousse" "$dir/pousse"
  # One game of one move, in the form the judge reads (UVa 844's multi-case form for those that
  # read only it).
  case $JUDGE in
    *uva*|*contest*) printf '1\n3\nT1\nQUIT\n' > "$dir/case.in" ;;
    *) printf '3\nT1\nQUIT\n' > "$dir/case.in" ;;
  esac
  python3 - "$ISOLATE" "$box" "$dir" "$RUNS" <<'PY'
import subprocess, sys, time
isolate, box, box_dir, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def per_run(argv, stdin=None):
    best = 1e9
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(runs):
            with open(stdin or "/dev/null", "rb") as case:
                subprocess.run(argv, stdin=case, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, check=True)
        best = min(best, (time.perf_counter() - start) / runs * 1000)
    return best
bare = per_run([f"{box_dir}/pousse"], stdin=f"{box_dir}/case.in")
boxed = per_run([isolate, "--cg", f"--box-id={box}", "--cg-mem=262144", "--time=2",
                 "--wall-time=6", "--processes=128", "--stdin=case.in", "--run", "--", "./pousse"])
print(f"{bare:.2f} {boxed:.2f}")
PY
  "$ISOLATE" --cg --box-id=$box --cleanup >/dev/null
}

cores=$(nproc)
read -r -a iso <<<"$(isolate_cost)"
one_c=$(rate "" 1 1 "$RUNS"); one_u=$(rate --unconfined 1 1 "$RUNS")
def_c=$(rate "" 20 1 "$CASES"); def_u=$(rate --unconfined 20 1 "$CASES")
all_c=$(rate "" 20 "$cores" "$CASES"); all_u=$(rate --unconfined 20 "$cores" "$CASES")
if [ "$CONTEST" = 1 ]; then
  con_c=$(contest "" confined); con_u=$(contest --unconfined unconfined)
  same=no
  cmp -s "$W/confined.csv" "$W/unconfined.csv" && same=yes
else
  con_c=0; con_u=0; same=-
  echo - > "$W/confined.runs"; echo - > "$W/unconfined.runs"
fi
python3 - "$RUNS" "$one_c" "$one_u" "$def_c" "$def_u" "$all_c" "$all_u" "$con_c" "$con_u" "$cores" \
  "$(cat "$W/confined.runs")" "$(cat "$W/unconfined.runs")" "$same" "${iso[@]}" <<'PY'
import sys
runs, one_c, one_u, def_c, def_u, all_c, all_u, con_c, con_u, cores = map(float, sys.argv[1:11])
runs_c, runs_u, same = sys.argv[11], sys.argv[12], sys.argv[13]
iso = list(map(float, sys.argv[14:]))
print("| run | confined | unconfined | confined / unconfined |")
print("|---|---|---|---|")
print(f"| {runs:.0f} runs of one case, --jobs 1: ms per run | {1000/one_c:.2f} | {1000/one_u:.2f} | {one_c/one_u:.2f} (speed) |")
print(f"| --batch 20 --jobs 1: cases/s | {def_c:.0f} | {def_u:.0f} | {def_c/def_u:.2f} |")
print(f"| --batch 20 --jobs {cores:.0f}: cases/s | {all_c:.0f} | {all_u:.0f} | {all_c/all_u:.2f} |")
if con_c:
    print(f"| the example contest, --cases 400: s | {con_c:.1f} | {con_u:.1f} | {con_u/con_c:.2f} (speed) |")
print()
print(f"- the sandbox's cost per run: {1000/one_c - 1000/one_u:.2f} ms")
print(f"- cases per second at the default batch, confined over unconfined: {def_c/def_u:.2f} (--jobs 1), {all_c/all_u:.2f} (--jobs {cores:.0f}); target at least 0.8")
print(f"- one case per run, confined over unconfined: {one_c/one_u:.2f}; target at least 0.6")
if con_c:
    print(f"- the example contest: {runs_c} runs confined, {runs_u} unconfined (its shrinking is bounded by --shrink-time of CPU time, which counts a confined run's sandbox work too); programs.csv (every program's result and findings) the same both ways: {same}")
if iso:
    bare, boxed = iso
    print(f"- isolate --cg, the same judge and case run {runs:.0f} times from Python: {boxed:.2f} ms per run, directly {bare:.2f} ms: its cost per run {boxed - bare:.2f} ms")
PY
