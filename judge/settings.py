"""The engine's settings, read from the environment (prefix JUDGE_) or a .env file: where the
problems are and how the Docker sandbox runs. The engine's commands (`judge run`, `judge problems
...`) need nothing else, so they start without the service's settings
(``judge.service.settings``, which extends these with its own fields).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class EngineSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="JUDGE_", env_file=".env", extra="ignore")

    problems_dir: Path = ROOT / "problems"
    # None: try a registry for python:3.11-slim, fall back to the offline debootstrap base.
    sandbox_offline: bool | None = None
    # The container runtime: runc, or runsc (gVisor) for a second wall at a cost in speed.
    sandbox_runtime: str = "runc"
    # Sandbox containers each worker process keeps created, started and waiting for one
    # submission (sandbox.warm_pool); 0 creates every container when its submission arrives.
    warm_pool_size: int = 2
    # Every worker process sweeps sandbox leftovers this often, judging or idle, and takes a
    # container still created, or stopped, this long after it was for one (sandbox.janitor).
    sandbox_sweep_seconds: float = 60.0
    sandbox_abandoned_seconds: float = 60.0


@lru_cache
def engine_settings() -> EngineSettings:
    return EngineSettings()
