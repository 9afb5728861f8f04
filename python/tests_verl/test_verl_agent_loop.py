"""The atlas-gym verl agent loop on CPU against the real TypeScript env server, with verl 0.9.1's own
machinery: the dataset that `atlas-gym export --format verl` writes loads through verl's RLHFDataset, the
loop is registered from the exported agent-loop config by an AgentLoopWorker, a scripted generation backend
stands in for vLLM, and GRPO advantages come from verl's compute_grpo_outcome_advantage. Rewards are the
env server's /score answers, and every session is deleted afterwards."""

from __future__ import annotations

import asyncio
import json
import subprocess
import uuid
from pathlib import Path

import numpy as np
import pytest
import torch
from conftest import ScriptedServer, direct_loop, run_directly, verl_config

from atlas_gym.client import SessionNotFoundError
from atlas_gym.server_process import REPO_ROOT
from atlas_gym.testing import transition_policy
from atlas_gym.verl_agent_loop import AGENT_NAME


def group_policy():
    """Within each GRPO group (the uid before '/' in the request id), the first trajectory to start solves
    the task and the second guesses a transition that does not exist."""
    starts: dict[str, int] = {}
    rank: dict[str, int] = {}

    def policy(text: str, request_id: str) -> str:
        group = request_id.split("/")[0]
        if request_id not in rank:
            rank[request_id] = starts.get(group, 0)
            starts[group] = rank[request_id] + 1
        return transition_policy(text, rank[request_id])

    return policy


def export(tmp_path: Path, env_url: str) -> tuple[Path, Path]:
    out = tmp_path / "data" / "train.parquet"
    subprocess.run(
        [str(REPO_ROOT / "bin" / "atlas-gym"), "export", "--format", "verl", "--split", "train", "--n", "2"]
        + ["--scenario", "jira-transition-v1", "--out", str(out), "--env-url", env_url],
        check=True,
        capture_output=True,
    )
    return out, tmp_path / "data" / "agent_loop.yaml"


