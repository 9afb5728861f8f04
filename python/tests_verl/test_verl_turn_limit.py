"""The verl agent loop's turn limit scales with the task's horizon (the session's `limits.max_turns`, its
call budget + 1, as src/agent/turn-limit.ts derives it), a user-set `multi_turn.max_assistant_turns` wins,
and a truncation is its own recorded end: the session is still scored, and nothing is counted as an error."""

from __future__ import annotations

import pytest
from conftest import ScriptedServer, run_directly
from transformers import AutoTokenizer

from atlas_gym.client import Session
from atlas_gym.verl_agent_loop import episode_turn_limit, user_turn_limit

CALL = '<tool_call>\n{"name": "jira_get_transitions", "arguments": {"issueIdOrKey": "ENG-1"}}\n</tool_call><|im_end|>'


def always_calling(qwen3_dir) -> ScriptedServer:
    """A policy that never gives a final answer: one read call every turn."""
    return ScriptedServer(AutoTokenizer.from_pretrained(qwen3_dir), lambda text, request_id: CALL)


def run_task(qwen3_dir, env_url: str, task: dict, *overrides: str):
    server = always_calling(qwen3_dir)
    output = run_directly(qwen3_dir, server, env_url, "hermes", "qwen3", *overrides, extra_info=task, uid="g0")
    (turns,) = server.emitted.values()
    return output, len(turns)


def test_a_workflow_task_gets_more_turns_than_a_single_family_one(qwen3_dir, env_server, client, spy):
    single = client.tasks("jira-transition-v1", "train", n=1)[0]
    workflow = client.tasks("workflow-jira-v1", "train", n=1)[0]
    assert workflow["max_turns"] > single["max_turns"] > 1
    ran = {}
    for task in (single, workflow):
        output, turns = run_task(qwen3_dir, env_server.url, task)
        info = output.extra_fields["reward_extra_info"]
        # Each episode ran under its own task's limit: one call a turn spends the whole call budget, and
        # the call past it (in turn budget + 1 = max_turns) ends the episode as a budget truncation.
        assert info["max_turns"] == task["max_turns"] == task["max_tool_calls"] + 1
        assert turns == task["max_turns"] and info["tool_calls"] == task["max_tool_calls"] + 1
        assert (info["ended"], info["truncation"]) == ("truncated", "budget")
        assert output.reward_score == spy["scores"][info["env_session_id"]].reward  # scored, not an error
        ran[task["task_id"]] = turns
    assert ran[workflow["task_id"]] > ran[single["task_id"]]
    assert ran[workflow["task_id"]] > 13  # the constant the verl configs used to set would have cut it


def test_a_user_set_max_assistant_turns_wins(qwen3_dir, env_server, client, spy):
    workflow = client.tasks("workflow-jira-v1", "train", n=1)[0]
    user_limit = "actor_rollout_ref.rollout.multi_turn.max_assistant_turns=3"
    output, turns = run_task(qwen3_dir, env_server.url, workflow, user_limit)
    info = output.extra_fields["reward_extra_info"]
    assert turns == 3 and info["max_turns"] == 3
    # As in evaluation: the last turn's call ran, then the episode was cut by the turn limit and scored.
    assert info["tool_calls"] == 3 and info["tool_errors"] == 0
    assert (info["ended"], info["truncation"]) == ("truncated", "max_turns")
    assert output.reward_score == spy["scores"][info["env_session_id"]].reward


def test_the_rule_without_a_stated_limit_and_for_bad_user_limits():
    session = Session("s", [], [], 7)
    assert episode_turn_limit(session, None) == 8  # an older server: the call budget + 1
    assert episode_turn_limit(Session("s", [], [], None), None) is None
    assert episode_turn_limit(Session("s", [], [], 7, max_turns=30), 5) == 5
    assert user_turn_limit(None) is None and user_turn_limit(4) == 4
    for bad in (0, -1, 2.5, True, "13"):
        with pytest.raises(ValueError, match="max_assistant_turns must be a positive integer or null"):
            user_turn_limit(bad)
