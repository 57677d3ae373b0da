#!/usr/bin/env bash
# Proves the pip packaging: installs the plugin offline into a fresh venv of Debian's python3, as a user
# installs it into Hermes's environment, then runs the plugin's tests against that installed copy, which they
# load through the `hermes_agent.memory_providers` entry point inside the stand-in `agent` package.
# Usage: plugins/hermes/tests/install_and_test.sh   (MEMORY_POOL_TEST_URL set also runs the live tests)
set -euo pipefail
# Debian's python3 has pip, setuptools and wheel, so the install needs no network; a pyenv one may not.
python="${MEMORY_POOL_HERMES_PYTHON:-/usr/bin/python3}"
plugin="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A copy, so the in-tree build (build/, *.egg-info) never lands in the repository.
mkdir "$work/src"
tar -C "$plugin" --exclude=tests --exclude=build --exclude='*.egg-info' --exclude=__pycache__ -cf - . \
  | tar -C "$work/src" -xf -
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --no-build-isolation --disable-pip-version-check "$work/src"
rm -rf "$work/src"

# From an empty folder, so nothing but the installed package can be imported as memory_pool_hermes. The
# tests' temporary folders (tempfile.mkdtemp) go under $work too, so the trap removes them with it.
cd "$work"
export TMPDIR="$work"
MEMORY_POOL_HERMES_INSTALLED=1 PYTHONDONTWRITEBYTECODE=1 \
  "$work/venv/bin/python" -m unittest discover -s "$plugin/tests" -t "$plugin/tests" -v
