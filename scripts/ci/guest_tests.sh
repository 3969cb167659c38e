#!/usr/bin/env bash
# What scripts/ci/kernels.sh runs inside each Debian kernel (cgroup v2 alone, as root): the
# sandbox's tests in the three configurations a judge host offers, then an audit of the example
# contest. Every attack must be contained or refused and every confined run must work.
#
#   root            cgroup v2 groups under referee's own subtree (the kernel's accounting)
#   nobody+cgroup   uid 65534 with a delegated subtree (--cgroup, as systemd's Delegate=yes gives)
#   nobody          uid 65534 with no cgroup: the fallback (one process a run, RLIMIT_AS, ...)
#
# GUEST_SET (set on the host; kernels.sh passes GUEST_* variables in) chooses the tests:
#   all   every attack test of tests/confinement that runs confined, in each configuration
#         (about 40 min a kernel under emulation)
#   ci    what .ci/run runs (the default): as root the sandbox crate's tests and the attacks
#         on CPU time and what a run sees; with no cgroup the sandbox crate's runs and attacks. On 6.1
#         also, as root, memory and referee killed; in a delegated subtree referee killed (its
#         subtree removed by the next audit); and the example contest. The rest runs natively
#         as root and as uid 65534 (.ci/run; with no cgroup there the fallback's accounting is
#         this machine's, which no kernel feature of 6.1 changes) and in the guests with
#         GUEST_SET=all.
# Run the guests on an otherwise idle host: an emulated CPU counts the time the host takes it
# away as the guest's, so CPU times inflate with the host's load.
# The test binaries are those `cargo test --no-run` built on the host (debug), the referee they
# drive target/release/referee (REFEREE_UNDER_TEST): software emulation is some 20 times slower
# than the host. Writes OUT/sandbox-check-*.txt, OUT/programs.txt (the example contest's results) and
# OUT/steps.txt (each step's time and exit).
# Usage (in the guest, from the checkout): scripts/ci/guest_tests.sh OUT
set -uo pipefail
# kernels.sh starts it in the checkout (it runs a copy of this file).
out=$1
set_=${GUEST_SET:-ci}
failed=()
referee=$PWD/target/release/referee
export REFEREE_UNDER_TEST=$referee REFEREE_REQUIRE_TOOLS=1
: > "$out/steps.txt"

# step NAME COMMAND...: runs COMMAND, records its time and whether it passed.
step() {
  local name=$1 started code
  shift
  echo "== $name"
  started=$(date +%s)
  "$@"
  code=$?
  echo "$name: exit $code, $(( $(date +%s) - started )) s" >> "$out/steps.txt"
  [ $code -eq 0 ] || failed+=("$name")
}

# binary NAME: the newest test binary of that name `cargo test --no-run` built.
binary() {
  local f newest=
  for f in target/debug/deps/"$1"-*; do
    [[ $f == *.d ]] && continue
    [ -z "$newest" ] || [ "$f" -nt "$newest" ] && newest=$f
  done
  echo "$newest"
}
integration=$(binary integration)
sandbox_lib=$(binary referee_sandbox)
runs=$(binary runs)
attacks=$(binary attacks)
for b in "$integration" "$sandbox_lib" "$runs" "$attacks"; do
  [ -x "$b" ] || { echo "guest_tests.sh: a test binary is missing (cargo test --no-run)" >&2; exit 1; }
done

cpu=accounting::cpu_time_in_threads_and_in_children_the_kernel_reaps_is_counted
memory=accounting::memory_no_count_of_processes_shows_is_counted_or_refused
seen=seen::a_run_sees_nothing_of_the_machine_but_what_it_is_given
killed=apart::nothing_of_a_run_outlives_referee_killed_at_once
apart=apart::runs_are_apart_from_one_another_and_from_referee
classic=classic::a_contest_of_attacks_is_contained_and_judged_as_a_judge_systems_sandbox_would
# shellcheck disable=SC2034  # read through the name references of confinement()
if [ "$set_" = all ]; then
  as_root=("$cpu" "$memory" "$seen" "$killed" "$apart" "$classic")
  delegated_tests=("${as_root[@]}")
  nobody_tests=("${as_root[@]}")
  contest=yes
