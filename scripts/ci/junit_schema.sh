#!/usr/bin/env bash
# Fetches the JUnit XML schema CI systems follow (Jenkins's junit-10.xsd, MIT licensed) from
# the copy pytest's source distribution on PyPI ships for its own tests, checks the archive's
# SHA-256, and writes the schema to target/schemas/junit-10.xsd (or the path given).
# tests/ci_output.rs validates referee's --junit files against it with xmllint.
set -euo pipefail
cd "$(dirname "$0")/../.."
dest=${1:-target/schemas/junit-10.xsd}
url=https://files.pythonhosted.org/packages/ae/3c/c9d525a414d506893f0cd8a8d0de7706446213181570cdbd766691164e40/pytest-8.3.5.tar.gz
sha256=f4efe70cc14e511565ac476b57c279e12a855b11f48f212af1080ef2263d3845
[ -s "$dest" ] && exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
curl -fsSL --retry 3 -o "$tmp/pytest.tar.gz" "$url"
echo "$sha256  $tmp/pytest.tar.gz" | sha256sum -c --quiet
tar -xzf "$tmp/pytest.tar.gz" -C "$tmp" pytest-8.3.5/testing/example_scripts/junit-10.xsd
mkdir -p "$(dirname "$dest")"
cp "$tmp/pytest-8.3.5/testing/example_scripts/junit-10.xsd" "$dest"
echo "wrote $dest"
