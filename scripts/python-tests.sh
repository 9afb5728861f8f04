#!/usr/bin/env bash
# Runs the Python tests in two venvs, creating each first when it is missing or stale (keyed on a hash of
# its requirements file and the Python version, so editing the pins rebuilds it):
#   trl:  python/tests       in python/.venv       from python/requirements.txt       (TRL, the default trainer)
#   verl: python/tests_verl  in python/.venv-verl  from python/requirements-verl.txt  (verl's transformers pin
#         conflicts with TRL's, so it gets its own venv: ~1.6 GB, a few minutes to build the first time)
# Needs python3 (>= 3.10, < 3.13 for verl) with venv, and PyPI (torch==2.13.0 resolves to the local CPU
# wheel). ATLAS_GYM_PY_SUITES="trl" (or "verl") runs one suite. Extra arguments go to pytest (e.g. -k x).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-python3}"
suites="${ATLAS_GYM_PY_SUITES:-trl verl}"

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  echo "python-tests: needs Python >= 3.10 as '$python' (set PYTHON=/path/to/python3)" >&2
  exit 1
fi

# ensure_venv <venv dir> <requirements file>: (re)builds the venv when its key changed.
ensure_venv() {
  local venv="$1" requirements="$2" name key started
  name="$(basename "$venv")"
  key="$(sha256sum "$requirements" | cut -d' ' -f1) $("$python" --version 2>&1)"
  if [[ -x "$venv/bin/python" && "$(cat "$venv/.requirements-key" 2>/dev/null)" == "$key" ]]; then return; fi
  echo "python-tests: building python/$name from python/$(basename "$requirements") (a few minutes the first time)"
  started=$SECONDS
  rm -rf "$venv"
  "$python" -m venv "$venv"
  if ! "$venv/bin/pip" install --disable-pip-version-check --no-compile -r "$requirements" >"$venv/install.log" 2>&1; then
    tail -n 40 "$venv/install.log" >&2
    echo "python-tests: pip install failed (full log: python/$name/install.log)" >&2
    rm -f "$venv/bin/python"
    exit 1
  fi
  echo "$key" >"$venv/.requirements-key"
  echo "python-tests: python/$name ready in $((SECONDS - started)) s ($(du -sh "$venv" | cut -f1))"
}

cd "$root/python"
# The venvs are installed without byte-compiling (pip's compile step is most of its install time); let
# Python cache the bytecode of the modules the tests import instead, even where the environment says not to.
unset PYTHONDONTWRITEBYTECODE
status=0
for suite in $suites; do
  case "$suite" in
    trl) venv="$root/python/.venv" requirements="$root/python/requirements.txt" tests=tests ;;
    verl) venv="$root/python/.venv-verl" requirements="$root/python/requirements-verl.txt" tests=tests_verl ;;
    *) echo "python-tests: unknown suite '$suite' (trl, verl)" >&2; exit 1 ;;
  esac
  ensure_venv "$venv" "$requirements"
  code=0
  "$venv/bin/python" -m pytest "$tests" "$@" || code=$?
  # With a -k filter a suite may select nothing (pytest exit 5): that is not a failure.
  if [[ $code -ne 0 && ! ($code -eq 5 && $# -gt 0) ]]; then status=$code; fi
done
exit $status
