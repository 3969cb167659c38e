#!/usr/bin/env bash
# Installs BAPCtools (the release the package tests were checked with) in a virtual environment
# at target/bapctools; its command is target/bapctools/bin/bt.
# Usage: scripts/ci/bapctools.sh
exec "$(dirname "$0")/pip_tool.sh" bapctools 2026.10.0 bt
