"""The training config as Python sees it: the JSON that src/train/config.ts (the zod schema, the one
validator) produces, every default filled in. `atlas-gym train` passes it with `--config-json`; given a
YAML path, `load_config` asks `atlas-gym train --config <yaml> --print-config` for it, so a problem is
reported by path exactly as `atlas-gym train` reports it. Nothing is validated here: building the
dataclasses only refuses keys that the TypeScript schema and these classes do not share (a drift
between the two sides, never a user error).
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .server_process import REPO_ROOT


class ConfigError(ValueError):
    """A config file that cannot be used; the message lists every problem by path."""


@dataclass(frozen=True)
class LoraSettings:
    r: int
    alpha: int
    dropout: float
    target_modules: str | list[str]


@dataclass(frozen=True)
class VllmSettings:
    enabled: bool
    mode: str


@dataclass(frozen=True)
class EarlyStoppingSettings:
    window: int
    threshold: float


@dataclass(frozen=True)
class WarmStartSettings:
    reference_tasks: int
    skip_index_below: int
    epochs: float
    learning_rate: float
    vocab_size: int
    size: str
    batch_size: int = 8
    scenarios: list[str] | None = None


@dataclass(frozen=True)
class EvaluateSettings:
    tasks: int
    k: int
    temperature: float
    max_tokens: int


@dataclass(frozen=True)
class TrainConfig:
    model: str
    scenarios: list[str]
    num_generations: int
    learning_rate: float
    beta: float
    epsilon: float
    loss_type: str
    max_completion_length: int
    train_tasks: int
    reward_mode: str
    vllm: VllmSettings
    temperature: float
    enable_thinking: bool
    output_dir: str
    max_steps: int
    seed: int
    per_device_train_batch_size: int
    gradient_accumulation_steps: int
    logging_steps: int
    save_steps: int
    report_to: list[str] = field(default_factory=list)
    prompt_tools: str = "type_hints"
    # Optional in the schema: absent from the JSON when not set.
    lora: LoraSettings | None = None
    epsilon_high: float | None = None
    early_stopping: EarlyStoppingSettings | None = None
    build_model_if_missing: str | None = None
    warm_start: WarmStartSettings | None = None
    evaluate: EvaluateSettings | None = None
    # Absent: derived from the tasks' own turn limits (train.tool_rounds).
    max_turns: int | None = None
    # Absent: every level.
    levels: list[int] | None = None


_NESTED = {
    "lora": LoraSettings,
    "vllm": VllmSettings,
    "early_stopping": EarlyStoppingSettings,
    "warm_start": WarmStartSettings,
    "evaluate": EvaluateSettings,
}


def _build(cls: type, data: dict[str, Any], path: str) -> Any:
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(
            f"{path or 'config'}: keys {', '.join(unknown)} are not known to python/atlas_gym/config.py; "
            "src/train/config.ts and it are out of step (update both)"
        )
    values = {
        key: _build(_NESTED[key], value, f"{path}{key}.") if key in _NESTED and value is not None else value
        for key, value in data.items()
    }
    try:
        return cls(**values)
    except TypeError as error:  # a key the schema should have filled in is missing
        raise ConfigError(f"{path or 'config'}: not a validated training config ({error})") from None


def config_from_json(data: dict[str, Any]) -> TrainConfig:
    """The TrainConfig of `atlas-gym train --print-config`'s (or `--config-json`'s) JSON object."""
    if not isinstance(data, dict):
        raise ConfigError("config: expected a JSON object")
    return _build(TrainConfig, data, "")


def load_config(path: str | Path, repo_root: Path = REPO_ROOT) -> TrainConfig:
    """Validates a YAML config with the TypeScript schema (`atlas-gym train --print-config`)."""
    binary = repo_root / "bin" / "atlas-gym"
    if not binary.exists():
        raise ConfigError(f"{binary} not found: run from an atlas-gym checkout (it validates the config)")
    done = subprocess.run(
        [str(binary), "train", "--config", str(Path(path).resolve()), "--print-config"],
        cwd=repo_root,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode != 0:
        message = done.stderr.strip().removeprefix("error: ").strip() or f"exit code {done.returncode}"
        raise ConfigError(message)
    return config_from_json(json.loads(done.stdout))
