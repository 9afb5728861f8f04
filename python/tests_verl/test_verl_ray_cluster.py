"""GRPO rollouts across a real Ray cluster: two Ray nodes on loopback (`ray.cluster_utils.Cluster`), verl
0.9.1's own AgentLoopManager (atlas-gym's subclass, atlas_gym/verl_manager.py) with four AgentLoopWorker
actors spread over both nodes, the `atlas_env` loop registered from the agent-loop config that
`atlas-gym export --format verl` writes for two env servers (`atlas-gym serve --journal`), a scripted
generation backend (cluster_support.ScriptedLLM: no weights), and a batch of 16 prompts over four task
families with rollout.n = 4 (64 trajectories, four whole GRPO groups per worker). A recording hop in front of each env server sees every `/score` answer, independently of
the loop. Faults: an env server killed with SIGKILL mid-batch and restarted on its port from its journal;
an AgentLoopWorker actor killed mid-batch; an env server down before the batch starts. The commands, as
a recipe for a real cluster, are in docs/multi-node.md."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
import torch
from cluster_support import RecordingProxy, ScriptedLLM, free_port, ray_cluster
from conftest import build_model_dir, verl_config

from atlas_gym.client import EnvClient
from atlas_gym.server_process import REPO_ROOT, EnvServerProcess

ray = pytest.importorskip("ray")

FAMILIES = "jira-transition-v1,jira-comment-v1,jira-assign-v1,jira-edit-fields-v1"
TASKS_PER_FAMILY = 4  # 16 prompts x rollout.n 4 = 64 trajectories: 16 per worker, four whole groups each
N = 4
WORKERS = 4
CLEAN: dict[str, list[float]] = {}  # per GRPO group (task id), the sorted rewards of the fault-free batch


class EnvServer:
    """`atlas-gym serve --journal DIR` on a fixed port behind a RecordingProxy; restartable after kill -9."""

    def __init__(self, journal: Path):
        self.port, self.journal = free_port(), journal
        self.process = self._start()
        self.proxy = RecordingProxy(self.port)

    def _start(self) -> EnvServerProcess:
        return EnvServerProcess(["--journal", str(self.journal)], port=self.port)

    def kill_and_restart(self) -> None:
        os.kill(self.process.process.pid, signal.SIGKILL)
        self.process.process.wait()
        self.process = self._start()

    def open_sessions(self) -> list[dict]:
        return EnvClient(f"http://127.0.0.1:{self.port}")._request("GET", "/v1/sessions")["sessions"]


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    started = [EnvServer(tmp_path_factory.mktemp(f"journal{k}")) for k in range(2)]
    yield started
    for server in started:
        server.proxy.close()
        server.process.stop()


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory, servers) -> Path:
    return build_model_dir(tmp_path_factory.mktemp("qwen3"), EnvClient(servers[0].proxy.url), "qwen3")


@pytest.fixture(scope="module")
def cluster():
    python_path = os.pathsep.join([str(REPO_ROOT / "python"), str(Path(__file__).parent)])
    started = ray_cluster(nodes=2, cpus_per_node=3, python_path=python_path)
    yield started
    ray.shutdown()
    started.shutdown()


@pytest.fixture(scope="module")
def manager(model_dir, servers, cluster, exported):
    """verl's AgentLoopManager (atlas-gym's subclass) with its workers up: shared by the fault-free batch
    and the env-server fault, which must see the same workers; `started_s` is how long creating it took."""
    from atlas_gym.verl_manager import AtlasAgentLoopManager

    _, config = batch_and_config(model_dir, *exported)
    started = time.monotonic()
    created = AtlasAgentLoopManager.create(config=config, llm_client=ScriptedLLM(str(model_dir), N))
    ray.get([w.__ray_call__.remote(lambda self: None) for w in created.agent_loop_workers], timeout=600)
    created.started_s = time.monotonic() - started
    yield created
    for worker in created.agent_loop_workers:
        ray.kill(worker)


@pytest.fixture(scope="module")
def exported(tmp_path_factory, servers) -> tuple[Path, Path]:
    out = tmp_path_factory.mktemp("data") / "train.parquet"
    urls = ",".join(s.proxy.url for s in servers)
    subprocess.run(
        [str(REPO_ROOT / "bin" / "atlas-gym"), "export", "--format", "verl", "--split", "train"]
        + ["--n", str(TASKS_PER_FAMILY), "--scenario", FAMILIES, "--out", str(out), "--env-url", urls],
        check=True,
        capture_output=True,
    )
    return out, out.parent / "agent_loop.yaml"


def batch_and_config(model_dir: Path, parquet: Path, loop_config: Path):
    from transformers import AutoTokenizer
    from verl.protocol import DataProto
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

    config = verl_config(
        model_dir,
        f"actor_rollout_ref.rollout.agent.agent_loop_config_path={loop_config}",
        f"actor_rollout_ref.rollout.n={N}",
        f"actor_rollout_ref.rollout.agent.num_workers={WORKERS}",
        "actor_rollout_ref.rollout.multi_turn.format=hermes",
        "+actor_rollout_ref.rollout.agent.agent_loop_manager_class=atlas_gym.verl_manager.AtlasAgentLoopManager",
    )
    dataset = RLHFDataset(str(parquet), AutoTokenizer.from_pretrained(model_dir), config.data)
    rows = [dataset[i] for i in range(len(dataset))]
    batch = DataProto.from_single_dict(collate_fn(rows))
    batch.non_tensor_batch["uid"] = np.array([str(uuid.UUID(int=i)) for i in range(len(batch))], dtype=object)
    return batch.repeat(repeat_times=N, interleave=True), config


def when(condition, action) -> threading.Thread:
    """Runs `action` (in a thread) as soon as `condition()` holds: a fault mid-batch. Gives up after ten
    minutes without running it (the test's own assertions then say the fault never happened)."""

    def watch() -> None:
        deadline = time.monotonic() + 600
        while not condition():
            if time.monotonic() > deadline:
                return
            time.sleep(0.01)
        action()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def rewards_by_group(output) -> dict[str, list[float]]:
    groups: dict[str, list[float]] = defaultdict(list)
    rewards = output.batch["rm_scores"].sum(dim=1).tolist()
    for row, reward in enumerate(rewards):
        groups[output.non_tensor_batch["extra_info"][row]["task_id"]].append(reward)
    return {task: sorted(values) for task, values in groups.items()}


def check_rewards_are_the_servers(output, servers) -> None:
    """Every trajectory's reward is the /score answer its env server gave for its session."""
    scores = {**servers[0].proxy.scores, **servers[1].proxy.scores}
    sessions = list(output.non_tensor_batch["env_session_id"])
    assert len(set(sessions)) == len(sessions)
    rewards = output.batch["rm_scores"].sum(dim=1).tolist()
    assert rewards == pytest.approx([scores[s] for s in sessions])


def test_a_grpo_batch_across_two_ray_nodes_and_two_env_servers(model_dir, servers, exported, manager, record_property):
    from verl.trainer.ppo.core_algos import compute_grpo_outcome_advantage

    assert len([n for n in ray.nodes() if n["Alive"]]) == 2
    batch, _ = batch_and_config(model_dir, *exported)
    assert len(batch) == 4 * TASKS_PER_FAMILY * N >= 64
    calls_before = sum(len(s.proxy.requests) for s in servers)
    started = time.monotonic()
    output = manager.generate_sequences(batch)
    wall = time.monotonic() - started
    calls = sum(len(s.proxy.requests) for s in servers) - calls_before
    record_property("workers_start_s", round(manager.started_s, 2))
    record_property("batch_wall_s", round(wall, 2))
    record_property("env_calls_per_s", round(calls / wall, 1))
    print(
        f"\n{len(output)} trajectories on {WORKERS} workers over 2 Ray nodes: workers up in {manager.started_s:.1f} s, "
        f"batch {wall:.1f} s, {calls} env calls ({calls / wall:.1f}/s)"
    )

    # The workers ran on both nodes.
    where = lambda self: ray.get_runtime_context().get_node_id()  # noqa: E731
    nodes = ray.get([w.__ray_call__.remote(where) for w in manager.agent_loop_workers])
    assert len(set(nodes)) == 2, nodes
    check_rewards_are_the_servers(output, servers)
    # Sessions went to both env servers, and none is left open on either.
    sessions = set(output.non_tensor_batch["env_session_id"])
    for server in servers:
        assert sessions & set(server.proxy.scores), "an env server got no trajectory"
        assert server.open_sessions() == []
    # Every family is in the batch, and the transition groups give GRPO something to learn from.
    CLEAN.update(rewards_by_group(output))
    assert {t.split("/")[0] for t in CLEAN} == set(FAMILIES.split(","))
    transition = [r for t, r in CLEAN.items() if t.startswith("jira-transition")]
    assert any(r[-1] > 0 and r[0] == 0 for r in transition), transition
    # GRPO advantages from the batch with verl's own function, against the formula on these rewards.
    rm_scores, mask = output.batch["rm_scores"], output.batch["response_mask"]
    uids = output.non_tensor_batch["uid"]
    advantages, _ = compute_grpo_outcome_advantage(rm_scores, mask, uids)
    rewards = rm_scores.sum(dim=1)
    for row in range(len(output)):
        group = rewards[torch.tensor([u == uids[row] for u in uids])]
        expected = (rewards[row] - group.mean()) / (group.std() + 1e-6)
        values = advantages[row][mask[row].bool()]
        assert torch.allclose(values, torch.full_like(values, expected.item()), atol=1e-4)


def test_an_env_server_killed_mid_batch_comes_back_from_its_journal_with_the_same_rewards(model_dir, servers, exported, manager):
    if not CLEAN:
        pytest.skip("needs the fault-free batch of the test above for comparison")
    batch, _ = batch_and_config(model_dir, *exported)
    victim = servers[1]
    before = victim.proxy.tool_calls
    killed: list[float] = []
    fault = when(lambda: victim.proxy.tool_calls >= before + 10, lambda: (killed.append(time.monotonic()), victim.kill_and_restart()))
    output = manager.generate_sequences(batch)
    fault.join()
    assert killed, "the env server was not killed during the batch"
    # Calls reached the restarted server after the kill: the batch really spanned the fault.
    assert any(t > killed[0] and "/tools/" in p for t, _, p in victim.proxy.requests)
    check_rewards_are_the_servers(output, servers)
    assert rewards_by_group(output) == CLEAN
    # Session openings carry idempotency keys, so not even an opening whose answer the crash lost is left.
    for server in servers:
        assert server.open_sessions() == []


def test_a_worker_actor_lost_mid_batch_fails_the_batch_naming_its_trajectories(model_dir, servers, cluster, exported):
    from atlas_gym.verl_manager import AtlasAgentLoopManager, TrajectoriesLostError

    batch, config = batch_and_config(model_dir, *exported)
    manager = AtlasAgentLoopManager.create(config=config, llm_client=ScriptedLLM(str(model_dir), N))
    ray.get([w.__ray_call__.remote(lambda self: None) for w in manager.agent_loop_workers], timeout=600)
    calls = lambda: sum(s.proxy.tool_calls for s in servers)  # noqa: E731
    before = calls()
    fault = when(lambda: calls() > before, lambda: ray.kill(manager.agent_loop_workers[1], no_restart=True))
    try:
        with pytest.raises(TrajectoriesLostError) as lost:
            manager.generate_sequences(batch)
        fault.join()
    finally:
        for worker in manager.agent_loop_workers:
            ray.kill(worker)
    chunk = len(batch) // WORKERS
    assert len(lost.value.lost) == chunk and {t["worker"] for t in lost.value.lost} == {1}
    expected = [batch.non_tensor_batch["extra_info"][row]["task_id"] for row in range(chunk, 2 * chunk)]
    assert [t["task_id"] for t in lost.value.lost] == expected
    assert [t["priority"] for t in lost.value.lost] == list(range(chunk, 2 * chunk))
    assert "agent loop worker 1 died mid-batch" in str(lost.value) and expected[0] in str(lost.value)
    # The other workers finished first: what is still open is the lost worker's own trajectories, at most.
    leftovers = [(server, s["session_id"]) for server in servers for s in server.open_sessions()]
    assert len(leftovers) <= chunk
    for server, session_id in leftovers:  # close them, as the servers' --session-ttl would
        EnvClient(f"http://127.0.0.1:{server.port}").close_session(session_id)


def test_an_env_server_down_at_start_is_reported_before_any_rollout(model_dir, servers, cluster, exported, tmp_path):
    from atlas_gym.verl_manager import AtlasAgentLoopManager, EnvServersUnavailableError

    down = f"http://127.0.0.1:{free_port()}"
    loop_config = tmp_path / "agent_loop.yaml"
    loop_config.write_text(exported[1].read_text().replace(servers[1].proxy.url, down))
    assert down in loop_config.read_text()
    batch, config = batch_and_config(model_dir, exported[0], loop_config)
    opens = lambda: sum(1 for s in servers for _, m, p in s.proxy.requests if m == "POST" and p == "/v1/sessions")  # noqa: E731
    opened = opens()
    actors = len(ray.util.list_named_actors(all_namespaces=True))
    with pytest.raises(EnvServersUnavailableError, match=f"1 of 2 env servers .*{down}"):
        AtlasAgentLoopManager.create(config=config, llm_client=ScriptedLLM(str(model_dir), N))
    assert len(ray.util.list_named_actors(all_namespaces=True)) == actors  # no worker was started
    assert opens() == opened  # and no session opened