else
  # The oldest kernel (Landlock ABI 2, so files walled by the mount namespace alone) gets
  # every attack of the set; the newer, whose differences are Landlock behind the mounts and
  # newer cgroup files, the attacks on CPU time and what a run sees as root, and the sandbox
  # crate's tests in each configuration.
  as_root=("$cpu" "$seen")
  delegated_tests=()
  nobody_tests=()
  contest=no
  case $(uname -r) in
    6.1.*)
      as_root+=("$memory" "$killed")
      delegated_tests=("$killed")
      contest=yes
      ;;
  esac
fi

# confinement WHO TESTS-ARRAY RUNNER...: each test, run by RUNNER (the environment and
# user), a step.
confinement() {
  local who=$1 test
  local -n tests=$2
  shift 2
  for test in "${tests[@]}"; do
    step "$who: $test" "$@" "$integration" -q --include-ignored --exact "confinement::$test"
  done
}

scratch=$(mktemp -d)
chmod 755 "$scratch"
mkdir -p "$scratch/home/tmp"
chown -R 65534:65534 "$scratch/home"
as_nobody() {
  setpriv --reuid=65534 --regid=65534 --clear-groups \
    env HOME="$scratch/home" TMPDIR="$scratch/home/tmp" "$@"
}

# 1. root: the kernel's accounting on cgroup v2.
step "root: sandbox-check" bash -c "'$referee' sandbox-check > '$out/sandbox-check-root.txt' 2>&1"
step "root: sandbox crate" bash -c "'$sandbox_lib' -q && '$runs' -q --test-threads 1 && '$attacks' -q"
confinement root as_root env REFEREE_EXPECT_ACCOUNTING=cgroup-v2

# 2. uid 65534 in a delegated subtree: what `systemd-run --user -p Delegate=yes` gives a user.
delegated=/sys/fs/cgroup/referee-delegated
mkdir -p "$delegated/harness"
for c in memory pids cpu; do echo "+$c" > /sys/fs/cgroup/cgroup.subtree_control; done
chown -R 65534:65534 "$delegated"
# in_delegated COMMAND...: COMMAND as uid 65534 from the subtree's leaf `harness`, as a user's
# shell is in its scope.
in_delegated() {
  bash -c 'echo $$ > "$0/harness/cgroup.procs" && shift && exec "$@"' "$delegated" _ \
    setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$scratch/home" \
    TMPDIR="$scratch/home/tmp" REFEREE_CGROUP="$delegated" "$@"
}
step "nobody+cgroup: sandbox-check" bash -c "$(declare -f in_delegated); delegated='$delegated' \
  scratch='$scratch' in_delegated '$referee' sandbox-check > '$out/sandbox-check-delegated.txt' 2>&1"
confinement nobody+cgroup delegated_tests in_delegated env REFEREE_EXPECT_ACCOUNTING=cgroup-v2

# 3. uid 65534 with no cgroup: the fallback.
step "nobody: sandbox-check" bash -c "setpriv --reuid=65534 --regid=65534 --clear-groups \
  '$referee' sandbox-check > '$out/sandbox-check-nobody.txt' 2>&1"
step "nobody: sandbox crate" as_nobody bash -c "'$runs' -q --test-threads 1 && '$attacks' -q"
confinement nobody nobody_tests as_nobody env REFEREE_EXPECT_ACCOUNTING=processes
left=$(find "$scratch/home/tmp" -mindepth 1 | head -5)
if [ -n "$left" ]; then
  echo "guest_tests.sh: the tests left files behind: $left" >&2
  failed+=("nobody: temp directory")
fi

# 4. The example contest, audited as root (.ci/run compares OUT/programs.txt with the host's).
if [ "$contest" = yes ]; then
  step "root: example contest" scripts/ci/contest_audit.sh "$out"
fi

rm -rf "$scratch"
rmdir "$delegated/harness" "$delegated" 2>/dev/null
cat "$out/steps.txt"
if [ ${#failed[@]} -gt 0 ]; then
  echo "guest_tests.sh: failed: ${failed[*]}" >&2
  exit 1
fi
