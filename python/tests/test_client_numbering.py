"""EnvClient's call numbering (`seq`, atlas_gym/call_numbers.py) against a fake that numbers calls as the
env server does, a scripted fake server and the real env server: refused and unsendable calls use no
number, unknown outcomes keep theirs, a `409 seq_conflict` resyncs once, threads on one session take turns."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from atlas_gym.client import EnvClient, EnvServerError, ServerUnreachableError


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


def test_a_call_the_journal_could_not_record_is_sent_again_as_it_was(fake):
    # 503 journal_unavailable: the server undid the call; the same seq and key go again after Retry-After.
    fake.script(503, {"error": "The journal could not be written", "code": "journal_unavailable"}, {"retry-after": "1"})
    fake.script(200, {"ok": True, "output": "applied once"})
    slept: list[float] = []
    client = EnvClient(fake.url, sleep=slept.append)
    assert client.call_tool("ses-1", "jira_get_issue", {}).text == "applied once"
    assert slept == [1.0]
    first, second = fake.json_body(0), fake.json_body(1)
    assert first["seq"] == second["seq"] == 1
    keys = [fake.requests[i]["headers"].get("idempotency-key") for i in (0, 1)]
    assert keys[0] is not None and keys[0] == keys[1]


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
