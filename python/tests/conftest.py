"""Shared fixtures: the real TypeScript env server (`atlas-gym serve --port 0`, one per test session) and
a scripted standard-library fake server for the client's error paths."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from atlas_gym.client import EnvClient
from atlas_gym.server_process import EnvServerProcess

os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")  # TRL warns that environment_factory is experimental


@pytest.fixture(scope="session")
def env_server() -> Iterator[EnvServerProcess]:
    with EnvServerProcess() as server:
        yield server


@pytest.fixture()
def client(env_server: EnvServerProcess) -> EnvClient:
    return EnvClient(env_server.url)


class FakeServer:
    """Answers each request with the next scripted (status, body, headers) and records what it got."""

    def __init__(self) -> None:
        self.answers: list[tuple[int, Any, dict[str, str]]] = []
        self.requests: list[dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                fake.requests.append(
                    {
                        "method": self.command,
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": raw,
                    }
                )
                status, body, headers = (
                    fake.answers.pop(0) if fake.answers else (500, {"error": "no answer scripted"}, {})
                )
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status)
                for name, value in {"content-type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_DELETE = _answer

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def script(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self.answers.append((status, body, headers or {}))

    def json_body(self, i: int) -> Any:
        return json.loads(self.requests[i]["body"])


@pytest.fixture()
def fake() -> Iterator[FakeServer]:
    server = FakeServer()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()
