#!/usr/bin/env bash
# GPU check, one shot on one GPU: the TRL smoke test (python/tests/test_trl_smoke.py) on CUDA with a larger
# random Qwen3 ("small": ~50M parameters) instead of the CPU one, capped at 5 minutes (timeout 300 below).
# It has not run on a GPU yet (none was available to the sessions that wrote it). Needs Node 20 too (the
# test starts the TypeScript env server and validates its config with it). Needs a CUDA build of torch
# 2.13.0 and python/requirements.txt's other pins in the Python it runs ($PYTHON, else python/.venv,
# else python3). No model download: the model is built from a config.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-}"
if [[ -z "$python" ]]; then
  if [[ -x "$root/python/.venv/bin/python" ]]; then python="$root/python/.venv/bin/python"; else python=python3; fi
fi
if ! "$python" -c 'import torch, sys; sys.exit(not torch.cuda.is_available())' 2>/dev/null; then
  echo "gpu-check: no CUDA device visible to torch in $python ($("$python" -c 'import torch; print(torch.__version__)' 2>&1 | tail -1))." >&2
  echo "gpu-check: install a CUDA build of torch 2.13.0 there, or set PYTHON=/path/to/python." >&2
  exit 1
fi
"$python" -c 'import torch; print("gpu-check:", torch.cuda.get_device_name(0), "torch", torch.__version__)'
cd "$root/python"
ATLAS_GYM_SMOKE_MODEL=small ATLAS_GYM_SMOKE_DEVICE=cuda TRL_EXPERIMENTAL_SILENCE=1 \
  timeout 300 "$python" -m pytest -q tests/test_trl_smoke.py "$@"
