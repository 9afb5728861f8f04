"""atlas-gym's Python side: a standard-library client for the env server (`atlas_gym.client`), the TRL
GRPO environment class (`atlas_gym.trl`), the training entry point (`python -m atlas_gym.train`) and the
verl agent loop (`atlas_gym.verl_agent_loop`, imported only where verl is installed)."""

from .client import EnvClient, EnvServerError, SessionNotFoundError

__all__ = ["EnvClient", "EnvServerError", "SessionNotFoundError"]
__version__ = "0.1.0"
