#!/usr/bin/env bash
# Installs BAPCtools (the release the package tests were checked with) in a virtual environment
# at target/bapctools; its command is target/bapctools/bin/bt.
# Usage: scripts/bapctools.sh
set -euo pipefail
cd "$(dirname "$0")/.."
version=2026.10.0
venv=target/bapctools
if [ -x "$venv/bin/bt" ] && "$venv/bin/pip" show bapctools 2>/dev/null | grep -qx "Version: $version"; then
    exit 0
fi
mkdir -p target
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet "bapctools==$version"
"$venv/bin/bt" --version > "$venv/version.txt"
head -n 1 "$venv/version.txt"
