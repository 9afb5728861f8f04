"""The verl recipes in configs/verl compose with verl 0.9.1's own ppo_trainer config (Hydra rejects a key
that config does not have), and they set what a GRPO run on atlas-gym needs."""

from __future__ import annotations

from pathlib import Path

import pytest

from atlas_gym.server_process import REPO_ROOT

RECIPES = sorted((REPO_ROOT / "configs" / "verl").glob("*.yaml"))


def compose_recipe(path: Path, *overrides: str):
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(path.parent), version_base=None):
        return compose(config_name=path.stem, overrides=list(overrides))


def test_both_recipes_are_shipped():
    assert [p.name for p in RECIPES] == ["qwen3-1.7b.yaml", "qwen3.5-4b.yaml"]


@pytest.mark.parametrize("path", RECIPES, ids=lambda p: p.stem)
def test_the_recipe_composes_with_verls_config(path: Path):
    config = compose_recipe(path, "trainer.nnodes=2")  # the multi-node command line's override
    rollout = config.actor_rollout_ref.rollout
    assert config.algorithm.adv_estimator == "grpo" and rollout.n == 8
    assert config.data.train_batch_size * rollout.n == 64
    assert rollout.multi_turn.enable and rollout.multi_turn.max_tool_response_length >= 32768
    assert rollout.multi_turn.format == ("qwen3_coder" if "3.5" in path.stem else "hermes")
    assert rollout.agent.default_agent_loop == "atlas_env"
    assert rollout.agent.agent_loop_config_path == "data/verl/agent_loop.yaml"
    assert config.reward.custom_reward_function.path is None  # the loop sets reward_score itself
    assert config.actor_rollout_ref.model.lora_rank == 32 and config.actor_rollout_ref.actor.clip_ratio_high == 0.28
    assert config.data.apply_chat_template_kwargs.enable_thinking is False
    assert config.trainer.nnodes == 2 and config.trainer.n_gpus_per_node == 8


def test_a_misspelt_key_is_refused():
    from hydra.errors import ConfigCompositionException

    with pytest.raises(ConfigCompositionException):
        compose_recipe(RECIPES[0], "actor_rollout_ref.rollout.multi_turn.max_tool_respone_length=1")
