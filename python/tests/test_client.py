"""The standard-library client: its wire format and error translation against a scripted fake server, and
whole episodes against the real env server (its call numbering: test_client_numbering.py)."""

from __future__ import annotations

import socket

import pytest

from atlas_gym.client import (
    AuthenticationError,
    CapacityError,
    EnvClient,
    EnvServerError,
    ServerUnreachableError,
    SessionNotFoundError,
)

SESSION = {
    "session_id": "ses-1",
    "messages": [{"role": "system", "content": "rules"}, {"role": "user", "content": "Move ENG-1 to Done."}],
    "tools": [{"type": "function", "function": {"name": "jira_get_issue", "parameters": {}}}],
    "limits": {"max_tool_calls": 8},
}


def test_create_session_sends_the_task_and_reads_the_answer(fake):
    fake.script(200, SESSION)
    session = EnvClient(fake.url).create_session(scenario="jira-transition-v1", split="train", index=3, seed=7)
    assert fake.requests[0]["method"] == "POST" and fake.requests[0]["path"] == "/v1/sessions"
    assert fake.json_body(0) == {"scenario": "jira-transition-v1", "split": "train", "index": 3, "seed": 7}
    assert fake.requests[0]["headers"]["content-type"] == "application/json"
    assert session.session_id == "ses-1" and session.max_tool_calls == 8
    assert session.messages[1]["content"] == "Move ENG-1 to Done."


def test_create_session_needs_a_task_id_or_a_whole_task():
    client = EnvClient("http://127.0.0.1:9")
    with pytest.raises(ValueError, match="task_id, or scenario, split and index"):
        client.create_session(scenario="jira-transition-v1")


def test_tool_failures_are_data_and_keep_the_servers_text(fake):
    fake.script(200, {"ok": True, "output": '{"key":"ENG-1"}'})
    fake.script(200, {"ok": False, "error": "Error 404: issue does not exist", "error_type": "api_error"})
    client = EnvClient(fake.url)
    ok = client.call_tool("ses-1", "jira_get_issue", {"issueIdOrKey": "ENG-1"})
    bad = client.call_tool("ses-1", "jira_get_issue", {"issueIdOrKey": "NOPE-1"})
    assert fake.requests[0]["path"] == "/v1/sessions/ses-1/tools/jira_get_issue"
    assert fake.json_body(0) == {"arguments": {"issueIdOrKey": "ENG-1"}, "seq": 1}
    assert fake.json_body(1)["seq"] == 2
    assert ok.ok and ok.text == '{"key":"ENG-1"}'
    assert not bad.ok and bad.error_type == "api_error" and bad.text == "Error 404: issue does not exist"


def test_each_call_carries_one_idempotency_key_kept_across_its_retries(fake):
    fake.script(429, {"error": "Too many open sessions", "code": "capacity"}, {"retry-after": "0"})
    fake.script(200, SESSION)
    fake.script(200, {"ok": True, "output": "{}"})
    fake.script(200, {"ok": True, "output": "{}"})
    client = EnvClient(fake.url, sleep=lambda _: None)
    client.create_session(task_id="jira-transition-v1/train/4")
    client.call_tool("ses-1", "jira_get_issue", {"issueIdOrKey": "ENG-1"})
    client.call_tool("ses-1", "jira_get_issue", {"issueIdOrKey": "ENG-1"})
    keys = [r["headers"].get("idempotency-key") for r in fake.requests]
    assert all(keys) and keys[0] == keys[1]  # the retried opening reuses its key
    assert len({keys[1], keys[2], keys[3]}) == 3  # every new call has its own


def test_a_vanished_session_names_the_session_and_the_likely_causes(fake):
    fake.script(404, {"error": "Session ses-9 not found", "code": "session_not_found"})
    with pytest.raises(SessionNotFoundError) as caught:
        EnvClient(fake.url).score("ses-9", mode="paper")
    message = str(caught.value)
    assert "ses-9" in message and "reaped" in message and "restarted" in message
    assert caught.value.session_id == "ses-9" and caught.value.status == 404
    assert fake.json_body(0) == {"mode": "paper"}


