"""Standard-library HTTP client for the atlas-gym env server (`atlas-gym serve`, the /v1 API).

Tool-level failures are data (`ToolResult(ok=False, ...)`); protocol failures raise an `EnvServerError`
subclass whose message says what went wrong and what to do about it.

One client can use several env servers (a list of URLs, or one comma-separated string): new sessions go
round them in turn and every later call on a session goes to the server that opened it. A fleet
(`atlas-gym serve --workers N`) is one URL: it does the same behind its port.

Calls ride through a restart of the server (`serve --journal`, which rebuilds its sessions): when the
connection is refused or reset, a request is retried with bounded exponential backoff. Each tool call
carries the session's next call number (`seq`), so a call whose answer was lost in the crash is answered
again from the journal instead of being applied twice; each tool call and session opening also carries
an `Idempotency-Key` header, the same on every retry of that call, so the server applies it once.
A call the server refused uses up no number; one whose outcome is unknown counts as applied, and when the
server's count says otherwise (`409 seq_conflict` with `last_seq`) the client takes it up from there.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any

from .call_numbers import MAX_TRACKED_SESSIONS, CallNumbers, refused
from .errors import (  # raised here, and imported from here by the trainers and the verl loop
    AuthenticationError,
    CapacityError,
    EnvServerError,
    ServerUnreachableError,
    SessionNotFoundError,
)


# Most tasks the server lists at once (src/server/create-env-app.ts MAX_TASKS_PER_LISTING).
_TASKS_PER_LISTING = 1000


@dataclass(frozen=True)
class Session:
    """An open episode: its id, the opening conversation, the tools offered, the call budget and the turn
    limit the server states for its task (`limits.max_turns`: the call budget + 1, src/agent/turn-limit.ts)."""

    session_id: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    max_tool_calls: int | None
    task_id: str | None = None
    seed: int | None = None
    max_turns: int | None = None


@dataclass(frozen=True)
class ToolResult:
    """One tool call's answer: `output` when ok, else `error` and `error_type` (what the agent sees)."""

    ok: bool
    output: str | None = None
    error: str | None = None
    error_type: str | None = None

    @property
    def text(self) -> str:
        """What the model is shown: the output, or the error text exactly as the server wrote it."""
        return (self.output if self.ok else self.error) or ""


@dataclass(frozen=True)
class Score:
    reward: float
    passed: bool
    components: list[Any] = field(default_factory=list)
    violations: list[Any] = field(default_factory=list)
    explanation: str = ""
    mode: str | None = None


def env_urls(value: str | Sequence[str]) -> list[str]:
    """The env-server URLs in a list, or in one string separated by commas (as the verl agent-loop config
    and `--server` take them)."""
    parts = value.split(",") if isinstance(value, str) else [str(v) for v in value]
    urls = [u.strip().rstrip("/") for u in parts if u.strip()]
    if not urls:
        raise ValueError(f"No env server URL given (got {value!r}); pass one like http://127.0.0.1:4010")
    return urls


