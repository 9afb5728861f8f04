"""atlas-gym's Python side: a standard-library client for the env server (`atlas_gym.client`), the TRL
GRPO environment class (`atlas_gym.trl`) and the training entry point (`python -m atlas_gym.train`)."""

from .client import EnvClient, EnvServerError, SessionNotFoundError

__all__ = ["EnvClient", "EnvServerError", "SessionNotFoundError"]
__version__ = "0.1.0"