def test_capacity_is_retried_after_the_servers_retry_after(fake):
    slept: list[float] = []
    fake.script(429, {"error": "Too many open sessions", "code": "capacity"}, {"retry-after": "2"})
    fake.script(200, SESSION)
    session = EnvClient(fake.url, sleep=slept.append).create_session(task_id="jira-transition-v1/train/4", seed=9)
    assert session.session_id == "ses-1" and slept == [2.0]
    assert fake.json_body(1) == {"task_id": "jira-transition-v1/train/4", "seed": 9}


def test_capacity_still_full_after_the_retries_raises(fake):
    for _ in range(3):
        fake.script(429, {"error": "Too many open sessions", "code": "capacity"}, {"retry-after": "1"})
    with pytest.raises(CapacityError, match="Too many open sessions"):
        EnvClient(fake.url, capacity_retries=2, sleep=lambda _: None).create_session(task_id="x/eval/0")
    assert len(fake.requests) == 3


def test_the_bearer_token_is_sent_and_a_refusal_says_what_to_pass(fake):
    fake.script(200, {"status": "ok"})
    fake.script(401, {"error": "The bearer token is wrong", "code": "unauthorized"})
    client = EnvClient(fake.url, token="s3cret")
    client.health()
    assert fake.requests[0]["headers"]["authorization"] == "Bearer s3cret"
    with pytest.raises(AuthenticationError, match="--token") as refused:
        client.scenarios()
    assert "serve --auth" in str(refused.value) and "wrong.." not in str(refused.value)


def test_protocol_errors_carry_status_code_and_message(fake):
    fake.script(400, {"error": "Invalid request body: index: expected number", "code": "invalid_request"})
    with pytest.raises(EnvServerError) as caught:
        EnvClient(fake.url).create_session(scenario="s", split="train", index=1)
    assert caught.value.status == 400 and caught.value.code == "invalid_request"
    assert "expected number" in str(caught.value)


def test_non_json_answers_and_bad_urls_are_clear_errors(fake):
    fake.script(200, b"<html>proxy</html>")
    with pytest.raises(EnvServerError, match="non-JSON"):
        EnvClient(fake.url).health()
    with pytest.raises(ValueError, match="http://127.0.0.1:4010"):
        EnvClient("127.0.0.1:4010")


def test_an_unreachable_server_says_where_it_looked():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    slept: list[float] = []
    client = EnvClient(f"http://127.0.0.1:{port}", timeout=5, sleep=slept.append, restart_retries=6)
    with pytest.raises(ServerUnreachableError, match=f"127.0.0.1:{port}.*atlas-gym serve"):
        client.health()
    # It retried (a restarting server refuses connections for a moment) with bounded exponential backoff.
    assert slept == [0.25, 0.5, 1.0, 2.0, 4.0, 5.0]


def test_a_whole_episode_on_the_real_server(client):
    scenarios = {s["id"] for s in client.scenarios()}
    assert "jira-transition-v1" in scenarios
    tools = client.tools("jira-transition-v1")
    session = client.create_session(scenario="jira-transition-v1", split="train", index=1)
    assert [t["function"]["name"] for t in session.tools] == [t["function"]["name"] for t in tools]
    assert session.messages[-1]["role"] == "user" and session.max_tool_calls
    unknown = client.call_tool(session.session_id, "no_such_tool", {})
    assert not unknown.ok and unknown.error_type == "unknown_tool"
    first = client.score(session.session_id)
    again = client.score(session.session_id)
    assert first == again and 0.0 <= first.reward <= 1.0 and first.explanation
    calls = client.trace(session.session_id)["calls"]
    assert [c["name"] for c in calls] == ["no_such_tool"]
    client.close_session(session.session_id)
    with pytest.raises(SessionNotFoundError, match=session.session_id):
        client.trace(session.session_id)


def test_a_long_listing_is_taken_page_by_page_on_the_real_server(client):
    # The server lists at most 1000 tasks at a time; the client pages through with `start`.
    tasks = client.tasks("jira-transition-v1", "train", n=1005, start=7)
    assert [t["index"] for t in tasks] == list(range(7, 1012))
    evals = client.tasks("jira-transition-v1", "eval", n=1000)  # the eval split ends before that
    assert [t["index"] for t in evals] == list(range(len(evals))) and 0 < len(evals) < 1000
