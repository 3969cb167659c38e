#!/usr/bin/env bash
# Installs Kattis problemtools (the version the package tests were checked with) in a virtual
# environment at target/problemtools; its verifyproblem is target/problemtools/bin/verifyproblem.
# Usage: scripts/problemtools.sh
set -euo pipefail
cd "$(dirname "$0")/.."
version=1.20260907
venv=target/problemtools
if [ -x "$venv/bin/verifyproblem" ] && "$venv/bin/pip" show problemtools 2>/dev/null | grep -qx "Version: $version"; then
    exit 0
fi
mkdir -p target
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet "problemtools==$version"
"$venv/bin/verifyproblem" --version
