"""Parts of the multi-node rollout test that Ray ships to other processes or that stand between them:

- `ScriptedLLM`: verl's LLM server client stood in by a script (no weights). It is pickled into every
  AgentLoopWorker actor, so it loads its tokenizer there. Within a GRPO group (the uid before '/' in the
  request id) the first trajectory of each batch to start solves a jira-transition task and the others
  guess a transition that does not exist; on other families it reads one issue and answers. The test
  sizes the batch so that each worker's contiguous chunk of the interleaved batch holds whole groups, so
  each group's rewards are the same multiset in every batch, whichever trajectory happens to start first
  (the env server answers a task's seed identically).
- `RecordingProxy`: a loopback HTTP hop in front of an env server that records every request and every
  `/score` answer, by session, independently of the agent loop. When the server behind it is down it
  drops the connection unanswered, as the server itself would look to the client.
- `free_port`, `ray_cluster`: a loopback Ray cluster of several nodes (`ray.cluster_utils.Cluster`).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import socket
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import psutil

from atlas_gym.testing import tool_call_text, transition_policy

SCORE = re.compile(r"^/v1/sessions/([^/]+)/score$")


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class ScriptedLLM:
    """Token-in/token-out like verl's LLM server client; see the module docstring for the script."""

    def __init__(self, model_dir: str, group_size: int):
        self.model_dir = model_dir
        self.group_size = group_size
        self._tokenizer = None
        self._rank: dict[str, int] = {}
        self._starts: Counter[str] = Counter()

    def __getstate__(self) -> dict[str, Any]:
        return {"model_dir": self.model_dir, "group_size": self.group_size}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["model_dir"], state["group_size"])

    @property
    def tokenizer(self):
        if self._tokenizer is None:
            from transformers import AutoTokenizer

            self._tokenizer = AutoTokenizer.from_pretrained(self.model_dir)
        return self._tokenizer

    @tokenizer.setter
    def tokenizer(self, value) -> None:  # verl sets it when rollout tracing decodes tokens
        self._tokenizer = value

    def answer(self, text: str, request_id: str) -> str:
        group = request_id.split("/")[0]
        if request_id not in self._rank:
            self._rank[request_id] = self._starts[group] % self.group_size  # the same manager runs batches
            self._starts[group] += 1
        rank = self._rank[request_id]
        if "jira_transition_issue" in text:
            try:
                return transition_policy(text, 0 if rank == 0 else 1)
            except (AttributeError, KeyError, ValueError, StopIteration, IndexError):
                pass  # not a task that script can read: the generic answer below
        if "<tool_response>" in text:
            return "Done.<|im_end|>"
        return tool_call_text("jira_get_issue", {"issueIdOrKey": "ENG-1"})

    async def generate(self, request_id: str, *, prompt_ids: list[int], sampling_params: dict[str, Any], **_: Any):
        from verl.workers.rollout.replica import TokenOutput

        text = self.tokenizer.decode(prompt_ids, skip_special_tokens=False)
        ids = self.tokenizer.encode(self.answer(text, request_id), add_special_tokens=False)
        return TokenOutput(token_ids=ids, log_probs=[0.0] * len(ids), stop_reason="stop")


