#!/usr/bin/env bash
# Runs the Python tests (python/tests) in python/.venv, creating the venv first when it is missing or
# stale: it is keyed on a hash of python/requirements.txt and the Python version, so editing the pins
# rebuilds it. Needs python3 (>= 3.10) with venv, and PyPI. Extra arguments go to pytest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/python/.venv"
requirements="$root/python/requirements.txt"
python="${PYTHON:-python3}"

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  echo "python-tests: needs Python >= 3.10 as '$python' (set PYTHON=/path/to/python3)" >&2
  exit 1
fi
key="$(sha256sum "$requirements" | cut -d' ' -f1) $("$python" --version 2>&1)"
if [[ ! -x "$venv/bin/python" || "$(cat "$venv/.requirements-key" 2>/dev/null)" != "$key" ]]; then
  echo "python-tests: building python/.venv from python/requirements.txt (a few minutes the first time)"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  if ! "$venv/bin/pip" install --disable-pip-version-check --no-compile -r "$requirements" >"$venv/install.log" 2>&1; then
    tail -n 40 "$venv/install.log" >&2
    echo "python-tests: pip install failed (full log: python/.venv/install.log)" >&2
    rm -f "$venv/bin/python"
    exit 1
  fi
  echo "$key" >"$venv/.requirements-key"
  echo "python-tests: python/.venv ready ($(du -sh "$venv" | cut -f1))"
fi
cd "$root/python"
# The venv is installed without byte-compiling (pip's compile step is most of its install time); let
# Python cache the bytecode of the modules the tests import instead, even where the environment says not to.
unset PYTHONDONTWRITEBYTECODE
exec "$venv/bin/python" -m pytest "$@"
