"""How `EnvClient` numbers the tool calls of each session (`seq`, 1, 2, ... per session), so that a call
retried across a server restart is never applied twice (docs/crash-safety.md):

- threads calling one session take turns (its calls are numbered in order; sessions run in parallel);
- a call takes the next number and gives it back when it was not applied: the server refused it with a
  4xx answer (`refused`), or it was never sent;
- a call whose outcome is unknown keeps its number, so the next call is never taken for a retry of it;
- a `409 seq_conflict` names the server's count (`last_seq`), from which the client takes it up again.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

#: Most sessions whose state a client keeps (sessions never closed: the oldest is forgotten).
MAX_TRACKED_SESSIONS = 65_536

# Error answers that do not say whether the request was applied: a fleet worker stopped, or did not come
# back, while the request was with it (src/server/fleet/fleet-proxy.ts). Any 5xx is taken the same way
# (an internal error may come after the call ran); a 4xx with a `code` is the server refusing the
# request, which then changed nothing.
_OUTCOME_UNKNOWN_CODES = frozenset({"worker_lost", "worker_unavailable"})


class _Answered(Protocol):
    status: int | None
    code: str | None


def refused(error: _Answered) -> bool:
    """Whether an error is the server's answer refusing a request, which then changed nothing (rather than
    no answer, or an answer that does not say whether the request was applied)."""
    return (
        error.status is not None
        and 400 <= error.status < 500
        and error.code is not None
        and error.code not in _OUTCOME_UNKNOWN_CODES
    )


class _Numbered:
    """One session's count of calls and the lock its calls take turns under."""

    def __init__(self) -> None:
        self.count = 0
        self.turn = threading.Lock()


class CallNumbers:
    """Each session's call count and turn, for any number of threads (bounded: MAX_TRACKED_SESSIONS)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sessions: dict[str, _Numbered] = {}

    def _of(self, session_id: str) -> _Numbered:
        with self._lock:
            numbered = self._sessions.get(session_id)
            if numbered is None:
                numbered = self._sessions[session_id] = _Numbered()
                if len(self._sessions) > MAX_TRACKED_SESSIONS:
                    self._sessions.pop(next(iter(self._sessions)))
            return numbered

    @contextmanager
    def turn(self, session_id: str) -> Iterator[None]:
        """Holds the session's turn: its calls run one at a time."""
        with self._of(session_id).turn:
            yield

    def take(self, session_id: str) -> int:
        """The session's next number, taken."""
        return self.set(session_id, None)

    def set(self, session_id: str, seq: int | None) -> int:
        """Sets the session's count to `seq` (None: the next number) and returns it."""
        numbered = self._of(session_id)
        with self._lock:
            numbered.count = numbered.count + 1 if seq is None else seq
            return numbered.count

    def give_back(self, session_id: str, seq: int) -> None:
        """Returns the number of a call that was not applied, for the next call to take."""
        numbered = self._of(session_id)
        with self._lock:
            if numbered.count == seq:  # unless a later call took a number meanwhile
                numbered.count = seq - 1

    def forget(self, session_id: str) -> None:
        """Drops a closed session's count."""
        with self._lock:
            self._sessions.pop(session_id, None)
