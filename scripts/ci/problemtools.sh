#!/usr/bin/env bash
# Installs Kattis problemtools (the release the package tests were checked with) in a virtual
# environment at target/problemtools; its verifyproblem is target/problemtools/bin/verifyproblem.
# Usage: scripts/ci/problemtools.sh
exec "$(dirname "$0")/pip_tool.sh" problemtools 1.20260907 verifyproblem
