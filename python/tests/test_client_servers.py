"""One client over several env servers (a list, or one comma-separated string, as `--server` and the verl
agent-loop config take them): new sessions go round the servers in turn, every later call on a session
goes to the server that opened it, and a fleet URL (`serve --workers N`) is just one server to the client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import FakeServer

from atlas_gym.client import EnvClient, env_urls


def _session(session_id: str) -> dict:
    return {"session_id": session_id, "messages": [], "tools": [], "limits": {}}


@pytest.fixture()
def two() -> Iterator[tuple[FakeServer, FakeServer]]:
    servers = (FakeServer(), FakeServer())
    yield servers
    for server in servers:
        server.httpd.shutdown()
        server.httpd.server_close()


def test_urls_come_as_a_list_or_one_comma_separated_string():
    assert env_urls("http://a:1/, http://b:2") == ["http://a:1", "http://b:2"]
    assert env_urls(["http://a:1", "http://b:2/"]) == ["http://a:1", "http://b:2"]
    with pytest.raises(ValueError, match="No env server URL given"):
        env_urls(" , ")
    with pytest.raises(ValueError, match="must look like http://127.0.0.1:4010, got 'ftp://b:2'"):
        EnvClient("http://a:1,ftp://b:2")


@pytest.mark.parametrize("as_string", [True, False])
def test_sessions_go_round_the_servers_and_each_call_goes_to_its_sessions_server(two, as_string):
    a, b = two
    client = EnvClient(f"{a.url},{b.url}" if as_string else [a.url, b.url])
    a.script(200, _session("ses-a"))
    b.script(200, _session("ses-b"))
    a.script(200, _session("ses-a2"))
    opened = [client.create_session(task_id=f"jira-transition-v1/train/{i}").session_id for i in range(3)]
    assert opened == ["ses-a", "ses-b", "ses-a2"]
    b.script(200, {"ok": True, "output": "{}"})
    a.script(200, {"ok": True, "output": "{}"})
    b.script(200, {"reward": 1.0, "passed": True})
    b.script(204, b"")
    client.call_tool("ses-b", "jira_get_issue", {"issueIdOrKey": "ENG-1"})
    client.call_tool("ses-a", "jira_get_issue", {"issueIdOrKey": "ENG-1"})
    assert client.score("ses-b").reward == 1.0
    client.close_session("ses-b")
    assert [(r["method"], r["path"]) for r in b.requests] == [
        ("POST", "/v1/sessions"),
        ("POST", "/v1/sessions/ses-b/tools/jira_get_issue"),
        ("POST", "/v1/sessions/ses-b/score"),
        ("DELETE", "/v1/sessions/ses-b"),
    ]
    assert [r["path"] for r in a.requests] == ["/v1/sessions", "/v1/sessions", "/v1/sessions/ses-a/tools/jira_get_issue"]


def test_a_fleet_url_is_one_server(two):
    fleet, _ = two
    client = EnvClient(fleet.url)
    fleet.script(200, _session("ses-1"))
    fleet.script(200, _session("ses-2"))
    assert [client.create_session(task_id="t").session_id for _ in range(2)] == ["ses-1", "ses-2"]
    assert client.base_urls == [fleet.url] and len(fleet.requests) == 2


def _episodes(client: EnvClient) -> tuple[list[str], list[float]]:
    """Four transition episodes (each solved, as the tests' scripted policy would), scored and closed."""
    sessions = [client.create_session(task_id=f"jira-transition-v1/eval/{i}") for i in range(4)]
    for session in sessions:
        client.call_tool(session.session_id, "jira_get_transitions", {"issueIdOrKey": "ENG-1"})
    scores = [client.score(s.session_id, final_message="done").reward for s in sessions]
    return [s.session_id for s in sessions], scores


def test_real_servers_share_the_episodes_and_score_them_as_one_server_would(env_server):
    from atlas_gym.server_process import EnvServerProcess

    one = EnvClient(env_server.url)
    ids, expected = _episodes(one)
    for session_id in ids:
        one.close_session(session_id)
    with EnvServerProcess() as second:
        client = EnvClient([env_server.url, second.url])
        ids, scores = _episodes(client)
        listed = EnvClient(second.url)._request("GET", "/v1/sessions")["sessions"]
        assert {s["session_id"] for s in listed} == {ids[1], ids[3]}
        assert scores == expected
        for session_id in ids:
            client.close_session(session_id)
        assert EnvClient(second.url)._request("GET", "/v1/sessions")["sessions"] == []
