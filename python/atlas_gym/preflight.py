"""Checks run before any training work (no server, no dataset, no log file yet): the model is reachable
(a local directory, the local Hugging Face cache, or the Hub when online), vLLM and CUDA are present when
the config asks for vLLM, the reporting integrations asked for are installed, a checkpoint to resume from
is one, and the Python environment has the versions python/requirements.txt pins. Each problem is one line.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
from collections.abc import Callable
from pathlib import Path

from .config import TrainConfig
from .server_process import REPO_ROOT

# The packages whose versions decide whether training behaves as tested.
CHECKED_PINS = ("torch", "transformers", "trl", "peft", "accelerate", "datasets")
REPORTERS = {"tensorboard": ("tensorboard", "tensorboardX"), "wandb": ("wandb",)}


def pinned_versions(requirements: Path) -> dict[str, str]:
    pins = {}
    for line in requirements.read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s#]+)", line.strip())
        if match:
            pins[match.group(1).lower()] = match.group(2)
    return pins


def installed_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def check_environment(requirements: Path, version: Callable[[str], str | None] = installed_version) -> list[str]:
    pins = pinned_versions(requirements)
    problems = []
    for name in CHECKED_PINS:
        want, have = pins.get(name), version(name)
        if want is None:
            continue
        if have is None or have.split("+")[0] != want:
            problems.append(
                f"python environment: {name} {have or 'is not installed'}"
                f"{' is installed' if have else ''}, python/requirements.txt pins {want} "
                "(rebuild python/.venv: bash scripts/python-tests.sh, or pip install -r python/requirements.txt)"
            )
    return problems


def check_model(config: TrainConfig, hub_lookup: Callable[[str], None] | None = None) -> list[str]:
    path = Path(config.model).expanduser()
    if path.exists():
        if not (path / "config.json").exists():
            return [f"model: {config.model} is a directory without config.json (not a saved model)"]
        return []
    if config.build_model_if_missing or config.warm_start:
        return []  # built (random, or warm-started) before training
    if config.model.startswith((".", "/", "~")) or config.model.count("/") > 1:
        return [f"model: no directory {config.model} (and neither build_model_if_missing nor warm_start is set)"]
    from huggingface_hub import try_to_load_from_cache

    if isinstance(try_to_load_from_cache(config.model, "config.json"), str):
        return []  # in the local Hugging Face cache
    if os.environ.get("HF_HUB_OFFLINE") in ("1", "true", "TRUE", "yes"):
        return [f"model: {config.model} is not in the local Hugging Face cache and HF_HUB_OFFLINE is set"]
    try:
        (hub_lookup or _hub_lookup)(config.model)
    except Exception as error:  # noqa: BLE001 - any failure means the same thing here
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        return [f"model: {config.model} is neither a local directory nor reachable on the Hugging Face Hub ({reason})"]
    return []


def _hub_lookup(model: str) -> None:
    from huggingface_hub import HfApi

    HfApi().model_info(model, timeout=15)


def check_accelerators(config: TrainConfig, cuda: Callable[[], bool] | None = None) -> list[str]:
    if not config.vllm.enabled:
        return []
    problems = []
    if importlib.util.find_spec("vllm") is None:
        problems.append('vllm.enabled: vLLM is not installed (pip install "trl[vllm]==1.13.0" on the GPU machine)')
    if not (cuda or _cuda_available)():
        problems.append("vllm.enabled: no CUDA device is visible to torch (vLLM needs a GPU; disable vllm on CPU)")
    return problems


def _cuda_available() -> bool:
    import torch

    return torch.cuda.is_available()


def check_reporting(config: TrainConfig) -> list[str]:
    return [
        f"report_to: {name} is not installed (pip install {modules[0]})"
        for name, modules in REPORTERS.items()
        if name in config.report_to and not any(importlib.util.find_spec(m) for m in modules)
    ]


def check_resume(resume: str | None) -> list[str]:
    if resume is None:
        return []
    if not (Path(resume) / "trainer_state.json").exists():
        return [f"--resume: {resume} is not a checkpoint (no trainer_state.json): give a checkpoint-N/ or interrupted/"]
    return []


def preflight(config: TrainConfig, resume: str | None = None, requirements: Path | None = None) -> list[str]:
    """Every problem found, one line each; empty when training may start."""
    return [
        *check_environment(requirements or REPO_ROOT / "python" / "requirements.txt"),
        *check_model(config),
        *check_accelerators(config),
        *check_reporting(config),
        *check_resume(resume),
    ]
