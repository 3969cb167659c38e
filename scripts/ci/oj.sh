#!/usr/bin/env bash
# Installs online-judge-tools (the release the `oj test --judge-command` test was checked with)
# in a virtual environment at target/online-judge-tools; its command is
# target/online-judge-tools/bin/oj.
# Usage: scripts/ci/oj.sh
exec "$(dirname "$0")/pip_tool.sh" online-judge-tools 11.5.1 oj
