#!/usr/bin/env bash
# What scripts/ci/kernels.sh runs inside each Debian kernel (cgroup v2 alone, as root): the
# sandbox's tests in the three configurations a judge host offers, then an audit of the example
# contest. Every attack must be contained or refused and every confined run must work.
#
#   root            cgroup v2 groups under referee's own subtree (the kernel's accounting)
#   nobody+cgroup   uid 65534 with a delegated subtree (--cgroup, as systemd's Delegate=yes gives)
#   nobody          uid 65534 with no cgroup: the fallback (one process a run, RLIMIT_AS, ...)
#
# The test binaries are those `cargo test --no-run` built on the host (debug), the referee they
# drive target/release/referee (REFEREE_UNDER_TEST): software emulation is some 20 times slower
# than the host, so the guest runs the tests of the walls and the accounting, not the whole
# suite. Writes OUT/sandbox-check-*.txt, OUT/programs.csv and OUT/steps.txt (each step's time).
# Usage (in the guest, from the checkout): scripts/ci/guest_tests.sh OUT
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$1
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

binary() {
  ls -t target/debug/deps/"$1"-* 2>/dev/null | grep -v '\.d$' | head -n 1
}
integration=$(binary integration)
sandbox_lib=$(binary referee_sandbox)
runs=$(binary runs)
for b in "$integration" "$sandbox_lib" "$runs"; do
  [ -x "$b" ] || { echo "guest_tests.sh: a test binary is missing (cargo test --no-run)" >&2; exit 1; }
done

# The confinement tests the guest runs: every attack class of tests/confinement.
attacks=(confinement::accounting::cpu_time confinement::accounting::memory_no_count
  confinement::seen::a_run_sees confinement::apart::nothing_of_a_run
  confinement::apart::runs_are_apart confinement::classic::a_contest_of_attacks)

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
step "root: sandbox crate" bash -c "'$sandbox_lib' -q && '$runs' -q"
step "root: confinement" env REFEREE_EXPECT_ACCOUNTING=cgroup-v2 \
  "$integration" -q --include-ignored "${attacks[@]}"

# 2. uid 65534 in a delegated subtree: what `systemd-run --user -p Delegate=yes` gives a user.
delegated=/sys/fs/cgroup/referee-delegated
mkdir -p "$delegated"
for c in memory pids cpu; do echo "+$c" > /sys/fs/cgroup/cgroup.subtree_control; done
chown -R 65534:65534 "$delegated"
# The delegated subtree holds the tests' own processes in a leaf, as a user's scope does.
mkdir -p "$delegated/harness"
chown -R 65534:65534 "$delegated/harness"
step "nobody+cgroup: sandbox-check" bash -c "setpriv --reuid=65534 --regid=65534 --clear-groups \
  '$referee' sandbox-check --cgroup '$delegated' > '$out/sandbox-check-delegated.txt' 2>&1"
step "nobody+cgroup: confinement" bash -c "echo \$\$ > '$delegated/harness/cgroup.procs' && \
  exec setpriv --reuid=65534 --regid=65534 --clear-groups env HOME='$scratch/home' \
  TMPDIR='$scratch/home/tmp' REFEREE_CGROUP='$delegated' REFEREE_EXPECT_ACCOUNTING=cgroup-v2 \
  '$integration' -q --include-ignored confinement::accounting confinement::apart::nothing_of_a_run"

# 3. uid 65534 with no cgroup: the fallback.
step "nobody: sandbox-check" bash -c "setpriv --reuid=65534 --regid=65534 --clear-groups \
  '$referee' sandbox-check > '$out/sandbox-check-nobody.txt' 2>&1"
step "nobody: sandbox crate" as_nobody "$runs" -q
step "nobody: confinement" as_nobody env REFEREE_EXPECT_ACCOUNTING=processes \
  "$integration" -q --include-ignored "${attacks[@]}"
left=$(find "$scratch/home/tmp" -mindepth 1 | head -5)
if [ -n "$left" ]; then
  echo "guest_tests.sh: the tests left files behind: $left" >&2
  failed+=("nobody: temp directory")
fi

# 4. The example contest, audited as root: its programs.csv must match the host's.
step "root: example contest" bash -c "'$referee' audit pousse --package examples/contest/pousse \
  --cases 100 --seed 1 --out '$scratch/contest'; [ \$? -le 1 ] && cp '$scratch/contest/programs.csv' '$out/programs.csv'"

rm -rf "$scratch"
rmdir "$delegated/harness" "$delegated" 2>/dev/null
cat "$out/steps.txt"
if [ ${#failed[@]} -gt 0 ]; then
  echo "guest_tests.sh: failed: ${failed[*]}" >&2
  exit 1
fi
