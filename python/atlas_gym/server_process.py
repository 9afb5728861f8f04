"""Starts `atlas-gym serve` (the TypeScript env server) as a child process and stops it cleanly.

Used by `python -m atlas_gym.train` when no --server URL is given, and by the tests, which run against
the real server. The server prints its URL on start-up; with `--port 0` (the default) the OS picks a free
port; a fixed `port` lets a test restart a killed server where its clients expect it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
from collections import deque
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
_URL = re.compile(r"https?://[\w.\-\[\]:]+")


class EnvServerProcess:
    """A running `atlas-gym serve`; use as a context manager or call stop()."""

    def __init__(
        self,
        args: list[str] | None = None,
        repo_root: Path = REPO_ROOT,
        start_timeout: float = 60.0,
        port: int = 0,
    ):
        binary = repo_root / "bin" / "atlas-gym"
        if not binary.exists():
            raise FileNotFoundError(f"{binary} not found: run from an atlas-gym checkout, or pass --server <url>")
        command = [str(binary), "serve", "--port", str(port), *(args or [])]
        self.output: deque[str] = deque(maxlen=200)
        self.process = subprocess.Popen(
            command,
            cwd=repo_root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # Ctrl-C in the terminal reaches us; we stop the server ourselves
        )
        self.url = self._wait_for_url(start_timeout)
        threading.Thread(target=self._drain, daemon=True).start()

    def _wait_for_url(self, timeout: float) -> str:
        found: list[str] = []

        def read() -> None:
            assert self.process.stdout is not None
            for line in self.process.stdout:
                self.output.append(line.rstrip())
                match = _URL.search(line)
                if match:
                    found.append(match.group(0))
                    return

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(timeout)
        if not found:
            self.stop()
            tail = "\n".join(self.output)
            raise RuntimeError(f"atlas-gym serve did not print its URL within {timeout:.0f} s. Its output:\n{tail}")
        return found[0]

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line.rstrip())

    def stop(self, timeout: float = 10.0) -> None:
        if self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        except ProcessLookupError:
            pass

    def __enter__(self) -> EnvServerProcess:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()
