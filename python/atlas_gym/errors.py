"""The errors `EnvClient` raises for protocol failures (tool-level failures are data, not errors): each
says what went wrong and what to do about it."""

from __future__ import annotations


class EnvServerError(Exception):
    """A request the env server refused or could not answer."""

    def __init__(self, message: str, status: int | None = None, code: str | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        #: Whether the request had been retried after the server was unreachable (e.g. restarting).
        self.after_retry = False
        #: For a `409 seq_conflict`: the number of the session's call the server last applied.
        self.last_seq: int | None = None


class ServerUnreachableError(EnvServerError):
    """No HTTP answer at all: the server is not running, or not at this address."""


class AuthenticationError(EnvServerError):
    """HTTP 401: the server wants a bearer token (`--token`) and got none or a wrong one."""


class SessionNotFoundError(EnvServerError):
    """The session is gone: deleted, reaped after sitting idle past the TTL, or the server restarted."""

    def __init__(self, session_id: str, detail: str = ""):
        message = (
            f"Session {session_id} no longer exists on the env server: it may have been reaped after sitting "
            "idle past the server's --session-ttl, been deleted, or the server restarted. Open a new session."
        )
        super().__init__(message + (f" (server said: {detail})" if detail else ""), 404, "session_not_found")
        self.session_id = session_id


class CapacityError(EnvServerError):
    """HTTP 429 still answered after every retry: too many open sessions (`--max-sessions`)."""
