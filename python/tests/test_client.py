"""The standard-library client: its wire format and error translation against a scripted fake server,
its call numbering against a fake that numbers calls as the env server does, and whole episodes against
the real env server."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

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
    with pytest.raises(AuthenticationError, match="--token"):
        client.scenarios()


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


# --- call numbering (`seq`) ---------------------------------------------------------------------------


class NumberingServer:
    """A fake env server whose tool calls are numbered as the real one's are (src/server/session-calls.ts):
    a known idempotency key gets its call's answer again; `seq` = last applied + 1 runs; `seq` = last
    applied gets the last answer again; any other is `409 seq_conflict` with `last_seq`. A body over 1 MiB
    is refused `413` and one that is not JSON `400`, changing nothing. Each answer names the call's
    arguments, so a call answered with another's answer shows. `lose(n, applied)` drops the connection
    without an answer on the next n requests, after applying the call or before reaching it."""

    def __init__(self) -> None:
        self.last_seq = 0
        self.last_answer: dict[str, Any] | None = None
        self.last_key: str | None = None
        self.applied: list[dict[str, Any]] = []  # the arguments of each call applied, in order
        self.sent: list[tuple[int | None, str | None]] = []  # (seq, idempotency key) of each request
        self.kept: dict[str, dict[str, Any]] = {}
        self.losing = 0
        self.lose_applied = False
        lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                key = self.headers.get("idempotency-key")
                with lock:
                    if len(raw) > 1024 * 1024:
                        fake.sent.append((None, key))
                        too_large = {"error": "The request body exceeds 1048576 bytes.", "code": "body_too_large"}
                        return self._send(413, too_large)
                    try:
                        body = json.loads(raw)
                    except json.JSONDecodeError:
                        fake.sent.append((None, key))
                        return self._send(400, {"error": "Invalid JSON body", "code": "invalid_request"})
                    fake.sent.append((body.get("seq"), key))
                    if fake.losing:
                        fake.losing -= 1
                        if fake.lose_applied:
                            fake.answer(body, key)
                        self.close_connection = True  # no answer: the client sees the connection drop
                        return
                    status, answer = fake.answer(body, key)
                self._send(status, answer)

            def _send(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def answer(self, body: dict[str, Any], key: str | None) -> tuple[int, dict[str, Any]]:
        if key in self.kept:
            return 200, self.kept[key]
        seq = body["seq"]
        if seq == self.last_seq and self.last_answer is not None:
            if key and self.last_key and key != self.last_key:  # another call under a used number
                message = f"Call number {seq} was already applied for a request with another Idempotency-Key"
                return 409, {"error": message, "code": "seq_conflict", "last_seq": self.last_seq}
            return 200, self.last_answer
        if seq != self.last_seq + 1:
            message = f"Call number {seq} is out of order: the last call applied was number {self.last_seq}"
            return 409, {"error": message, "code": "seq_conflict", "last_seq": self.last_seq}
        self.applied.append(body["arguments"])
        self.last_seq, self.last_answer = seq, {"ok": True, "output": f"answer to {json.dumps(body['arguments'])}"}
        self.last_key = key
        if key:
            self.kept[key] = self.last_answer
        return 200, self.last_answer

    def lose(self, n: int, applied: bool) -> None:
        self.losing, self.lose_applied = n, applied


@pytest.fixture()
def numbering() -> Iterator[NumberingServer]:
    server = NumberingServer()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()


def _get(client: EnvClient, key: str):
    return client.call_tool("ses-1", "jira_get_issue", {"issueIdOrKey": key})


def test_threads_calling_one_session_each_get_their_own_answer_once(numbering):
    client = EnvClient(numbering.url)
    answers: dict[str, str] = {}

    def calls(thread: int) -> None:
        for i in range(10):
            issue = f"ENG-{thread}-{i}"
            answers[issue] = _get(client, issue).text

    threads = [threading.Thread(target=calls, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == {issue: f'answer to {{"issueIdOrKey": "{issue}"}}' for issue in answers}
    assert len(answers) == 40
    applied = [a["issueIdOrKey"] for a in numbering.applied]
    assert sorted(applied) == sorted(answers) and numbering.last_seq == 40  # each once, numbered 1..40


def test_a_call_refused_as_too_large_leaves_its_number_to_the_next_call(numbering):
    client = EnvClient(numbering.url)
    assert _get(client, "ENG-1").ok
    with pytest.raises(EnvServerError) as caught:
        _get(client, "x" * (1100 * 1024))
    assert caught.value.status == 413 and caught.value.code == "body_too_large"
    after = _get(client, "ENG-2")
    assert after.ok and after.text == 'answer to {"issueIdOrKey": "ENG-2"}'
    assert [seq for seq, _ in numbering.sent] == [1, None, 2]  # the refused call's number, taken again
    assert numbering.applied == [{"issueIdOrKey": "ENG-1"}, {"issueIdOrKey": "ENG-2"}]


def test_arguments_json_cannot_hold_are_refused_before_sending_and_use_no_number(numbering):
    client = EnvClient(numbering.url)
    assert _get(client, "ENG-1").ok
    with pytest.raises(TypeError):
        client.call_tool("ses-1", "jira_get_issue", {"issueIdOrKey": {1, 2}})
    with pytest.raises(ValueError):  # a circular structure
        looped: dict[str, Any] = {}
        looped["self"] = looped
        client.call_tool("ses-1", "jira_get_issue", looped)
    after = _get(client, "ENG-2")
    assert after.ok and after.text == 'answer to {"issueIdOrKey": "ENG-2"}'
    assert [seq for seq, _ in numbering.sent] == [1, 2]  # nothing sent for them


@pytest.mark.parametrize(
    "status, code",
    [
        (400, "invalid_request"),
        (404, "tool_not_found"),
        (413, "body_too_large"),
        (422, "idempotency_key_reused"),
        (429, "capacity"),
    ],
)
def test_a_refusal_with_a_code_gives_the_number_back(fake, status, code):
    fake.script(200, {"ok": True, "output": "one"})
    fake.script(status, {"error": "refused", "code": code})
    fake.script(200, {"ok": True, "output": "two"})
    client = EnvClient(fake.url, sleep=lambda _: None)
    client.call_tool("ses-1", "jira_get_issue", {})
    with pytest.raises(EnvServerError) as caught:
        client.call_tool("ses-1", "jira_get_issue", {})
    assert caught.value.status == status
    assert client.call_tool("ses-1", "jira_get_issue", {}).text == "two"
    assert [fake.json_body(i)["seq"] for i in range(3)] == [1, 2, 2]


@pytest.mark.parametrize(
    "status, body",
    [
        (502, {"error": "The fleet worker stopped while answering", "code": "worker_lost"}),
        (503, {"error": "The fleet worker did not come back", "code": "worker_unavailable"}),
        (502, b"<html>Bad gateway</html>"),  # a proxy's answer, not the env server's
        (500, {"error": "Internal error: ...", "code": "internal"}),  # a bug: it may have run part way
    ],
)
def test_an_error_answer_that_does_not_say_whether_the_call_ran_keeps_the_number(fake, status, body):
    fake.script(200, {"ok": True, "output": "one"})
    fake.script(status, body)
    fake.script(200, {"ok": True, "output": "three"})
    client = EnvClient(fake.url, restart_retries=0)
    client.call_tool("ses-1", "jira_get_issue", {})
    with pytest.raises(EnvServerError):
        client.call_tool("ses-1", "jira_get_issue", {})
    assert client.call_tool("ses-1", "jira_get_issue", {}).text == "three"
    assert [fake.json_body(i)["seq"] for i in range(3)] == [1, 2, 3]


def test_a_call_applied_but_whose_answer_was_lost_is_not_the_answer_to_the_next(numbering):
    client = EnvClient(numbering.url, restart_retries=1, sleep=lambda _: None)
    assert _get(client, "ENG-1").ok
    numbering.lose(2, applied=True)  # the server applies it, then the call and its retry lose the answer
    with pytest.raises(ServerUnreachableError):
        _get(client, "ENG-2")
    after = _get(client, "ENG-3")
    assert after.text == 'answer to {"issueIdOrKey": "ENG-3"}'  # not ENG-2's answer again
    assert [seq for seq, _ in numbering.sent] == [1, 2, 2, 3]
    assert numbering.applied == [{"issueIdOrKey": k} for k in ("ENG-1", "ENG-2", "ENG-3")]


def test_a_call_lost_before_it_was_applied_is_made_up_for_from_the_servers_count(numbering):
    client = EnvClient(numbering.url, restart_retries=1, sleep=lambda _: None)
    assert _get(client, "ENG-1").ok
    numbering.lose(2, applied=False)  # the call never reaches the server
    with pytest.raises(ServerUnreachableError):
        _get(client, "ENG-2")
    after = _get(client, "ENG-3")
    assert after.text == 'answer to {"issueIdOrKey": "ENG-3"}'
    # ENG-3 went out as call 3, was told the last applied was 1, and went again as 2 under the same key.
    assert [seq for seq, _ in numbering.sent] == [1, 2, 2, 3, 2]
    assert numbering.sent[-1][1] == numbering.sent[-2][1]
    assert numbering.applied == [{"issueIdOrKey": "ENG-1"}, {"issueIdOrKey": "ENG-3"}]
    assert _get(client, "ENG-4").ok and numbering.sent[-1][0] == 3


def test_a_seq_conflict_naming_the_last_call_applied_resyncs_the_count(numbering):
    numbering.last_seq, numbering.last_answer = 4, {"ok": True, "output": "call 4"}  # numbered elsewhere
    client = EnvClient(numbering.url)
    assert _get(client, "ENG-5").text == 'answer to {"issueIdOrKey": "ENG-5"}'
    assert _get(client, "ENG-6").text == 'answer to {"issueIdOrKey": "ENG-6"}'
    assert [seq for seq, _ in numbering.sent] == [1, 5, 6]


def test_a_call_is_sent_again_after_a_seq_conflict_once_only(fake):
    fake.script(409, {"error": "out of order", "code": "seq_conflict", "last_seq": 4})
    fake.script(409, {"error": "out of order", "code": "seq_conflict", "last_seq": 7})
    fake.script(200, {"ok": True, "output": "eight"})
    client = EnvClient(fake.url)
    with pytest.raises(EnvServerError) as caught:
        client.call_tool("ses-1", "jira_get_issue", {})
    assert caught.value.code == "seq_conflict" and caught.value.last_seq == 7
    assert client.call_tool("ses-1", "jira_get_issue", {}).text == "eight"
    assert [fake.json_body(i)["seq"] for i in range(3)] == [1, 5, 8]
    keys = [r["headers"]["idempotency-key"] for r in fake.requests]
    assert keys[0] == keys[1] != keys[2]


def test_refused_and_unsendable_calls_use_no_number_on_the_real_server(client):
    session = client.create_session(scenario="jira-transition-v1", split="train", index=1)
    sid = session.session_id
    assert client.call_tool(sid, "jira_get_issue", {"issueIdOrKey": "ENG-1"}).ok
    with pytest.raises(EnvServerError) as caught:
        client.call_tool(sid, "jira_get_issue", {"issueIdOrKey": "x" * (1100 * 1024)})
    assert caught.value.status == 413
    with pytest.raises(TypeError):
        client.call_tool(sid, "jira_get_issue", {"issueIdOrKey": {1, 2}})
    second = client.call_tool(sid, "jira_get_issue", {"issueIdOrKey": "ENG-2"})
    assert second.ok and '"key":"ENG-2"' in second.text
    # Another client numbering the same session from 1 is told the server's count and takes it up.
    third = EnvClient(client.base_url).call_tool(sid, "jira_get_issue", {"issueIdOrKey": "ENG-3"})
    assert third.ok and '"key":"ENG-3"' in third.text
    calls = client.trace(sid)["calls"]
    assert [c["arguments"]["issueIdOrKey"] for c in calls] == ["ENG-1", "ENG-2", "ENG-3"]
    client.close_session(sid)


def test_a_long_listing_is_taken_page_by_page_on_the_real_server(client):
    # The server lists at most 1000 tasks at a time; the client pages through with `start`.
    tasks = client.tasks("jira-transition-v1", "train", n=1005, start=7)
    assert [t["index"] for t in tasks] == list(range(7, 1012))
    evals = client.tasks("jira-transition-v1", "eval", n=1000)  # the eval split ends before that
    assert [t["index"] for t in evals] == list(range(len(evals))) and 0 < len(evals) < 1000
