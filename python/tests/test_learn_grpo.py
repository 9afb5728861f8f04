"""GRPO through our env and reward changes the weights when the model's own rewards vary (issue 21): a
short, seeded warm start (warm_start.warm_start, the CPU recipe's stage 1) of a random Qwen3 on the
reference traces of two level-1 jira-comment-v1 train tasks, then GRPO steps on those same two tasks
against the real env server, every completion sampled from the model being trained (nothing scripted).

The rewards must vary for GRPO to have anything to learn from, and a warm start that learns its traces by
heart may leave every sample right (in one CI run every reward of both steps was 1.0). So the warm start is given
each task twice: its reference trace, and the same trace without the last read (the verify step, worth
part of the reward). The model learns both, so at that point it samples either, on any machine: each group
of four then holds a full and a partial reward unless all four draw the same way (1 in 8 per group for a
50/50 choice). The test asserts that some group's rewards differ (it fails, never skips, when none does),
then that each such step has a non-zero gradient norm and that the weights changed. Not timed; about two
minutes on 2 CPU cores."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import torch
from transformers import TrainerCallback

from atlas_gym.config import load_config
from atlas_gym.recipe import atlas_gym_eval
from atlas_gym.train import run
from atlas_gym.testing import build_tokenizer
from atlas_gym.warm_start import build_model, chat_of, read_episodes, render, warm_start

SCENARIO = "jira-comment-v1"
CORPUS_TASKS = 32  # level-1 train tasks whose reference traces the tokenizer's merges are learned from
EPOCHS = 150  # one step each (a batch holds all four traces)
GRPO_TASKS = 2  # the first two of them: the warm start learns their traces (nearly) by heart, GRPO samples them


def without_verify(episode: dict) -> dict:
    """The episode without its last tool call and that call's result (the read that verifies the write): a
    trace the reward scores below the reference's, since it loses the verify points."""
    messages = episode["messages"]
    last = max(i for i, m in enumerate(messages) if m.get("tool_calls"))
    ids = {c["id"] for c in messages[last]["tool_calls"]}
    shorter = copy.deepcopy(episode)
    shorter["messages"] = [
        m for i, m in enumerate(messages) if i != last and not (m["role"] == "tool" and m.get("tool_call_id") in ids)
    ]
    return shorter


def test_grpo_steps_on_varying_rewards_change_the_weights(client, tmp_path):
    reference = atlas_gym_eval(
        ["--model", "policy:reference", "--scenarios", SCENARIO, "--split", "train", "--levels", "1",
         "--n", str(CORPUS_TASKS)],
        tmp_path / "reference",
    )
    assert reference["overall"]["pass_rate"] == 1
    episodes = read_episodes(tmp_path / "reference" / "episodes.jsonl")
    tools = client.tools(SCENARIO)
    plain = build_tokenizer()
    build_model(tmp_path / "random", [render(plain, chat_of(e), tools, tokenize=False) for e in episodes], "learn",
                4096, seed=0)
    model = tmp_path / "warm"
    assert [e["index"] for e in episodes[:GRPO_TASKS]] == [0, 3]  # GRPO's dataset below: levels [1], 2 tasks
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a model this small trains faster on one thread than on two
    try:
        traces = episodes[:GRPO_TASKS] + [without_verify(e) for e in episodes[:GRPO_TASKS]]
        summary = warm_start(
            traces, {SCENARIO: tools}, model, epochs=EPOCHS, learning_rate=5e-3, batch_size=4,
            seed=0, init=tmp_path / "random",
        )
    finally:
        torch.set_num_threads(threads)
    assert summary["last_loss"] < summary["first_loss"]
    settings = tmp_path / "learn.yaml"
    settings.write_text(  # JSON is YAML: validated by the TypeScript schema, as `atlas-gym train` does
        json.dumps(
            {
                "model": str(model),
                "scenarios": [SCENARIO],
                "levels": [1],
                "train_tasks": GRPO_TASKS,
                "prompt_tools": "server",
                "num_generations": 4,
                "per_device_train_batch_size": 8,
                "learning_rate": 1e-3,
                "max_turns": 4,
                "max_completion_length": 512,
                "temperature": 1.0,
                "max_steps": 2,
                "save_steps": 100,
                "output_dir": str(tmp_path / "run"),
            }
        )
    )
    config = load_config(settings)
    state: dict = {}

    def weights(m):
        return {n: p.detach().clone() for n, p in m.named_parameters()}

    class Snapshot(TrainerCallback):
        def on_train_end(self, args, train_state, control, model=None, **kwargs):
            state["after"] = weights(model)

    def prepare(trainer):
        state["before"] = weights(trainer.model)
        trainer.add_callback(Snapshot())

    result = run(config, client, prepare=prepare, save=False)
    varied = [line for line in result.log if line["zero_variance_share"] < 1]
    assert varied, f"the warm start left every GRPO group with equal rewards: {result.log}"
    assert all(line["max_reward"] > line["min_reward"] and line["grad_norm"] > 0 for line in varied)
    changed = [n for n, before in state["before"].items() if not torch.equal(before, state["after"][n])]
    assert changed, "no weight changed"
