"""Fixtures for the verl tests (run in python/.venv-verl by scripts/python-tests.sh): the real TypeScript env
server, a tiny Qwen3-family model directory built offline (a byte-level tokenizer whose merges are learned
from the scenario's own text, the official Qwen3 or Qwen3.5 chat template from templates/ (Apache-2.0, as
TRL vendors them), and a config.json: no weights are needed, generation is scripted), verl's trainer
config composed with Hydra, and a scripted generation backend standing in for vLLM/SGLang."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from atlas_gym.client import EnvClient
from atlas_gym.server_process import EnvServerProcess
from atlas_gym.testing import build_tokenizer

os.environ.setdefault("RAY_DEDUP_LOGS", "0")
TEMPLATES = Path(__file__).parent / "templates"
MODEL_TYPES = {"qwen3": ("qwen3.jinja", "Qwen3ForCausalLM"), "qwen3_5": ("qwen3_5_nothink.jinja", "Qwen3ForCausalLM")}


@pytest.fixture(scope="session")
def env_server() -> Iterator[EnvServerProcess]:
    with EnvServerProcess() as server:
        yield server


@pytest.fixture()
def client(env_server: EnvServerProcess) -> EnvClient:
    return EnvClient(env_server.url)


@pytest.fixture(scope="session")
def qwen3_dir(tmp_path_factory, env_server) -> Path:
    return build_model_dir(tmp_path_factory.mktemp("qwen3"), EnvClient(env_server.url), "qwen3")


@pytest.fixture(scope="session")
def qwen3_5_dir(tmp_path_factory, env_server) -> Path:
    return build_model_dir(tmp_path_factory.mktemp("qwen3_5"), EnvClient(env_server.url), "qwen3_5")


@pytest.fixture()
def spy(monkeypatch):
    """Records every session the loop opens and every /score answer it gets (in this process)."""
    seen: dict = {"opened": [], "scores": {}, "calls": []}
    create, score, call = EnvClient.create_session, EnvClient.score, EnvClient.call_tool

    def create_session(self, *args, **kwargs):
        session = create(self, *args, **kwargs)
        seen["opened"].append(session.session_id)
        return session

    def score_spy(self, session_id, *args, **kwargs):
        answer = score(self, session_id, *args, **kwargs)
        seen["scores"][session_id] = answer
        return answer

    def call_spy(self, session_id, name, arguments):
        result = call(self, session_id, name, arguments)
        seen["calls"].append((session_id, name, arguments, result))
        return result

    monkeypatch.setattr(EnvClient, "create_session", create_session)
    monkeypatch.setattr(EnvClient, "score", score_spy)
    monkeypatch.setattr(EnvClient, "call_tool", call_spy)
    return seen


def build_model_dir(directory: Path, client: EnvClient, model_type: str = "qwen3") -> Path:
    """A tokenizer (merges learned offline from the scenario's prompt, tools and a tool answer) and a
    config.json whose model_type picks verl's Continuous Token builder."""
    from transformers import Qwen3Config

    template, architecture = MODEL_TYPES[model_type]
    session = client.create_session(scenario="jira-transition-v1", split="train", index=0)
    answer = client.call_tool(session.session_id, "jira_get_transitions", {"issueIdOrKey": "ENG-1"})
    client.close_session(session.session_id)
    corpus = [m["content"] for m in session.messages] + [json.dumps(t) for t in session.tools] + [answer.text]
    tokenizer = build_tokenizer(corpus, chat_template=(TEMPLATES / template).read_text())
    tokenizer.save_pretrained(directory)
    config = Qwen3Config(
        vocab_size=len(tokenizer),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=8,
        architectures=[architecture],
    )
    config.model_type = model_type  # what verl reads to choose the Continuous Token builder
    config.save_pretrained(directory)
    return directory


def verl_config(model_dir: Path, *overrides: str):
    """verl's own ppo_trainer config (Hydra), for CPU and our agent loop."""
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    import verl

    config_dir = str(Path(verl.__file__).parent / "trainer" / "config")
    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=config_dir, version_base=None):
        return compose(
            config_name="ppo_trainer",
            overrides=[
                f"actor_rollout_ref.model.path={model_dir}",
                "actor_rollout_ref.rollout.name=vllm",
                "trainer.device=cpu",
                "data.max_prompt_length=4096",
                "data.max_response_length=2048",
                "actor_rollout_ref.rollout.prompt_length=4096",
                "actor_rollout_ref.rollout.response_length=2048",
                "actor_rollout_ref.rollout.multi_turn.enable=True",
                "actor_rollout_ref.rollout.multi_turn.max_tool_response_length=65536",
                *overrides,
            ],
        )


class ScriptedServer:
    """Stands in for verl's LLM server client: `policy(conversation_text, request_id)` returns the
    assistant text; its token ids come back with zero log-probs. `prompts` keeps each trajectory's first
    prompt and `emitted` every answer, by request id (one per trajectory)."""

    def __init__(self, tokenizer, policy: Callable[[str, str], str]):
        self.tokenizer = tokenizer
        self.policy = policy
        self.emitted: dict[str, list[str]] = {}
        self.prompts: dict[str, str] = {}

    async def generate(self, request_id: str, *, prompt_ids: list[int], sampling_params: dict[str, Any], **_: Any):
        from verl.workers.rollout.replica import TokenOutput

        text = self.tokenizer.decode(prompt_ids, skip_special_tokens=False)
        self.prompts.setdefault(request_id, text)
        self.emitted.setdefault(request_id, [])
        answer = self.policy(text, request_id)
        self.emitted[request_id].append(answer)
        ids = self.tokenizer.encode(answer, add_special_tokens=False)
        return TokenOutput(token_ids=ids, log_probs=[0.0] * len(ids), stop_reason="stop")


def run_directly(model_dir: Path, server: ScriptedServer, env_url: str, fmt: str, model_type: str, *overrides, **row):
    """Builds the loop inside the running event loop (verl's base class binds to it) and runs one row;
    `overrides` are Hydra overrides of verl's config."""

    async def go():
        loop = direct_loop(model_dir, server, env_url, fmt, model_type, *overrides)
        return await loop.run({"temperature": 1.0}, **row)

    return asyncio.run(go())


def direct_loop(model_dir: Path, server: ScriptedServer, env_url: str, fmt: str, model_type: str, *overrides: str):
    from transformers import AutoTokenizer
    from verl.experimental.agent_loop.agent_loop import DictConfigWrap
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from atlas_gym.verl_agent_loop import AtlasEnvAgentLoop

    config = verl_config(model_dir, f"actor_rollout_ref.rollout.multi_turn.format={fmt}", *overrides)
    return AtlasEnvAgentLoop(
        trainer_config=DictConfigWrap(config),
        server_manager=server,
        tokenizer=AutoTokenizer.from_pretrained(model_dir),
        processor=None,
        dataset_cls=RLHFDataset,
        data_config=DictConfigWrap(config.data),
        hf_model_type=model_type,
        env_url=env_url,
        reward_mode="state",
    )
