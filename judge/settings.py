"""All settings, read in one place from the environment (prefix JUDGE_) or a .env file."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="JUDGE_", env_file=".env", extra="ignore")

    problems_dir: Path = ROOT / "problems"
    data_dir: Path = ROOT / "data"
    # None: try a registry for python:3.11-slim, fall back to the offline debootstrap base.
    sandbox_offline: bool | None = None


@lru_cache
def get_settings() -> Settings:
    return Settings()
