"""TRL integration: an `environment_factory` class for `GRPOTrainer` backed by the atlas-gym env server.

`make_env_class(client, scenario)` reads the scenario's tools once and returns a class whose public
methods are those tools (typed, see tool_methods.py). TRL creates a pool of instances and, per rollout,
calls `reset(**row)` (opens a server session for the row's task), the tool methods (forwarded over
HTTP; a tool-level failure is returned as the same text the agent sees in evaluation), and
`get_reward()` (the session's `/score`). TRL has no teardown hook, so `reset` closes the previous
session and `close_all(cls)` closes whatever is left; the server's TTL reaper is the last resort.
Standard library only: TRL is not imported here.
"""

from __future__ import annotations

import re
import threading
import warnings
from dataclasses import dataclass
from typing import Any

from .client import EnvClient, SessionNotFoundError
from .tool_methods import make_tool_method


@dataclass
class Episode:
    """What one finished rollout left in the ledger: read by the training log and the tests."""

    scenario: str
    split: str
    index: int
    session_id: str
    reward: float | None
    passed: bool | None
    tool_calls: int
    tool_errors: int


class Ledger:
    """Thread-safe record of scored episodes, in the order TRL asked for their rewards."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: list[Episode] = []
        self.sessions_opened: list[str] = []

    def add(self, episode: Episode) -> None:
        with self._lock:
            self._pending.append(episode)

    def opened(self, session_id: str) -> None:
        with self._lock:
            self.sessions_opened.append(session_id)

    def drain(self) -> list[Episode]:
        """Returns the episodes scored since the last drain and forgets them."""
        with self._lock:
            episodes, self._pending = self._pending, []
            return episodes


def class_name_for(scenario: str) -> str:
    """`jira-transition-v1` → `AtlasGym_jira_transition_v1` (TRL names the reward column after it)."""
    return "AtlasGym_" + re.sub(r"\W", "_", scenario)


def make_env_class(
    client: EnvClient,
    scenario: str,
    reward_mode: str | None = None,
    ledger: Ledger | None = None,
    split: str = "train",
) -> type:
    """An environment class for one scenario, with one typed method per tool the scenario offers."""
    tools = client.tools(scenario)
    record = ledger or Ledger()

    class AtlasGymEnv:
        """One rollout's episode on the env server (instances are pooled and reused by TRL)."""

        _client = client
        _scenario = scenario
        _reward_mode = reward_mode
        _ledger = record
        _instances: list[AtlasGymEnv] = []
        _instances_lock = threading.Lock()

        def __init__(self) -> None:
            self._session_id: str | None = None
            self._task: tuple[str, int] = (split, -1)
            self._calls = 0
            self._errors = 0
            # The env's answer to the call past the budget: eval ends the episode there, so later calls of
            # this rollout (TRL's tool rounds are one number for the run, the largest task's turn limit) are
            # answered with it and never reach the env.
            self._spent: str | None = None
            with type(self)._instances_lock:
                type(self)._instances.append(self)

        def reset(
            self,
            split: str = split,
            index: int | None = None,
            task_id: str | None = None,
            seed: int | None = None,
            scenario: str | None = None,
            **_: Any,
        ):
            """Opens a session for the row's task (the row already carries the prompt, so nothing is
            appended to it). Rows are those `python -m atlas_gym.train` builds or `atlas-gym export
            --format trl` writes: prompt, scenario, split, index, task_id, seed."""
            self._close()
            if scenario is not None and scenario != self._scenario:
                raise ValueError(f"{type(self).__name__} serves {self._scenario}, but the row is a {scenario} task")
            seed = None if seed is None else int(seed)
            if task_id is not None:
                session = self._client.create_session(task_id=task_id, seed=seed)
            elif index is not None:
                session = self._client.create_session(self._scenario, split, int(index), seed)
            else:
                raise ValueError(f"{type(self).__name__}.reset needs the row's `index` (or `task_id`)")
            self._session_id = session.session_id
            self._task = (split, -1 if index is None else int(index))
            self._calls = 0
            self._errors = 0
            self._spent = None
            self._ledger.opened(session.session_id)
            return None

        def get_reward(self) -> float | None:
            """The session's reward from the server's /score; None (ignored by TRL) if the session is gone."""
            session_id = self._require_session()
            try:
                score = self._client.score(session_id, mode=self._reward_mode)
                reward, passed = score.reward, score.passed
            except SessionNotFoundError as error:
                warnings.warn(f"No reward for this rollout: {error}", stacklevel=2)
                reward, passed = None, None
            self._ledger.add(
                Episode(
                    self._scenario, self._task[0], self._task[1], session_id, reward, passed, self._calls, self._errors
                )
            )
            return reward

        def _call_tool(self, name: str, arguments: dict[str, Any]) -> str:
            session_id = self._require_session()
            if self._spent is not None:
                return self._spent
            result = self._client.call_tool(session_id, name, arguments)
            self._calls += 1
            if not result.ok:
                self._errors += 1
            if result.error_type == "budget":
                self._spent = result.text
            return result.text

        def _require_session(self) -> str:
            if self._session_id is None:
                raise RuntimeError(f"{type(self).__name__}: reset() must open a session before tools are called")
            return self._session_id

        def _close(self) -> None:
            """Best-effort DELETE of the current session (a reaped one is already gone)."""
            session_id, self._session_id = self._session_id, None
            if session_id is None:
                return
            try:
                self._client.close_session(session_id)
            except SessionNotFoundError:
                pass

    for tool in tools:
        method = make_tool_method(tool, lambda self, name, args: self._call_tool(name, args))
        setattr(AtlasGymEnv, method.__name__, method)
    name = class_name_for(scenario)
    AtlasGymEnv.__name__ = name
    AtlasGymEnv.__qualname__ = name
    return AtlasGymEnv


def close_all(env_class: type) -> int:
    """Closes every open session of the class's instances; returns how many were open."""
    with env_class._instances_lock:
        instances = list(env_class._instances)
    open_ones = [env for env in instances if env._session_id is not None]
    for env in open_ones:
        env._close()
    return len(open_ones)


def use_server_tool_schemas(trainer: Any, client: EnvClient, scenarios: list[str]) -> None:
    """Makes a GRPOTrainer render each prompt with the env server's own tool schemas (`prompt_tools:
    server`): exactly what `atlas-gym eval` sends a model and what the warm start trained on, instead of
    the schemas TRL derives from the typed methods. TRL renders prompts from `_env_tools[name]` (name None
    for a single environment) and calls the tools through the environments' methods, which stay as they are."""
    names = list(trainer._env_tools)
    for name in names:
        scenario = scenarios[0] if name is None else name
        trainer._env_tools[name] = client.tools(scenario)
