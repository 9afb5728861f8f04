"""Preflight: every problem that would stop a run is found before any work starts, one line each, and a
run that fails it leaves nothing behind (no output directory, no empty training log)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from atlas_gym.config import VllmSettings, load_config
from atlas_gym.preflight import check_accelerators, check_environment, check_model, check_reporting, check_resume
from atlas_gym.server_process import REPO_ROOT
from atlas_gym.train import main

REQUIREMENTS = REPO_ROOT / "python" / "requirements.txt"


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    path = tmp_path_factory.mktemp("cfg") / "c.yaml"
    path.write_text("model: Qwen/Qwen3-1.7B\nscenarios: [jira-transition-v1]\n")
    return load_config(path)


def test_the_python_environment_must_have_the_pinned_versions():
    assert check_environment(REQUIREMENTS) == []  # this venv is built from those pins
    versions = {"trl": "1.12.0", "torch": "2.13.0+cu130"}
    problems = check_environment(REQUIREMENTS, lambda name: versions.get(name, None))
    assert "python environment: trl 1.12.0 is installed, python/requirements.txt pins 1.13.0" in problems[-1] or any(
        "trl 1.12.0 is installed, python/requirements.txt pins 1.13.0" in p for p in problems
    )
    assert not any(p.startswith("python environment: torch") for p in problems)  # a CUDA build of the pin is fine
    assert any("peft is not installed" in p for p in problems)
    assert all("\n" not in p for p in problems)


def test_the_model_must_be_reachable(config, tmp_path, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert check_model(replace(config, model=str(empty))) == [f"model: {empty} is a directory without config.json (not a saved model)"]
    missing = str(tmp_path / "nope")
    assert "no directory" in check_model(replace(config, model=missing))[0]
    assert check_model(replace(config, model=missing, build_model_if_missing="tiny-random-qwen3")) == []
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert check_model(replace(config, model="nobody/not-cached")) == [
        "model: nobody/not-cached is not in the local Hugging Face cache and HF_HUB_OFFLINE is set"
    ]
    monkeypatch.delenv("HF_HUB_OFFLINE")

    def unreachable(model):
        raise ConnectionError("Name or service not known")

    assert check_model(replace(config, model="nobody/not-cached"), hub_lookup=unreachable) == [
        "model: nobody/not-cached is neither a local directory nor reachable on the Hugging Face Hub "
        "(Name or service not known)"
    ]
    assert check_model(replace(config, model="nobody/found"), hub_lookup=lambda m: None) == []


def test_vllm_and_cuda_only_when_the_config_asks(config):
    assert check_accelerators(config) == []
    with_vllm = replace(config, vllm=VllmSettings(enabled=True, mode="colocate"))
    problems = check_accelerators(with_vllm, cuda=lambda: False)
    assert problems == [
        'vllm.enabled: vLLM is not installed (pip install "trl[vllm]==1.13.0" on the GPU machine)',
        "vllm.enabled: no CUDA device is visible to torch (vLLM needs a GPU; disable vllm on CPU)",
    ]


def test_reporting_integrations_and_resume_checkpoints(config, tmp_path):
    assert check_reporting(replace(config, report_to=["wandb"])) == ["report_to: wandb is not installed (pip install wandb)"]
    assert check_resume(None) == []
    assert "is not a checkpoint" in check_resume(str(tmp_path))[0]
    (tmp_path / "trainer_state.json").write_text("{}")
    assert check_resume(str(tmp_path)) == []


def test_a_failed_preflight_exits_2_with_one_line_per_problem_and_leaves_nothing(tmp_path: Path, capsys):
    out = tmp_path / "run"
    path = tmp_path / "c.yaml"
    path.write_text(
        f"model: {tmp_path / 'no-model'}\nscenarios: [jira-transition-v1]\nreport_to: [wandb]\n"
        f"vllm: {{enabled: true}}\noutput_dir: {out}\n"
    )
    assert main(["--config", str(path), "--resume", str(tmp_path / "ckpt")]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert all(line.startswith("error: preflight: ") for line in lines)
    assert [line.split(": ")[2] for line in lines] == ["model", "vllm.enabled", "vllm.enabled", "report_to", "--resume"]
    assert not out.exists()
