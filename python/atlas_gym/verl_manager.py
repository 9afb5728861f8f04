"""verl's AgentLoopManager for atlas-gym runs across a Ray cluster (verl==0.9.1 exactly).

Two things the stock manager leaves to chance when rollouts span nodes and env servers:

- An env server that is down (or not routable from the driver) is reported before any AgentLoopWorker is
  created, naming each unreachable URL from the agent-loop config, instead of surfacing as failed
  trajectories minutes into the first batch.
- A lost AgentLoopWorker (its actor killed, its node's raylet gone) fails the batch with
  `TrajectoriesLostError`, naming the trajectories that were on it (task id, GRPO group uid, priority),
  never with a reward of 0 that a trainer would count as the model's. The other workers finish their
  chunks first (their sessions scored and closed); the lost ones' sessions are reaped by the env
  server's `--session-ttl`.

For verl's legacy trainer (`trainer.use_v1=false`), whose manager this subclasses; docs/multi-node.md.

Select it with `+actor_rollout_ref.rollout.agent.agent_loop_manager_class=atlas_gym.verl_manager.AtlasAgentLoopManager`.
"""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
import ray
from omegaconf import OmegaConf
from verl.experimental.agent_loop.agent_loop import AgentLoopManager
from verl.protocol import DataProto
from verl.utils.ray_utils import auto_await
from verl.utils.skip.skip_manager import SkipManager

from .client import EnvClient, EnvServerError, env_urls

LOOP_CLASS = "atlas_gym.verl_agent_loop.AtlasEnvAgentLoop"


class EnvServersUnavailableError(RuntimeError):
    """Raised before any rollout when env servers named in the agent-loop config do not answer /health."""


class TrajectoriesLostError(RuntimeError):
    """Raised when an AgentLoopWorker dies mid-batch; `lost` names the trajectories that were on it."""

    def __init__(self, message: str, lost: list[dict[str, Any]]):
        super().__init__(message)
        self.lost = lost


def configured_env_urls(config) -> list[str]:
    """Every env-server URL the atlas_env entries of the agent-loop config name (in order, once each)."""
    from verl.utils.import_utils import resolve_config_path

    path = config.actor_rollout_ref.rollout.agent.agent_loop_config_path
    if not path:
        return []
    urls: list[str] = []
    for entry in OmegaConf.load(resolve_config_path(path)):
        if entry.get("_target_") == LOOP_CLASS and entry.get("env_url") is not None:
            value = entry.env_url
            value = list(value) if OmegaConf.is_list(value) else value
            urls += [u for u in env_urls(value) if u not in urls]
    return urls


def check_env_servers(urls: list[str], token: str | None = None, timeout: float = 5.0) -> None:
    """Raises EnvServersUnavailableError naming each URL whose /health does not answer."""
    down = []
    for url in urls:
        client = EnvClient(url, token=token, timeout=timeout, restart_retries=0)
        try:
            client.health()
        except EnvServerError as error:
            down.append(f"{url} ({error})")
    if down:
        raise EnvServersUnavailableError(
            f"{len(down)} of {len(urls)} env servers do not answer /health, so no rollout was started: "
            + "; ".join(down)
            + ". Start them (atlas-gym serve --host 0.0.0.0 --journal DIR, or --workers N) at addresses every Ray node can reach."
        )


class AtlasAgentLoopManager(AgentLoopManager):
    """AgentLoopManager that checks the env servers first and names the trajectories a lost worker held."""

    async def _init_agent_loop_workers(self):
        check_env_servers(configured_env_urls(self.config))
        await super()._init_agent_loop_workers()

    @auto_await
    @SkipManager.annotate(role="rollout")
    async def generate_sequences(self, prompts: DataProto) -> DataProto:
        """The stock dispatch (one contiguous chunk per worker, a global priority per sample), except that a
        lost worker does not cut the others short: every surviving worker finishes its chunk (so its
        sessions are scored and closed) before TrajectoriesLostError names what the lost ones held."""
        if "priority" not in prompts.non_tensor_batch:
            prompts.non_tensor_batch["priority"] = np.arange(len(prompts), dtype=np.int64)
        chunks = prompts.chunk(len(self.agent_loop_workers))
        outputs = await asyncio.gather(
            *[w.generate_sequences.remote(c) for w, c in zip(self.agent_loop_workers, chunks, strict=True)],
            return_exceptions=True,
        )
        lost = [i for i, out in enumerate(outputs) if isinstance(out, ray.exceptions.RayActorError)]
        if lost:
            raise lost_trajectories(lost, chunks, outputs[lost[0]])
        failed = next((out for out in outputs if isinstance(out, BaseException)), None)
        if failed is not None:
            raise failed
        output = DataProto.concat(outputs)
        metrics = [out.meta_info.pop("metrics") for out in outputs]
        output.meta_info = {"timing": self._performance_metrics(metrics, output), **outputs[0].meta_info}
        return output


def lost_trajectories(lost: list[int], chunks: list[DataProto], error: BaseException) -> TrajectoriesLostError:
    """The error naming every trajectory of the lost workers' chunks (task id, GRPO group uid, priority)."""
    trajectories = []
    for worker in lost:
        rows = chunks[worker].non_tensor_batch
        for row in range(len(chunks[worker])):
            extra = rows["extra_info"][row] if "extra_info" in rows else None
            trajectories.append(
                {
                    "worker": worker,
                    "task_id": (extra or {}).get("task_id"),
                    "uid": str(rows["uid"][row]) if "uid" in rows else None,
                    "priority": int(rows["priority"][row]),
                }
            )
    names = ", ".join(f"{t['task_id']} (uid {t['uid']})" for t in trajectories[:8])
    more = f" and {len(trajectories) - 8} more" if len(trajectories) > 8 else ""
    workers = ", ".join(str(w) for w in lost)
    return TrajectoriesLostError(
        f"agent loop worker {workers} died mid-batch ({type(error).__name__}); its {len(trajectories)} "
        f"trajectories have no reward and the batch was not returned: {names}{more}. The other workers "
        "finished theirs; the lost ones' env sessions are reaped after the servers' --session-ttl.",
        trajectories,
    )
