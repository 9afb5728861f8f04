"""A crash of the env server mid-episode (kill -9) with `serve --journal`: the server restarted on the
same port and journal rebuilds every session, the client rides through the restart by retrying, and
each episode ends exactly as the same episode on a server that never crashed: same scores and traces,
no session lost, no call applied twice."""

from __future__ import annotations

import os
import re
import signal
import socket
import threading

from atlas_gym.client import EnvClient
from atlas_gym.server_process import EnvServerProcess

TASKS = ["jira-transition-v1/eval/3", "jira-subtask-create-v1/eval/1", "confluence-page-create-v1/eval/0"]


def _calls(session) -> list[tuple[str, dict]]:
    """A fixed, deterministic sequence of calls: read-only lookups, then a call with broken arguments."""
    names = [t["function"]["name"] for t in session.tools]
    first = names[0]
    return [(first, {}), (names[-1], {}), ("no_such_tool", {}), (first, {"unexpected": 1})]


def _normalise(value) -> str:
    """Session ids and the servers' ports differ between the two runs, and appear in the sites' links."""
    return re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:*", re.sub(r"ses-[0-9a-f-]{36}", "ses-*", repr(value)))


def _play(client: EnvClient, sessions, calls, start: int, stop: int) -> None:
    for session in sessions:
        for name, arguments in calls[session.session_id][start:stop]:
            client.call_tool(session.session_id, name, arguments)


def _finish(client: EnvClient, sessions) -> list[str]:
    results = []
    for session in sessions:
        score = client.score(session.session_id, final_message="done")
        trace = client.trace(session.session_id)
        results.append(_normalise((score, trace["calls"], trace["final_message"])))
    return results


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_killed_server_restarts_from_its_journal_and_the_episodes_finish_unchanged(client, tmp_path):
    reference_sessions = [client.create_session(task_id=t) for t in TASKS]
    reference_calls = {s.session_id: _calls(s) for s in reference_sessions}
    _play(client, reference_sessions, reference_calls, 0, 99)
    expected = _finish(client, reference_sessions)

    args = ["--port", str(_free_port()), "--journal", str(tmp_path / "journal")]
    first = EnvServerProcess(args)
    restarted: list[EnvServerProcess] = []
    try:
        crashing = EnvClient(first.url, restart_backoff=0.2, restart_retries=10)
        sessions = [crashing.create_session(task_id=t) for t in TASKS]
        calls = {s.session_id: _calls(s) for s in sessions}
        _play(crashing, sessions, calls, 0, 2)

        os.killpg(first.process.pid, signal.SIGKILL)
        first.process.wait()
        # The server comes back a moment later; meanwhile the client's next call is refused and retried.
        restart = threading.Timer(0.5, lambda: restarted.append(EnvServerProcess(args)))
        restart.start()
        _play(crashing, sessions, calls, 2, 99)
        restart.join()
        assert restarted and restarted[0].url == first.url
        assert "3 sessions rebuilt" in "\n".join(restarted[0].output)

        listed = {s["session_id"]: s["calls"] for s in crashing._request("GET", "/v1/sessions")["sessions"]}
        assert listed == {s.session_id: 4 for s in sessions}  # no session lost, no call applied twice
        assert _finish(crashing, sessions) == expected
    finally:
        first.stop()
        for server in restarted:
            server.stop()
