"""The per-step JSONL log and early stopping as a trainer callback, driven the way the Trainer drives it."""

from __future__ import annotations

import json

from transformers import TrainerControl, TrainerState

from atlas_gym.stats import EarlyStopping
from atlas_gym.training_log import TrainingLogCallback
from atlas_gym.trl import Episode, Ledger


def scored(ledger: Ledger, rewards: list[float], calls: int = 2) -> None:
    for i, reward in enumerate(rewards):
        ledger.add(Episode("jira-transition-v1", "train", i // 2, f"ses-{i}", reward, reward == 1.0, calls, 0))


def test_one_line_per_step_with_trl_metrics_and_an_early_stop(tmp_path):
    ledger = Ledger()
    callback = TrainingLogCallback(ledger, 2, tmp_path, EarlyStopping(window=2, threshold=0.95))
    state, control = TrainerState(), TrainerControl()
    steps = [[1.0, 0.0, 0.5, 0.5], [1.0, 1.0, 1.0, 0.8], [1.0, 1.0, 1.0, 1.0]]
    for step, rewards in enumerate(steps, start=1):
        state.global_step = step
        scored(ledger, rewards)
        callback.on_step_end(None, state, control)
        if step != 2:  # logging_steps > 1: step 2's line waits for the next log
            callback.on_log(
                None, state, control, logs={"kl": 0.01 * step, "completions/mean_length": 100.0, "reward": 9.0}
            )
    lines = [json.loads(line) for line in (tmp_path / "training_log.jsonl").read_text().splitlines()]
    assert [line["step"] for line in lines] == [1, 2, 3]
    assert lines[0]["mean_reward"] == 0.5 and lines[0]["zero_variance_share"] == 0.5
    assert (lines[0]["min_reward"], lines[0]["max_reward"], lines[0]["mean_tool_calls"]) == (0.0, 1.0, 2.0)
    assert lines[1]["kl"] == 0.03 and lines[1]["mean_completion_length"] == 100.0
    assert lines[2]["rolling_mean_reward"] == 0.975 and lines[2]["early_stop"] is True
    assert "early_stop" not in lines[1]
    assert control.should_training_stop and control.should_save and callback.stopped_early_at == 3


def test_pending_lines_are_written_when_training_ends(tmp_path):
    ledger = Ledger()
    callback = TrainingLogCallback(ledger, 2, tmp_path, None)
    state, control = TrainerState(global_step=1), TrainerControl()
    scored(ledger, [0.0, 0.0])
    callback.on_step_end(None, state, control)
    callback.on_train_end(None, state, control)
    [line] = [json.loads(x) for x in (tmp_path / "training_log.jsonl").read_text().splitlines()]
    assert line["zero_variance_share"] == 1.0 and line["kl"] is None and not control.should_training_stop


def test_no_file_before_the_first_step_and_a_resumed_run_keeps_the_earlier_steps(tmp_path):
    ledger = Ledger()
    callback = TrainingLogCallback(ledger, 2, tmp_path, None)
    assert not (tmp_path / "training_log.jsonl").exists()  # a run that fails before step 1 leaves no log
    earlier = [{"step": s, "mean_reward": 0.1 * s} for s in (1, 2, 3)]
    (tmp_path / "training_log.jsonl").write_text("".join(json.dumps(line) + "\n" for line in earlier))
    resumed = TrainingLogCallback(ledger, 2, tmp_path, None, resumed_at=2)  # from checkpoint-2
    state, control = TrainerState(global_step=3), TrainerControl()
    scored(ledger, [1.0, 0.0])
    resumed.on_step_end(None, state, control)
    resumed.on_train_end(None, state, control)
    lines = [json.loads(x) for x in (tmp_path / "training_log.jsonl").read_text().splitlines()]
    assert [line["step"] for line in lines] == [1, 2, 3] and lines[2]["mean_reward"] == 0.5
    assert callback.lines == []
