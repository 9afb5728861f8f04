"""TRL's tool-calling rounds come from what the env server says about the tasks (their `max_turns`, the
call budget + 1), not a constant: a workflow's listing states more turns than a single-family task's,
and a `max_turns` the config gives wins."""

from __future__ import annotations

from pathlib import Path

from atlas_gym.client import EnvClient
from atlas_gym.config import load_config
from atlas_gym.train import list_tasks, tool_rounds


def _config(tmp_path: Path, extra: str = ""):
    path = tmp_path / "c.yaml"
    path.write_text(f"model: m\nscenarios: [jira-transition-v1, workflow-jira-v1]\ntrain_tasks: 3\n{extra}")
    return load_config(path)


def test_rounds_are_derived_from_the_listed_tasks(client: EnvClient, tmp_path: Path):
    config = _config(tmp_path)
    listed = list_tasks(client, config)
    single = [t["max_turns"] for t in listed["jira-transition-v1"]]
    workflow = [t["max_turns"] for t in listed["workflow-jira-v1"]]
    assert all(t["max_turns"] == t["max_tool_calls"] + 1 for tasks in listed.values() for t in tasks)
    assert all(len(t["steps"]) >= 2 for t in listed["workflow-jira-v1"])
    assert min(workflow) > max(single)
    # The whole turn limit: a call one past the budget reaches the env (penalised, as in eval).
    assert tool_rounds(config, listed) == max(workflow)


def test_a_given_max_turns_wins(client: EnvClient, tmp_path: Path):
    config = _config(tmp_path, "max_turns: 4\n")
    assert tool_rounds(config, list_tasks(client, config)) == 4
