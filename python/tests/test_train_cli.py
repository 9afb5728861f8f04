"""`python -m atlas_gym.train`: bad configs and unknown scenarios end with exit code 2 and a clear message
before any model is loaded; without --server it starts and stops its own env server."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from atlas_gym.config import load_config
from atlas_gym.train import main


def stub_model(tmp_path: Path) -> Path:
    """A directory that passes the preflight's model check (nothing here loads it)."""
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    return model


def test_an_invalid_config_is_reported_by_path(tmp_path: Path, capsys):
    config = tmp_path / "bad.yaml"
    config.write_text("model: m\nscenarios: [jira-transition-v1]\nnum_generations: 1\n")
    assert main(["--config", str(config)]) == 2
    assert "num_generations: Too small: expected number to be >=2" in capsys.readouterr().err


def test_an_unknown_scenario_is_refused_by_the_server_it_started(tmp_path: Path, capsys):
    config = tmp_path / "c.yaml"
    config.write_text(f"model: {stub_model(tmp_path)}\nscenarios: [jira-transition-v1]\noutput_dir: {tmp_path / 'run'}\n")
    resolved = {**asdict(load_config(config)), "scenarios": ["jira-transition-v9"]}  # past the TS validator
    assert main(["--config-json", json.dumps(resolved)]) == 2
    out = capsys.readouterr()
    assert "env server started at http://127.0.0.1:" in out.out
    assert "unknown on this server: jira-transition-v9" in out.err and "jira-transition-v1" in out.err


def test_an_unreachable_server_is_a_clear_error(tmp_path: Path, capsys):
    config = tmp_path / "c.yaml"
    config.write_text(f"model: {stub_model(tmp_path)}\nscenarios: [jira-transition-v1]\n")
    assert main(["--config", str(config), "--server", "http://127.0.0.1:9"]) == 2
    assert "Cannot reach the atlas-gym env server at http://127.0.0.1:9" in capsys.readouterr().err
