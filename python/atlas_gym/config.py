"""The training config (YAML), mirrored field for field from src/train/config.ts (the zod schema is the
source of truth; `atlas-gym train` validates with it before launching this trainer). Unknown keys are
rejected, every problem is reported at once by path, and defaults follow the TypeScript schema.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

LOSS_TYPES = ("dapo", "grpo", "dr_grpo", "bnpo", "cispo", "sapo", "luspo", "vespo")
REWARD_MODES = ("paper", "state", "gated")


class ConfigError(ValueError):
    """A config file that cannot be used; the message lists every problem by path."""


@dataclass(frozen=True)
class LoraSettings:
    r: int = 32
    alpha: int = 64
    dropout: float = 0.05
    target_modules: str | list[str] = "all-linear"


@dataclass(frozen=True)
class VllmSettings:
    enabled: bool = False
    mode: str = "colocate"


@dataclass(frozen=True)
class EarlyStoppingSettings:
    window: int = 10
    threshold: float = 0.95


@dataclass(frozen=True)
class TrainConfig:
    model: str
    scenarios: list[str]
    lora: LoraSettings | None = None
    num_generations: int = 8
    learning_rate: float = 1e-5
    beta: float = 0.0
    epsilon: float = 0.2
    epsilon_high: float | None = None
    loss_type: str = "dapo"
    max_turns: int = 12
    max_completion_length: int = 4096
    train_tasks: int = 512
    reward_mode: str = "paper"
    vllm: VllmSettings = field(default_factory=VllmSettings)
    temperature: float = 1.0
    enable_thinking: bool = False
    output_dir: str = "runs/train"
    max_steps: int = 1000
    early_stopping: EarlyStoppingSettings | None = None
    seed: int = 0
    per_device_train_batch_size: int = 8
    gradient_accumulation_steps: int = 1
    logging_steps: int = 1
    save_steps: int = 100


_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


class _Checker:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def fail(self, path: str, message: str) -> None:
        self.problems.append(f"  {path}: {message}")

    def mapping(self, raw: Any, path: str, known: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(raw, dict):
            self.fail(path or "(top level)", "expected a mapping")
            return {}
        for key in raw:
            if key not in known:
                self.fail(f"{path}.{key}" if path else str(key), f"unknown key (known: {', '.join(known)})")
        return raw

    def number(
        self, raw: dict, key: str, path: str, default: Any, integer=False, low=None, high=None, strict_low=False
    ):
        value = raw.get(key, default)
        if value is None:
            return None
        # PyYAML (YAML 1.1) reads 1e-5 as a string; the TypeScript side (YAML 1.2) reads a number.
        if isinstance(value, str) and _NUMBER.match(value):
            value = float(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(f"{path}{key}", f"expected a number, got {value!r}")
            return default
        if integer and value != int(value):
            self.fail(f"{path}{key}", f"expected an integer, got {value!r}")
            return default
        if low is not None and (value <= low if strict_low else value < low):
            self.fail(f"{path}{key}", f"must be {'>' if strict_low else '>='} {low}, got {value!r}")
        if high is not None and value > high:
            self.fail(f"{path}{key}", f"must be <= {high}, got {value!r}")
        return int(value) if integer else float(value)

    def positive_int(self, raw: dict, key: str, path: str, default: Any):
        return self.number(raw, key, path, default, integer=True, low=1)

    def choice(self, raw: dict, key: str, path: str, default: str, options: tuple[str, ...]) -> str:
        value = raw.get(key, default)
        if value not in options:
            self.fail(f"{path}{key}", f"expected one of {', '.join(options)}, got {value!r}")
            return default
        return value

    def boolean(self, raw: dict, key: str, path: str, default: bool) -> bool:
        value = raw.get(key, default)
        if not isinstance(value, bool):
            self.fail(f"{path}{key}", f"expected true or false, got {value!r}")
            return default
        return value

    def text(self, raw: dict, key: str, path: str, default: str | None) -> str:
        value = raw.get(key, default)
        if not isinstance(value, str) or not value:
            self.fail(
                f"{path}{key}",
                "required: a non-empty string" if value is None else f"expected a non-empty string, got {value!r}",
            )
            return default or ""
        return value


def parse_config(raw: Any, source: str = "config") -> TrainConfig:
    """Validates parsed YAML into a TrainConfig; raises ConfigError listing every problem."""
    c = _Checker()
    top_keys = tuple(TrainConfig.__dataclass_fields__)
    raw = c.mapping(raw, "", top_keys)
    scenarios = raw.get("scenarios")
    if not isinstance(scenarios, list) or not scenarios or not all(isinstance(s, str) and s for s in scenarios):
        c.fail("scenarios", "required: a non-empty list of scenario ids")
        scenarios = []
    lora = None
    if raw.get("lora") is not None:
        lraw = c.mapping(raw["lora"], "lora", tuple(LoraSettings.__dataclass_fields__))
        targets = lraw.get("target_modules", "all-linear")
        if targets != "all-linear" and not (
            isinstance(targets, list) and targets and all(isinstance(t, str) and t for t in targets)
        ):
            c.fail("lora.target_modules", f'expected "all-linear" or a non-empty list of module names, got {targets!r}')
        lora = LoraSettings(
            r=c.positive_int(lraw, "r", "lora.", 32),
            alpha=c.positive_int(lraw, "alpha", "lora.", 64),
            dropout=c.number(lraw, "dropout", "lora.", 0.05, low=0),
            target_modules=targets,
        )
        if lora.dropout is not None and lora.dropout >= 1:
            c.fail("lora.dropout", f"must be < 1, got {lora.dropout}")
    vraw = c.mapping(raw.get("vllm", {}), "vllm", tuple(VllmSettings.__dataclass_fields__))
    vllm = VllmSettings(
        c.boolean(vraw, "enabled", "vllm.", False), c.choice(vraw, "mode", "vllm.", "colocate", ("colocate",))
    )
    early = None
    if raw.get("early_stopping") is not None:
        eraw = c.mapping(raw["early_stopping"], "early_stopping", tuple(EarlyStoppingSettings.__dataclass_fields__))
        early = EarlyStoppingSettings(
            window=c.positive_int(eraw, "window", "early_stopping.", 10),
            threshold=c.number(eraw, "threshold", "early_stopping.", 0.95, low=0, high=1),
        )
    config = TrainConfig(
        model=c.text(raw, "model", "", None),
        scenarios=list(scenarios),
        lora=lora,
        num_generations=c.number(raw, "num_generations", "", 8, integer=True, low=2),
        learning_rate=c.number(raw, "learning_rate", "", 1e-5, low=0, strict_low=True),
        beta=c.number(raw, "beta", "", 0.0, low=0),
        epsilon=c.number(raw, "epsilon", "", 0.2, low=0, strict_low=True),
        epsilon_high=c.number(raw, "epsilon_high", "", None, low=0, strict_low=True),
        loss_type=c.choice(raw, "loss_type", "", "dapo", LOSS_TYPES),
        max_turns=c.positive_int(raw, "max_turns", "", 12),
        max_completion_length=c.positive_int(raw, "max_completion_length", "", 4096),
        train_tasks=c.positive_int(raw, "train_tasks", "", 512),
        reward_mode=c.choice(raw, "reward_mode", "", "paper", REWARD_MODES),
        vllm=vllm,
        temperature=c.number(raw, "temperature", "", 1.0, low=0, strict_low=True),
        enable_thinking=c.boolean(raw, "enable_thinking", "", False),
        output_dir=c.text(raw, "output_dir", "", "runs/train"),
        max_steps=c.positive_int(raw, "max_steps", "", 1000),
        early_stopping=early,
        seed=c.number(raw, "seed", "", 0, integer=True, low=0),
        per_device_train_batch_size=c.positive_int(raw, "per_device_train_batch_size", "", 8),
        gradient_accumulation_steps=c.positive_int(raw, "gradient_accumulation_steps", "", 1),
        logging_steps=c.positive_int(raw, "logging_steps", "", 1),
        save_steps=c.positive_int(raw, "save_steps", "", 100),
    )
    batch = config.per_device_train_batch_size * config.gradient_accumulation_steps
    if not c.problems and batch % config.num_generations != 0:
        c.fail(
            "per_device_train_batch_size",
            f"per_device_train_batch_size × gradient_accumulation_steps ({batch}) must be a multiple of "
            f"num_generations ({config.num_generations}) so that every group is complete",
        )
    if not c.problems and config.epsilon_high is not None and config.epsilon_high < config.epsilon:
        c.fail("epsilon_high", f"epsilon_high ({config.epsilon_high}) must not be below epsilon ({config.epsilon})")
    if c.problems:
        raise ConfigError(f"{source}: invalid training config:\n" + "\n".join(c.problems))
    return config


def load_config(path: str | Path) -> TrainConfig:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"Cannot read config {path}: {error.strerror or error}") from None
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: not valid YAML: {error}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a YAML mapping of settings (model, scenarios, ...)")
    return parse_config(raw, str(path))
