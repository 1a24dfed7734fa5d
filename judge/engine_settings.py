"""The engine's settings, read from the environment (prefix JUDGE_) or a .env file in the working
folder: where the problems are and how the Docker sandbox runs. The environment wins over the file,
and names match in any case, as for the service's settings (``service.settings``).

Plain Python on purpose: the engine's commands (`judge run`, `judge problems ...`) need nothing
else, and importing pydantic-settings alone took 110 ms, a third of `judge problems list`.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path

from judge.errors import InvalidInput

ROOT = Path(__file__).resolve().parent.parent
PREFIX = "JUDGE_"
ENV_FILE = Path(".env")
TRUE = {"1", "true", "t", "yes", "y", "on"}
FALSE = {"0", "false", "f", "no", "n", "off"}


@dataclass(frozen=True)
class EngineSettings:
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


def engine_settings() -> EngineSettings:
    """The settings as the environment and .env say now (cheap: no cache to clear in tests)."""
    given = {**_env_file(ENV_FILE), **{k.upper(): v for k, v in os.environ.items()
                                       if k.upper().startswith(PREFIX)}}
    values = {}
    for field in dataclasses.fields(EngineSettings):
        name = PREFIX + field.name.upper()
        if name in given:
            values[field.name] = _parse(name, given[name], str(field.type))
    return EngineSettings(**values)  # type: ignore[arg-type]  # each parsed to its field's type


def _parse(name: str, raw: str, kind: str) -> object:
    text = raw.strip()
    if kind == "Path":
        return Path(text)
    if kind == "str":
        return text
    if kind == "bool | None":
        if not text:
            return None
        if text.lower() in TRUE | FALSE:
            return text.lower() in TRUE
        raise InvalidInput(f"{name} is {raw!r}: it must be true or false (or empty for automatic)",
                           param=name)
    try:
        return int(text) if kind == "int" else float(text)
    except ValueError:
        raise InvalidInput(f"{name} is {raw!r}: it must be a {'whole ' if kind == 'int' else ''}"
                           f"number", param=name) from None


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
