#!/usr/bin/env bash
# Installs DMOJ's judge (the release the DMOJ test was checked with, 4.1.0) in a virtual
# environment at target/dmoj, with Debian's Python 3.11 (DMOJ builds its sandbox from source,
# with libseccomp, and needs distutils); its command is target/dmoj/bin/dmoj-cli.
# Usage: scripts/ci/dmoj.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
version=4.1.0
venv=target/dmoj
installed=$("$venv/bin/pip" show dmoj 2>/dev/null || true)
if [ -x "$venv/bin/dmoj-cli" ] && grep -qx "Version: $version" <<< "$installed"; then
  exit 0
fi
if ! dpkg -s libseccomp-dev >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q libseccomp-dev >/dev/null
fi
/usr/bin/python3 -m venv "$venv"
"$venv/bin/pip" install --quiet "dmoj==$version"
echo "dmoj $version"
