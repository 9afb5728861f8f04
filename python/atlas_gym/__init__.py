"""atlas-gym's Python side: a standard-library client for the env server (`atlas_gym.client`), the TRL
GRPO environment class (`atlas_gym.trl`), the training entry point (`python -m atlas_gym.train`) and the
verl agent loop (`atlas_gym.verl_agent_loop`, imported only where verl is installed)."""

import json
from importlib import metadata
from pathlib import Path

from .client import EnvClient, EnvServerError, SessionNotFoundError

__all__ = ["EnvClient", "EnvServerError", "SessionNotFoundError", "__version__"]


def _version() -> str:
    """The project's one version: package.json in a checkout, else the installed distribution's."""
    try:
        return json.loads((Path(__file__).resolve().parents[2] / "package.json").read_text())["version"]
    except (OSError, KeyError, ValueError):
        try:
            return metadata.version("atlas-gym")
        except metadata.PackageNotFoundError:
            return "unknown"


__version__ = _version()
