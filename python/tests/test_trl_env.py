"""The TRL environment class against the real env server: what TRL sees (tools as methods, reset, the
reward from /score) and the session bookkeeping TRL leaves to us (it never says goodbye)."""

from __future__ import annotations

import inspect

import pytest

from atlas_gym.client import SessionNotFoundError
from atlas_gym.trl import Ledger, close_all, make_env_class

SCENARIO = "jira-transition-v1"


def test_the_class_offers_exactly_the_scenarios_tools_as_public_methods(client):
    env_class = make_env_class(client, SCENARIO)
    public = {
        name
        for name, _ in inspect.getmembers(env_class(), inspect.ismethod)
        if not name.startswith("_") and name not in ("reset", "get_reward")
    }
    assert public == {t["function"]["name"] for t in client.tools(SCENARIO)}
    assert env_class.__name__ == "AtlasGym_jira_transition_v1"


def test_a_rollout_runs_on_its_own_session_and_is_scored_by_the_server(client):
    ledger = Ledger()
    env = make_env_class(client, SCENARIO, reward_mode="state", ledger=ledger)()
    assert env.reset(prompt=[{"role": "user", "content": "ignored"}], split="train", index=1) is None
    session_id = ledger.sessions_opened[-1]
    missing = env.jira_get_issue(issueIdOrKey="NOPE-404")
    assert missing.startswith("Error 404")  # what the agent sees in evaluation, not an exception
    trace = client.trace(session_id)
    assert [c["arguments"] for c in trace["calls"]] == [{"issueIdOrKey": "NOPE-404"}]
    reward = env.get_reward()
    assert reward == client.score(session_id, mode="state").reward == 0.0
    [episode] = ledger.drain()
    assert (episode.session_id, episode.index, episode.tool_calls, episode.tool_errors) == (session_id, 1, 1, 1)
    assert ledger.drain() == []


def test_calls_after_the_budget_is_spent_end_there_as_in_eval(client):
    env = make_env_class(client, SCENARIO)()
    env.reset(split="train", index=0)
    session_id = env._session_id
    budget = client.trace(session_id)["budget"]
    for _ in range(budget):
        assert env.jira_get_issue(issueIdOrKey="ENG-1").startswith("{")
    past = env.jira_get_issue(issueIdOrKey="ENG-1")
    assert "budget" in past
    # Eval ends the episode at the call past the budget: a later one is answered the same, never sent.
    assert env.jira_get_issue(issueIdOrKey="ENG-2") == past
    calls = client.trace(session_id)["calls"]
    assert len(calls) == budget + 1 and calls[-1]["error_type"] == "budget"
    env.reset(split="train", index=1)  # a new rollout calls the env again
    assert env.jira_get_issue(issueIdOrKey="ENG-1").startswith("{")


def test_reset_closes_the_previous_session_and_close_all_the_rest(client):
    ledger = Ledger()
    env_class = make_env_class(client, SCENARIO, ledger=ledger)
    first, second = env_class(), env_class()
    first.reset(split="train", index=0)
    second.reset(split="train", index=1)
    first.reset(split="train", index=2)
    opened = ledger.sessions_opened
    with pytest.raises(SessionNotFoundError):
        client.trace(opened[0])
    assert client.trace(opened[1])["task_id"] == f"{SCENARIO}/train/1"
    assert close_all(env_class) == 2 and close_all(env_class) == 0
    for session_id in opened:
        with pytest.raises(SessionNotFoundError):
            client.trace(session_id)


def test_a_reaped_session_gives_no_reward_instead_of_stopping_the_run(client):
    ledger = Ledger()
    env = make_env_class(client, SCENARIO, ledger=ledger)()
    env.reset(split="train", index=0)
    client.close_session(ledger.sessions_opened[-1])  # as the TTL reaper would
    with pytest.warns(UserWarning, match="may have been reaped"):
        assert env.get_reward() is None
    assert ledger.drain()[0].reward is None
    with pytest.raises(SessionNotFoundError):
        env.jira_get_issue(issueIdOrKey="ENG-1")


def test_reset_takes_exported_rows_and_refuses_another_scenarios_row(client):
    ledger = Ledger()
    env = make_env_class(client, SCENARIO, ledger=ledger)()
    row = {
        "prompt": [],
        "scenario": SCENARIO,
        "split": "train",
        "index": 4,
        "task_id": f"{SCENARIO}/train/4",
        "seed": 1000004,
    }
    env.reset(**row)
    assert client.trace(ledger.sessions_opened[-1])["task_id"] == f"{SCENARIO}/train/4"
    with pytest.raises(ValueError, match="serves jira-transition-v1, but the row is a confluence-page-create-v1 task"):
        env.reset(**{**row, "scenario": "confluence-page-create-v1"})
    close_all(type(env))


def test_tools_before_reset_and_reset_without_a_task_are_bugs(client):
    env = make_env_class(client, SCENARIO)()
    with pytest.raises(RuntimeError, match="reset\\(\\) must open a session"):
        env.jira_get_issue(issueIdOrKey="ENG-1")
    with pytest.raises(ValueError, match="needs the row's `index`"):
        env.reset(prompt=[])
