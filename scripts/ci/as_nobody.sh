#!/usr/bin/env bash
# Runs the sandbox's tests (tests/confinement/, and the tests of the referee-sandbox crate)
# as an unprivileged user, uid and gid 65534 with no other group, from the test binaries
# `cargo test` built: audit then runs its programs as that user, in user namespaces of its own,
# with no privilege at all, and accounts them from /proc (no control group is theirs to make).
# Needs root (to change user) and setpriv.
# Usage: scripts/ci/as_nobody.sh SCRATCH (a directory to create, for the user's HOME and TMPDIR)
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch=$1
# The user must reach the checkout (the test binaries name its paths): every directory above
# it searchable by all. One that is not (a clone in a private temporary directory, or in root's
# home) is made searchable, not readable, for the run, and put back after.
opened=()
restore() {
  for d in "${opened[@]}"; do chmod o-x "$d"; done
}
trap restore EXIT
dir=$PWD
while [ "$dir" != / ]; do
  if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$dir"; then
    echo "as_nobody.sh: $dir made searchable by every user (o+x) for the run" >&2
    chmod o+x "$dir"
    opened+=("$dir")
  fi
  dir=$(dirname "$dir")
done
binaries=$(cargo test --workspace --locked --no-run --message-format=json 2>/dev/null \
  | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] in ("integration", "referee_sandbox", "runs", "attacks") and m["target"]["kind"] != ["bin"]:
        print(m["target"]["name"], m["executable"])
')
mkdir -p "$scratch/tmp"
chown -R 65534:65534 "$scratch"
run() {
  setpriv --reuid=65534 --regid=65534 --clear-groups \
    env HOME="$scratch" TMPDIR="$scratch/tmp" REFEREE_REQUIRE_TOOLS=1 "$@"
}
while read -r name binary; do
  case $name in
    integration) run "$binary" confinement:: --include-ignored ;;
    referee_sandbox|runs|attacks) run "$binary" ;;
  esac
done <<< "$binaries"
# Nothing left behind in the user's temporary directory.
left=$(find "$scratch/tmp" -mindepth 1 | head -5)
if [ -n "$left" ]; then
  echo "as_nobody.sh: the tests left files behind:" >&2
  echo "$left" >&2
  exit 1
fi
