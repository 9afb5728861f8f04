"""The training config reaches Python as the JSON the TypeScript schema (src/train/config.ts) validated and
filled in: the shipped recipes load through it, a bad file is reported by path by that one validator, and
any key the two sides do not share is refused (a drift between them, caught at once)."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from atlas_gym.config import ConfigError, EarlyStoppingSettings, LoraSettings, config_from_json, load_config
from atlas_gym.recipe import check_disjoint
from atlas_gym.server_process import REPO_ROOT

CONFIGS = sorted((REPO_ROOT / "configs").glob("*.yaml"))


CPU_RECIPES = ("tiny-cpu.yaml", "learn-cpu.yaml")


@pytest.mark.parametrize("path", [p for p in CONFIGS if p.name not in CPU_RECIPES], ids=lambda p: p.name)
def test_the_shipped_gpu_recipes_load(path: Path, client):
    config = load_config(path)
    assert config.lora == LoraSettings(r=32, alpha=64, dropout=0.05, target_modules="all-linear")
    assert config.vllm.enabled and config.vllm.mode == "colocate"
    assert config.early_stopping == EarlyStoppingSettings(window=10, threshold=0.95)
    assert config.learning_rate == 1e-5 and config.model.startswith("Qwen/")
    # The recipes train on exactly the in-family set: every family the server does not hold out.
    in_family = {s["id"] for s in client.scenarios() if not s["held_out"]}
    assert set(config.scenarios) == in_family


def test_the_recipes_are_shipped():
    assert {"qwen3-1.7b.yaml", "qwen3.5-4b.yaml", *CPU_RECIPES} <= {p.name for p in CONFIGS}


def test_the_learning_recipe_loads_with_its_stages(client):
    config = load_config(REPO_ROOT / "configs" / "learn-cpu.yaml")
    assert config.warm_start is not None and config.evaluate is not None and config.prompt_tools == "server"
    assert config.lora is None  # full fine-tuning of the small warm-started model
    assert config.levels == [1] and config.train_tasks == config.evaluate.tasks == 16
    # GRPO and the before/after evaluation use train tasks the warm start leaves out (indices 0-45 at level 1).
    check_disjoint(config, client)
    with pytest.raises(ConfigError, match=r"skip_index_below \(45\) must be above 45"):
        check_disjoint(replace(config, warm_start=replace(config.warm_start, skip_index_below=45)), client)


def test_defaults_come_from_the_typescript_schema(tmp_path: Path):
    path = tmp_path / "c.yaml"
    path.write_text("model: m\nscenarios: [jira-transition-v1]\nlearning_rate: 1e-5\n")
    config = load_config(path)
    assert (config.num_generations, config.loss_type, config.beta, config.epsilon) == (8, "dapo", 0.0, 0.2)
    assert config.epsilon_high is None and config.lora is None and config.early_stopping is None
    assert (config.max_turns, config.max_completion_length, config.train_tasks) == (None, 4096, 512)
    assert config.learning_rate == 1e-5 and config.report_to == [] and config.build_model_if_missing is None


def test_every_problem_is_reported_by_path_by_the_one_validator(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text("model: ''\nscenarios: [nope-v1]\nlern_rate: 1\nloss_type: ppo\nlora: {r: 0}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: invalid training config:")
    for expected in ["model:", 'Unrecognized key: "lern_rate"', "loss_type:", "lora.r:", 'unknown scenario "nope-v1"']:
        assert expected in message
    with pytest.raises(ConfigError, match="Cannot read config"):
        load_config(tmp_path / "missing.yaml")


def test_keys_the_two_sides_do_not_share_are_refused(tmp_path: Path):
    path = tmp_path / "c.yaml"
    path.write_text("model: m\nscenarios: [jira-transition-v1]\nlora: {}\n")
    data = json.loads(json.dumps(asdict(load_config(path))))
    assert config_from_json(data).lora == LoraSettings(r=32, alpha=64, dropout=0.05, target_modules="all-linear")
    with pytest.raises(ConfigError, match="new_key are not known to python/atlas_gym/config.py"):
        config_from_json({**data, "new_key": 1})
    with pytest.raises(ConfigError, match=r"lora\.: keys rank"):
        config_from_json({**data, "lora": {**data["lora"], "rank": 4}})
    del data["max_steps"]
    with pytest.raises(ConfigError, match="not a validated training config"):
        config_from_json(data)