class EnvClient:
    """Client for one env server, or several taken in turn (see the module docstring). Thread-safe: it
    holds no connection state, only each session's call count and home server."""

    def __init__(
        self,
        base_url: str | Sequence[str],
        token: str | None = None,
        timeout: float = 30.0,
        capacity_retries: int = 5,
        sleep=time.sleep,
        restart_retries: int = 8,
        restart_backoff: float = 0.25,
        max_backoff: float = 5.0,
    ):
        self.base_urls = env_urls(base_url)
        for url in self.base_urls:
            parsed = urllib.parse.urlparse(url)
            if parsed.scheme not in ("http", "https") or not parsed.netloc:
                raise ValueError(f"Env server URL must look like http://127.0.0.1:4010, got {url!r}")
        self.base_url = self.base_urls[0]
        self._home: dict[str, str] = {}
        self._turn = 0
        self.token = token
        self.timeout = timeout
        self.capacity_retries = capacity_retries
        self.restart_retries = restart_retries
        self.restart_backoff = restart_backoff
        self.max_backoff = max_backoff
        self._sleep = sleep
        self._lock = threading.Lock()  # guards _home and _turn
        self._numbers = CallNumbers()

    # --- API -------------------------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        return self._request("GET", "/health")

    def scenarios(self) -> list[dict[str, Any]]:
        return self._request("GET", "/v1/scenarios")

    def tools(self, scenario: str) -> list[dict[str, Any]]:
        return self._request("GET", f"/v1/scenarios/{_quote(scenario)}/tools")["tools"]

    def tasks(self, scenario: str, split: str = "eval", n: int | None = None, start: int = 0) -> list[dict[str, Any]]:
        """A split's tasks with their opening `messages` (train tasks: `n` from `start`), listed a page of
        at most `_TASKS_PER_LISTING` at a time (the server's limit, which keeps each listing short)."""
        path = f"/v1/scenarios/{_quote(scenario)}/tasks"
        if n is None:
            return self._request("GET", f"{path}?{urllib.parse.urlencode({'split': split})}")["tasks"]
        tasks: list[dict[str, Any]] = []
        while len(tasks) < n:
            asked = min(_TASKS_PER_LISTING, n - len(tasks))
            query = urllib.parse.urlencode({"split": split, "n": asked, "start": start + len(tasks)})
            page = self._request("GET", f"{path}?{query}")["tasks"]
            tasks += page
            if len(page) < asked:  # the split ends here (eval's is fixed)
                break
        return tasks

    def create_session(
        self,
        scenario: str | None = None,
        split: str | None = None,
        index: int | None = None,
        seed: int | None = None,
        task_id: str | None = None,
    ) -> Session:
        """Opens an episode, by task id or by (scenario, split, index), each with an optional seed."""
        if task_id is not None:
            body: dict[str, Any] = {"task_id": task_id}
        elif scenario is not None and split is not None and index is not None:
            body = {"scenario": scenario, "split": split, "index": index}
        else:
            raise ValueError("create_session needs task_id, or scenario, split and index")
        if seed is not None:
            body["seed"] = seed
        with self._lock:
            base = self.base_urls[self._turn % len(self.base_urls)]
            self._turn += 1
        answer = self._request(
            "POST", "/v1/sessions", body, retry_capacity=True, idempotency_key=_new_key(), base=base
        )
        if len(self.base_urls) > 1:
            with self._lock:
                self._home[answer["session_id"]] = base
                if len(self._home) > MAX_TRACKED_SESSIONS:
                    self._home.pop(next(iter(self._home)))
        limits = answer.get("limits") or {}
        return Session(
            answer["session_id"],
            answer["messages"],
            answer["tools"],
            limits.get("max_tool_calls"),
            answer.get("task_id"),
            answer.get("seed"),
            limits.get("max_turns"),
        )

    def call_tool(self, session_id: str, name: str, arguments: dict[str, Any]) -> ToolResult:
        """Runs one tool call; numbered, so a retry across a server restart is never applied twice (see
        call_numbers.py: a refused call gives its number back, after a `409 seq_conflict` the call is sent
        again once from the server's `last_seq`, threads on one session take turns). Arguments JSON cannot
        hold raise the TypeError or ValueError before anything is sent."""
        arguments_json = json.dumps(arguments)  # first: arguments JSON cannot hold raise here, taking no number
        with self._numbers.turn(session_id):
            return self._call_tool(session_id, name, arguments_json)

    def _call_tool(self, session_id: str, name: str, arguments_json: str) -> ToolResult:
        path = f"/v1/sessions/{_quote(session_id)}/tools/{_quote(name)}"
        key = _new_key()  # one key for the call, kept when it is sent again after a resync
        seq = self._numbers.take(session_id)
        resynced = False
        while True:
            body = f'{{"arguments": {arguments_json}, "seq": {seq}}}'.encode("utf-8")
            try:
                answer = self._request("POST", path, body, session_id=session_id, idempotency_key=key)
                break
            except EnvServerError as error:
                if error.code == "seq_conflict" and error.last_seq is not None:
                    # Our count is off the server's (a call that was never applied kept its number, or the
                    # session was numbered elsewhere): take it up from the server's, and send this call as
                    # the next one, once.
                    seq = self._numbers.set(session_id, error.last_seq + (0 if resynced else 1))
                    if not resynced:
                        resynced = True
                        continue
                elif refused(error):
                    self._numbers.give_back(session_id, seq)
                raise
        if answer.get("ok"):
            return ToolResult(True, output=str(answer.get("output", "")))
        return ToolResult(False, error=str(answer.get("error", "")), error_type=answer.get("error_type"))

    def score(self, session_id: str, final_message: str | None = None, mode: str | None = None) -> Score:
        body: dict[str, Any] = {}
        if final_message is not None:
            body["final_message"] = final_message
        if mode is not None:
            body["mode"] = mode
        answer = self._request("POST", f"/v1/sessions/{_quote(session_id)}/score", body, session_id=session_id)
        return Score(
            reward=float(answer["reward"]),
            passed=bool(answer.get("passed", False)),
            components=answer.get("components", []),
            violations=answer.get("violations", []),
            explanation=answer.get("explanation", ""),
            mode=answer.get("mode"),
        )

    def trace(self, session_id: str) -> dict[str, Any]:
        return self._request("GET", f"/v1/sessions/{_quote(session_id)}/trace", session_id=session_id)

    def close_session(self, session_id: str) -> None:
        """Deletes a session; a session that is already gone raises SessionNotFoundError (unless the
        first attempt's answer was lost to a restart, when the session is gone because it was closed)."""
        self._numbers.forget(session_id)
        with self._lock:
            base = self._home.pop(session_id, None)
        try:
            self._request("DELETE", f"/v1/sessions/{_quote(session_id)}", session_id=session_id, base=base)
        except SessionNotFoundError as error:
            if not error.after_retry:
                raise

    # --- transport -------------------------------------------------------------------------------

    def _request(
        self,
        method: str,
        path: str,
        body: Any = None,
        session_id: str | None = None,
        retry_capacity: bool = False,
        idempotency_key: str | None = None,
        base: str | None = None,
    ) -> Any:
        attempt = 0
        unreachable = 0
        base = base or (self._home.get(session_id) if session_id else None) or self.base_url
        while True:
            try:
                return self._send(method, path, body, base, idempotency_key)
            except ServerUnreachableError:
                # Refused or reset: the server may be restarting (with its journal); retry with backoff.
                if unreachable >= self.restart_retries:
                    raise
                self._sleep(min(self.restart_backoff * 2**unreachable, self.max_backoff))
                unreachable += 1
            except _HttpError as error:
                if error.status == 503 and error.code == "worker_unavailable" and unreachable < self.restart_retries:
                    # A fleet whose worker for this session is still restarting: as if the server were.
                    self._sleep(min(self.restart_backoff * 2**unreachable, self.max_backoff))
                    unreachable += 1
                    continue
                if error.status == 503 and error.code == "journal_unavailable" and unreachable < self.restart_retries:
                    # The journal could not be written, so the server undid the request: sent again as it
                    # was (same seq and key), it applies once when the journal can be written.
                    self._sleep(min(error.retry_after or self.restart_backoff * 2**unreachable, self.max_backoff))
                    unreachable += 1
                    continue
                if error.status == 429 and retry_capacity and attempt < self.capacity_retries:
                    attempt += 1
                    self._sleep(min(error.retry_after or 1.0, 30.0))
                    continue
                translated = self._translate(method, path, error, session_id, base)
                translated.after_retry = unreachable > 0
                raise translated from None

    def _send(self, method: str, path: str, body: Any, base: str, idempotency_key: str | None = None) -> Any:
        # A body is JSON to encode, or JSON already encoded (bytes).
        data = None if body is None else body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
        headers = {"accept": "application/json"}
        if idempotency_key is not None:
            # The same key on every retry of this call: the server applies it once (docs/crash-safety.md).
            headers["idempotency-key"] = idempotency_key
        if data is not None:
            headers["content-type"] = "application/json"
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return _parse_json(response.read(), method, path)
        except urllib.error.HTTPError as error:
            raw = error.read()
            retry_after = error.headers.get("retry-after") if error.headers else None
            raise _HttpError(error.code, raw, _float_or_none(retry_after)) from None
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise ServerUnreachableError(
                f"Cannot reach the atlas-gym env server at {base} ({method} {path}: {reason}). "
                "Is `atlas-gym serve` running at that address?"
            ) from None

    def _translate(
        self, method: str, path: str, error: _HttpError, session_id: str | None, base: str
    ) -> EnvServerError:
        body = _try_json(error.raw)
        message = body.get("error") if isinstance(body, dict) else None
        code = body.get("code") if isinstance(body, dict) else None
        detail = message if isinstance(message, str) else error.raw[:300].decode("utf-8", "replace")
        if error.status == 404 and session_id is not None and code in (None, "session_not_found"):
            return SessionNotFoundError(session_id, detail)
        if error.status == 401:
            return AuthenticationError(
                f"The env server at {base} refused {method} {path} (HTTP 401): {detail.rstrip('.')}. "
                "Pass EnvClient(url, token=...) the server's --token value, or the API token `serve --auth` "
                "printed (the train command and the verl loop read it from ATLAS_GYM_TOKEN).",
                401,
                code,
            )
        if error.status == 429:
            return CapacityError(f"The env server is at capacity (HTTP 429): {detail}", 429, code)
        translated = EnvServerError(f"{method} {path} failed with HTTP {error.status}: {detail}", error.status, code)
        last_seq = body.get("last_seq") if isinstance(body, dict) else None
        if code == "seq_conflict" and isinstance(last_seq, int) and not isinstance(last_seq, bool) and last_seq >= 0:
            translated.last_seq = last_seq
        return translated


class _HttpError(Exception):
    def __init__(self, status: int, raw: bytes, retry_after: float | None):
        super().__init__(status)
        self.status = status
        self.raw = raw
        self.retry_after = retry_after
        body = _try_json(raw)
        self.code = body.get("code") if isinstance(body, dict) else None


def _new_key() -> str:
    """A fresh idempotency key for one logical call (its retries reuse it)."""
    return f"py-{uuid.uuid4().hex}"


def _quote(segment: str) -> str:
    return urllib.parse.quote(str(segment), safe="")


def _parse_json(raw: bytes, method: str, path: str) -> Any:
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        raise EnvServerError(f"{method} {path}: the server answered with non-JSON text: {raw[:200]!r}") from None


def _try_json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None


def _float_or_none(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
