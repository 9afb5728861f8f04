"""The Python package reports the project's one version (package.json), as the CLI and /health do."""

import json
from pathlib import Path

import atlas_gym


def test_the_version_is_the_projects():
    package = json.loads((Path(__file__).resolve().parents[2] / "package.json").read_text())
    assert atlas_gym.__version__ == package["version"]
