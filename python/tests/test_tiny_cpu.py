"""The first training command a new user runs, end to end: `atlas-gym train --config configs/tiny-cpu.yaml`
builds its tiny model offline, trains two GRPO steps on CPU against the env server and leaves the training
log, a checkpoint, the adapter, the merged model and the training report; `--resume` continues from the
checkpoint with the earlier steps kept in the log."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from atlas_gym.server_process import REPO_ROOT

BIN = str(REPO_ROOT / "bin" / "atlas-gym")


def test_the_tiny_cpu_config_trains_end_to_end_and_resumes(tmp_path: Path):
    text = (REPO_ROOT / "configs" / "tiny-cpu.yaml").read_text()
    text = text.replace("model: runs/tiny-cpu/model", f"model: {tmp_path / 'model'}")
    config = tmp_path / "tiny.yaml"
    config.write_text(text.replace("output_dir: runs/tiny-cpu", f"output_dir: {tmp_path / 'run'}"))
    done = subprocess.run([BIN, "train", "--config", str(config)], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "built a tiny random Qwen3" in done.stdout
    run = tmp_path / "run"
    assert [json.loads(line)["step"] for line in (run / "training_log.jsonl").read_text().splitlines()] == [1, 2]
    assert (run / "checkpoint-2" / "trainer_state.json").exists()
    assert (run / "final" / "adapter_config.json").exists() and (run / "merged" / "config.json").exists()
    assert "<svg" in (run / "training_report.html").read_text()
    assert "0 sessions were still open" in done.stderr

    config.write_text(config.read_text().replace("max_steps: 2", "max_steps: 3"))
    resumed = subprocess.run(
        [BIN, "train", "--config", str(config), "--resume", str(run / "checkpoint-2")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert "built a tiny random Qwen3" not in resumed.stdout  # the model exists now
    assert [json.loads(line)["step"] for line in (run / "training_log.jsonl").read_text().splitlines()] == [1, 2, 3]
    assert json.loads(resumed.stdout.strip().splitlines()[-1])["steps"] == 3
