"""The engine's settings, read from the environment (prefix JUDGE_) or a .env file in the working
folder: where the problems are and how the Docker sandbox runs. The environment wins over the file,
and names match in any case, as for the service's settings (``service.settings``).

Plain Python on purpose: the engine's commands (`judge run`, `judge problems ...`) need nothing
else, and importing pydantic-settings alone took 110 ms, a third of `judge problems list`.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge.errors import InvalidInput
from sandbox.interface import SANDBOX_MODES

ROOT = Path(__file__).resolve().parent.parent
PREFIX = "JUDGE_"
ENV_FILE = Path(".env")
TRUE = {"1", "true", "t", "yes", "y", "on"}
FALSE = {"0", "false", "f", "no", "n", "off"}


def _path(name: str, text: str) -> Path:
    return Path(text)


def _text(name: str, text: str) -> str:
    return text


def _true_false_or_automatic(name: str, text: str) -> bool | None:
    if not text:
        return None
    if text.lower() in TRUE | FALSE:
        return text.lower() in TRUE
    raise InvalidInput(f"{name} is {text!r}: it must be true or false (or empty for automatic)",
                       param=name)


def _whole_number(name: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidInput(f"{name} is {text!r}: it must be a whole number", param=name) from None


def _sandbox_mode(name: str, text: str) -> str:
    if text.lower() in SANDBOX_MODES:
        return text.lower()
    raise InvalidInput(f"{name} is {text!r}: it must be one of {', '.join(SANDBOX_MODES)}",
                       param=name)


def _deployment(name: str, text: str) -> str:
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,39}", text):
        raise InvalidInput(f"{name} is {text[:60]!r}: 1 to 40 of a-z, 0-9, _ and -, starting with a letter "
                           "or digit", param=name)
    return text


def _number(name: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise InvalidInput(f"{name} is {text!r}: it must be a number", param=name) from None


def _reads(parse: Callable[[str, str], Any]) -> dict[str, Callable[[str, str], Any]]:
    """A field's metadata: the function that turns its variable's text into its value."""
    return {"parse": parse}


@dataclass(frozen=True)
class EngineSettings:
    problems_dir: Path = field(default=ROOT / "problems", metadata=_reads(_path))
    # None: try a registry for python:3.11-slim, fall back to the offline debootstrap base.
    sandbox_offline: bool | None = field(default=None, metadata=_reads(_true_false_or_automatic))
    # The container runtime: runc, or runsc (gVisor) for a second wall at a cost in speed.
    sandbox_runtime: str = field(default="runc", metadata=_reads(_text))
    # Sandbox containers each worker process keeps created, started and waiting for one
    # submission (sandbox.warm_pool); 0 creates every container when its submission arrives.
    warm_pool_size: int = field(default=2, metadata=_reads(_whole_number))
    # Every worker process sweeps sandbox leftovers this often, judging or idle, and takes a
    # container still created, or stopped, this long after it was for one (sandbox.janitor).
    sandbox_sweep_seconds: float = field(default=60.0, metadata=_reads(_number))
    sandbox_abandoned_seconds: float = field(default=60.0, metadata=_reads(_number))
    # slot: each container judges submission after submission, each in a fresh jail
    # (sandbox.slots), where the host allows it; container: a fresh container per submission.
    sandbox_mode: str = field(default="slot", metadata=_reads(_sandbox_mode))
    # Submissions one slot judges before a fresh container replaces it.
    slot_runs: int = field(default=100, metadata=_reads(_whole_number))
    # This judge's name on a Docker engine that others share (another deployment, a test run):
    # its sandbox containers carry it, its sweep takes only its own leftovers (and anyone's
    # expired ones), and its image builds remove only the images no other deployment claims.
    deployment: str = field(default="default", metadata=_reads(_deployment))


def engine_settings() -> EngineSettings:
    """The settings as the environment and .env say now (cheap: no cache to clear in tests)."""
    given = {**_env_file(ENV_FILE), **{k.upper(): v for k, v in os.environ.items()
                                       if k.upper().startswith(PREFIX)}}
    values = {}
    for setting in dataclasses.fields(EngineSettings):
        name = PREFIX + setting.name.upper()
        if name in given:
            values[setting.name] = setting.metadata["parse"](name, given[name].strip())
    return EngineSettings(**values)


def _env_file(path: Path) -> dict[str, str]:
    """NAME=value lines (an optional ``export``, quotes around the value, # comments), as the
    service's settings read the same file; only JUDGE_ names are kept."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (FileNotFoundError, IsADirectoryError):
        return {}
    found = {}
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        key = key.strip().upper()
        if key.startswith(PREFIX):
            found[key] = value
    return found
