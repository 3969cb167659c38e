#!/usr/bin/env bash
# Installs one pinned release of a Python tool from PyPI in its own virtual environment under
# target/, unless that release is already there; then prints the tool's version line.
# Usage: scripts/ci/pip_tool.sh PACKAGE VERSION COMMAND   (installed in target/PACKAGE, the command
# is target/PACKAGE/bin/COMMAND)
set -euo pipefail
cd "$(dirname "$0")/../.."
package=$1
version=$2
command=$3
venv=target/$package
# pip's output read whole first: grep -q leaving the pipe early fails pip, and pipefail with it.
installed=$("$venv/bin/pip" show "$package" 2>/dev/null || true)
if [ -x "$venv/bin/$command" ] && grep -qx "Version: $version" <<< "$installed"; then
    exit 0
fi
mkdir -p target
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet "$package==$version"
# Through a file: some tools fail on a pipe closed early.
"$venv/bin/$command" --version > "$venv/version.txt" 2>&1
head -n 1 "$venv/version.txt"