class RecordingProxy:
    """Forwards to `upstream` (host:port); records requests and /score answers (see the module docstring)."""

    def __init__(self, upstream_port: int):
        self.upstream_port = upstream_port
        self.scores: dict[str, float] = {}
        self.requests: list[tuple[float, str, str]] = []
        self.tool_calls = 0
        self.lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _forward(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else None
                try:
                    upstream = http.client.HTTPConnection("127.0.0.1", proxy.upstream_port, timeout=60)
                    headers = {k: v for k, v in self.headers.items() if k.lower() != "connection"}
                    upstream.request(self.command, self.path, body=body, headers=headers)
                    answer = upstream.getresponse()
                    data = answer.read()
                    upstream.close()
                except OSError:
                    self.close_connection = True  # no answer at all: the client treats it as unreachable
                    return
                proxy._record(self.command, self.path, answer.status, data)
                self.send_response(answer.status)
                for key, value in answer.getheaders():
                    if key.lower() not in ("content-length", "connection", "transfer-encoding"):
                        self.send_header(key, value)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_DELETE = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _record(self, method: str, path: str, status: int, data: bytes) -> None:
        with self.lock:
            self.requests.append((time.monotonic(), method, path))
            if "/tools/" in path:
                self.tool_calls += 1
            match = SCORE.match(path.split("?")[0])
            if match and status == 200:
                self.scores[match.group(1)] = float(json.loads(data)["reward"])

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# For a loaded 2-core box: no idle worker processes started ahead of need, and the waits Ray allows a
# node's agents, a worker process (importing verl and torch) and a health check raised from seconds to
# minutes. The raylets and GCS read them from their environment.
RAY_SETTINGS = {
    "RAY_enable_worker_prestart": "0",
    "RAY_prestart_worker_first_driver": "0",
    "RAY_agent_register_timeout_ms": "120000",
    "RAY_worker_register_timeout_seconds": "300",
    "RAY_health_check_timeout_ms": "60000",
    "RAY_raylet_start_wait_time_s": "120",
    "RAY_USAGE_STATS_ENABLED": "0",
}
STARTS = 3  # tries at starting the Ray cluster (a node may time out on a loaded machine)


def ray_cluster(nodes: int, cpus_per_node: int, python_path: str):
    """A Ray cluster of `nodes` nodes on loopback, with the driver connected; returns the Cluster.

    Each node gets its own loopback address (127.0.0.2, 127.0.0.3, ...), as each machine of a real cluster
    has its own: Ray 2.60 rewrites 127.0.0.1 (and "localhost") in an address to the machine's routable IP
    (`services.resolve_ip_for_localhost`), where a node bound to loopback is not listening; other 127.x
    addresses are taken as they are. The same flags as `ray start --head --node-ip-address=...` and
    `ray start --address=<head>:<port> --node-ip-address=...` (docs/multi-node.md).
    """
    import ray
    from ray.cluster_utils import Cluster

    for key, value in RAY_SETTINGS.items():
        os.environ.setdefault(key, value)
    head_ip = node_ip(0)
    for attempt in range(1, STARTS + 1):
        before = {p.pid for p in psutil.Process().children(recursive=True)}
        cluster = Cluster(shutdown_at_exit=True)
        try:
            with patient_node_lookup():
                cluster.add_node(
                    include_dashboard=False, gcs_server_port=free_port(head_ip), **node_args(head_ip, cpus_per_node)
                )
                for k in range(1, nodes):
                    cluster.add_node(**node_args(node_ip(k), cpus_per_node))
            cluster.wait_for_nodes(timeout=120)
            break
        except Exception as error:  # noqa: BLE001 - Ray raises a bare Exception when a node times out
            cluster.shutdown()
            # A node that timed out is not in the Cluster, so shutdown() misses its processes: end them.
            for process in psutil.Process().children(recursive=True):
                if process.pid not in before:
                    process.kill()
            if attempt == STARTS:
                raise RuntimeError(
                    f"Could not start a {nodes}-node Ray cluster on loopback in {STARTS} tries: {error}"
                ) from error
    ray.init(
        address=cluster.address,
        _node_ip_address=head_ip,
        runtime_env={"env_vars": {"PYTHONPATH": python_path}},
    )
    return cluster


@contextlib.contextmanager
def patient_node_lookup(wait_s: float = 240.0):
    """Ray's `Node` gives a starting raylet a fixed 30 s to register with the GCS (a literal in
    `ray/_private/node.py`), which a 2-core machine busy with other work can miss. While nodes start,
    `services.get_node` (what that loop polls) keeps asking for up to `wait_s` before it reports the node
    missing; nothing else about the node changes."""
    from ray._private import services

    original = services.get_node

    def get_node(*args: Any, **kwargs: Any):
        deadline = time.monotonic() + wait_s
        while True:
            try:
                return original(*args, **kwargs)
            except RuntimeError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    services.get_node = get_node
    try:
        yield
    finally:
        services.get_node = original


def node_args(ip: str, cpus: int) -> dict[str, Any]:
    """One node's RayParams: its address, CPUs, and its agents' ports chosen up front, so that the raylet
    does not wait for the agents to report the ports they picked (slow when the cores are busy)."""
    return {
        "node_ip_address": ip,
        "num_cpus": cpus,
        "node_manager_port": free_port(ip),
        "metrics_agent_port": free_port(ip),
        "runtime_env_agent_port": free_port(ip),
        "dashboard_agent_listen_port": free_port(ip),
        "metrics_export_port": free_port(ip),
    }


def node_ip(k: int) -> str:
    """The loopback address of the k-th simulated Ray node."""
    return f"127.0.0.{2 + k}"
