"""Pure training statistics: the per-step reward summary written to training_log.jsonl and the
early-stopping rule. No torch, no TRL: these are plain functions over the rewards the env server gave.

Groups follow GRPO (group-relative advantages, docs/training.md): the rewards of one step arrive in
TRL's sample order, where the G completions of one prompt are consecutive, so group k is
rewards[k*G:(k+1)*G]. A reward of None (no score: the session was gone) is left out, as TRL does with NaN.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def sample_std(values: Sequence[float]) -> float:
    """Bessel-corrected standard deviation (torch.std, TRL's nanstd); 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    mu = sum(values) / len(values)
    return math.sqrt(sum((v - mu) ** 2 for v in values) / (len(values) - 1))


def groups(rewards: Sequence[float | None], group_size: int) -> list[list[float]]:
    """Splits a step's rewards into its GRPO groups, dropping unscored (None) rollouts."""
    if group_size < 1:
        raise ValueError(f"group_size must be at least 1, got {group_size}")
    if len(rewards) % group_size != 0:
        raise ValueError(f"{len(rewards)} rewards do not split into groups of {group_size}")
    chunks = [rewards[i : i + group_size] for i in range(0, len(rewards), group_size)]
    return [[r for r in chunk if r is not None] for chunk in chunks]


def step_summary(
    rewards: Sequence[float | None],
    group_size: int,
    tool_calls: Sequence[int] = (),
) -> dict[str, float | int | None]:
    """The reward summary of one training step.

    mean/min/max over every scored rollout; std_reward is the mean of the per-group standard deviations
    (what TRL logs as reward_std); zero_variance_share is the share of groups whose rewards are all
    equal, which give GRPO no learning signal.
    """
    scored = [r for r in rewards if r is not None]
    grouped = [g for g in groups(rewards, group_size) if g]
    return {
        "mean_reward": mean(scored),
        "min_reward": min(scored) if scored else None,
        "max_reward": max(scored) if scored else None,
        "std_reward": mean([sample_std(g) for g in grouped]),
        "zero_variance_share": mean([1.0 if max(g) - min(g) == 0 else 0.0 for g in grouped]),
        "groups": len(grouped),
        "rollouts": len(rewards),
        "unscored": len(rewards) - len(scored),
        "mean_tool_calls": mean([float(c) for c in tool_calls]),
    }


def group_advantages(rewards: Sequence[float], group_size: int, scale: str = "group") -> list[float]:
    """GRPO's group-relative advantages as TRL computes them (grpo_trainer.py, `scale_rewards`):
    A_i = r_i − mean of its group, divided by (the group's Bessel std + 1e-4) for "group"; "none" is
    Dr. GRPO's unscaled difference. A group whose rewards are all equal gets A = 0: no learning signal."""
    if scale not in ("group", "none"):
        raise ValueError(f"scale must be 'group' or 'none', got {scale!r}")
    advantages = []
    for group in groups(rewards, group_size):
        mu = sum(group) / len(group)
        divisor = sample_std(group) + 1e-4 if scale == "group" else 1.0
        advantages += [(r - mu) / divisor for r in group]
    return advantages


class EarlyStopping:
    """Stops when the mean of the last `window` step mean rewards reaches `threshold` (the paper: 0.95)."""

    def __init__(self, window: int, threshold: float):
        if window < 1:
            raise ValueError(f"early_stopping.window must be at least 1, got {window}")
        self.window = window
        self.threshold = threshold
        self._recent: deque[float] = deque(maxlen=window)

    def update(self, step_mean_reward: float | None) -> bool:
        """Adds one step's mean reward (None: no scored rollout, skipped); True when training should stop."""
        if step_mean_reward is not None:
            self._recent.append(step_mean_reward)
        return self.full and self.rolling_mean >= self.threshold  # type: ignore[operator]

    @property
    def full(self) -> bool:
        return len(self._recent) == self.window

    @property
    def rolling_mean(self) -> float | None:
        return mean(list(self._recent))