def test_grpo_rollouts_through_verls_worker_are_scored_by_the_env_server(qwen3_dir, env_server, client, spy, tmp_path):
    from verl.experimental.agent_loop.agent_loop import AgentLoopWorker
    from verl.protocol import DataProto
    from verl.trainer.ppo.core_algos import compute_grpo_outcome_advantage
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

    parquet, loop_config = export(tmp_path, env_server.url)
    assert f"env_url: {env_server.url}" in loop_config.read_text()
    config = verl_config(
        qwen3_dir,
        f"actor_rollout_ref.rollout.agent.agent_loop_config_path={loop_config}",
        "actor_rollout_ref.rollout.n=2",
        "actor_rollout_ref.rollout.multi_turn.format=hermes",
    )
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(qwen3_dir)
    dataset = RLHFDataset(str(parquet), tokenizer, config.data)
    rows = [dataset[i] for i in range(len(dataset))]
    assert [r["agent_name"] for r in rows] == [AGENT_NAME, AGENT_NAME]
    assert [r["extra_info"]["task_id"] for r in rows] == ["jira-transition-v1/train/0", "jira-transition-v1/train/1"]
    batch = DataProto.from_single_dict(collate_fn(rows))
    batch.non_tensor_batch["uid"] = np.array([str(uuid.UUID(int=i)) for i in range(len(batch))], dtype=object)
    batch = batch.repeat(repeat_times=2, interleave=True)

    worker = AgentLoopWorker(config, llm_client=None)
    server = ScriptedServer(worker.tokenizer, group_policy())
    worker.llm_client = server
    output = asyncio.run(worker.generate_sequences(batch))

    # One session per trajectory, each scored once by /score, and every one deleted afterwards.
    sessions = list(output.non_tensor_batch["env_session_id"])
    assert len(set(sessions)) == 4 and sorted(sessions) == sorted(spy["opened"]) == sorted(spy["scores"])
    for session_id in sessions:
        with pytest.raises(SessionNotFoundError):
            client.trace(session_id)
    # The trainer's token-level scores are the /score rewards, on each response's last token.
    rm_scores = output.batch["rm_scores"]
    rewards = [spy["scores"][s].reward for s in sessions]
    assert rm_scores.sum(dim=1).tolist() == pytest.approx(rewards)
    assert list(output.non_tensor_batch["passed"]) == [spy["scores"][s].passed for s in sessions]
    assert set(output.non_tensor_batch["reward_mode"]) == {"paper"}
    groups = [rewards[0:2], rewards[2:4]]
    assert all(min(g) == 0.0 and max(g) >= 0.5 for g in groups), groups
    # Only the model's tokens are trained on: the masked tokens decode to exactly what it emitted.
    mask = output.batch["response_mask"]
    for row, session_id in enumerate(sessions):
        request_id = next(r for r in server.emitted if r.endswith("/" + session_id))
        emitted = tokenizer.decode(output.batch["responses"][row][mask[row].bool()].tolist())
        assert emitted == "".join(server.emitted[request_id])
        assert output.non_tensor_batch["tool_calls"][row] == len(server.emitted[request_id]) - 1
    # GRPO: one solver and one failure per group give advantages of ±1/√2 on every model token.
    advantages, _ = compute_grpo_outcome_advantage(rm_scores, mask, output.non_tensor_batch["uid"])
    for row, reward in enumerate(rewards):
        values = advantages[row][mask[row].bool()]
        expected = 0.70710 if reward == max(groups[row // 2]) else -0.70710
        assert torch.allclose(values, torch.full_like(values, expected), atol=1e-3)


def xml_call(name: str, arguments: dict) -> str:
    """A Qwen3.5 tool call: XML, non-string values JSON-encoded."""
    params = "".join(
        f"<parameter={k}>\n{v if isinstance(v, str) else json.dumps(v)}\n</parameter>\n" for k, v in arguments.items()
    )
    return f"<tool_call>\n<function={name}>\n{params}</function>\n</tool_call><|im_end|>"


def test_qwen3_5_xml_calls_with_nested_arguments_and_a_failed_call_as_data(qwen3_5_dir, env_server, client, spy):
    from transformers import AutoTokenizer

    model_dir = qwen3_5_dir
    task = client.tasks("jira-transition-v1", "train", n=1)[0]
    key = "ENG-1"
    script = [
        xml_call("jira_get_transitions", {"issueIdOrKey": key}),
        xml_call("jira_transition_issue", {"issueIdOrKey": key, "transition": {"id": "999"}}),
        "I could not find that transition.<|im_end|>",
    ]
    server = ScriptedServer(AutoTokenizer.from_pretrained(model_dir), lambda text, request_id: script.pop(0))
    output = run_directly(model_dir, server, env_server.url, "qwen3_coder", "qwen3_5", extra_info=task, uid="g0")

    (session_id,) = spy["opened"]
    assert [(name, args) for _, name, args, _ in spy["calls"]] == [
        ("jira_get_transitions", {"issueIdOrKey": key}),
        ("jira_transition_issue", {"issueIdOrKey": key, "transition": {"id": "999"}}),
    ]
    failed = spy["calls"][1][3]
    assert not failed.ok and failed.error
    (request_id,) = server.prompts
    last_prompt = server.tokenizer.decode(
        list(output.prompt_ids) + list(output.response_ids), skip_special_tokens=False
    )
    assert failed.error in last_prompt  # the model saw the error text, and went on
    assert output.reward_score == spy["scores"][session_id].reward == 0.0
    info = output.extra_fields["reward_extra_info"]
    assert info["reward_mode"] == "state" and info["passed"] is False and info["tool_errors"] == 1
    assert info["tool_calls"] == 2 and info["env_session_id"] == session_id
    # The prompt is the session's own: its messages and its scenario's tools with their nested schemas.
    assert server.prompts[request_id].count('"transition"') >= 1 and "You may make at most" in server.prompts[request_id]
    with pytest.raises(SessionNotFoundError):
        client.trace(session_id)


def test_the_session_is_deleted_when_the_rollout_fails(qwen3_dir, env_server, client, spy):
    def policy(text: str, request_id: str) -> str:
        if len(server.emitted[request_id]) == 1:  # the second turn, after one tool call
            raise RuntimeError("the inference server went away")
        return '<tool_call>\n{"name": "jira_get_transitions", "arguments": {"issueIdOrKey": "ENG-1"}}\n</tool_call><|im_end|>'

    from transformers import AutoTokenizer

    server = ScriptedServer(AutoTokenizer.from_pretrained(qwen3_dir), policy)
    task = client.tasks("jira-transition-v1", "train", n=1)[0]
    with pytest.raises(RuntimeError, match="went away"):
        run_directly(qwen3_dir, server, env_server.url, "hermes", "qwen3", extra_info=task, uid="g0")
    (session_id,) = spy["opened"]
    assert len(spy["calls"]) == 1 and not spy["scores"]
    with pytest.raises(SessionNotFoundError):
        client.trace(session_id)


def test_rows_without_a_task_are_refused_before_any_session_opens(qwen3_dir, env_server, spy):
    from transformers import AutoTokenizer

    server = ScriptedServer(AutoTokenizer.from_pretrained(qwen3_dir), lambda text, request_id: "")
    with pytest.raises(ValueError, match="atlas-gym export --format verl"):
        run_directly(qwen3_dir, server, env_server.url, "hermes", "qwen3", extra_info={"index": 3})
    assert spy["opened"] == []


def test_several_env_servers_are_taken_in_turn(qwen3_dir):
    from transformers import AutoTokenizer

    server = ScriptedServer(AutoTokenizer.from_pretrained(qwen3_dir), lambda text, request_id: "")
    urls = ["http://10.0.0.5:4010", "http://10.0.0.6:4010"]

    async def build():
        return [direct_loop(qwen3_dir, server, ",".join(urls), "hermes", "qwen3").client.base_url for _ in range(4)]

    chosen = asyncio.run(build())
    assert sorted(chosen) == sorted(urls * 2) and chosen[0] != chosen[1]
