"""The learning recipe's last stage: the paired change from the before to the after evaluation, by
`atlas-gym compare` over the same tasks (here a policy that does nothing, then the reference solutions)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from atlas_gym.config import load_config
from atlas_gym.recipe import atlas_gym_eval, change_stage
from atlas_gym.server_process import REPO_ROOT


def test_the_change_is_paired_over_the_evaluated_tasks(tmp_path: Path):
    config = replace(load_config(REPO_ROOT / "configs" / "learn-cpu.yaml"), output_dir=str(tmp_path))
    tasks = ["--scenarios", "jira-comment-v1", "--split", "train", "--levels", "1", "--n", "6", "--seed", "0"]
    before = atlas_gym_eval(["--model", "policy:noop", *tasks], tmp_path / "eval-before")
    after = atlas_gym_eval(["--model", "policy:reference", *tasks], tmp_path / "eval-after")
    change = change_stage(config)
    for key in ("mean_reward", "pass_rate"):
        delta = after["overall"][key] - before["overall"][key]
        assert change[key]["delta"] == round(delta, 6) and delta > 0.5
        low, high = change[key]["delta_ci"]
        assert 0 < low <= change[key]["delta"] <= high
    written = json.loads((tmp_path / "eval-compare" / "compare.json").read_text())
    assert written["overall"]["tasks"] == 6 and written["common_tasks"] is False
