"""The YAML training config: the shipped recipes load, every problem is reported by path, and the field
names stay the ones src/train/config.ts (the zod schema `atlas-gym train` validates with) declares."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from atlas_gym.config import ConfigError, EarlyStoppingSettings, LoraSettings, TrainConfig, load_config, parse_config
from atlas_gym.server_process import REPO_ROOT

CONFIGS = sorted((REPO_ROOT / "configs").glob("*.yaml"))


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_the_shipped_recipes_load(path: Path, client):
    config = load_config(path)
    assert config.lora is not None and config.vllm.enabled and config.vllm.mode == "colocate"
    assert config.early_stopping == EarlyStoppingSettings(window=10, threshold=0.95)
    assert config.learning_rate == 1e-5 and config.model.startswith("Qwen/")
    known = {s["id"] for s in client.scenarios()}
    assert set(config.scenarios) <= known and len(config.scenarios) == 5


def test_both_recipes_are_shipped():
    assert {"qwen3-1.7b.yaml", "qwen3.5-4b.yaml"} <= {p.name for p in CONFIGS}


def test_defaults_follow_the_typescript_schema():
    config = parse_config({"model": "m", "scenarios": ["jira-transition-v1"]})
    assert (config.num_generations, config.loss_type, config.beta, config.epsilon) == (8, "dapo", 0.0, 0.2)
    assert config.epsilon_high is None and config.lora is None and config.early_stopping is None
    assert (config.max_turns, config.max_completion_length, config.train_tasks) == (12, 4096, 512)
    assert parse_config({"model": "m", "scenarios": ["s"], "lora": {}}).lora == LoraSettings()


def test_every_problem_is_reported_by_path_at_once():
    raw = {
        "model": "",
        "scenarios": [],
        "lern_rate": 1,
        "loss_type": "ppo",
        "lora": {"r": 0, "dropout": 1.5},
        "early_stopping": {"threshold": 2},
        "vllm": {"enabled": "yes"},
    }
    with pytest.raises(ConfigError) as caught:
        parse_config(raw, "bad.yaml")
    message = str(caught.value)
    for expected in [
        "bad.yaml: invalid training config",
        "model: expected a non-empty string",
        "scenarios: required",
        "lern_rate: unknown key",
        "loss_type: expected one of dapo",
        "lora.r: must be >= 1",
        "lora.dropout: must be < 1",
        "early_stopping.threshold: must be <= 1",
        "vllm.enabled: expected true or false",
    ]:
        assert expected in message


def test_batch_must_hold_whole_groups_and_epsilon_high_not_below_epsilon():
    with pytest.raises(ConfigError, match=r"\(12\) must be a multiple of num_generations \(8\)"):
        parse_config({"model": "m", "scenarios": ["s"], "per_device_train_batch_size": 12})
    with pytest.raises(ConfigError, match="epsilon_high"):
        parse_config({"model": "m", "scenarios": ["s"], "epsilon": 0.2, "epsilon_high": 0.1})


def test_yaml_1_1_exponents_read_as_numbers(tmp_path: Path):
    path = tmp_path / "c.yaml"
    path.write_text("model: m\nscenarios: [s]\nlearning_rate: 1e-5\n")
    assert load_config(path).learning_rate == 1e-5
    path.write_text("- not a mapping\n")
    with pytest.raises(ConfigError, match="expected a YAML mapping"):
        load_config(path)
    with pytest.raises(ConfigError, match="Cannot read config"):
        load_config(tmp_path / "missing.yaml")


def _closing_brace(text: str) -> int:
    depth = 1
    for i, char in enumerate(text):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return i
    raise ValueError("unbalanced braces")


def _zod_keys(source: str, schema: str) -> set[str]:
    body = source.split(f"{schema} =", 1)[1].split("strictObject({", 1)[1]
    body = body[: _closing_brace(body)]
    top_level = re.sub(r"\{[^{}]*\}", "", re.sub(r"\{[^{}]*\}", "", body))  # drop nested objects
    return set(re.findall(r"^\s*(\w+):", top_level, flags=re.M))


def test_field_names_mirror_src_train_config_ts():
    source = (REPO_ROOT / "src" / "train" / "config.ts").read_text()
    assert _zod_keys(source, "trainConfigSchema") == {f.name for f in fields(TrainConfig)}
    assert _zod_keys(source, "loraSchema") == {f.name for f in fields(LoraSettings)}
