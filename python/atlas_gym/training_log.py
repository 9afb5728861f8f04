"""The per-step training log (`<output_dir>/training_log.jsonl`) and early stopping, as a transformers
TrainerCallback. Rewards come from the env server (the ledger the environments fill as TRL asks for
each rollout's reward); KL, completion length and the gradient norm come from TRL's own metrics of the same step.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

from .stats import EarlyStopping, step_summary
from .trl import Ledger

# TRL metric → log field, taken from the TRL log of the step.
TRL_FIELDS = {
    "kl": "kl",
    "completions/mean_length": "mean_completion_length",
    "reward": "trl_reward",
    "grad_norm": "grad_norm",
}


class TrainingLogCallback(TrainerCallback):
    """Writes the log from the first step on (a run that fails before it leaves no empty log). A resumed
    run (`resumed_at`: the checkpoint's step) keeps the earlier lines up to that step and appends."""

    def __init__(
        self,
        ledger: Ledger,
        group_size: int,
        output_dir: str | Path,
        early_stopping: EarlyStopping | None,
        resumed_at: int | None = None,
    ):
        self.ledger = ledger
        self.group_size = group_size
        self.path = Path(output_dir) / "training_log.jsonl"
        self.resumed_at = resumed_at
        self.started = False
        self.early_stopping = early_stopping
        self.pending: list[dict[str, Any]] = []
        self.lines: list[dict[str, Any]] = []
        self.stopped_early_at: int | None = None

    def on_step_end(self, args, state, control, **kwargs):
        episodes = self.ledger.drain()
        summary = (
            step_summary([e.reward for e in episodes], self.group_size, [e.tool_calls for e in episodes])
            if episodes
            else step_summary([], self.group_size)
        )
        line: dict[str, Any] = {"step": state.global_step, **summary}
        line.update({name: None for name in TRL_FIELDS.values()})
        if self.early_stopping is not None:
            stop = self.early_stopping.update(summary["mean_reward"])
            line["rolling_mean_reward"] = self.early_stopping.rolling_mean
            if stop:
                self.stopped_early_at = state.global_step
                line["early_stop"] = True
                control.should_training_stop = True
                control.should_save = True
                control.should_log = True
        self.pending.append(line)
        return control

    def on_log(self, args, state, control, logs=None, **kwargs):
        logs = logs or {}
        for line in self.pending:
            for source, target in TRL_FIELDS.items():
                value = logs.get(source)
                if isinstance(value, (int, float)) and math.isfinite(value):
                    line[target] = float(value)
        self._flush()

    def on_train_end(self, args, state, control, **kwargs):
        self._flush()

    def _flush(self) -> None:
        if not self.pending:
            return
        if not self.started:
            self._start()
        with self.path.open("a", encoding="utf-8") as out:
            for line in self.pending:
                out.write(json.dumps(line) + "\n")
        self.lines.extend(self.pending)
        self.pending = []

    def _start(self) -> None:
        self.started = True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        kept = []
        if self.resumed_at is not None and self.path.exists():
            kept = [
                line
                for line in self.path.read_text(encoding="utf-8").splitlines()
                if line.strip() and json.loads(line).get("step", 0) <= self.resumed_at
            ]
        self.path.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
