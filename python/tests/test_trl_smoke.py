"""CPU smoke test: two GRPO steps through TRL's GRPOTrainer against the real TypeScript env server on
jira-transition-v1, with a tiny random Qwen3 (built offline) whose `generate` is scripted to make real
tool calls. Half of each group solves the task, half makes a wrong transition, so every group has
reward variance and the update is not zero. scripts/gpu-check.sh runs it on CUDA with a larger model
(ATLAS_GYM_SMOKE_MODEL=small, ATLAS_GYM_SMOKE_DEVICE=cuda)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import torch
from transformers import TrainerCallback

from atlas_gym.client import EnvClient, SessionNotFoundError
from atlas_gym.config import load_config
from atlas_gym.testing import build_random_qwen3, script_generation, transition_policy
from atlas_gym.train import run, save_interrupted

@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory, env_server) -> Path:
    """A tiny random Qwen3 whose byte-level BPE learned its merges (offline) from the scenario's own
    prompt, tool schemas and a tool answer, so a rollout takes hundreds of tokens rather than thousands."""
    client = EnvClient(env_server.url)
    session = client.create_session(scenario="jira-transition-v1", split="train", index=0)
    answer = client.call_tool(session.session_id, "jira_get_transitions", {"issueIdOrKey": "ENG-1"})
    client.close_session(session.session_id)
    corpus = [m["content"] for m in session.messages] + [json.dumps(t) for t in session.tools] + [answer.text]
    size = os.environ.get("ATLAS_GYM_SMOKE_MODEL", "tiny")
    return build_random_qwen3(tmp_path_factory.mktemp(f"{size}-qwen3"), size=size, corpus=corpus)


def test_two_grpo_steps_against_the_env_server(tiny_model, client, tmp_path):
    settings = tmp_path / "smoke.yaml"
    settings.write_text(  # JSON is YAML: validated by the TypeScript schema, as `atlas-gym train` does
        json.dumps(
            {
                "model": str(tiny_model),
                "scenarios": ["jira-transition-v1"],
                "train_tasks": 2,
                "lora": {"r": 4, "alpha": 8, "dropout": 0.0, "target_modules": ["q_proj", "v_proj"]},
                "num_generations": 2,
                "per_device_train_batch_size": 4,
                "learning_rate": 0.05,
                "beta": 0.04,
                "epsilon_high": 0.28,
                "max_turns": 4,
                "max_completion_length": 4096,
                "max_steps": 2,
                "save_steps": 100,
                "output_dir": str(tmp_path / "run"),
            }
        )
    )
    config = load_config(settings)
    state: dict = {}
    scored: list[tuple[str, float]] = []
    score = client.score

    def spy(session_id, **kwargs):  # every /score answer the trainer received
        answer = score(session_id, **kwargs)
        scored.append((session_id, answer.reward))
        return answer

    client.score = spy

    def trainable(model):
        return {n: p.detach().clone() for n, p in model.named_parameters() if p.requires_grad}

    class Snapshot(TrainerCallback):  # the weights after the last step, before saving merges the adapters
        def on_train_end(self, args, train_state, control, model=None, **kwargs):
            state["after"] = trainable(model)

    def prepare(trainer):
        state["trainer"] = trainer
        state["before"] = trainable(trainer.model)
        state["device"] = next(trainer.model.parameters()).device.type
        state["seen"] = script_generation(trainer.model, trainer.processing_class, transition_policy)
        trainer.add_callback(Snapshot())

    result = run(config, client, prepare=prepare)

    assert result.steps == 2 and len(result.log) == 2
    expected_device = os.environ.get("ATLAS_GYM_SMOKE_DEVICE") or ("cuda" if torch.cuda.is_available() else "cpu")
    assert state["device"] == expected_device
    # Parameters moved: every trainable (LoRA) tensor changed.
    changed = [n for n, before in state["before"].items() if not torch.equal(before, state["after"][n])]
    assert state["before"] and sorted(changed) == sorted(state["before"])
    # The prompt the model saw is the server's, with the scenario's tools rendered by TRL's Qwen3 template.
    assert "jira_transition_issue" in state["seen"][0] and "You may make at most" in state["seen"][0]
    # Rewards came from the server's /score: one answer per rollout, and TRL trained on exactly those values.
    assert len(scored) == 8 and {sid for sid, _ in scored} == set(result.sessions_opened)
    for step, line in enumerate(result.log):
        from_server = [reward for _, reward in scored[4 * step : 4 * step + 4]]
        assert line["trl_reward"] == pytest.approx(sum(from_server) / 4) == line["mean_reward"]
        assert min(from_server) == 0.0 and max(from_server) >= 0.5  # a wrong guess vs. a real transition
    assert all(line["zero_variance_share"] == 0.0 and line["max_reward"] > line["min_reward"] for line in result.log)
    assert all(1 < line["mean_tool_calls"] < 3 and line["kl"] is not None for line in result.log)
    # Every session opened by the rollouts is closed (8 rollouts; the dataset build's 2 were closed too).
    assert len(result.sessions_opened) == 8 and result.sessions_left_open > 0
    for session_id in result.sessions_opened:
        with pytest.raises(SessionNotFoundError):
            client.trace(session_id)
    log_lines = (tmp_path / "run" / "training_log.jsonl").read_text().splitlines()
    assert [json.loads(line)["step"] for line in log_lines] == [1, 2]
    assert (tmp_path / "run" / "final" / "adapter_config.json").exists()
    assert (tmp_path / "run" / "merged" / "config.json").exists()
    # What Ctrl-C leaves: a full checkpoint that --resume accepts (model, optimizer and trainer state).
    save_interrupted(state["trainer"], config)
    interrupted = tmp_path / "run" / "interrupted"
    assert json.loads((interrupted / "trainer_state.json").read_text())["global_step"] == 2
    assert (interrupted / "optimizer.pt").exists() and (interrupted / "adapter_model.safetensors").exists()
    assert not (tmp_path / "run" / "checkpoint-2").exists()
